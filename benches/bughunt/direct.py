"""The direct client of the bughunt scenario: a minimal DAP client of debugpy's adapter
(benches/dap_client.py), Content-Length framing over its stdio and each request by hand;
done once `exited` arrives."""

import os
import subprocess
import sys
import time

from scenario import HERE, PROGRAM, Fail, expect

# The DAP client the benches share, in benches/.
sys.path.insert(0, str(HERE.parent))
from dap_client import Dap  # noqa: E402


def run_direct(args, line, timings):
    env = dict(os.environ)
    start = time.perf_counter()
    dap = Dap([args.python, "-m", "debugpy.adapter"], env, stderr=subprocess.DEVNULL, error=Fail)
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
