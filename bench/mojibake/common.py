"""What the mojibake benchmarks share: the CPU's name, the median time of a command, the
translated lines of a gettext catalog, and the options of the benchmarks over the catalogs."""

import argparse
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


def catalog_parser(doc, langs):
    """The options every benchmark over the catalogs takes: the programs' folder, the catalogs'
    folder, the languages (`langs` by default), lines to show, and lines to give ftfy too."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--bin", default="target/release")
    parser.add_argument("--catalogs", default="/usr/share/locale")
    parser.add_argument("--langs", default=langs)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--ftfy", type=int, default=0, metavar="N")
    return parser
