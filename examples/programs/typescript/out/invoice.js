"use strict";
// An invoice total in integer cents, in TypeScript: compiled to out/invoice.js
// with a source map (see tsconfig.json), and debugged through the map.
//
// Known bug (on purpose): bulkPercent() gives the bulk discount only above
// 10 units, where the price list says from 10 units on.
const LINES = [
    { sku: "pen", qty: 10, unitCents: 120 },
    { sku: "pad", qty: 2, unitCents: 450 },
];
function bulkPercent(qty) {
    const percent = qty > 10 ? 10 : 0; // BUG: should be qty >= 10
    return percent;
}
function lineCents(line) {
    const gross = line.qty * line.unitCents;
    const discount = Math.floor((gross * bulkPercent(line.qty)) / 100);
    return gross - discount;
}
function invoiceTotal(lines) {
    let total = 0;
    for (const line of lines) {
        total += lineCents(line);
    }
    return total;
}
const expected = 1980;
const total = invoiceTotal(LINES);
console.log(`invoice total: ${total}`);
if (total !== expected) {
    console.log(`expected ${expected}: MISMATCH`);
    process.exitCode = 9;
}
//# sourceMappingURL=invoice.js.map