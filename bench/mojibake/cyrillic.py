#!/usr/bin/env python3
"""Measure `utf8fix --mojibake` on Cyrillic text through the wrong code page.

The text is the gettext catalogs of one language each (ru, uk, be, bg, sr, mk by default):
every distinct line with non-ASCII text. Two kinds of damage, each saved as UTF-8:

- UTF-8 read as a Cyrillic code page: `╨Я╤А╨╕╨▓╨╡╤В` for `Привет` read as IBM866;
- text written in one Cyrillic code page (windows-1251, KOI8-R, KOI8-U, IBM866, ISO-8859-5,
  x-mac-cyrillic) and read as another: `рТЙЧЕФ` for `Привет` in KOI8-R read as windows-1251.

A line is used where the first code page writes all of it. Each must come back exactly; a line
that comes back unchanged is *left*, any other answer is *wrong*. The clean lines of each
language are run too: any change is a clean line changed. The code pages' characters are taken
from `utf8enc --from` (encoding_rs, the WHATWG Encoding Standard), so that the test agrees with
the decoders people use.

With `--speed MB`, only the speed rows: each language of `--speed-langs` (ru, uk, zh_CN, ja, ko
by default), its catalog lines repeated to MB megabytes, `utf8fix --mojibake` against plain
`utf8fix` (medians of seven runs, output through a pipe; the target is half of plain's speed
on clean text), on the CPU and SIMD level named (`UTF8KIT_FORCE_IMPL` caps it).

Usage: python3 bench/mojibake/cyrillic.py [--bin target/release] [--catalogs /usr/share/locale]
       [--langs ru,uk,be,bg,sr,mk] [--show N] [--ftfy N] [--speed MB [--speed-langs L,L]]
"""

import collections
import os
import subprocess
import sys
import tempfile

from common import catalog_parser, cpu_model, timed
from double import catalog_lines, judge, run

CODE_PAGES = ["windows-1251", "koi8-r", "koi8-u", "ibm866", "iso-8859-5", "x-mac-cyrillic"]
# UTF-8 read as each code page: windows-1251 and KOI8 are the single-byte tables' readings.
UTF8_READ_AS = CODE_PAGES


def tables(bin_dir):
    """Each code page's characters for bytes 80..FF, and the byte of each character."""
    decode, encode = {}, {}
    for name in CODE_PAGES:
        out = subprocess.run([os.path.join(bin_dir, "utf8enc"), "--from", name],
                             input=bytes(range(0x80, 0x100)), capture_output=True, check=True)
        high = out.stdout.decode("utf-8")
        assert len(high) == 128, name
        decode[name] = high
        encode[name] = {c: 0x80 + i for i, c in enumerate(high)}
    return decode, encode


def write(line, name, encode):
    """`line` in code page `name`, or None where it lacks a character."""
    out = bytearray()
    for c in line:
        if ord(c) < 0x80:
            out.append(ord(c))
        elif c in encode[name]:
            out.append(encode[name][c])
        else:
            return None
    return bytes(out)


def read(data, name, decode):
    return "".join(chr(b) if b < 0x80 else decode[name][b - 0x80] for b in data)


def speed(args):
    """The speed rows: clean text of each language, --mojibake against plain."""
    fix = os.path.join(args.bin, "utf8fix")
    level = os.environ.get("UTF8KIT_FORCE_IMPL", "the highest it has")
    print(f"speed on {cpu_model()}, SIMD level {level}, {os.cpu_count()} CPUs\n")
    print("| clean text | MB | utf8fix | --mojibake | -j1 | speed of plain (target 0.5) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for lang in args.speed_langs.split(","):
            lines = catalog_lines(args.catalogs, lang)
            if not lines:
                sys.exit(f"no catalogs for {lang} under {args.catalogs}")
            block = ("\n".join(lines) + "\n").encode("utf-8")
            path = os.path.join(tmp, f"{lang}.txt")
            with open(path, "wb") as f:
                f.write(block * max(1, args.speed * 1_000_000 // len(block)))
            size = os.path.getsize(path) / 1e6
            plain = timed([fix], path, runs=7, stdout=subprocess.PIPE)
            ours = timed([fix, "--mojibake"], path, runs=7, stdout=subprocess.PIPE)
            one = timed([fix, "--mojibake", "-j1"], path, runs=7, stdout=subprocess.PIPE)
            print(f"| {lang} | {size:.0f} | {plain * 1000:.0f} ms | {ours * 1000:.0f} ms | "
                  f"{one * 1000:.0f} ms | {plain / ours:.2f} |", flush=True)


def main():
    parser = catalog_parser(__doc__, "ru,uk,be,bg,sr,mk")
    parser.add_argument("--speed", type=int, default=0, metavar="MB")
    parser.add_argument("--speed-langs", default="ru,uk,zh_CN,ja,ko")
    args = parser.parse_args()
    if args.speed:
        return speed(args)
    fix = [os.path.join(args.bin, "utf8fix"), "--mojibake"]
    decode, encode = tables(args.bin)
    ftfy = None
    if args.ftfy:
        import ftfy
    print("| text | written in | read as | lines | restored exactly | left | wrong |"
          + (" ftfy restored |" if ftfy else ""))
    print("|---|---|---|---:|---:|---:|---:|" + ("---:|" if ftfy else ""))
    totals = collections.Counter()
    clean_rows = []
    for lang in args.langs.split(","):
        clean = catalog_lines(args.catalogs, lang)
        if not clean:
            sys.exit(f"no catalogs for {lang} under {args.catalogs}")
        got = run(fix, clean)
        changed = [(c, g) for c, g in zip(clean, got) if c != g]
        clean_rows.append((lang, len(clean), len(changed)))
        for c, g in changed[:args.show]:
            print(f"    {lang} clean, changed: {c!r}\n      got  {g!r}", file=sys.stderr)
        cases = []
        for read_as in UTF8_READ_AS:
            cases.append(("utf-8", read_as, [(read(line.encode("utf-8"), read_as, decode), line)
                                              for line in clean]))
        for written in CODE_PAGES:
            lines = [(line, write(line, written, encode)) for line in clean]
            lines = [(line, data) for line, data in lines if data is not None and data != line.encode()]
            for read_as in CODE_PAGES:
                if read_as == written or {read_as, written} == {"koi8-r", "koi8-u"}:
                    continue
                cases.append((written, read_as, [(read(data, read_as, decode), line)
                                                 for line, data in lines]))
        for written, read_as, pairs in cases:
            pairs = [(m, want) for m, want in pairs if m != want]
            if not pairs:
                continue
            exact, left, wrong, cell = judge(fix, pairs, f"{written} as {read_as}", args.show,
                                             ftfy, args.ftfy)
            totals["lines"] += len(pairs)
            totals["exact"] += exact
            totals["wrong"] += wrong
            totals[f"exact {written}"] += exact
            totals[f"lines {written}"] += len(pairs)
            print(f"| {lang} | {written} | {read_as} | {len(pairs)} | {exact} "
                  f"({100 * exact / len(pairs):.1f}%) | {left} | {wrong} |{cell}", flush=True)
    print("\n| clean text | lines | changed |\n|---|---:|---:|")
    for lang, n, changed in clean_rows:
        print(f"| {lang} | {n} | {changed} |")
    n = totals["lines"]
    print(f"\nall: {n} lines, restored exactly {totals['exact']} "
          f"({100 * totals['exact'] / max(n, 1):.1f}%), wrong {totals['wrong']}")
    for written in ["utf-8"] + CODE_PAGES:
        if totals[f"lines {written}"]:
            print(f"written in {written}: {totals[f'exact {written}']}/{totals[f'lines {written}']}"
                  f" ({100 * totals[f'exact {written}'] / totals[f'lines {written}']:.1f}%)")


if __name__ == "__main__":
    main()
