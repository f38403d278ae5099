"""The MCP clients of the bughunt scenario: dapvisor (`dapvisor mcp`) and mcp-debugger,
both over MCP stdio (newline-delimited JSON-RPC)."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from scenario import HERE, PROGRAM, Fail, expect

sys.path.insert(0, str(HERE.parent))
from dap_client import end_process  # noqa: E402

MCP_DEBUGGER_VERSION = "0.24.2"
# How many list_debug_sessions polls one wait of mcp-debugger may make.
MAX_POLLS = 20000


class Mcp:
    def __init__(self, argv, env, cwd=None, stderr=subprocess.DEVNULL):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=cwd
        )
        self.id = 0
        self.reply_bytes = 0

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
                self.reply_bytes = len(line)  # what the last answer cost to read, in bytes
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
        end_process(self.proc)


def run_dapvisor(args, line, timings, binary=None, warm=False, flags=()):
    env = dict(os.environ, DAPVISOR_PYTHON=args.python)
    level = env.pop("DAPVISOR_LOG", None) or "debug"
    if args.dapvisor_log:
        env["DAPVISOR_LOG"] = level
    start = time.perf_counter()
    stderr = open(args.dapvisor_log, "a") if args.dapvisor_log else subprocess.DEVNULL
    argv = [binary or args.dapvisor, "mcp", "--permission-mode", "bypass_all", *flags]
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
        if stderr is not subprocess.DEVNULL:
            stderr.close()


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
