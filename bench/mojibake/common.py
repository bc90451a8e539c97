"""What the mojibake benchmarks share: the CPU's name, and the median time of a command."""

import statistics
import subprocess
import time


def timed(command, path, runs=5, stdout=subprocess.DEVNULL):
    """The median of `runs` runs of `command` reading `path` on standard input, its output to
    `stdout` (discarded by default; `subprocess.PIPE` reads it through a pipe)."""
    times = []
    for _ in range(runs):
        with open(path, "rb") as stdin:
            start = time.perf_counter()
            subprocess.run(command, stdin=stdin, stdout=stdout, check=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return "an unknown CPU"
