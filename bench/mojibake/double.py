#!/usr/bin/env python3
"""Measure `utf8fix --mojibake` on UTF-8 read as a double-byte encoding, on real translated text.

The text is the gettext catalogs of one language each (zh_CN, zh_TW, ja, ko, ru, uk by default):
every distinct line with non-ASCII text. Each line's UTF-8 bytes are read as GBK, Shift_JIS,
Big5, EUC-KR and EUC-JP by `utf8enc --from ENC --errors replace` (encoding_rs, as browsers and
most programs read them: an undefined pair or a lead byte before one it cannot pair with becomes
U+FFFD). A line that lost no byte must come back exactly; a line that lost some must come back
with each character whose bytes were lost as one U+FFFD and every other character as it was,
and so must the same line with each U+FFFD shown as `?`, as some decoders write it, and with
each U+FFFD dropped, as others do (the lost bytes are found by reading the line again here, a pair at a time, and a line where
that reading differs from encoding_rs's is counted apart, as not checked). The clean lines are
run too: every one that changes is counted (the target is zero). ftfy.fix_encoding runs on the
same lines beside it when ftfy is installed (`--ftfy N`: at most N lines per category).

With `--speed MB`, it measures speed instead, per language: clean text of about MB megabytes (the
catalog lines repeated), `utf8fix --mojibake` against plain `utf8fix` in the same run (the
target is at least half its speed), and the same text read as GBK and as Shift_JIS, repaired
(medians of `--runs` runs, five by default, output to a pipe: hyperfine's `--output=pipe` when
it is installed; the CPU and the level in UTF8KIT_FORCE_IMPL named).

Usage: python3 bench/mojibake/double.py [--bin target/release] [--catalogs /usr/share/locale]
       [--langs zh_CN,zh_TW,ja,ko,ru,uk] [--show N] [--ftfy N] [--speed MB [--runs N]]
"""

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import catalog_parser, cpu_model, mo_lines
from common import timed as common_timed

READINGS = [("gbk", "gb18030"), ("shift_jis", "cp932"), ("big5", "big5hkscs"),
            ("euc-kr", "cp949"), ("euc-jp", "euc_jp")]


def catalog_lines(directory, lang):
    """Every distinct line with non-ASCII text of the catalogs of `lang` under `directory`."""
    found = set()
    messages = os.path.join(directory, lang, "LC_MESSAGES")
    if not os.path.isdir(messages):
        return []
    for name in sorted(os.listdir(messages)):
        if name.endswith(".mo"):
            found.update(line for line in mo_lines(os.path.join(messages, name))
                         if "\r" not in line)
    return sorted(found)


def judge(command, pairs, label, show=0, ftfy=None, ftfy_lines=0):
    """Runs `command` over the mangled lines of `pairs` (mangled, wanted) and counts each line
    restored exactly, left as it came, or made into something else (wrong); prints up to `show`
    of the left and of the wrong ones to standard error, headed by `label`. With `ftfy`, also
    how many of the first `ftfy_lines` its fix_encoding restores, as the cell ` N/M |` (else "")."""
    got = run(command, [m for m, _ in pairs])
    exact = sum(g == want for g, (_, want) in zip(got, pairs))
    left = sum(g == m for g, (m, _) in zip(got, pairs))
    cell = ""
    if ftfy:
        sample = pairs[:ftfy_lines]
        ok = sum(ftfy.fix_encoding(m) == want for m, want in sample)
        cell = f" {ok}/{len(sample)} |"
    shown = collections.Counter()
    for g, (m, want) in zip(got, pairs):
        kind = "left" if g == m else "wrong"
        if g != want and shown[kind] < show:
            shown[kind] += 1
            print(f"    {label}, {kind}: {m!r}\n      got  {g!r}\n      want {want!r}",
                  file=sys.stderr)
    return exact, left, len(pairs) - exact - left, cell


def run(command, lines):
    data = ("\n".join(lines) + "\n").encode("utf-8")
    out = subprocess.run(command, input=data, capture_output=True).stdout.decode("utf-8")
    out = out.split("\n")
    assert out[-1] == "" and len(out) == len(lines) + 1, (command, len(out), len(lines))
    return out[:-1]


def lost_bytes(data, codec, name):
    """The reading of `data` a pair at a time, as the WHATWG decoder of `name` goes (the pairs'
    characters from Python's `codec`), and the offsets of the bytes it lost."""
    out, lost, i = [], set(), 0
    while i < len(data):
        b = data[i]
        if b < 0x80 or (name == "shift_jis" and b == 0x80):
            out.append(chr(b))
            i += 1
            continue
        if name == "gbk" and b == 0x80:
            out.append("\u20ac")
            i += 1
            continue
        if name == "shift_jis" and 0xA1 <= b <= 0xDF:
            out.append(chr(0xFF61 + b - 0xA1))
            i += 1
            continue
        if name == "euc-jp" and b == 0x8F and i + 2 < len(data):
            try:
                c = data[i:i + 3].decode(codec)
                if len(c) == 1:
                    out.append(c)
                    i += 3
                    continue
            except UnicodeDecodeError:
                pass
        is_lead = {"shift_jis": lambda b: 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC,
                   "euc-jp": lambda b: b in (0x8E, 0x8F) or 0xA1 <= b <= 0xFE}.get(
                       name, lambda b: 0x81 <= b <= 0xFE)
        if not is_lead(b):
            out.append("\ufffd")
            lost.add(i)
            i += 1
            continue
        if i + 1 >= len(data):
            out.append("\ufffd")
            lost.add(i)
            i += 1
            continue
        t = data[i + 1]
        try:
            c = data[i:i + 2].decode(codec)
            ok = len(c) == 1 and t >= 0x40
        except UnicodeDecodeError:
            ok = False
        if ok:
            out.append(c)
            i += 2
        elif t < 0x80:
            out.append("\ufffd")
            lost.add(i)
            i += 1
        else:
            out.append("\ufffd")
            lost.update((i, i + 1))
            i += 2
    return "".join(out), lost


def expected_after_loss(line, lost):
    """`line` with each character that lost a byte as one U+FFFD."""
    out, at = [], 0
    for c in line:
        n = len(c.encode("utf-8"))
        out.append("\ufffd" if any(k in lost for k in range(at, at + n)) else c)
        at += n
    return "".join(out)


def restorable(want):
    """Whether `want`, a line as it should come back, holds a character that is not ASCII and
    not U+FFFD: something a reading gives back."""
    return any(not c.isascii() and c != "\ufffd" for c in want)


def timed(command, path, runs=5):
    """The median of `runs` runs of `command` on `path`, its output through a pipe: hyperfine's
    (`--output=pipe`) when it is installed, else a pipe read here."""
    if shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as export:
            subprocess.run(["hyperfine", "-N", "--style", "none", "--output", "pipe", "--runs",
                            str(runs), "--warmup", "1", "--export-json", export.name,
                            " ".join(command + [path])], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return json.load(open(export.name))["results"][0]["median"]
    return common_timed(command, path, runs, stdout=subprocess.PIPE)


def speed(args):
    fix = os.path.join(args.bin, "utf8fix")
    level = os.environ.get("UTF8KIT_FORCE_IMPL", "the highest it has")
    print(f"{cpu_model()}, SIMD level {level}, {os.cpu_count()} CPUs")
    print("| text | MB | plain | --mojibake | ratio (target >= 0.5) | read as GBK, repaired | "
          "read as Shift_JIS, repaired |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for lang in args.langs.split(","):
            clean = catalog_lines(args.catalogs, lang)
            data = ("\n".join(clean) + "\n").encode("utf-8")
            data = data * max(1, int(args.speed * 1e6 / len(data)))
            path = os.path.join(tmp, "clean.txt")
            with open(path, "wb") as f:
                f.write(data)
            plain = timed([fix], path, args.runs)
            ours = timed([fix, "--mojibake"], path, args.runs)
            cells = []
            for name in ("gbk", "shift_jis"):
                read = os.path.join(tmp, name + ".txt")
                with open(path, "rb") as stdin, open(read, "wb") as out:
                    subprocess.run([os.path.join(args.bin, "utf8enc"), "--from", name,
                                    "--errors", "replace"], stdin=stdin, stdout=out, check=True)
                cells.append(f"{timed([fix, '--mojibake'], read, 3) * 1000:.0f} ms")
            print(f"| {lang} | {len(data) / 1e6:.0f} | {plain * 1000:.1f} ms | "
                  f"{ours * 1000:.1f} ms | {plain / ours:.2f} | {cells[0]} | {cells[1]} |")


def main():
    parser = catalog_parser(__doc__, "zh_CN,zh_TW,ja,ko,ru,uk")
    parser.add_argument("--speed", type=float, default=0, metavar="MB")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (--speed)")
    args = parser.parse_args()
    if args.speed:
        speed(args)
        return
    fix = [os.path.join(args.bin, "utf8fix"), "--mojibake"]
    ftfy = None
    if args.ftfy:
        import ftfy
    print("| text | reading | lines | restored exactly | left | wrong | with a character to "
          "restore: restored |" + (" ftfy restored |" if ftfy else ""))
    print("|---|---|---:|---:|---:|---:|---:|" + ("---:|" if ftfy else ""))
    totals = collections.Counter()
    for lang in args.langs.split(","):
        clean = catalog_lines(args.catalogs, lang)
        if not clean:
            sys.exit(f"no catalogs for {lang} under {args.catalogs}")
        changed = [(a, b) for a, b in zip(clean, run(fix, clean)) if a != b]
        totals["clean", "lines"] += len(clean)
        totals["clean", "changed"] += len(changed)
        print(f"| {lang} clean | (none) | {len(clean)} | {len(clean) - len(changed)} unchanged | "
              f"| {len(changed)} changed | |" + (" |" if ftfy else ""))
        for a, b in changed[:args.show]:
            print(f"    changed: {a!r} -> {b!r}", file=sys.stderr)
        for name, codec in READINGS:
            read = run([os.path.join(args.bin, "utf8enc"), "--from", name, "--errors",
                        "replace"], clean)
            cases = {"lossless": [], "lossy": [], "lossy, shown as ?": [], "lossy, dropped": []}
            unchecked = 0
            for line, mangled in zip(clean, read):
                if mangled == line or "\ufffd" in line:
                    continue
                if "\ufffd" not in mangled:
                    cases["lossless"].append((mangled, line))
                    continue
                simulated, lost = lost_bytes(line.encode("utf-8"), codec, name)
                if simulated != mangled:
                    unchecked += 1
                    continue
                cases["lossy"].append((mangled, expected_after_loss(line, lost)))
                cases["lossy, shown as ?"].append((mangled.replace("\ufffd", "?"),
                                                  expected_after_loss(line, lost)))
                cases["lossy, dropped"].append((mangled.replace("\ufffd", ""),
                                               expected_after_loss(line, lost)))
            for kind, pairs in cases.items():
                if not pairs:
                    continue
                got = run(fix, [m for m, _ in pairs])
                exact = sum(g == want for g, (_, want) in zip(got, pairs))
                left = sum(g == m for g, (m, _) in zip(got, pairs))
                wrong = len(pairs) - exact - left
                totals[kind, "lines"] += len(pairs)
                totals[kind, "exact"] += exact
                # A line each of whose characters lost a byte has nothing to restore: left, it
                # keeps what it showed.
                some = [restorable(want) for _, want in pairs]
                some_exact = sum(s and g == want for s, g, (_, want) in zip(some, got, pairs))
                totals[kind, "restorable"] += sum(some)
                totals[kind, "restorable exact"] += some_exact
                share = f"{some_exact} of {sum(some)} ({100 * some_exact / max(sum(some), 1):.1f}%)"
                cell = ""
                if ftfy:
                    sample = pairs[:args.ftfy]
                    ok = sum(ftfy.fix_encoding(m) == want for m, want in sample)
                    cell = f" {ok}/{len(sample)} |"
                note = f" ({unchecked} not checked)" if kind != "lossless" and unchecked else ""
                print(f"| {lang} | {name}, {kind}{note} | {len(pairs)} | {exact} "
                      f"({100 * exact / len(pairs):.1f}%) | {left} | {wrong} | {share} |{cell}")
                shown = 0
                for g, (m, want) in zip(got, pairs):
                    if g != want and shown < args.show:
                        shown += 1
                        print(f"    {name} {kind}: {m!r}\n      got  {g!r}\n      want {want!r}",
                              file=sys.stderr)
    for kind in ("lossless", "lossy", "lossy, shown as ?", "lossy, dropped"):
        n = totals[kind, "lines"]
        if n:
            some = totals[kind, "restorable"]
            print(f"\nall {kind}: {totals[kind, 'exact']} of {n} restored exactly "
                  f"({100 * totals[kind, 'exact'] / n:.1f}%); with a character to restore: "
                  f"{totals[kind, 'restorable exact']} of {some} "
                  f"({100 * totals[kind, 'restorable exact'] / max(some, 1):.1f}%)")
    print(f"clean lines changed: {totals['clean', 'changed']} of {totals['clean', 'lines']}")


if __name__ == "__main__":
    main()
