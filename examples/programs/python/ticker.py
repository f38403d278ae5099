"""A long-running program to attach to: it counts ticks, 20 a second, for up to
two minutes, then prints how many it counted."""

import time


def tick(count):
    next = count + 1
    return next


def main():
    count = 0
    for _ in range(2400):
        count = tick(count)
        time.sleep(0.05)
    print(f"ticked {count} times", flush=True)


if __name__ == "__main__":
    main()
