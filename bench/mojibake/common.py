"""What the mojibake benchmarks share: the CPU's name, the median time of a command, and the
translated lines of a gettext catalog."""

import gettext
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


def mo_lines(path):
    """The lines with non-ASCII text, stripped and under 300 characters, of the gettext catalog
    (`*.mo`) at `path`; none when it cannot be read."""
    try:
        with open(path, "rb") as f:
            catalog = gettext.GNUTranslations(f)
    except Exception:
        return
    for value in catalog._catalog.values():
        if isinstance(value, str):
            for line in value.split("\n"):
                line = line.strip()
                if line and not line.isascii() and len(line) < 300:
                    yield line
