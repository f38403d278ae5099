"""Quotes shipping for parcels whose weights (grams) come as arguments.

Bug: a parcel of exactly 500 g takes the large rate, while the small rate covers
up to 500 g inclusive (`<` for `<=` in band). Run it on `120 499` (exit 0) and on
`120 500` (exit 16): the first difference between the two runs' call traces is
band(grams=500) returning 'large', and the large_rate call only the failing run
makes. The tests under tests/ are the same pair: test_light passes, test_edge
fails.
"""

import sys


def band(grams):
    return "small" if grams < 500 else "large"


def small_rate(grams):
    return grams * 2


def large_rate(grams):
    return grams * 3


def quote(grams):
    if band(grams) == "small":
        return small_rate(grams)
    return large_rate(grams)


def main(weights):
    total = 0
    for grams in weights:
        total += quote(grams)
    print(f"total {total} cents")
    # Every parcel here weighs at most 500 g: each should cost 2 cents a gram.
    return 0 if total == 2 * sum(weights) else 16


if __name__ == "__main__":
    sys.exit(main([int(arg) for arg in sys.argv[1:]]))
