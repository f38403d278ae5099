#!/usr/bin/env python3
"""The bughunt scenario, timed side by side through three clients of the same debugpy.

The scenario: launch inventory.py under debugpy with a breakpoint on its BREAK line, then
stop, read the stack, read the locals, evaluate, continue, stop again, evaluate, clear the
breakpoints, continue to the exit, read the output. Each client runs it whole, from
spawning its process to holding the program's output; ending the client afterwards is
not timed. Runs are interleaved (one of each client per round, the order rotating), and
every run checks what it read (the first stop's qty is -70, the second's total -70, the
output ends with "total to order: -42"), so a fast wrong answer cannot count.

Clients:
  direct        a minimal DAP client: `python -m debugpy.adapter` on stdio, Content-Length
                framing, the requests by hand; done once `exited` arrives.
  dapvisor      `dapvisor mcp` over MCP stdio (the release binary), its debug_* tools.
  mcp-debugger  @debugmcp/mcp-debugger 0.24.2 over MCP stdio under Debian's node,
                installed into --deps when missing. Its continue_execution does not wait
                for the stop, and it has no tool that waits: the script polls
                list_debug_sessions back to back until the session is paused or gone,
                the fastest a client can learn of the stop (start_debugging itself
                waits for the first stop).

Usage (from the repository root):
  cargo build --release --bin dapvisor
  python3 benches/bughunt/bughunt.py --runs 7

Standard library only. Not part of `cargo test` or CI.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAM = HERE / "inventory.py"
MCP_DEBUGGER_VERSION = "0.24.2"
# How long any one answer may take before the run is called failed (seconds).
ANSWER_DEADLINE = 60.0
# How many list_debug_sessions polls one wait of mcp-debugger may make.
MAX_POLLS = 20000


def break_line():
    for number, text in enumerate(PROGRAM.read_text().splitlines(), start=1):
        if text.rstrip().endswith("# BREAK"):
            return number
    raise SystemExit(f"{PROGRAM} has no line marked '# BREAK'")


class Fail(Exception):
    """A run that did not see what the scenario must see."""


def expect(condition, what):
    if not condition:
        raise Fail(what)


class Timings:
    """Per-step durations of one run, in order."""

    def __init__(self):
        self.steps = []

    def add(self, name, seconds):
        self.steps.append((name, seconds))


# ---------------------------------------------------------------------------------------
# The direct DAP client


class Dap:
    """Content-Length framed DAP over a child's stdio, one request at a time."""

    def __init__(self, argv, env):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.seq = 0
        self.events = []
        self.requests = 0

    def send(self, command, arguments=None):
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
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise Fail("the adapter closed its output")
            line = line.strip()
            if not line:
                if length is not None:
                    break
                continue
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def response(self, seq):
        while True:
            message = self.read()
            if message["type"] == "response" and message["request_seq"] == seq:
                expect(message["success"], f"{message['command']} failed: {message.get('message')}")
                return message.get("body") or {}
            if message["type"] == "event":
                self.events.append(message)

    def request(self, command, arguments=None):
        return self.response(self.send(command, arguments))

    def event(self, name):
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
        return "".join(
            e["body"]["output"]
            for e in self.events
            if e["event"] == "output" and e["body"].get("category") in ("stdout", "stderr")
        )

    def close(self):
        try:
            self.send("disconnect", {"terminateDebuggee": True})
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def run_direct(args, line, timings):
    env = dict(os.environ)
    start = time.perf_counter()
    dap = Dap([args.python, "-m", "debugpy.adapter"], env)
    try:
        mark = time.perf_counter()
        dap.request(
            "initialize",
            {"clientID": "bughunt", "adapterID": "python", "linesStartAt1": True,
             "columnsStartAt1": True, "pathFormat": "path"},
        )
        launch = dap.send(
            "launch",
            {"type": "python", "request": "launch", "program": str(PROGRAM),
             "cwd": str(HERE), "console": "internalConsole", "justMyCode": False,
             "redirectOutput": True, "breakOnSystemExit": []},
        )
        dap.event("initialized")
        dap.request("setBreakpoints", {"source": {"path": str(PROGRAM)}, "breakpoints": [{"line": line}]})
        dap.request("setExceptionBreakpoints", {"filters": ["uncaught"]})
        dap.request("configurationDone")
        dap.response(launch)
        stop = dap.event("stopped")["body"]
        timings.add("launch to the first stop", time.perf_counter() - mark)
        after_first_stop = dap.requests
        thread = stop["threadId"]

        mark = time.perf_counter()
        frames = dap.request("stackTrace", {"threadId": thread, "levels": 20})["stackFrames"]
        timings.add("stack", time.perf_counter() - mark)
        frame = frames[0]["id"]
        expect(frames[0]["line"] == line, f"first stop at line {frames[0]['line']}")

        mark = time.perf_counter()
        scopes = dap.request("scopes", {"frameId": frame})["scopes"]
        local = dap.request("variables", {"variablesReference": scopes[0]["variablesReference"]})
        timings.add("locals", time.perf_counter() - mark)
        values = {v["name"]: v["value"] for v in local["variables"]}
        expect(values.get("qty") == "-70", f"first stop's qty is {values.get('qty')}")

        mark = time.perf_counter()
        value = dap.request("evaluate", {"expression": "minimum - on_hand", "frameId": frame, "context": "repl"})
        timings.add("evaluate", time.perf_counter() - mark)
        expect(value["result"] == "-70", f"evaluate gave {value['result']}")

        mark = time.perf_counter()
        dap.request("continue", {"threadId": thread})
        stop = dap.event("stopped")["body"]
        timings.add("continue to the next stop", time.perf_counter() - mark)

        mark = time.perf_counter()
        frames = dap.request("stackTrace", {"threadId": stop["threadId"], "levels": 1})["stackFrames"]
        value = dap.request("evaluate", {"expression": "total", "frameId": frames[0]["id"], "context": "repl"})
        timings.add("evaluate (stack first)", time.perf_counter() - mark)
        expect(value["result"] == "-70", f"second evaluate gave {value['result']}")

        mark = time.perf_counter()
        dap.request("setBreakpoints", {"source": {"path": str(PROGRAM)}, "breakpoints": []})
        timings.add("clear breakpoints", time.perf_counter() - mark)

        mark = time.perf_counter()
        dap.request("continue", {"threadId": stop["threadId"]})
        exit_code = dap.event("exited")["body"]["exitCode"]
        timings.add("continue to the end", time.perf_counter() - mark)
        expect(exit_code == 0, f"exit code {exit_code}")

        output = dap.output()
        expect(output.rstrip().endswith("total to order: -42"), f"output was {output!r}")
        whole = time.perf_counter() - start
        return whole, {"requests_after_first_stop": dap.requests - after_first_stop}
    finally:
        dap.close()


# ---------------------------------------------------------------------------------------
# MCP over stdio (newline-delimited JSON-RPC), for dapvisor and mcp-debugger


class Mcp:
    def __init__(self, argv, env, cwd=None, stderr=subprocess.DEVNULL):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=cwd
        )
        self.id = 0

    def rpc(self, method, params):
        self.id += 1
        message = {"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise Fail(f"the MCP server closed its output during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.id and "method" not in reply:
                if "error" in reply:
                    raise Fail(f"{method}: {reply['error']}")
                return reply["result"]

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()

    def start(self):
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bughunt", "version": "1"}})
        self.notify("notifications/initialized")

    def call(self, name, arguments, timings=None, label=None):
        mark = time.perf_counter()
        result = self.rpc("tools/call", {"name": name, "arguments": arguments})
        if timings is not None:
            timings.add(label or name, time.perf_counter() - mark)
        if result.get("isError"):
            raise Fail(f"{name}: {result}")
        if result.get("structuredContent") is not None:
            return result["structuredContent"]
        text = "".join(c.get("text", "") for c in result.get("content", []))
        try:
            return json.loads(text)
        except ValueError:
            return {"text": text}

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def run_dapvisor(args, line, timings, binary=None, warm=False):
    env = dict(os.environ, DAPVISOR_PYTHON=args.python)
    level = env.pop("DAPVISOR_LOG", None) or "debug"
    if args.dapvisor_log:
        env["DAPVISOR_LOG"] = level
    start = time.perf_counter()
    stderr = open(args.dapvisor_log, "a") if args.dapvisor_log else subprocess.DEVNULL
    argv = [binary or args.dapvisor, "mcp", "--permission-mode", "bypass_all"]
    mcp = Mcp(argv, env, stderr=stderr)
    try:
        mcp.start()
        if warm:
            # An earlier session in the same server, untimed: what a server that has
            # launched before (an agent's second hunt) does differently.
            first = mcp.call("debug_launch", {"program": str(PROGRAM),
                                              "breakpoints": [{"file": str(PROGRAM), "line": line}]})
            mcp.call("debug_terminate", {"session_id": first["session_id"]})
            start = time.perf_counter()
        launched = mcp.call(
            "debug_launch",
            {"program": str(PROGRAM), "breakpoints": [{"file": str(PROGRAM), "line": line}]},
            timings, "launch to the first stop",
        )
        expect(launched.get("state") == "stopped", f"launch answered {launched}")
        sid = launched["session_id"]
        frames = mcp.call("debug_stack_trace", {"session_id": sid}, timings, "stack")
        expect(frames["frames"][0]["line"] == line, f"stack {frames}")
        local = mcp.call("debug_variables", {"session_id": sid, "scope": "Locals"}, timings, "locals")
        values = {v["name"]: v["value"] for v in local["variables"]}
        expect(values.get("qty") == "-70", f"first stop's qty is {values.get('qty')}")
        value = mcp.call("debug_evaluate", {"session_id": sid, "expression": "minimum - on_hand"},
                         timings, "evaluate")
        expect(value["result"] == "-70", f"evaluate gave {value}")
        stop = mcp.call("debug_continue", {"session_id": sid}, timings, "continue to the next stop")
        expect(stop.get("state") == "stopped", f"continue answered {stop}")
        value = mcp.call("debug_evaluate", {"session_id": sid, "expression": "total"},
                         timings, "evaluate (stack first)")
        expect(value["result"] == "-70", f"second evaluate gave {value}")
        mcp.call("debug_remove_breakpoint", {"session_id": sid, "file": str(PROGRAM), "line": line},
                 timings, "clear breakpoints")
        end = mcp.call("debug_continue", {"session_id": sid}, timings, "continue to the end")
        expect(end.get("state") == "terminated" and end.get("exit_code") == 0, f"end {end}")
        output = mcp.call("debug_output", {"session_id": sid}, timings, "output")
        text = output.get("output", "")
        expect("total to order: -42" in text, f"output was {output}")
        whole = time.perf_counter() - start
        counts = {}
        if args.counts:
            listed = mcp.call("debug_sessions", {})
            for s in listed.get("sessions", []):
                if s.get("session_id") == sid:
                    counts = {k: s.get(k) for k in ("requests_sent", "events_received")}
        return whole, counts
    finally:
        mcp.close()


def mcp_debugger_cli(args):
    cli = Path(args.deps) / "node_modules/@debugmcp/mcp-debugger/dist/cli.mjs"
    if not cli.exists():
        Path(args.deps).mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", args.deps,
             f"@debugmcp/mcp-debugger@{MCP_DEBUGGER_VERSION}"],
            check=True,
        )
    return cli


def mcp_debugger_session(mcp, sid):
    listed = mcp.call("list_debug_sessions", {})
    return next((s for s in listed.get("sessions", []) if s.get("id") == sid), None)


def wait_mcp_debugger(mcp, sid, want, previous_stop=None):
    """Poll list_debug_sessions back to back until `sid` is paused at a stop other than
    `previous_stop` (want "paused"), or has ended with an exit code or is gone (want
    "ended"). Returns (polls, the stop's timestamp)."""
    session = None
    for polls in range(1, MAX_POLLS + 1):
        session = mcp_debugger_session(mcp, sid)
        if want == "ended" and (session is None or "exitCode" in session):
            return polls, None
        if want == "paused" and session and session.get("state") == "paused":
            stop = (session.get("lastStop") or {}).get("timestamp")
            if stop is not None and stop != previous_stop:
                return polls, stop
    raise Fail(f"mcp-debugger never reported {want}; last {session}")


def run_mcp_debugger(args, line, timings):
    cli = mcp_debugger_cli(args)
    start = time.perf_counter()
    mcp = Mcp(["node", str(cli), "stdio"], dict(os.environ), cwd=str(HERE))
    polls = 0
    try:
        mcp.start()
        mark = time.perf_counter()
        created = mcp.call("create_debug_session", {"language": "python", "executablePath": args.python})
        sid = created["sessionId"]
        mcp.call("set_breakpoint", {"sessionId": sid, "file": str(PROGRAM), "line": line})
        started = mcp.call("start_debugging", {"sessionId": sid, "scriptPath": str(PROGRAM)})
        expect(started.get("state") == "paused", f"start_debugging answered {started}")
        stop = (mcp_debugger_session(mcp, sid).get("lastStop") or {}).get("timestamp")
        timings.add("launch to the first stop", time.perf_counter() - mark)
        mcp.call("get_stack_trace", {"sessionId": sid}, timings, "stack")
        local = mcp.call("get_local_variables", {"sessionId": sid}, timings, "locals")
        values = {v["name"]: v["value"] for v in local.get("variables", [])}
        expect(values.get("qty") == "-70", f"first stop's locals {local}")
        value = mcp.call("evaluate_expression", {"sessionId": sid, "expression": "minimum - on_hand"},
                         timings, "evaluate")
        expect(str(value.get("result")) == "-70", f"evaluate gave {value}")
        mark = time.perf_counter()
        mcp.call("continue_execution", {"sessionId": sid})
        waited, stop = wait_mcp_debugger(mcp, sid, "paused", stop)
        polls += waited
        timings.add("continue to the next stop", time.perf_counter() - mark)
        value = mcp.call("evaluate_expression", {"sessionId": sid, "expression": "total"},
                         timings, "evaluate (stack first)")
        expect(str(value.get("result")) == "-70", f"second evaluate gave {value}")
        mcp.call("clear_breakpoints", {"sessionId": sid}, timings, "clear breakpoints")
        mark = time.perf_counter()
        mcp.call("continue_execution", {"sessionId": sid})
        polls += wait_mcp_debugger(mcp, sid, "ended")[0]
        timings.add("continue to the end", time.perf_counter() - mark)
        output = mcp.call("get_output", {"sessionId": sid}, timings, "output")
        text = json.dumps(output)
        expect("total to order: -42" in text, f"output was {output}")
        whole = time.perf_counter() - start
        try:
            mcp.call("close_debug_session", {"sessionId": sid})
        except Fail:
            pass
        return whole, {"polls": polls}
    finally:
        mcp.close()


CLIENTS = {
    "direct": run_direct,
    "dapvisor": run_dapvisor,
    # The same scenario in a server that ran one session before (untimed).
    "dapvisor-warm": lambda args, line, timings: run_dapvisor(args, line, timings, warm=True),
    # Another dapvisor binary (--dapvisor-before), to compare two builds in one run.
    "dapvisor-before": lambda args, line, timings: run_dapvisor(args, line, timings, args.dapvisor_before),
    "dapvisor-before-warm": lambda args, line, timings: run_dapvisor(
        args, line, timings, args.dapvisor_before, warm=True),
    "mcp-debugger": run_mcp_debugger,
}


def spread(values):
    return f"{statistics.median(values):.3f} s ({min(values):.3f}-{max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each client (default 5)")
    parser.add_argument("--clients", default="direct,dapvisor,mcp-debugger",
                        help="comma-separated: direct, dapvisor, dapvisor-warm, dapvisor-before, "
                        "dapvisor-before-warm, mcp-debugger")
    parser.add_argument("--python", default=os.environ.get("DAPVISOR_PYTHON", str(REPO / ".venv/bin/python")),
                        help="the Python with debugpy, for every client")
    parser.add_argument("--dapvisor", default=str(Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release/dapvisor"))
    parser.add_argument("--dapvisor-before", help="another dapvisor binary, for the dapvisor-before clients")
    parser.add_argument("--deps", default="/work/bench-deps", help="where mcp-debugger is installed")
    parser.add_argument("--dapvisor-log", help="append dapvisor's log (DAPVISOR_LOG, default debug) to this file")
    parser.add_argument("--counts", action="store_true", help="read dapvisor's request counts after each run")
    parser.add_argument("--json", help="write every run's figures to this file")
    args = parser.parse_args()
    clients = [c for c in args.clients.split(",") if c]
    for c in clients:
        if c not in CLIENTS:
            parser.error(f"unknown client {c}: pick from {', '.join(CLIENTS)}")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if any(c.startswith("dapvisor-before") for c in clients) and not args.dapvisor_before:
        parser.error("the dapvisor-before clients need --dapvisor-before PATH")
    if any(c.startswith("dapvisor") for c in clients) and not Path(args.dapvisor).exists():
        parser.error(f"no dapvisor at {args.dapvisor}: run `cargo build --release --bin dapvisor` "
                     "or pass --dapvisor")
    if "mcp-debugger" in clients and not shutil.which("node"):
        parser.error("mcp-debugger needs node on PATH (apt-get install nodejs)")
    line = break_line()
    print(f"load before: {os.getloadavg()}", flush=True)
    results = {c: [] for c in clients}
    for run in range(args.runs):
        order = clients[run % len(clients):] + clients[:run % len(clients)]
        for client in order:
            timings = Timings()
            try:
                whole, extra = CLIENTS[client](args, line, timings)
            except Fail as failure:
                print(f"run {run + 1} {client}: FAILED: {failure}", flush=True)
                continue
            results[client].append({"whole": whole, "steps": timings.steps, **extra})
            note = " ".join(f"{k}={v}" for k, v in extra.items())
            print(f"run {run + 1} {client}: {whole:.3f} s {note}", flush=True)
    print(f"load after: {os.getloadavg()}")
    print()
    direct = [r["whole"] for r in results.get("direct", [])]
    print("| client | runs | whole: median (range) | ratio to direct (medians) |")
    print("|---|---|---|---|")
    for client in clients:
        wholes = [r["whole"] for r in results[client]]
        if not wholes:
            print(f"| {client} | 0 | failed | |")
            continue
        ratio = f"{statistics.median(wholes) / statistics.median(direct):.2f}x" if direct else ""
        print(f"| {client} | {len(wholes)} | {spread(wholes)} | {ratio} |")
    print()
    names = []
    for client in clients:
        for r in results[client]:
            for name, _ in r["steps"]:
                if name not in names:
                    names.append(name)
    print("| step (median ms) | " + " | ".join(clients) + " |")
    print("|---|" + "---|" * len(clients))
    for name in names:
        row = []
        for client in clients:
            got = [s for r in results[client] for n, s in r["steps"] if n == name]
            row.append(f"{statistics.median(got) * 1000:.0f}" if got else "")
        print(f"| {name} | " + " | ".join(row) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if any(not results[c] for c in clients):
        sys.exit(1)


if __name__ == "__main__":
    main()
