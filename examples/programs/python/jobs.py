"""Runs each job in a worker subprocess and totals the results.

The bug: the worker for job 3 is handed the wrong quantity, so the total is off.
Debugging it means following the program into its subprocess.
"""

import os
import subprocess
import sys

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "job_worker.py")


def run_job(job):
    done = subprocess.run(
        [sys.executable, WORKER, str(job), str(job * 2 if job != 3 else 2)],
        capture_output=True,
        text=True,
    )
    return int(done.stdout.strip())


def main():
    total = sum(run_job(job) for job in [1, 2, 3])
    print(f"jobs total: {total}", flush=True)
    return 0 if total == 28 else 2


if __name__ == "__main__":
    sys.exit(main())
