"""The ways a scripted agent finds a hunt's bug through `dapvisor mcp`, each a function
`way(mcp, hunt) -> what it found`. Every tool call goes through `mcp` (which counts the
calls and the bytes of their answers); a way that ends without the bug raises `Fail`, so
a lost agent cannot pass.

- `stepping`: a line breakpoint on the call site in the caller (the agent is told which
  function to suspect); at each stop, step in until the suspect's frame (stepping out of
  the argument calls on the way), step over to its `return` line, read its locals from
  the stop (and the members of those shown as a type's name); if they are not the bug's,
  continue to the next stop.
- `stepping-blind`: told no suspect, a breakpoint on `main`'s first line, then step in
  line by line through the program's own code (out of any frame in another file: the
  standard library, a runtime) until a stop at a function's `return` line shows the bug.
- `calls`: launch with every function of the program traced (the agent suspects none),
  wait for the end, read the trace by cursor until a call row and its return row show the
  bug. Where the adapter shows no return value (dlv), the call's arguments say which
  call it is, and one more launch stops at the function's `return` line on them.
- `calls-suspect`: the same with the suspect alone traced (what `stepping` is told).
- `diff`: told nothing but a passing run beside the failing one (other arguments, or a
  passing test), `debug.diff` of the two with every function traced; read the
  differences by cursor to where the runs' calls part (a call only one run makes): the
  last call inside the same caller before it that returned otherwise is the bug's
  (where the adapter shows no return value, dlv, the last one called otherwise, whose
  end one more launch stops at, as in `calls`).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bughunt"))
from scenario import Fail, expect  # noqa: E402

from hunts import line_of  # noqa: E402

# Bounds on a lost agent: the stops it visits, the steps into one call site and through
# one function, and the trace pages it reads.
MAX_STOPS = 20
MAX_STEPS_IN = 4
MAX_STEPS_OVER = 12
MAX_PAGES = 20
MAX_WALK = 300
WAIT = 300
# Differences the diff way asks for a page.
DIFF_PAGE = 5


def _launch_args(hunt, extra, args=None):
    launch = {"program": str(hunt.program), "timeout": WAIT, **extra}
    args = hunt.args if args is None else args
    if args:
        launch["args"] = list(args)
    if hunt.adapter:
        launch["adapter"] = hunt.adapter
    return launch


def _frame(stop):
    return stop.get("stop") or {}


def _in_function(hunt, stop):
    return _frame(stop).get("function") == hunt.function


def _source_line(hunt, number):
    lines = hunt.source.read_text().splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _found(mcp, hunt, texts):
    """The text the agent read says the bug's facts too."""
    for fact in hunt.evidence:
        expect(any(fact in t for t in texts), f"what the agent read does not say {fact}")


def _locals(mcp, hunt, stop):
    """The stop's locals by name, with the members of `hunt.expand`'s as `name.member`
    (read with debug_variables): the texts read."""
    seen = {v["name"]: v for v in _frame(stop).get("locals") or []}
    values = {name: v.get("value") for name, v in seen.items()}
    texts = [mcp.last_text]
    for name in hunt.expand:
        reference = (seen.get(name) or {}).get("variables_reference")
        if reference:
            members = mcp.call("debug_variables", {"session_id": stop["session_id"],
                                                   "variables_reference": reference})
            texts.append(mcp.last_text)
            for member in members.get("variables") or []:
                values[f"{name}.{member['name']}"] = member.get("value")
    return values, texts


def stepping(mcp, hunt):
    site = line_of(hunt.source, hunt.call_site)
    stop = mcp.call("debug_launch", _launch_args(
        hunt, {"breakpoints": [{"file": str(hunt.source), "line": site}]}))
    sid = stop["session_id"]
    try:
        for _ in range(MAX_STOPS):
            expect(stop.get("state") == "stopped", f"the program ended first: {stop}")
            for _ in range(MAX_STEPS_IN):
                stop = mcp.call("debug_step", {"session_id": sid, "kind": "in"})
                if _in_function(hunt, stop):
                    break
                stop = mcp.call("debug_step", {"session_id": sid, "kind": "out"})
            expect(_in_function(hunt, stop), f"never stepped into {hunt.function}: {stop}")
            for _ in range(MAX_STEPS_OVER):
                if _source_line(hunt, _frame(stop).get("line", 0)).startswith("return"):
                    break
                stop = mcp.call("debug_step", {"session_id": sid, "kind": "over"})
            stop["session_id"] = sid
            values, texts = _locals(mcp, hunt, stop)
            if hunt.returns_to_caller:
                values, texts = _evaluate_return(mcp, hunt, stop, values, texts)
            if hunt.in_locals(values):
                _found(mcp, hunt, texts)
                return {"function": hunt.function, "values": values}
            stop = mcp.call("debug_continue", {"session_id": sid})
        raise Fail(f"no stop of {MAX_STOPS} showed the bug")
    finally:
        mcp.call("debug_terminate", {"session_id": sid})


def stepping_blind(mcp, hunt):
    entry = line_of(hunt.source, hunt.entry)
    stop = mcp.call("debug_launch", _launch_args(
        hunt, {"breakpoints": [{"file": str(hunt.source), "line": entry}]}))
    sid = stop["session_id"]
    try:
        for _ in range(MAX_WALK):
            expect(stop.get("state") == "stopped", f"the program ended first: {stop}")
            frame = _frame(stop)
            if frame.get("file") != str(hunt.source):
                stop = mcp.call("debug_step", {"session_id": sid, "kind": "out"})
                continue
            if _in_function(hunt, stop) and _source_line(
                    hunt, frame.get("line", 0)).startswith("return"):
                stop["session_id"] = sid
                values, texts = _locals(mcp, hunt, stop)
                if hunt.returns_to_caller:
                    values, texts = _evaluate_return(mcp, hunt, stop, values, texts)
                if hunt.in_locals(values):
                    _found(mcp, hunt, texts)
                    return {"function": hunt.function, "values": values}
            stop = mcp.call("debug_step", {"session_id": sid, "kind": "in"})
        raise Fail(f"{MAX_WALK} steps did not show the bug")
    finally:
        mcp.call("debug_terminate", {"session_id": sid})


def _evaluate_return(mcp, hunt, stop, values, texts):
    """At the function's `return` line, evaluate what it returns (the line's text after
    `return`, its comment and `;` left out): its value beside the locals (`values`), as
    `(return)`."""
    returned = _source_line(hunt, _frame(stop).get("line", 0))[len("return"):]
    returned = returned.split("/*")[0].split("//")[0].strip().rstrip(";")
    answer = mcp.call("debug_evaluate", {"session_id": stop["session_id"],
                                         "expression": hunt.native + returned})
    return {**values, "(return)": answer.get("result")}, texts + [mcp.last_text]


def _bug_call(hunt, rows):
    """The call row of the hunt's function whose arguments are the bug's, and its
    return row (None while it is not read yet)."""
    for row in rows:
        call = row.get("call") or {}
        if call.get("event") != "call" or call.get("function") != hunt.function:
            continue
        if not hunt.in_args(row.get("values") or {}):
            continue
        back = next((r for r in rows if (r.get("call") or {}).get("event") == "return"
                     and r["call"].get("call") == call.get("call")), None)
        return row, back
    return None, None


def _stop_at_return(mcp, hunt):
    """Launch again to the function's return line on the bug's arguments: its locals."""
    line = line_of(hunt.source, hunt.return_line)
    breakpoint = {"file": str(hunt.source), "line": line, "condition": hunt.condition}
    stop = mcp.call("debug_launch", _launch_args(hunt, {"breakpoints": [breakpoint]}))
    sid = stop["session_id"]
    try:
        expect(stop.get("state") == "stopped", f"no stop at the return: {stop}")
        stop["session_id"] = sid
        values, texts = _locals(mcp, hunt, stop)
        if hunt.returns_to_caller:
            values, texts = _evaluate_return(mcp, hunt, stop, values, texts)
        return values, texts
    finally:
        mcp.call("debug_terminate", {"session_id": sid})


def _traced(mcp, hunt, patterns):
    launched = mcp.call("debug_launch", _launch_args(hunt, {"calls": patterns}))
    sid = launched["session_id"]
    try:
        ended = mcp.call("debug_wait", {"session_id": sid, "timeout": WAIT})
        expect(ended.get("state") == "terminated", f"the program did not end: {ended}")
        expect(ended.get("exit_code") == hunt.exit_code, f"exit code: {ended}")
        since, rows, texts = 0, [], []
        for _ in range(MAX_PAGES):
            page = mcp.call("debug_trace", {"session_id": sid, "since": since})
            rows.extend(page.get("rows") or [])
            texts.append(mcp.last_text)
            call, back = _bug_call(hunt, rows)
            if back is not None or not page.get("more"):
                break
            since = page["next"]
    finally:
        mcp.call("debug_terminate", {"session_id": sid})
    expect(back is not None, f"no call of {hunt.function} in the trace showed the bug "
                             f"({len(rows)} rows)")
    arguments, returned = call.get("values"), back["call"].get("returned")
    if returned is not None:
        expect(hunt.in_return(returned), f"{hunt.function} returned {returned}")
        _found(mcp, hunt, texts)
        return {"function": hunt.function, "values": arguments, "returned": returned}
    # No return value shown (dlv): the call is known by its arguments; look at its end.
    values, more = _stop_at_return(mcp, hunt)
    expect(hunt.in_locals(values), f"the return of the bug's call showed {values}")
    _found(mcp, hunt, texts + more)
    return {"function": hunt.function, "values": arguments, "at_return": values}


def calls(mcp, hunt):
    return _traced(mcp, hunt, hunt.calls)


def calls_suspect(mcp, hunt):
    return _traced(mcp, hunt, [hunt.function])


def _sides(hunt):
    """The passing run (a) and the failing one (b), as debug.launch takes them."""
    if hunt.tests:
        return [{"test": test, "program": str(hunt.program)} for test in hunt.tests]
    expect(hunt.passing_args is not None, f"{hunt.name} has no passing run to diff with")
    sides = [_launch_args(hunt, {}, hunt.passing_args), _launch_args(hunt, {})]
    for side in sides:
        side.pop("timeout")
    return sides


def _parent(path):
    return path.rsplit(" > ", 1)[0] if " > " in path else ""


def _suspect(differences):
    """Where the runs' calls part (the first call only one run makes), the difference
    that led there: the last call inside the same caller before it that returned
    otherwise, else (no return values shown) the last one called otherwise. None while
    the differences read do not reach a parting."""
    parting = next((n for n, d in enumerate(differences)
                    if d["kind"].startswith("only_in_") and d["event"] == "call"), None)
    if parting is None:
        return None
    caller = _parent(differences[parting]["path"])
    before = [d for d in differences[:parting]
              if d["kind"] == "values" and _parent(d["path"]) == caller]
    returned = [d for d in before if d["event"] == "return"]
    called = [d for d in before if d["event"] == "call"]
    if returned:
        back = returned[-1]
        call = next((d for d in called if d["path"] == back["path"]), None)
        return back["function"], call, back
    if called:
        return called[-1]["function"], called[-1], None
    return None


def diff(mcp, hunt):
    a, b = _sides(hunt)
    answer = mcp.call("debug_diff", {"a": a, "b": b, "calls": hunt.calls, "timeout": WAIT,
                                     "limit": DIFF_PAGE})
    differences, texts = list(answer.get("differences") or []), [mcp.last_text]
    found = _suspect(differences)
    for _ in range(MAX_PAGES):
        if found is not None or answer.get("next_cursor") is None:
            break
        answer = mcp.call("debug_diff", {"diff_id": answer["diff_id"], "limit": DIFF_PAGE,
                                         "cursor": answer["next_cursor"]})
        differences.extend(answer.get("differences") or [])
        texts.append(mcp.last_text)
        found = _suspect(differences)
    expect(found is not None, f"the runs' calls never parted ({len(differences)} differences)")
    function, call, back = found
    expect(function == hunt.function, f"the diff led to {function}, not {hunt.function}")
    arguments = ((call or {}).get("b") or {}).get("values") or {}
    expect(hunt.in_args(arguments), f"the failing run called {function} with {arguments}")
    if back is not None:
        returned = (back.get("b") or {}).get("values", {}).get("returned")
        expect(returned is not None and hunt.in_return(returned),
               f"{function} returned {returned} in the failing run")
        _found(mcp, hunt, texts)
        return {"function": function, "values": arguments, "returned": returned}
    # No return value shown (dlv): the call is known by its arguments; look at its end.
    values, more = _stop_at_return(mcp, hunt)
    expect(hunt.in_locals(values), f"the return of the bug's call showed {values}")
    _found(mcp, hunt, texts + more)
    return {"function": function, "values": arguments, "at_return": values}


WAYS = {
    "stepping": stepping,
    "stepping-blind": stepping_blind,
    "calls": calls,
    "calls-suspect": calls_suspect,
    "diff": diff,
}

# The tool profile each way needs served: debug.diff is in `all`, not `core`.
PROFILE = {"diff": "all"}

# Each call-trace way's time is compared with the stepping way told as much.
TOLD_AS_MUCH = {"calls": "stepping-blind", "calls-suspect": "stepping",
                "diff": "stepping-blind"}
