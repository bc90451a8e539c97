"""The text of the manual pages Debian installs in some languages, for the tools that count
letters and characters in real text (the gettext catalogs, on which the benchmarks measure,
are no part of it)."""

import gzip
import os
import subprocess


def pages(mandir, langs):
    """The text of each manual page under `mandir` in each of `langs` (folder names such as
    `ru` or `zh_CN`), in a fixed order."""
    for lang in langs:
        root = os.path.join(mandir, lang)
        for folder, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                path = os.path.join(folder, name)
                opener = gzip.open if name.endswith(".gz") else open
                with opener(path, "rb") as f:
                    yield f.read().decode("utf-8", errors="replace")


def write_rust(path, text):
    """Writes `text`, generated Rust, to `path` as rustfmt lays it out."""
    with open(path, "w") as f:
        f.write(text)
    subprocess.run(["rustfmt", "--edition", "2024", path], check=True)
