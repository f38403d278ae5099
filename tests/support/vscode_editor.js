// A person's VS Code on a session dapvisor exposes (`debug.expose`), through VS Code's own
// DAP test client (@vscode/debugadapter-testsupport, installed by scripts/provision into
// .node-test). Usage: node vscode_editor.js PORT TOKEN watch|drive|crowded
// Prints one JSON object saying what the editor saw; exits non-zero on anything unexpected.
// `crowded` (an endpoint taking one editor): a second VS Code is turned away; then it
// prints `ready`, and the JSON once the test has ended the session under the first.
'use strict';
const { DebugClient } = require('@vscode/debugadapter-testsupport');

async function refusal(promise) {
  try {
    await promise;
  } catch (e) {
    return e.message;
  }
  throw new Error('the request was not refused');
}

// The step under way: said if the client is left waiting on an answer that never
// comes (node then runs out of work and would exit 0 saying nothing).
let step = 'starting';
process.on('beforeExit', () => {
  process.stderr.write(`vscode_editor.js: no answer while ${step}\n`);
  process.exit(2);
});

// The text of an `output` event's body, without dapvisor's line end.
const said = (event) => event.body.output.trim();

// One VS Code holds the only place; a second is turned away, told why; the first is
// told when the session ends.
async function crowded(port, token) {
  const seen = {};
  const holder = new DebugClient('node', 'unused', 'dapvisor');
  step = 'connecting the holder';
  await holder.start(Number(port));
  step = 'initializing the holder';
  await holder.initializeRequest();
  const initialized = holder.waitForEvent('initialized');
  step = 'attaching the holder';
  await holder.attachRequest({ token });
  await initialized;

  const late = new DebugClient('node', 'unused', 'dapvisor');
  // Waited for before connecting: the endpoint says why as soon as it accepts.
  const output = late.waitForEvent('output');
  const terminated = late.waitForEvent('terminated');
  step = 'connecting past the cap';
  await late.start(Number(port));
  step = 'initializing past the cap';
  seen.initialize_refused = await refusal(late.initializeRequest());
  step = 'waiting for why';
  seen.turned_away = said(await output);
  step = 'waiting for the turned-away terminated';
  await terminated;
  seen.turned_away_terminated = true;

  // The test ends the session now: the holder hears why, and `terminated`.
  const goodbye = [];
  holder.on('output', (event) => goodbye.push(said(event)));
  const ended = holder.waitForEvent('terminated');
  step = 'waiting for the session to end';
  process.stdout.write('ready\n');
  await ended;
  seen.holder_told = goodbye;
  holder.stopAdapter();
  late.stopAdapter();
  return seen;
}

async function main() {
  const [port, token, mode] = process.argv.slice(2);
  if (mode === 'crowded') {
    return crowded(port, token);
  }
  const seen = {};

  // Someone without the token is turned away.
  const intruder = new DebugClient('node', 'unused', 'dapvisor');
  step = 'connecting the intruder';
  await intruder.start(Number(port));
  step = 'initializing the intruder';
  await intruder.initializeRequest();
  step = 'attaching with a wrong token';
  seen.wrong_token = await refusal(intruder.attachRequest({ token: 'f'.repeat(64) }));

  const dc = new DebugClient('node', 'unused', 'dapvisor');
  step = 'connecting';
  await dc.start(Number(port));
  step = 'initialize';
  const init = await dc.initializeRequest({
    adapterID: 'dapvisor', clientID: 'vscode', linesStartAt1: true, columnsStartAt1: true,
    pathFormat: 'path',
  });
  seen.capabilities = init.body;
  const initialized = dc.waitForEvent('initialized');
  const firstStop = dc.waitForEvent('stopped');
  step = 'attach';
  await dc.attachRequest({ token });
  step = 'waiting for initialized';
  await initialized;
  step = 'configurationDone';
  await dc.configurationDoneRequest();
  step = 'waiting for the current stop';
  const stopped = await firstStop;
  const threadId = stopped.body.threadId;
  seen.stopped = stopped.body;
  step = 'threads';
  seen.threads = (await dc.threadsRequest()).body.threads;
  step = 'stackTrace';
  const frames = (await dc.stackTraceRequest({ threadId })).body.stackFrames;
  seen.top = { name: frames[0].name, line: frames[0].line, path: frames[0].source.path };
  step = 'scopes';
  const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
  step = 'variables';
  const variables = await dc.variablesRequest({ variablesReference: scopes[0].variablesReference });
  seen.locals = Object.fromEntries(variables.body.variables.map((v) => [v.name, v.value]));

  if (mode === 'watch') {
    step = 'continue';
    seen.continue_refused = await refusal(dc.continueRequest({ threadId }));
  } else {
    const next = dc.waitForEvent('stopped');
    step = 'next';
    await dc.nextRequest({ threadId });
    step = 'waiting for the stop after next';
    seen.after_next = (await next).body;
    step = 'stackTrace after next';
    const moved = (await dc.stackTraceRequest({ threadId })).body.stackFrames[0];
    seen.after_next.line = moved.line;
  }
  // VS Code's stop: `disconnect`, which ends this editor's connection only. (The
  // intruder's connection was closed by the endpoint.)
  step = 'disconnect';
  await dc.stop();
  return seen;
}

main().then(
  // Exits once the line is written: stdout to a pipe is written asynchronously.
  (seen) => process.stdout.write(JSON.stringify(seen) + '\n', () => process.exit(0)),
  (e) => {
    process.stderr.write(`vscode_editor.js: ${e.stack || e}\n`);
    process.exit(1);
  },
);
