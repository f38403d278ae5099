// A program holding credentials as real ones do: a database password in an object, an
// API key in a Map, a GitHub token in an array. It prints the token in two writes, so
// that it reaches the debugger split across two output events, then throws it in an
// error's message. dapvisor hides all of them from an agent by default
// (tests/mcp_redaction_adapters.rs). The values are made up, in each service's format.

function connect(db, keys, tokens) {
  const half = Math.floor(tokens[0].length / 2);
  process.stdout.write(tokens[0].slice(0, half));
  process.stdout.write(tokens[0].slice(half) + "\n");
  const checked = db.password.length + keys.get("api_key").length;
  return checked; // stop here
}

function login(tokens) {
  throw new Error("login refused for " + tokens[0]);
}

// The values stand apart from the stop, so that the source lines a stop shows hold
// none of them.

function main() {
  const db = { host: "db.internal", user: "app", password: "s3cr3t-Db-passw0rd", port: 5432 };
  const keys = new Map([["api_key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"], ["region", "eu-west-1"]]);
  const tokens = ["ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ", "public-id-42"];
  console.log("checked", connect(db, keys, tokens));
  login(tokens);
}

main();
