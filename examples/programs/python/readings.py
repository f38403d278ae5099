"""Averages 1,000 sensor readings, skipping dropouts (a reading of 0).

Bug: a dropout is still counted, so the average is taken over too many readings.
"""

import sys

total = 0
count = 0
for i in range(1000):
    reading = (i * 37) % 101
    total += reading
    count += 1
average = total // count
print(f"average {average} over {count} readings")
sys.exit(0 if count == 990 else 12)
