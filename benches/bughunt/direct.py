"""The direct client of the bughunt scenario: a minimal DAP client of debugpy's adapter,
Content-Length framing over its stdio and each request by hand; done once `exited`
arrives."""

import json
import os
import subprocess
import time

from scenario import HERE, PROGRAM, Fail, expect

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
