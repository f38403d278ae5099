// The worker thread of workers.js: adds up its range and posts the sum.

const { parentPort, workerData } = require("worker_threads");

function sumRange(from, to) {
  let sum = 0;
  for (let n = from; n <= to; n++) {
    sum += n;
  }
  return sum;
}

const [from, to] = workerData;
const partial = sumRange(from, to);
parentPort.postMessage(partial);
