#!/usr/bin/env python3
"""Does a call trace help an agent? A scripted agent finds the planted bug of each example
program with a call-trace story (hunts.py) through `dapvisor mcp` over stdio, as an agent
would (tools/call JSON): by line breakpoints and stepping, and by call traces, each told
the suspect function or told nothing, and by `debug.diff` of a passing and a failing run
where the program has both (ways.py). Each way must reach the bug (the buggy function,
its inputs and the wrong value), or the run fails. The core tool profile is served, but
to the diff way, which needs `--tools all` (debug.diff is not in core).

Counted exactly per way: the tool calls made (ending the session included), and the
bytes of their answers: the text content (what an MCP client shows a model) and the
whole JSON-RPC answer (text and structured content). Timed: each way whole, from the
server's start to the answer; the ways alternate, so the ratio of one round's times (a
call-trace way's to the stepping way told as much) is the figure to compare (a shared
machine's load moves a whole round).

Usage (from the repository root):
  cargo build --bin dapvisor          # or --release, and pass --dapvisor
  export DAPVISOR_PYTHON=$PWD/.venv/bin/python
  python3 benches/agent_ways/agent_ways.py --runs 3

Standard library only; reuses benches/bughunt's MCP client. Not part of `cargo test` or CI.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bughunt"))

from hunts import HUNTS, REPO  # noqa: E402
from mcp_clients import Mcp  # noqa: E402
from scenario import Fail  # noqa: E402
from ways import PROFILE, TOLD_AS_MUCH, WAYS  # noqa: E402


class CountingMcp(Mcp):
    """bughunt's MCP client, counting each tool call and the bytes of its answer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tool_calls = 0
        self.text_bytes = 0
        self.wire_bytes = 0
        self.last_text = ""
        self.tools = {}
        self.verbose = False

    def call(self, name, arguments, timings=None, label=None):
        result = self.rpc("tools/call", {"name": name, "arguments": arguments})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        self.tool_calls += 1
        self.tools[name] = self.tools.get(name, 0) + 1
        self.text_bytes += len(text.encode())
        self.wire_bytes += self.reply_bytes
        self.last_text = text
        if self.verbose:
            stop = (result.get("structuredContent") or {}).get("stop") or {}
            print(f"  {name} {arguments.get('kind', '')} -> {stop.get('function')}:{stop.get('line')} "
                  f"{len(text)} bytes", flush=True)
        if result.get("isError"):
            raise Fail(f"{name}: {text}")
        if result.get("structuredContent") is not None:
            return result["structuredContent"]
        return json.loads(text)


def run_way(args, hunt, way):
    env = dict(os.environ, DAPVISOR_PYTHON=args.python)
    env.pop("DAPVISOR_LOG", None)
    start = time.perf_counter()
    profile = ["--tools", PROFILE[way]] if way in PROFILE else []
    mcp = CountingMcp([args.dapvisor, "mcp", "--permission-mode", "bypass_all", *profile], env)
    try:
        mcp.verbose = args.verbose
        mcp.start()
        found = WAYS[way](mcp, hunt)
        took = time.perf_counter() - start
    finally:
        mcp.close()
    return {"seconds": took, "tool_calls": mcp.tool_calls, "text_bytes": mcp.text_bytes,
            "wire_bytes": mcp.wire_bytes, "tools": mcp.tools, "found": found}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="rounds of each hunt (default 3)")
    parser.add_argument("--hunts", help="comma-separated names (or parts of them) to run")
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated ways")
    parser.add_argument("--python", default=os.environ.get("DAPVISOR_PYTHON",
                                                           str(REPO / ".venv/bin/python")))
    parser.add_argument("--dapvisor", default=str(
        Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug/dapvisor"))
    parser.add_argument("--verbose", action="store_true", help="print each tool call")
    parser.add_argument("--json", help="write every run's figures to this file")
    args = parser.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    for way in ways:
        if way not in WAYS:
            parser.error(f"unknown way {way}: pick from {', '.join(WAYS)}")
    hunts = [h for h in HUNTS
             if not args.hunts or any(p in h.name for p in args.hunts.split(","))]
    if not Path(args.dapvisor).exists():
        parser.error(f"no dapvisor at {args.dapvisor}: `cargo build --bin dapvisor`, or --dapvisor")
    print(f"load before: {os.getloadavg()}", flush=True)
    results, failed = {}, 0
    for run in range(args.runs):
        for hunt in hunts:
            order = ways[run % len(ways):] + ways[:run % len(ways)]
            for way in order:
                if not hunt.fits(way):
                    continue
                try:
                    got = run_way(args, hunt, way)
                except Fail as failure:
                    failed += 1
                    print(f"run {run + 1} {hunt.name} {way}: FAILED: {failure}", flush=True)
                    continue
                got["round"] = run
                results.setdefault((hunt.name, way), []).append(got)
                print(f"run {run + 1} {hunt.name} {way}: {got['seconds']:.2f} s, "
                      f"{got['tool_calls']} calls {got['tools']}, {got['text_bytes']} text bytes, "
                      f"{got['wire_bytes']} wire bytes; found {got['found']}", flush=True)
    print(f"load after: {os.getloadavg()}")
    print()
    print("| program | way | tool calls | text bytes | JSON-RPC bytes | time, median (range) "
          "| time / stepping told as much: median of each round's (range) |")
    print("|---|---|---|---|---|---|---|")
    for hunt in hunts:
        for way in ways:
            base = {r["round"]: r["seconds"]
                    for r in results.get((hunt.name, TOLD_AS_MUCH.get(way)), [])}
            runs = results.get((hunt.name, way), [])
            if not hunt.fits(way):
                why = "no passing run to diff with" if way == "diff" else "not run: a pair to diff"
                print(f"| {hunt.name} | {way} | {why} | | | | |")
                continue
            if not runs:
                print(f"| {hunt.name} | {way} | failed | | | | |")
                continue
            # Counts and bytes are exact: they must not vary between runs.
            counts = sorted({(r["tool_calls"], r["text_bytes"], r["wire_bytes"]) for r in runs})
            calls = "/".join(str(c[0]) for c in counts)
            text = "/".join(str(c[1]) for c in counts)
            wire = "/".join(str(c[2]) for c in counts)
            secs = [r["seconds"] for r in runs]
            ratio = [r["seconds"] / base[r["round"]] for r in runs if r["round"] in base]
            rounds = (f"{statistics.median(ratio):.2f}x ({min(ratio):.2f}-{max(ratio):.2f})"
                      if ratio else "")
            print(f"| {hunt.name} | {way} | {calls} | {text} | {wire} | "
                  f"{statistics.median(secs):.2f} s ({min(secs):.2f}-{max(secs):.2f}) | {rounds} |")
    if args.json:
        rows = [{"hunt": h, "way": w, **r} for (h, w), rs in results.items() for r in rs]
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
