"""A minimal DAP client over a child's stdio, for the Python benches (standard library only):
Content-Length framing, one request at a time, events kept until asked for.

Used by benches/debugpy_delay.py, benches/stack_levels.py and benches/bughunt/direct.py, so
that each measures the adapter through the same few lines.
"""

import json
import subprocess

DISCONNECT = {"terminateDebuggee": True}


class Dap:
    """One adapter process spoken to over its stdin and stdout.

    `argv` starts it (with `env`, else this process's environment; its stderr goes to
    `stderr`, else to this process's). A closed output or a failed response raises `error`
    with a message saying which: `SystemExit` by default, so a bench stops with the reason.
    """

    def __init__(self, argv, env=None, stderr=None, error=SystemExit):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env
        )
        self.error = error
        self.seq = 0
        self.events = []
        # Requests sent so far, `disconnect` included.
        self.requests = 0

    def send(self, command, arguments=None):
        """Send a request; its seq, to wait for its response with."""
        self.seq += 1
        message = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        self.requests += 1
        return self.seq

    def read(self):
        """The next message, whatever it is."""
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise self.error("the adapter closed its output")
            line = line.strip()
            if not line:
                # A blank line ends the header; blank lines before one are skipped.
                if length is not None:
                    break
                continue
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def response(self, seq):
        """The body of the response to request `seq` (events read meanwhile are kept)."""
        while True:
            message = self.read()
            if message["type"] == "response" and message["request_seq"] == seq:
                if not message["success"]:
                    raise self.error(f"{message['command']} failed: {message.get('message')}")
                return message.get("body") or {}
            if message["type"] == "event":
                self.events.append(message)

    def request(self, command, arguments=None):
        """Send a request and wait for its response's body."""
        return self.response(self.send(command, arguments))

    def event(self, name):
        """The first event called `name`: one kept already, else the next to arrive."""
        for i, message in enumerate(self.events):
            if message["event"] == name:
                return self.events.pop(i)
        while True:
            message = self.read()
            if message["type"] == "event":
                if message["event"] == name:
                    return message
                self.events.append(message)

    def output(self):
        """The program's stdout and stderr from the `output` events kept."""
        return "".join(
            e["body"]["output"]
            for e in self.events
            if e["event"] == "output" and e["body"].get("category") in ("stdout", "stderr")
        )

    def close(self, answered=False):
        """Send `disconnect` (ending the debuggee; its answer awaited when `answered`), then
        close the adapter's input and wait up to 10 s for it to exit, killing it after."""
        try:
            if answered:
                self.request("disconnect", DISCONNECT)
            else:
                try:
                    self.send("disconnect", DISCONNECT)
                except OSError:
                    pass  # the adapter is gone already
        finally:
            end_process(self.proc)


def end_process(proc, wait=10):
    """Close a child's stdin (its cue to end), wait up to `wait` seconds, then kill it."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
