// Averages 1,000 sensor readings, skipping dropouts (a reading of 0).
// Bug: a dropout is still counted, so the average is taken over too many readings.
let total = 0;
let count = 0;
for (let i = 0; i < 1000; i++) {
  const reading = (i * 37) % 101;
  total += reading;
  count += 1;
}
console.log(`average ${Math.floor(total / count)} over ${count} readings`);
process.exitCode = count === 990 ? 0 : 12;
