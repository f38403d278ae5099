"""Recurses 900 calls deep, for stack-trace paging: a breakpoint where down(0)
returns sees it on top of 900 more down() frames, then <module>."""

import sys

DEPTH = 900
sys.setrecursionlimit(DEPTH + 100)


def down(n):
    if n == 0:
        return 0  # the bottom
    return down(n - 1) + 1


print(down(DEPTH))
