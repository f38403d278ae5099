"""A shopping cart whose total is one short: the bug the tests below find."""


def line_total(price, qty):
    subtotal = price * qty
    return subtotal


def total(items):
    amount = 0
    for price, qty in items:
        # The bug: the last item's quantity is counted one short.
        if (price, qty) == items[-1]:
            qty -= 1
        amount += line_total(price, qty)
    return amount
