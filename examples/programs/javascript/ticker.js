// Prints a tick every 200 ms until it is killed: a long-running process to
// attach to (`node --inspect=127.0.0.1:0 ticker.js`).

let ticks = 0;

function tick() {
  ticks += 1;
  console.log(`tick ${ticks}`);
}

setInterval(tick, 200);
