"""Restock report for a small warehouse, with a planted bug for the bughunt benchmark.

Each item is reordered up to its minimum stock. The report's total is wrong: an item
with more on hand than its minimum gives a negative reorder quantity, which cancels out
part of what the short items need. The benchmark stops at the line marked BREAK, where
`qty` is first negative, and again at the next item.
"""

ITEMS = [
    ("bolts", 120, 50),
    ("nuts", 30, 40),
    ("washers", 5, 25),
    ("hinges", 12, 10),
]


def reorder_quantity(on_hand, minimum):
    shortfall = minimum - on_hand
    return shortfall  # the bug: an overstocked item should reorder 0, not a negative


def main():
    total = 0
    for name, on_hand, minimum in ITEMS:
        qty = reorder_quantity(on_hand, minimum)
        total += qty  # BREAK
        print(f"{name}: order {qty}")
    print(f"total to order: {total}")


if __name__ == "__main__":
    main()
