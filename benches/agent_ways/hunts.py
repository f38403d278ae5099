"""The hunts: each example program whose planted bug a call trace shows, what an agent
knows before it starts (the program, its sources, and which function's answer looks
wrong in the output), and how it tells that it has reached the bug.

A hunt is found when the agent holds the buggy function's inputs and the wrong value it
produced, read from dapvisor's answers: `in_locals` judges the function's locals at its
`return` line (the stepping way; `expand` names locals the adapter shows as a type's name
alone, whose members the agent reads), `in_args` and `in_return` a call row's arguments
and its return row's value (the call-trace and diff ways). `evidence` is what the text
the agent read must say as well, so that the bytes counted are bytes that carry the
answer.

The diff way needs a run that passes beside the failing one: the shipping examples take
their weights as arguments (`120 499` passes, `120 500` fails) and have a passing and a
failing pytest test. The other programs hunted here read no input (their failing data is
in their source), so no passing run of them exists to diff against."""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parent.parent.parent
PROGRAMS = REPO / "examples" / "programs"


@dataclass
class Hunt:
    name: str
    # What debug_launch runs (a source dapvisor builds, a script, a Go package).
    program: Path
    adapter: Optional[str]
    # The source holding the call site and the function.
    source: Path
    # Text of the caller's line that calls the function with the bug.
    call_site: str
    # Text of `main`'s first line, where an agent with no suspect starts.
    entry: str
    # The function with the bug, as the adapter names its frame.
    function: str
    # What the call-trace way traces: every function of the program (the agent does not
    # know which one is wrong).
    calls: list
    exit_code: int
    in_locals: Callable[[dict], bool]
    in_args: Callable[[dict], bool]
    in_return: Callable[[str], bool]
    evidence: list
    # The function's `return` line (its text), and the condition that stops there for
    # the bug's call: where an agent looks next when the trace shows no return value.
    return_line: str = "return"
    condition: str = ""
    expand: tuple = ()
    # The failing run's arguments, and a passing run's (the diff way's other side).
    args: tuple = ()
    passing_args: Optional[tuple] = None
    # A passing and a failing pytest test (ids under `program`, a folder) instead.
    tests: Optional[tuple] = None
    # The function's value is no local: the stepping ways, at its `return` line,
    # evaluate what it returns (as `(return)`, beside its own locals).
    returns_to_caller: bool = False
    # What an expression in the program's own language starts with (CodeLLDB's own
    # evaluator reads Python-like arithmetic, `/nat EXPR` lldb's C).
    native: str = ""
    # The ways that fit it (all of them where None; the diff way only where a run
    # passes beside the failing one).
    ways: Optional[tuple] = None

    def fits(self, way):
        if self.ways is not None:
            return way in self.ways
        return way != "diff" or self.passing_args is not None or self.tests is not None


def line_of(source: Path, text: str) -> int:
    hits = [n for n, line in enumerate(source.read_text().splitlines(), 1) if text in line]
    if len(hits) != 1:
        raise SystemExit(f"`{text}` is on {len(hits)} lines of {source}, not one")
    return hits[0]


def _is(value, *texts):
    return value is not None and str(value).strip() in texts


HUNTS = [
    # A 500 g parcel priced as large: price(grams=500, depth=2) returns band 'large'.
    Hunt(
        name="python/parcels.py",
        program=PROGRAMS / "python/parcels.py",
        adapter=None,
        source=PROGRAMS / "python/parcels.py",
        call_site="quote = price(grams, layers(",
        entry='total = 0',
        function="price",
        calls=["parcels.py:*"],
        exit_code=15,
        in_locals=lambda v: _is(v.get("grams"), "500") and _is(v.get("band"), "'large'"),
        in_args=lambda a: _is(a.get("grams"), "500"),
        in_return=lambda r: "band='large'" in r,
        evidence=["500", "large"],
    ),
    Hunt(
        name="c/prices.c (lldb-dap)",
        program=PROGRAMS / "c/prices.c",
        adapter="lldb-dap",
        source=PROGRAMS / "c/prices.c",
        call_site="struct price quote = price_of(",
        entry='const char *weights[]',
        function="price_of",
        calls=["prices.c:*"],
        exit_code=15,
        in_locals=lambda v: _is(v.get("grams"), "500") and _is(v.get("p.band"), "1"),
        in_args=lambda a: _is(a.get("grams"), "500"),
        in_return=lambda r: "band=1" in r,
        evidence=["500", "band"],
        expand=("p",),
    ),
    # CodeLLDB shows the struct returned as `{cents:1100, band:1}`.
    Hunt(
        name="c/prices.c (CodeLLDB)",
        program=PROGRAMS / "c/prices.c",
        adapter="codelldb",
        source=PROGRAMS / "c/prices.c",
        call_site="struct price quote = price_of(",
        entry='const char *weights[]',
        function="price_of",
        calls=["prices.c:*"],
        exit_code=15,
        in_locals=lambda v: _is(v.get("grams"), "500") and _is(v.get("p.band"), "1"),
        in_args=lambda a: _is(a.get("grams"), "500"),
        in_return=lambda r: "band:1" in r,
        evidence=["500", "band"],
        expand=("p",),
    ),
    Hunt(
        name="go/parcels (dlv)",
        program=PROGRAMS / "go/parcels",
        adapter=None,
        source=PROGRAMS / "go/parcels/main.go",
        call_site="quote := priceOf(grams, layers(",
        entry='total := 0',
        function="main.priceOf",
        calls=["main.*"],
        exit_code=15,
        in_locals=lambda v: _is(v.get("grams"), "500") and _is(v.get("band"), '"large"'),
        in_args=lambda a: _is(a.get("grams"), "500"),
        # dlv 1.20 shows no return value after a step out: the trace finds the call, and
        # a breakpoint on its return line, on its arguments, shows the band.
        in_return=lambda r: "large" in r,
        evidence=["500", "large"],
        return_line="return price{",
        condition="grams == 500",
    ),
    # The discount applied per line: apply_discount(amount=1000) returns 1000 (no
    # discount for a 57.00 order).
    Hunt(
        name="python/discount.py",
        program=PROGRAMS / "python/discount.py",
        adapter=None,
        source=PROGRAMS / "python/discount.py",
        call_site="discounted = apply_discount(line_cents)",
        entry='total = order_total(ITEMS)',
        function="apply_discount",
        calls=["discount.py:*"],
        exit_code=3,
        in_locals=lambda v: _is(v.get("amount"), "1000") and _is(v.get("percent"), "0"),
        in_args=lambda a: _is(a.get("amount"), "1000"),
        in_return=lambda r: _is(r, "1000"),
        evidence=["1000"],
    ),
    # Integer division: mean_of(sum=426, count=5) returns 85, not 85.2.
    Hunt(
        name="c/average.c (lldb-dap)",
        program=PROGRAMS / "c/average.c",
        adapter="lldb-dap",
        source=PROGRAMS / "c/average.c",
        call_site="s.mean = mean_of(s.sum, s.count);",
        entry='int scores[NUM_SCORES]',
        function="mean_of",
        calls=["average.c:*"],
        exit_code=4,
        in_locals=lambda v: _is(v.get("sum"), "426") and _is(v.get("mean"), "85"),
        in_args=lambda a: _is(a.get("sum"), "426"),
        in_return=lambda r: _is(r, "85"),
        evidence=["426", "85"],
    ),
]


def _shipping(name, program, adapter, source, call_site, entry, function, calls, band,
              evidence, **more):
    """A shipping example: band(grams=500) returns the large band (`band`), so the
    second parcel takes the large rate; `120 499` passes, `120 500` fails (exit 16)."""
    return Hunt(
        name=name, program=program, adapter=adapter, source=source, call_site=call_site,
        entry=entry, function=function, calls=calls, exit_code=16,
        in_locals=lambda v: _is(v.get("grams"), "500") and _is(v.get("(return)"), band),
        in_args=lambda a: _is(a.get("grams"), "500"),
        in_return=lambda r: _is(r, band),
        evidence=evidence, args=("120", "500"), passing_args=("120", "499"),
        returns_to_caller=True, **more)


SHIPPING = PROGRAMS / "python/shipping"
SHIPPING_HUNTS = [
    _shipping("python/shipping/ (debugpy)", SHIPPING / "shipping.py", None,
              SHIPPING / "shipping.py", 'if band(grams) == "small":', "total = 0",
              "band", ["shipping.py:*"], "'large'", ["500", "large"]),
    # The same pair as pytest tests: test_light passes, test_edge fails (exit 1).
    Hunt(
        name="python/shipping/ tests (debugpy, pytest)",
        program=SHIPPING,
        adapter=None,
        source=SHIPPING / "shipping.py",
        call_site='if band(grams) == "small":',
        entry="total = 0",
        function="band",
        calls=["shipping.py:*"],
        exit_code=1,
        in_locals=lambda v: False,
        in_args=lambda a: _is(a.get("grams"), "500"),
        in_return=lambda r: _is(r, "'large'"),
        evidence=["500", "large"],
        tests=("tests/test_shipping.py::test_light", "tests/test_shipping.py::test_edge"),
        ways=("diff",),
    ),
    _shipping("c/shipping.c (lldb-dap)", PROGRAMS / "c/shipping.c", "lldb-dap",
              PROGRAMS / "c/shipping.c", "if (band(grams) == 0)", "int total = 0;", "band",
              ["shipping.c:*"], "1", ["500", "band"]),
    _shipping("c/shipping.c (CodeLLDB)", PROGRAMS / "c/shipping.c", "codelldb",
              PROGRAMS / "c/shipping.c", "if (band(grams) == 0)", "int total = 0;", "band",
              ["shipping.c:*"], "1", ["500", "band"], native="/nat "),
    # dlv shows no return value after a step out: the trace ways stop at band's
    # `return "large"` line on the bug's argument.
    _shipping("go/shipping (dlv)", PROGRAMS / "go/shipping", None,
              PROGRAMS / "go/shipping/main.go", 'if band(grams) == "small" {',
              "total, gramsInAll := 0, 0", "main.band", ["main.*"], '"large"',
              ["500", "large"], return_line='return "large"', condition="grams == 500"),
]

HUNTS += SHIPPING_HUNTS
