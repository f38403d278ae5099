// Reads order lines "sku x qty". A malformed line throws, which readOrders()
// catches and counts as skipped, as intended.
//
// Known bug (on purpose): biggestOrder() reads `.qty` of the entry for a sku
// that was never ordered, and the TypeError ends the program (exit code 1).

const TEXT = ["tea x 3", "mug x two", "honey x 5"];

function parseLine(line) {
  const [sku, qty] = line.split(" x ");
  const n = Number(qty);
  if (!Number.isInteger(n)) {
    throw new Error(`bad quantity in "${line}"`);
  }
  return { sku, qty: n };
}

function readOrders(lines) {
  const orders = new Map();
  let skipped = 0;
  for (const line of lines) {
    try {
      const order = parseLine(line);
      orders.set(order.sku, order);
    } catch (err) {
      skipped += 1;
    }
  }
  return { orders, skipped };
}

function biggestOrder(orders, skus) {
  let best = skus[0];
  for (const sku of skus) {
    if (orders.get(sku).qty > orders.get(best).qty) { // BUG: "mug" was skipped
      best = sku;
    }
  }
  return best;
}

const { orders, skipped } = readOrders(TEXT);
console.log(`read ${orders.size} orders, skipped ${skipped}`);
console.log(`biggest: ${biggestOrder(orders, ["tea", "mug", "honey"])}`);
