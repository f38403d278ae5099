"""Prints more than a session's output buffer holds (5000 lines of 51 bytes, about
250 KiB) before the line `marker = "after the flood"`, then one more line."""

LINES = 5000

for i in range(LINES):
    print(f"line {i:05d} " + "x" * 40)
marker = "after the flood"
print(marker)
