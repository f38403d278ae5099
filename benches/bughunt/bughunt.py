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
                list_debug_sessions back to back until a new lastStop (or the exit
                code) shows, the fastest a client can learn of it (start_debugging
                itself waits for the first stop).
  dapvisor-warm, dapvisor-before, dapvisor-before-warm
                the same in a server that ran one session before (untimed), and with
                another build (--dapvisor-before), to compare two builds in one run.

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
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the repository

from direct import run_direct  # noqa: E402
from mcp_clients import run_dapvisor, run_mcp_debugger  # noqa: E402
from scenario import REPO, Fail, Timings, break_line  # noqa: E402

CLIENTS = {
    "direct": run_direct,
    "dapvisor": run_dapvisor,
    # The same scenario in a server that ran one session before (untimed).
    "dapvisor-warm": lambda args, line, timings: run_dapvisor(args, line, timings, warm=True),
    # Another dapvisor binary (--dapvisor-before), to compare two builds in one run.
    "dapvisor-before": lambda args, line, timings: run_dapvisor(args, line, timings, args.dapvisor_before),
    "dapvisor-before-warm": lambda args, line, timings: run_dapvisor(
        args, line, timings, args.dapvisor_before, warm=True),
    # Redaction's cost: the same server with it off, and strict.
    "dapvisor-unredacted": lambda args, line, timings: run_dapvisor(
        args, line, timings, flags=("--redact", "off")),
    "dapvisor-strict": lambda args, line, timings: run_dapvisor(
        args, line, timings, flags=("--redact", "strict")),
    "mcp-debugger": run_mcp_debugger,
}


def spread(values):
    return f"{statistics.median(values):.3f} s ({min(values):.3f}-{max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each client (default 5)")
    parser.add_argument("--clients", default="direct,dapvisor,mcp-debugger",
                        help="comma-separated: direct, dapvisor, dapvisor-warm, dapvisor-before, "
                        "dapvisor-before-warm, dapvisor-unredacted, dapvisor-strict, mcp-debugger")
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
            results[client].append({"whole": whole, "steps": timings.steps, "round": run, **extra})
            note = " ".join(f"{k}={v}" for k, v in extra.items())
            print(f"run {run + 1} {client}: {whole:.3f} s {note}", flush=True)
    print(f"load after: {os.getloadavg()}")
    print()
    direct = [r["whole"] for r in results.get("direct", [])]
    # Each round's own ratio too: the machine's load moves every client of a round alike.
    direct_by_round = {r["round"]: r["whole"] for r in results.get("direct", [])}
    print("| client | runs | whole: median (range) | ratio to direct: of the medians | "
          "median of each round's (range) |")
    print("|---|---|---|---|---|")
    for client in clients:
        wholes = [r["whole"] for r in results[client]]
        if not wholes:
            print(f"| {client} | 0 | failed | | |")
            continue
        ratio = f"{statistics.median(wholes) / statistics.median(direct):.2f}x" if direct else ""
        paired = [r["whole"] / direct_by_round[r["round"]] for r in results[client]
                  if r["round"] in direct_by_round]
        rounds = (f"{statistics.median(paired):.2f}x ({min(paired):.2f}-{max(paired):.2f})"
                  if paired else "")
        print(f"| {client} | {len(wholes)} | {spread(wholes)} | {ratio} | {rounds} |")
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
