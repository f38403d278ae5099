"""What every client of the bughunt scenario shares: the program, its BREAK line, and how a
run records its steps and fails."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAM = HERE / "inventory.py"


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


