// The child process of workers.js: adds up its range and sends the sum.

function sumRange(from, to) {
  let sum = 0;
  for (let n = from; n <= to; n++) {
    sum += n;
  }
  return sum;
}

const [from, to] = process.argv.slice(2).map(Number);
const partial = sumRange(from, to);
process.send(partial, () => process.exit(0));
