// An ES module: a receipt's VAT at 20%, in integer cents.
//
// Known bug (on purpose): vatOf() rounds the tax of every line, and the
// roundings add up to one cent more than the tax of the whole receipt.

const ITEMS = [
  { name: "stamp", cents: 133 },
  { name: "card", cents: 233 },
  { name: "pen", cents: 333 },
];

export function vatOf(cents) {
  const vat = Math.round(cents * 0.2);
  return vat;
}

export function receiptVat(items) {
  let vat = 0;
  for (const item of items) {
    vat += vatOf(item.cents); // BUG: rounded per line
  }
  return vat;
}

const net = ITEMS.reduce((sum, item) => sum + item.cents, 0);
const expected = Math.round(net * 0.2);
const vat = receiptVat(ITEMS);
console.log(`vat on ${net} cents: ${vat}`);
if (vat !== expected) {
  console.log(`expected ${expected}: MISMATCH`);
  process.exitCode = 7;
}
