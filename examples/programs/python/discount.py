"""Order total with a tiered bulk discount on the whole order's subtotal:
0% below 20.00, 5% from 20.00, 10% from 50.00. Amounts are integer cents.

Known bug (on purpose): order_total() applies the discount to every line
item separately instead of once to the order subtotal, so no line reaches the
10% tier and the total comes out too high.
"""
import sys

# (name, quantity, unit price in cents)
ITEMS = [
    ("notebook", 4, 250),
    ("pen", 10, 120),
    ("backpack", 1, 3500),
]

# (minimum subtotal in cents, discount percent), ascending
TIERS = [(0, 0), (2000, 5), (5000, 10)]

EXPECTED_TOTAL_CENTS = 5130  # 5700 subtotal minus 10%


def format_cents(cents):
    return "%d.%02d" % (cents // 100, cents % 100)


def discount_percent(amount):
    percent = 0
    for minimum, tier_percent in TIERS:
        if amount >= minimum:
            percent = tier_percent
    return percent


def apply_discount(amount):
    percent = discount_percent(amount)
    return amount * (100 - percent) // 100


def order_total(items):
    total = 0
    for name, qty, price in items:
        line_cents = qty * price
        discounted = apply_discount(line_cents)  # BUG: per line, not per order
        total += discounted
    return total


def main():
    total = order_total(ITEMS)
    print("Order total: " + format_cents(total))
    if total != EXPECTED_TOTAL_CENTS:
        print("expected " + format_cents(EXPECTED_TOTAL_CENTS) + ": MISMATCH")
        sys.exit(3)
    print("OK")


if __name__ == "__main__":
    main()
