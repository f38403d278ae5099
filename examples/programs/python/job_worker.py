"""One job of jobs.py: prints job * quantity, and exits 0."""

import sys


def work(job, quantity):
    product = job * quantity
    return product


if __name__ == "__main__":
    job, quantity = int(sys.argv[1]), int(sys.argv[2])
    print(work(job, quantity), flush=True)
