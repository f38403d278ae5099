#!/usr/bin/env python3
"""What a deeper first `stackTrace` costs at a stop, on lldb-dap (out of CI and `cargo bench`).

    python3 benches/stack_levels.py [--depth 60] [--adapter lldb-dap-22]

The stop summary asks for the page of frames `debug.stack_trace` asks for by default (21)
instead of the top frame alone, so that the agent's look at the stack comes from the stop's
cache. This times that price with the standard library only (the client is
benches/dap_client.py): it builds a C program that recurses `--depth` calls deep
(`cc -g -O0`), stops it at the bottom under the adapter, and times `stackTrace` with `levels`
1 and 21, in 20 alternating rounds of 10.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository

from dap_client import Dap  # noqa: E402

PROGRAM = """\
#include <stdio.h>
int down(int n) {
    if (n == 0) {
        return 7; /* stop here */
    }
    return down(n - 1) + 1;
}
int main(void) { printf("%d\\n", down(DEPTH)); return 0; }
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=60)
    parser.add_argument("--adapter", default="lldb-dap-22")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "deep.c")
        binary = os.path.join(folder, "deep")
        with open(source, "w") as f:
            f.write(PROGRAM.replace("DEPTH", str(args.depth)))
        subprocess.run(["cc", "-g", "-O0", "-o", binary, source], check=True)
        line = PROGRAM.splitlines().index("        return 7; /* stop here */") + 1

        adapter = Dap([args.adapter])
        adapter.response(adapter.send("initialize", {"adapterID": "lldb-dap",
                                                     "linesStartAt1": True, "pathFormat": "path"}))
        # lldb-dap 22 answers `launch` after `configurationDone`.
        launch = adapter.send("launch", {"program": binary})
        adapter.event("initialized")
        adapter.response(adapter.send("setBreakpoints", {"source": {"path": source},
                                                         "breakpoints": [{"line": line}]}))
        adapter.response(adapter.send("configurationDone"))
        adapter.response(launch)
        thread = adapter.event("stopped")["body"]["threadId"]

        times = {1: [], 21: []}
        for _ in range(20):
            for levels in times:
                for _ in range(10):
                    start = time.perf_counter()
                    body = adapter.response(adapter.send(
                        "stackTrace", {"threadId": thread, "startFrame": 0, "levels": levels}))
                    times[levels].append((time.perf_counter() - start) * 1000.0)
                    assert len(body["stackFrames"]) == levels, body
        adapter.close(answered=True)

    print(f"{args.adapter}, a stack {args.depth + 2} frames deep; load average "
          f"{os.getloadavg()[0]:.2f}")
    for levels, samples in times.items():
        ordered = sorted(samples)
        p90 = ordered[int(len(ordered) * 0.9) - 1]
        print(f"stackTrace levels {levels:>2}: p50 {statistics.median(ordered):.3f} ms, "
              f"p90 {p90:.3f} ms, min {ordered[0]:.3f} ms ({len(ordered)} round trips)")


if __name__ == "__main__":
    main()
