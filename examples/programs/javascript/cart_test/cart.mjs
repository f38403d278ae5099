// A shopping cart whose total is one short: the bug cart.test.mjs finds.

export function lineTotal(item) {
  const subtotal = item.price * item.qty;
  return subtotal;
}

export function total(items) {
  let amount = 0;
  items.forEach((item, i) => {
    // The bug: the last item's quantity is counted one short.
    const qty = i === items.length - 1 ? item.qty - 1 : item.qty;
    amount += lineTotal({ price: item.price, qty });
  });
  return amount;
}
