// Splits a sum between a worker thread and a child process: each adds up its
// half of the numbers 1..100 and reports it back. Both are debugged as child
// sessions of this program's session.

const { fork } = require("child_process");
const path = require("path");
const { Worker } = require("worker_threads");

function inWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, "worker_job.js"), { workerData: [1, 50] });
    worker.on("message", resolve);
    worker.on("error", reject);
  });
}

function inChildProcess() {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, "child_job.js"), ["51", "100"]);
    child.on("message", resolve);
    child.on("error", reject);
  });
}

async function main() {
  const [low, high] = await Promise.all([inWorker(), inChildProcess()]);
  console.log(`worker: ${low}, child process: ${high}, total: ${low + high}`);
  process.exitCode = low + high === 5050 ? 0 : 1;
}

main();
