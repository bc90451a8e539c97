#!/usr/bin/env python3
"""Measure encoding detection on labelled files nobody on this project wrote: the test files that
chardet's source distribution ships (about 400 files in some 50 encodings and languages), beside
chardet, charset-normalizer and chardetng in the same run.

Each file's directory names its encoding (`windows-1250-czech/...`, `SHIFT_JIS/...`). For every
tool the file gets one of:

  right    the tool names an encoding that decodes the file to the same text as the true one
           (a twin or a superset counts: GB2312 text named GBK or GB18030, Shift_JIS named
           windows-31j); for a UTF-8 or ASCII file, utf8check's silence (no hint is due)
  wrong    it names an encoding that decodes the file to other text, or fails to
  silent   it names none (utf8enc --from auto: it refused, wrote nothing and exited 1)

With --blank, every `charset=` and `encoding=` declaration is blanked out first, to see the text
alone at work. The target for utf8check's hint and `utf8enc --from auto`: 0 wrong.

With --speed N, the speed row: the median of N runs of one `utf8check -r --max-errors 1` over the
whole folder (a hint for every file, all cores, and again with -j1) beside each peer's median
time over all files' bytes in process, in the same run.

With --catalogs, the files are made instead from real translated text: the gettext catalogs under
/usr/share/locale (the lines with non-ASCII text of each language's catalogs, in file order),
written in each legacy encoding of the language, five files of 40 lines, five of 5 and five of 1
line each (drawn with a fixed seed), the lines the encoding cannot write left out. A folder is
"ENCODING LINES", its truth the encoding.

With --normalizer, the files are charset-normalizer's own labelled samples instead (its source
distribution's data/ folder, labelled by its tests/test_full_detection.py), downloaded with pip.

Usage: python3 bench/detect/eval.py [--bin DIR] [--tests DIR] [--blank] [--show N] [--speed N]
       python3 bench/detect/eval.py --catalogs [--bin DIR] [--show N]
       python3 bench/detect/eval.py --normalizer [--bin DIR] [--blank] [--show N]
  --tests: chardet's tests folder (default: downloaded into a temporary folder with
  `pip download --no-deps --no-binary :all: chardet==5.2.0`)
Needs: pip install chardet charset-normalizer chardetng-py (each peer is left out if missing)
"""

import argparse
import codecs
import glob
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mojibake"))
from common import cpu_model, mo_lines  # noqa: E402

# Directory names of chardet's tests whose encoding Python's codecs spell otherwise. A label that
# the WHATWG Encoding Standard (and so every browser, and encoding_rs) decodes as a superset is
# read as that superset: GB2312 as GBK, TIS-620 as windows-874, Shift_JIS as windows-31j, EUC-KR
# as windows-949; Python's strict codecs refuse some of these files under their own label.
TRUTH = {"macroman": "mac_roman", "maccyrillic": "mac_cyrillic", "ibm855": "cp855",
         "ibm866": "cp866", "euc-tw": None, "utf-8-sig": "utf-8-sig", "ascii": "ascii",
         "gb2312": "gbk", "tis-620": "cp874", "shift_jis": "cp932", "euc-kr": "cp949"}
# WHATWG and other labels the tools print, as Python's codecs know them.
ALIASES = {"x-mac-cyrillic": "mac_cyrillic", "macintosh": "mac_roman", "windows-874": "cp874",
           "iso-8859-8-i": "iso8859_8", "x-user-defined": None, "utf-16": "utf-16",
           "windows-31j": "cp932", "ibm437": "cp437", "ibm850": "cp850", "ibm866": "cp866",
           "big5": "big5hkscs", "euc-kr": "cp949", "gbk": "gbk", "ks_c_5601-1987": "cp949",
           "shift_jis": "cp932", "gb2312": "gbk", "tis-620": "cp874"}


# For --catalogs: each legacy encoding (as Python's codecs spell it) and the languages of the
# catalogs written in it.
CATALOG_ENCODINGS = {
    "windows-1252": ["de", "fr", "es", "pt", "it", "nl", "sv", "da", "fi", "ca", "gl", "eu", "ga",
                     "is", "af", "et"],
    "windows-1250": ["cs", "sk", "pl", "hu", "hr", "sl", "ro"],
    "iso-8859-2": ["cs", "sk", "pl", "hu", "hr", "sl"],
    "windows-1251": ["ru", "uk", "be", "bg", "sr", "mk"],
    "koi8-r": ["ru", "bg"], "koi8-u": ["uk"], "cp866": ["ru", "bg"],
    "cp855": ["ru", "bg", "sr", "mk"], "iso-8859-5": ["ru", "bg", "sr", "mk"],
    "mac_cyrillic": ["ru", "uk", "bg"], "windows-1253": ["el"], "iso-8859-7": ["el"],
    "windows-1254": ["tr"], "windows-1257": ["lt", "lv", "et"], "windows-1255": ["he"],
    "windows-1256": ["ar", "fa"], "cp874": ["th"], "gbk": ["zh_CN"], "big5": ["zh_TW"],
    "cp932": ["ja"], "euc-jp": ["ja"], "cp949": ["ko"],
}


def catalog_files(scratch, locale="/usr/share/locale"):
    """The --catalogs files: (folder, truth, path, data) for each."""
    import random
    rng = random.Random(7)
    files = []
    for encoding, languages in CATALOG_ENCODINGS.items():
        for language in languages:
            lines = []
            for mo in sorted(glob.glob(os.path.join(locale, language, "LC_MESSAGES", "*.mo"))):
                for line in mo_lines(mo):
                    try:
                        lines.append((line + "\n").encode(encoding))
                    except UnicodeEncodeError:
                        pass
            if len(lines) < 200:
                continue
            for count in (40, 5, 1):
                for k in range(5):
                    start = rng.randrange(len(lines) - count)
                    data = b"".join(lines[start:start + count])
                    path = os.path.join(scratch, f"{encoding}.{language}.{count}.{k}.txt")
                    open(path, "wb").write(data)
                    files.append((f"{encoding} {count}", encoding, path, data))
    return files


def normalizer_files(scratch, blanked):
    """charset-normalizer 3.4.2's labelled samples: (folder, truth, path, data) for each."""
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary",
                    ":all:", "charset-normalizer==3.4.2", "-d", scratch], check=True)
    with tarfile.open(glob.glob(os.path.join(scratch, "charset_normalizer-*.tar.gz"))[0]) as tar:
        tar.extractall(scratch, filter="data")
    root = [d for d in glob.glob(os.path.join(scratch, "charset_normalizer-*"))
            if os.path.isdir(d)][0]
    labels = open(os.path.join(root, "tests", "test_full_detection.py")).read()
    files = []
    for name, label in re.findall(r'\("(sample-[^"]+)", "([^"]+)"', labels):
        path = os.path.join(root, "data", name)
        data = open(path, "rb").read()
        truth = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else label.replace("_", "-")
        if blanked:
            data = blank(data)
            path = os.path.join(scratch, "blank-" + name)
            open(path, "wb").write(data)
        files.append((truth, TRUTH.get(truth, truth), path, data))
    return files


def truth_of(folder):
    name = folder.lower()
    if name in TRUTH:
        return TRUTH[name]
    match = re.match(r"(iso-8859-\d+|windows-\d+)", name)
    return match.group(1) if match else name


def codec(label):
    if label is None:
        return None
    label = label.lower().strip()
    if label in ALIASES:
        return ALIASES[label]
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def decoded(data, label):
    name = codec(label)
    if name is None:
        return None
    try:
        text = data.decode(name)
    except (UnicodeDecodeError, LookupError):
        return None
    return text.lstrip("\ufeff")


def verdict(data, truth, named, silence_is_right=False):
    if named is None:
        return "right" if silence_is_right else "silent"
    want = decoded(data, truth)
    got = decoded(data, named)
    if want is not None and got == want:
        return "right"
    return "wrong"


def hint_of(binary, path):
    run = subprocess.run([os.path.join(binary, "utf8check"), path], capture_output=True)
    err = run.stderr.decode("utf-8", "replace")
    if "panicked" in err:
        return "PANIC"
    # The encoding of the advised command: what a user runs.
    hint = next((line for line in err.splitlines() if ": hint: " in line), "")
    match = re.search(r"(?:--from|--fallback) (\S+)", hint)
    return match.group(1) if match else None


def auto_of(binary, path):
    run = subprocess.run([os.path.join(binary, "utf8enc"), "--from", "auto", "-v", path],
                         capture_output=True)
    err = run.stderr.decode("utf-8", "replace")
    if "panicked" in err:
        return "PANIC"
    match = re.search(r"detected (\S+)", err)
    return match.group(1) if match and run.returncode == 0 else None


def peers():
    found = {}
    try:
        import chardet
        found["chardet"] = lambda data: chardet.detect(data)["encoding"]
    except ImportError:
        pass
    try:
        import charset_normalizer
        def normalizer(data):
            best = charset_normalizer.from_bytes(data).best()
            return best.encoding if best else None
        found["charset-normalizer"] = normalizer
    except ImportError:
        pass
    try:
        import chardetng_py
        found["chardetng"] = lambda data: chardetng_py.detect(data)
    except ImportError:
        pass
    return found


def blank(data):
    return re.sub(rb"(?i)(charset|encoding)\s*[=:]\s*[\"']?[-\w]+",
                  lambda m: b" " * len(m.group(0)), data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release")
    parser.add_argument("--tests", default=None)
    parser.add_argument("--blank", action="store_true")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--speed", type=int, default=0)
    parser.add_argument("--catalogs", action="store_true")
    parser.add_argument("--normalizer", action="store_true")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="utf8kit-detect-")
    tests = args.tests
    files = catalog_files(scratch) if args.catalogs else []
    if args.normalizer:
        files = normalizer_files(scratch, args.blank)
    own_files = args.catalogs or args.normalizer
    if tests is None and not own_files:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary",
                        ":all:", "chardet==5.2.0", "-d", scratch], check=True)
        with tarfile.open(glob.glob(os.path.join(scratch, "chardet-*.tar.gz"))[0]) as tar:
            tar.extractall(scratch, filter="data")
        tests = glob.glob(os.path.join(scratch, "chardet-*", "tests"))[0]
    for folder in sorted(os.listdir(tests)) if not own_files else []:
        for path in sorted(glob.glob(os.path.join(tests, folder, "*"))):
            if os.path.isfile(path):
                data = open(path, "rb").read()
                if args.blank:
                    data = blank(data)
                    path = os.path.join(scratch, "blank-" + folder + "-" + os.path.basename(path))
                    open(path, "wb").write(data)
                files.append((folder, truth_of(folder), path, data))
    tools = {"utf8check hint": None, "utf8enc --from auto": None, **peers()}
    results = {tool: {} for tool in tools}
    seconds = {tool: 0.0 for tool in tools}
    shown = {tool: 0 for tool in tools}
    for folder, truth, path, data in files:
        for tool, detect in tools.items():
            start = time.perf_counter()
            if tool == "utf8check hint":
                named = hint_of(args.bin, path)
            elif tool == "utf8enc --from auto":
                named = auto_of(args.bin, path)
            else:
                try:
                    named = detect(data)
                except Exception:  # a peer's own failure is its silence
                    named = None
            seconds[tool] += time.perf_counter() - start
            is_utf8 = truth in ("utf-8", "utf-8-sig", "ascii")
            if named == "PANIC":
                outcome = "wrong"
            else:
                outcome = verdict(data, truth, named,
                                  silence_is_right=tool == "utf8check hint" and is_utf8)
            cell = results[tool].setdefault(folder, {"right": 0, "wrong": 0, "silent": 0})
            cell[outcome] += 1
            if outcome != "right" and shown[tool] < args.show:
                shown[tool] += 1
                print(f"  {tool}: {outcome}: {os.path.basename(path)} in {folder} "
                      f"(said {named})")
    print(f"{len(files)} files{' (declarations blanked)' if args.blank else ''}; each cell: "
          "right / wrong / silent")
    print()
    print("| encoding | files | " + " | ".join(tools) + " |")
    print("|---|---:|" + "---|" * len(tools))
    totals = {tool: {"right": 0, "wrong": 0, "silent": 0} for tool in tools}
    for folder in sorted({f for f, _, _, _ in files}, key=str.lower):
        count = sum(1 for f, _, _, _ in files if f == folder)
        cells = []
        for tool in tools:
            cell = results[tool][folder]
            for key in cell:
                totals[tool][key] += cell[key]
            cells.append(f"{cell['right']} / {cell['wrong']} / {cell['silent']}")
        print(f"| {folder} | {count} | " + " | ".join(cells) + " |")
    cells = [f"**{t['right']} / {t['wrong']} / {t['silent']}**" for t in totals.values()]
    print(f"| all | {len(files)} | " + " | ".join(cells) + " |")
    print()
    print("time over all files (the programs: one process per file; the peers in process): "
          + ", ".join(f"{tool} {s:.2f} s" for tool, s in seconds.items()))
    if args.speed and not own_files:
        speed(args, tests, tools)


def speed(args, tests, tools):
    """The speed row: medians of `args.speed` runs over the files as they are (declarations
    kept), utf8check over the folder in one process."""
    datas = [open(path, "rb").read()
             for path in sorted(glob.glob(os.path.join(tests, "*", "*"))) if os.path.isfile(path)]
    size = sum(len(data) for data in datas)
    row = {}
    for jobs in ([], ["-j1"]):
        command = [os.path.join(args.bin, "utf8check"), "-r", "--max-errors", "1", *jobs, tests]
        times = []
        for _ in range(args.speed):
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        row["utf8check -r" + (" -j1" if jobs else "")] = statistics.median(times)
    for tool, detect in tools.items():
        if detect is None:
            continue
        times = []
        for _ in range(args.speed):
            start = time.perf_counter()
            for data in datas:
                try:
                    detect(data)
                except Exception:
                    pass
            times.append(time.perf_counter() - start)
        row[tool] = statistics.median(times)
    print()
    print(f"speed over {len(datas)} files, {size / 1e6:.1f} MB, median of {args.speed} runs "
          f"on {cpu_model()} ({os.cpu_count()} cores):")
    print("| " + " | ".join(row) + " |")
    print("|" + "---:|" * len(row))
    print("| " + " | ".join(f"{t:.2f} s" for t in row.values()) + " |")


if __name__ == "__main__":
    main()
