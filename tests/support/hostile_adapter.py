#!/usr/bin/env python3
"""A debug adapter that misbehaves on purpose, for dapvisor's fault tests (tests/hostile*.rs).

It speaks DAP over stdin and stdout with Content-Length framing. With no flags it is a
small, well-behaved fake: `launch` is answered and followed by `initialized`; every
breakpoint is verified; after `configurationDone` the fake program stops at the first
breakpoint (thread 1, reason `breakpoint`) or, with none set, exits 0. Its one frame
has the locals qty = 3 and price = 7, which `evaluate` looks up by name. `continue`
ends the program (exit code 0); `disconnect` is answered and the adapter exits 0.

Faults, one per `--fault` flag (the flag may be repeated). CMD is a DAP command name;
`start` means at start-up, before any request is read.

  exit-at-start            write a message on stderr and exit with code 3
  crash-on=CMD[:HOW]       die on request CMD, after a line on stderr. HOW is an exit
                           code (default 1), `sigkill` or `sigsegv` (sent to itself)
  hang-on=CMD              never answer CMD; keep reading and answering the others
  garbage-on=CMD|start     write 12 KiB of non-DAP bytes without a newline, in place
                           of CMD's response or at start-up
  oversized-on=CMD|start   write a header declaring 16 MiB + 1 bytes, then answer nothing
  invalid-json-on=CMD      answer CMD with a well-framed body that is not JSON
  wrong-seq-on=CMD         answer CMD with its request_seq off by 1000
  no-body-on=CMD           answer CMD without a body
  no-seq-on=CMD            answer CMD without a seq
  flood=N                  after answering configurationDone, send N output events
  detached-child           on `launch`, start a "debuggee" that leaves the adapter's
                           process group and session (setsid), ignores SIGHUP, SIGINT,
                           SIGTERM and SIGPIPE, and sleeps forever; report it in a
                           `process` event and on stderr. Its command line ends with
                           `hostile-detached-debuggee`. Only SIGKILL ends it.
  orphan-on=CMD            on request CMD, start such a detached debuggee and die by
                           SIGKILL at once: nothing the adapter said names the child,
                           and it is re-parented to init before anyone could see it
                           under the adapter
  mark=TEXT                end the detached debuggees' command lines with TEXT instead

Example: python3 hostile_adapter.py --fault crash-on=evaluate:sigkill
"""

import argparse
import json
import os
import resource
import signal
import subprocess
import sys

OVERSIZED_LENGTH = 16 * 1024 * 1024 + 1
GARBAGE = (b"\x00\xff\xfe not DAP \x1b[31m\x07" * 700)[: 12 * 1024]
LOCALS = {"qty": "3", "price": "7"}
DETACHED_MARK = "hostile-detached-debuggee"
DETACHED_BODY = (
    "import signal, time\n"
    "for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "while True:\n"
    "    time.sleep(3600)\n"
)

stdin = sys.stdin.buffer
stdout = sys.stdout.buffer


def log(text):
    sys.stderr.write("hostile adapter: " + text + "\n")
    sys.stderr.flush()


# ---- faults ----------------------------------------------------------------------


class Faults:
    """The faults asked for on the command line."""

    def __init__(self, specs):
        self.exit_at_start = False
        self.at_start = []  # kinds to act on before reading anything
        self.on = {}  # command -> (kind, argument)
        self.flood = 0
        self.detached_child = False
        self.mark = DETACHED_MARK
        for spec in specs:
            kind, _, where = spec.partition("=")
            if kind == "mark":
                self.mark = where
            elif kind == "exit-at-start":
                self.exit_at_start = True
            elif kind == "detached-child":
                self.detached_child = True
            elif kind == "flood":
                self.flood = int(where)
            elif where == "start" and kind in ("garbage-on", "oversized-on"):
                self.at_start.append(kind)
            elif where:
                command, _, argument = where.partition(":")
                self.on[command] = (kind, argument)
            else:
                sys.exit("hostile adapter: unknown fault " + repr(spec))

    def for_command(self, command):
        return self.on.get(command, (None, ""))


def crash(command, how):
    log("crashing on `%s` (%s) as asked" % (command, how or "exit 1"))
    if how == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if how == "sigsegv":
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file left behind
        os.kill(os.getpid(), signal.SIGSEGV)
    os._exit(int(how or 1))


def go_silent():
    """Answer nothing more; read until the client closes our input."""
    while stdin.read(4096):
        pass
    sys.exit(0)


# ---- framing -----------------------------------------------------------------------


def read_message():
    """The next message from the client, or None at the end of input."""
    length = None
    while True:
        line = stdin.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(stdin.read(length))


def write_frame(body, flush=True):
    stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    if flush:
        stdout.flush()


class Channel:
    """Numbers outgoing messages and applies response faults."""

    def __init__(self, faults):
        self.faults = faults
        self.seq = 0

    def send(self, message, flush=True):
        self.seq += 1
        message = dict(message, seq=self.seq)
        write_frame(json.dumps(message).encode(), flush)

    def event(self, name, body=None, flush=True):
        self.send({"type": "event", "event": name, "body": body or {}}, flush)

    def respond(self, request, body=None, error=None):
        command = request["command"]
        response = {
            "type": "response",
            "request_seq": request["seq"],
            "command": command,
            "success": error is None,
            "body": body or {},
        }
        if error is not None:
            response["message"] = error
        kind, _ = self.faults.for_command(command)
        if kind == "garbage-on":
            stdout.write(GARBAGE)
            stdout.flush()
        elif kind == "oversized-on":
            stdout.write(b"Content-Length: %d\r\n\r\n" % OVERSIZED_LENGTH)
            stdout.flush()
            go_silent()
        elif kind == "invalid-json-on":
            write_frame(b'{"type": "response", "command": "%s", this is not JSON' % command.encode())
        elif kind == "no-seq-on":
            write_frame(json.dumps(response).encode())
        else:
            if kind == "wrong-seq-on":
                response["request_seq"] += 1000
            elif kind == "no-body-on":
                del response["body"]
            self.send(response)


# ---- the well-behaved fake ---------------------------------------------------------


def start_detached_child(mark):
    """A debuggee in a session of its own, which nothing but SIGKILL ends."""
    # start_new_session: setsid() in the child before it runs, so it has left our
    # group by the time Popen returns. No pipe of ours is kept open by it.
    child = subprocess.Popen(
        [sys.executable, "-c", DETACHED_BODY, mark],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    log("started a detached debuggee, pid %d" % child.pid)
    return child.pid


class Adapter:
    def __init__(self, channel, faults):
        self.out = channel
        self.flood = faults.flood
        self.detached_child = faults.detached_child
        self.mark = faults.mark
        self.breakpoint = None  # (path, line) of the first breakpoint set

    def handle(self, request):
        """Serve one request; False once the adapter should exit."""
        command = request["command"]
        args = request.get("arguments") or {}
        out = self.out
        if command == "initialize":
            out.respond(request, {"supportsConfigurationDoneRequest": True})
        elif command == "launch":
            pid = start_detached_child(self.mark) if self.detached_child else None
            out.respond(request)
            if pid is not None:
                out.event("process", {"name": self.mark, "systemProcessId": pid, "startMethod": "launch"})
            out.event("initialized")
        elif command == "setBreakpoints":
            lines = [b["line"] for b in args.get("breakpoints", [])]
            if lines and self.breakpoint is None:
                self.breakpoint = (args["source"]["path"], lines[0])
            verified = [{"id": i + 1, "verified": True, "line": n} for i, n in enumerate(lines)]
            out.respond(request, {"breakpoints": verified})
        elif command == "configurationDone":
            out.respond(request)
            for i in range(self.flood):
                out.event("output", {"category": "stdout", "output": "flood line %d\n" % i}, flush=False)
            if self.breakpoint is not None:
                out.event("stopped", {"reason": "breakpoint", "threadId": 1, "allThreadsStopped": True})
            else:
                self.end_program(0)
        elif command == "threads":
            out.respond(request, {"threads": [{"id": 1, "name": "main"}]})
        elif command == "stackTrace":
            path, line = self.breakpoint or ("", 1)
            frame = {"id": 1, "name": "main", "line": line, "column": 1, "source": {"path": path}}
            out.respond(request, {"stackFrames": [frame], "totalFrames": 1})
        elif command == "scopes":
            scope = {"name": "Locals", "variablesReference": 1, "expensive": False}
            out.respond(request, {"scopes": [scope]})
        elif command == "variables":
            variables = [{"name": k, "value": v, "variablesReference": 0} for k, v in LOCALS.items()]
            out.respond(request, {"variables": variables})
        elif command == "evaluate":
            name = args.get("expression", "")
            if name in LOCALS:
                out.respond(request, {"result": LOCALS[name], "variablesReference": 0})
            else:
                out.respond(request, error="name %r is not defined" % name)
        elif command == "continue":
            out.respond(request, {"allThreadsContinued": True})
            self.end_program(0)
        elif command == "disconnect":
            out.respond(request)
            return False
        else:
            out.respond(request)
        return True

    def end_program(self, code):
        self.out.event("exited", {"exitCode": code})
        self.out.event("terminated")


def main():
    parser = argparse.ArgumentParser(description="A DAP adapter that misbehaves on purpose.")
    parser.add_argument("--fault", action="append", default=[], help="see the module docstring")
    faults = Faults(parser.parse_args().fault)

    if faults.exit_at_start:
        log("refusing to start, as asked (exit code 3)")
        sys.exit(3)
    if "garbage-on" in faults.at_start:
        stdout.write(GARBAGE)
        stdout.flush()
    if "oversized-on" in faults.at_start:
        stdout.write(b"Content-Length: %d\r\n\r\n" % OVERSIZED_LENGTH)
        stdout.flush()
        go_silent()

    adapter = Adapter(Channel(faults), faults)
    while True:
        request = read_message()
        if request is None:
            return 0
        kind, argument = faults.for_command(request["command"])
        if kind == "crash-on":
            crash(request["command"], argument)
        if kind == "orphan-on":
            start_detached_child(faults.mark)
            crash(request["command"], "sigkill")
        if kind == "hang-on":
            continue
        if not adapter.handle(request):
            return 0


if __name__ == "__main__":
    sys.exit(main())
