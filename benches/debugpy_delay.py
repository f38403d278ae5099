#!/usr/bin/env python3
"""debugpy's own delay per answer, measured without dapvisor (out of CI and of `cargo bench`).

    $DAPVISOR_PYTHON benches/debugpy_delay.py [--rounds 10] [--per-round 10]

Drives `python -m debugpy.adapter` over its stdio with the standard library only (the client
is benches/dap_client.py): launches a generated program to a breakpoint, then times request
round trips (`threads`, `stackTrace`, `scopes`, `variables`, `evaluate`) in alternating
rounds, as shipped and with `TCP_NODELAY` set on pydevd's socket to the adapter (one
`evaluate` in the debuggee sets it, another clears it).
A control does the same two-write pattern on a loopback socket of its own, with no debugpy at
all, to show what the kernel alone does to it.

Why (debugpy 1.8.22): pydevd writes each message's header and body in two `sendall` calls
(`_pydevd_bundle/pydevd_net_command.py`, `NetCommand.send`) on a socket without
`TCP_NODELAY` (`_pydevd_bundle/pydevd_comm.py`, `start_client`), so Nagle's algorithm holds the
body until the adapter's delayed ACK. The nodelay expression reaches into pydevd's private
state: it is for measuring only, not something dapvisor does to a user's program.
"""

import argparse
import os
import socket
import statistics
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository

from dap_client import Dap  # noqa: E402

# Sets (1) or clears (0) TCP_NODELAY on pydevd's socket to the adapter, from inside the
# debuggee: the same expression as `PYDEVD_NODELAY` in benches/support/python.rs.
NODELAY = (
    "__import__('pydevd').get_global_debugger().writer.sock"
    ".setsockopt(__import__('socket').IPPROTO_TCP, __import__('socket').TCP_NODELAY, {})"
)

PROGRAM = """\
def work(n):
    total = 0
    for i in range(n):
        total += i  # stop here
    return total

print(work(3))
"""


def launch(adapter, program):
    line = PROGRAM.splitlines().index("        total += i  # stop here") + 1
    adapter.request("initialize", {"adapterID": "debugpy", "linesStartAt1": True,
                                   "columnsStartAt1": True, "pathFormat": "path"})
    launch_seq = adapter.send("launch", {"type": "python", "request": "launch",
                                         "program": program, "console": "internalConsole",
                                         "justMyCode": False})
    adapter.event("initialized")
    adapter.request("setBreakpoints", {"source": {"path": program}, "breakpoints": [{"line": line}]})
    adapter.request("configurationDone")
    adapter.response(launch_seq)
    return adapter.event("stopped")["body"]["threadId"]


def timed(adapter, command, arguments):
    start = time.perf_counter()
    adapter.request(command, arguments)
    return (time.perf_counter() - start) * 1000.0


def control(rounds, per_round):
    """The two-write pattern on a loopback socket of our own: request in one write, answer as a
    header and a body in two, with and without TCP_NODELAY on the answering side."""
    server = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(server.getsockname())
    answering, _ = server.accept()

    def answer():
        while True:
            if not answering.recv(64):
                return
            answering.sendall(b"Content-Length: 20\r\n\r\n")
            answering.sendall(b'{"type":"response"}\n')

    answerer = threading.Thread(target=answer, daemon=True)
    answerer.start()
    times = {"shipped": [], "nodelay": []}
    for _ in range(rounds):
        for mode, flag in (("shipped", 0), ("nodelay", 1)):
            answering.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, flag)
            for _ in range(per_round):
                start = time.perf_counter()
                client.sendall(b"x")
                got = b""
                while not got.endswith(b"}\n"):
                    got += client.recv(64)
                times[mode].append((time.perf_counter() - start) * 1000.0)
    # The client's close ends the answerer's recv; its socket is closed after, so the
    # thread never reads a closed descriptor.
    client.close()
    answerer.join(timeout=10)
    answering.close()
    server.close()
    return times


def summary(samples):
    ordered = sorted(samples)
    p90 = ordered[max(0, int(len(ordered) * 0.9 + 0.5) - 1)]
    return f"{statistics.median(ordered):7.2f} {p90:7.2f} {ordered[0]:7.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=10)
    args = parser.parse_args()

    import debugpy  # noqa: F401  (fails early, and says which Python, when it is missing)

    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "work.py")
        with open(program, "w") as f:
            f.write(PROGRAM)
        adapter = Dap([sys.executable, "-m", "debugpy.adapter"])
        thread = launch(adapter, program)
        frame = adapter.request("stackTrace", {"threadId": thread, "levels": 1})["stackFrames"][0]
        scopes = adapter.request("scopes", {"frameId": frame["id"]})["scopes"]
        requests = {
            "threads": None,
            "stackTrace": {"threadId": thread, "levels": 1},
            "scopes": {"frameId": frame["id"]},
            "variables": {"variablesReference": scopes[0]["variablesReference"]},
            "evaluate": {"expression": "total + 1", "frameId": frame["id"], "context": "watch"},
        }
        times = {(c, m): [] for c in requests for m in ("shipped", "nodelay")}
        for _ in range(args.rounds):
            for mode, flag in (("shipped", 0), ("nodelay", 1)):
                adapter.request("evaluate", {"expression": NODELAY.format(flag),
                                             "frameId": frame["id"], "context": "repl"})
                for command, arguments in requests.items():
                    for _ in range(args.per_round):
                        times[(command, mode)].append(timed(adapter, command, arguments))
        adapter.close(answered=True)

    n = args.rounds * args.per_round
    print(f"debugpy {sys.modules['debugpy'].__version__}, Python {sys.version.split()[0]}; "
          f"{n} round trips per row, in {args.rounds} alternating rounds; "
          f"load average {os.getloadavg()[0]:.2f}")
    print("ms per round trip   as shipped: p50     p90     min   TCP_NODELAY: p50     p90     min")
    for command in requests:
        print(f"{command:<20}{'':>11}{summary(times[(command, 'shipped')])}"
              f"{'':>14}{summary(times[(command, 'nodelay')])}")
    loop = control(args.rounds, args.per_round)
    print(f"{'control':<20}{'':>11}{summary(loop['shipped'])}{'':>14}{summary(loop['nodelay'])}")
    print("(control: a loopback socket of its own, each answer's header and body in two writes;"
          " no debugpy)")

if __name__ == "__main__":
    main()
