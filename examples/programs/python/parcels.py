"""Prices parcels whose weights come as text, each packed in nested boxes.

Bug: a parcel of exactly 500 g is priced as large, while small goes up to 500 g
inclusive. A call trace shows it at once: price(grams=500, depth=2) returns band
'large'. Its calls are a call trace's examples: a recursion (layers), a call that
raises (parse_grams on "heavy") and one that returns an object (price).
"""

import sys
from dataclasses import dataclass


@dataclass
class Price:
    cents: int
    band: str


def layers(box):
    if not box:
        return 0
    return 1 + layers(box[0])


def parse_grams(text):
    return int(text)


def price(grams, depth):
    band = "small" if grams < 500 else "large"
    return Price(grams * 2 + depth * 50, band)


def main():
    total = 0
    bands = []
    for text in ["120", "heavy", "500"]:
        try:
            grams = parse_grams(text)
        except ValueError:
            continue
        quote = price(grams, layers([[[]]]))
        total += quote.cents
        bands.append(quote.band)
    print(f"total {total} cents, bands {bands}")
    return 0 if bands == ["small", "small"] else 15


sys.exit(main())
