// A CommonJS module: a tally of votes per option.
//
// Known bug (on purpose): the loop in countVotes() starts at 1 and skips the
// first ballot.

const BALLOTS = ["oak", "elm", "oak", "ash", "oak", "elm"];

function countVotes(ballots) {
  const counts = new Map();
  for (let i = 1; i < ballots.length; i++) { // BUG: the first ballot is skipped
    const choice = ballots[i];
    counts.set(choice, (counts.get(choice) ?? 0) + 1);
  }
  return counts;
}

const counts = countVotes(BALLOTS);
const oak = counts.get("oak");
console.log(`oak has ${oak} votes`);
if (oak !== 3) {
  console.log("expected 3: MISMATCH");
  process.exitCode = 8;
}
