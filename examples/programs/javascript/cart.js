// A shopping cart's total in integer cents: each line is its quantity times its
// unit price less the line's sale percent, and the cart pays one delivery charge.
//
// Known bug (on purpose): cartTotal() adds the delivery charge once per line
// instead of once per cart.

const LINES = [
  { sku: "tea", qty: 3, unitCents: 450, salePercent: 0 },
  { sku: "mug", qty: 2, unitCents: 1200, salePercent: 25 },
  { sku: "honey", qty: 1, unitCents: 899, salePercent: 0 },
];
const DELIVERY_CENTS = 499;

function salePrice(unitCents, salePercent) {
  const off = Math.floor((unitCents * salePercent) / 100);
  return unitCents - off;
}

function lineCents(line) {
  const unit = salePrice(line.unitCents, line.salePercent);
  return line.qty * unit;
}

function cartTotal(lines) {
  let total = 0;
  for (const line of lines) {
    const cents = lineCents(line);
    total += cents + DELIVERY_CENTS; // BUG: the delivery charge once per line
  }
  return total;
}

function main() {
  const expected = 4548;
  const total = cartTotal(LINES);
  console.log(`cart total: ${(total / 100).toFixed(2)}`);
  if (total !== expected) {
    console.log(`expected ${(expected / 100).toFixed(2)}: MISMATCH`);
    process.exitCode = 6;
  }
}

main();
