// A person's VS Code on a session dapvisor exposes (`debug.expose`), through VS Code's own
// DAP test client (@vscode/debugadapter-testsupport, installed by scripts/provision into
// .node-test). Usage: node vscode_editor.js PORT TOKEN watch|drive
// Prints one JSON object saying what the editor saw; exits non-zero on anything unexpected.
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

async function main() {
  const [port, token, mode] = process.argv.slice(2);
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
