import test from "node:test";
import assert from "node:assert";

import { lineTotal, total } from "./cart.mjs";

test("total of two items", () => {
  assert.strictEqual(total([{ price: 10, qty: 2 }, { price: 1, qty: 22 }]), 42);
});

test("line total", () => {
  assert.strictEqual(lineTotal({ price: 7, qty: 6 }), 42);
});
