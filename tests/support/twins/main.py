"""Two modules with a function of one name, called in turn: right.weigh, left.weigh,
right.weigh, left.weigh(the argument). A diff of two arguments tracing left.py's
weigh alone differs at its 2nd call, which is the 4th call of a `weigh`: debug.diff's
`keep` must stop there, not at the 2nd `weigh` (left.weigh(2))."""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests

import left  # noqa: E402
import right  # noqa: E402


def main(grams):
    total = right.weigh(1) + left.weigh(2) + right.weigh(3) + left.weigh(grams)
    print(f"total {total}")
    return 0


sys.exit(main(int(sys.argv[1])))
