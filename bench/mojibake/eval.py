#!/usr/bin/env python3
"""Measure `utf8fix --mojibake` against ftfy on real multilingual text.

The corpus is the CLDR locale data that the Babel package ships: the names of languages,
territories, scripts, currencies, months and days in each locale's own language. Every line is
encoded the ways mojibake happens in practice:

  double      UTF-8 read as windows-1252 (undefined bytes as Latin-1 C1 controls), then UTF-8
  triple      the same, twice
  latin1      UTF-8 read as ISO-8859-1 (so 80..9F became C1 controls), then UTF-8
  lost-byte   UTF-8 read as windows-1252 by a decoder that turned undefined bytes into U+FFFD

For each we report the share of lines restored exactly, for utf8fix and for ftfy.fix_encoding
(the part of ftfy that only undoes mojibake: ftfy.fix_text would also straighten quotes and
normalise width, which changes correct text on purpose). The clean corpus is run through both
too, and every clean line they change is counted: the target is zero.

Usage: python3 bench/mojibake/eval.py [--utf8fix PATH] [--locales N] [--show N]
       [--catalogs DIR] [--lines FILE] [--level avx512|avx2|portable]

--level caps utf8fix's SIMD (UTF8KIT_FORCE_IMPL) for every run; the speed rows name the CPU and
the level.
Needs: pip install babel ftfy
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from common import cpu_model, mo_lines, timed

try:
    import ftfy
    from babel import Locale, localedata
except ImportError as error:
    sys.exit(f"eval.py: {error.name} is missing: pip install babel ftfy")

# The languages the issue names first, then every other locale with a language of its own.
REQUIRED = ["fr", "de", "es", "pt", "pl", "cs", "tr", "sv", "el", "ru", "ja", "zh", "ko"]


def corpus(max_locales):
    """Lines of real text: CLDR display names, a few to a line, in each locale's language."""
    names = [n for n in localedata.locale_identifiers() if "_" not in n]
    others = sorted(set(names) - set(REQUIRED))
    random.Random(1).shuffle(others)
    chosen = REQUIRED + others[: max(0, max_locales - len(REQUIRED))]
    lines = []
    seen = set()
    for code in chosen:
        try:
            locale = Locale.parse(code)
        except Exception:
            continue
        words = []
        for table in (locale.languages, locale.territories, locale.scripts):
            words.extend(sorted(table.values()))
        for currency in sorted(locale.currencies.values()):
            words.append(currency)
        for width in ("wide", "abbreviated"):
            words.extend(locale.months["format"][width].values())
            words.extend(locale.days["format"][width].values())
        # Five names to a line, joined as a sentence of that locale would list them.
        for start in range(0, len(words), 5):
            line = ", ".join(w for w in words[start : start + 5] if "\n" not in w)
            if line and line not in seen:
                seen.add(line)
                lines.append(line)
    return chosen, lines


def as_cp1252(data, undefined):
    """Decode bytes as windows-1252; `undefined` says what the five unassigned bytes become."""
    out = []
    for byte in data:
        try:
            out.append(bytes([byte]).decode("cp1252"))
        except UnicodeDecodeError:
            out.append(chr(byte) if undefined == "c1" else "\ufffd")
    return "".join(out)


ENCODINGS = {
    "double": lambda s: as_cp1252(s.encode("utf-8"), "c1"),
    "triple": lambda s: as_cp1252(as_cp1252(s.encode("utf-8"), "c1").encode("utf-8"), "c1"),
    "latin1": lambda s: s.encode("utf-8").decode("latin-1"),
    "lost-byte": lambda s: as_cp1252(s.encode("utf-8"), "fffd"),
    # An encoder that could not write the undefined bytes wrote `?` (lines that hold a `?` of
    # their own are left out of this row), and a no-break space became a plain one.
    "question": lambda s: as_cp1252(s.encode("utf-8"), "fffd").replace("\ufffd", "?"),
    "a0-space": lambda s: as_cp1252(s.encode("utf-8"), "c1").replace("\u00a0", " "),
}


def run_utf8fix(binary, lines):
    data = ("\n".join(lines) + "\n").encode("utf-8")
    start = time.perf_counter()
    result = subprocess.run([binary, "--mojibake"], input=data, capture_output=True, check=True)
    elapsed = time.perf_counter() - start
    out = result.stdout.decode("utf-8").split("\n")
    assert out[-1] == "" and len(out) == len(lines) + 1, "one line out per line in"
    return out[:-1], elapsed


def run_ftfy(lines):
    start = time.perf_counter()
    out = [ftfy.fix_encoding(line) for line in lines]
    return out, time.perf_counter() - start


def ftfy_suite(binary):
    """ftfy's own test cases, per category: utf8fix and ftfy.fix_encoding, both run here."""
    root = os.path.join(os.path.dirname(__file__), "../../../shared/conformance/ftfy")
    for name in ("ftfy-cases.jsonl", "ftfy-extra-layer.jsonl"):
        path = os.path.join(root, name)
        if not os.path.exists(path):
            print(f"{name}: absent ({path}); the suite was not run")
            continue
        rows = [json.loads(line) for line in open(path, encoding="utf-8")]
        inputs = [r["in"].replace("\n", " ") for r in rows]
        ours, _ = run_utf8fix(binary, inputs)
        table = {}
        for row, got in zip(rows, ours):
            want = row["want"].replace("\n", " ")
            cell = table.setdefault(f'{row["scope"]}: {row["category"]}', [0, 0, 0])
            cell[0] += got == want
            cell[1] += ftfy.fix_encoding(row["in"]).replace("\n", " ") == want
            cell[2] += 1
        print(f"| {name} | cases | utf8fix --mojibake | ftfy.fix_encoding |")
        print("|---|---:|---:|---:|")
        for category, (a, b, n) in sorted(table.items()):
            print(f"| {category} | {n} | {a} | {b} |")
        total = [sum(c[i] for c in table.values()) for i in range(3)]
        print(f"| all | {total[2]} | {total[0]} | {total[1]} |")
        print()


LEGACY = {
    # encoding: the CLDR languages it served
    "cp1250": ["pl", "cs", "sk", "hu", "ro", "hr", "sl"],
    "iso8859_2": ["pl", "cs", "sk", "hu", "hr", "sl"],
    "cp1251": ["ru", "uk", "bg", "sr", "be", "mk"],
    "cp1253": ["el"],
    "cp1254": ["tr", "az"],
    "cp1257": ["lt", "lv", "et"],
    "mac_roman": ["fr", "de", "es", "it", "pt", "sv"],
    "cp437": ["fr", "de", "es", "pt"],
    "koi8_r": ["ru", "uk", "bg", "be", "sr", "mk"],
    "koi8_u": ["uk", "ru", "be"],
}

# The same encodings in more of the languages that met them: the neighbours, minorities and
# other languages of the regions where each was the default.
LEGACY_MORE = {
    "cp1250": ["sq", "bs", "de", "sr_Latn", "hsb", "dsb", "tk"],
    "iso8859_2": ["sq", "bs", "de", "ro", "hsb"],
    "cp1251": ["kk", "ky", "tt", "ba", "mn", "tg", "sah", "cv", "ce", "os", "uz_Cyrl", "bs_Cyrl",
               "sr_Cyrl"],
    "cp1253": ["el", "el_CY"],
    "cp1254": ["tr", "az", "ku", "tk", "gag"],
    "cp1257": ["lt", "lv", "et", "fi", "sv", "da", "nb", "de", "pl"],
    "mac_roman": ["nl", "da", "nb", "nn", "fi", "is", "ca", "ga", "gd", "cy", "eu", "gl", "br",
                  "lb", "rm", "fo", "af", "wa"],
    "cp437": ["nl", "da", "nb", "fi", "is", "ca", "gl", "sv", "it", "de"],
    "koi8_r": ["kk", "ky", "tt", "ba", "mn", "tg", "sah", "cv", "ce", "os"],
    "koi8_u": ["uk", "be", "ru"],
}

# Text in other scripts read through them: every group decodes to a 3-byte character.
LEGACY_CJK = {codec: ["ja", "zh", "ko", "th"] for codec in LEGACY}

# Every encoding over text of every region and script: what a reader set to the wrong
# encoding makes of any language, not only of those the encoding served.
LEGACY_ALL_LANGS = ["ru", "uk", "el", "ar", "fa", "he", "hi", "bn", "ta", "ka", "hy", "am",
                    "vi", "tr", "pl", "cs", "fr", "de", "es", "pt", "yo", "ha", "ig", "lt",
                    "lv", "ro", "hu", "is", "km", "my", "si", "ur", "ps", "ug"]
LEGACY_ALL = {codec: LEGACY_ALL_LANGS for codec in LEGACY}


def read_through(line, codec):
    """`line`'s UTF-8 read as `codec`, undefined bytes as C1 controls (as sloppy decoders
    keep them)."""
    out = []
    for b in line.encode("utf-8"):
        try:
            out.append(bytes([b]).decode(codec))
        except UnicodeDecodeError:
            out.append(chr(b))
    return "".join(out)


def restored_through(binary, clean, codec):
    """The lines of `clean` that `codec` changes, and how many of them each tool restores
    exactly: (lines, utf8fix, ftfy)."""
    pairs = [(c, read_through(c, codec)) for c in clean]
    pairs = [(c, b) for c, b in pairs if b != c]
    ours, _ = run_utf8fix(binary, [b for _, b in pairs])
    theirs, _ = run_ftfy([b for _, b in pairs])
    a = sum(o == c for (c, _), o in zip(pairs, ours))
    b = sum(t == c for (c, _), t in zip(pairs, theirs))
    return len(pairs), a, b


def legacy_rows(binary, table=LEGACY, short=False):
    """UTF-8 read through each legacy encoding (see `read_through`) in the languages it
    served."""
    print("| UTF-8 read as | lines | utf8fix --mojibake | ftfy.fix_encoding |")
    print("|---|---:|---:|---:|")
    for codec, langs in table.items():
        _, clean = corpus_of(langs)
        n, a, b = restored_through(binary, clean, codec)
        named = f"{len(langs)} languages" if short else ", ".join(langs)
        print(f"| {codec} ({named}) | {n} | {a} ({100 * a / n:.2f}%) | {b} ({100 * b / n:.2f}%) |")
    print()


def catalog_lines(directory, count=20000):
    """Translated messages: every line with non-ASCII text of every gettext catalog (`*.mo`)
    under `directory`, a random `count` of them (fixed seed) of under 300 characters."""
    found = set()
    for root, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".mo"):
                found.update(mo_lines(os.path.join(root, name)))
    lines = sorted(found)
    random.Random(7).shuffle(lines)
    return len(found), lines[:count]


def catalog_rows(binary, directory):
    """Real user-interface text in every language the machine has catalogs for, read through
    each encoding: sentences with placeholders, quotes and punctuation, where the CLDR lines
    are lists of names."""
    total, lines = catalog_lines(directory)
    if not lines:
        print(f"no gettext catalogs with non-ASCII text under {directory}")
        return
    through_each(binary, lines, f"{len(lines)} of {total} translated messages (gettext catalogs "
                                "under the given directory)")


def file_lines(path, count=20000):
    """A random `count` (fixed seed) of the distinct lines with non-ASCII text of the UTF-8 file
    `path` of under 300 characters."""
    with open(path, encoding="utf-8", errors="replace") as f:
        found = {line.strip() for line in f}
    found = sorted(line for line in found if line and not line.isascii() and len(line) < 300)
    random.Random(7).shuffle(found)
    return len(found), found[:count]


def through_each(binary, lines, what):
    """`lines` as they are (every change counted) and read through each encoding."""
    ours, _ = run_utf8fix(binary, lines)
    theirs, _ = run_ftfy(lines)
    print(f"{what}; clean lines changed: utf8fix {sum(o != c for o, c in zip(ours, lines))}, "
          f"ftfy {sum(t != c for t, c in zip(theirs, lines))}")
    print()
    print("| UTF-8 read as | lines | utf8fix --mojibake | ftfy.fix_encoding |")
    print("|---|---:|---:|---:|")
    for codec in ["cp1252", "latin-1"] + list(LEGACY):
        n, a, b = restored_through(binary, lines, codec)
        print(f"| {codec} | {n} | {a} ({100 * a / n:.2f}%) | {b} ({100 * b / n:.2f}%) |")
    print()


def corpus_of(langs):
    """The CLDR lines of exactly these locales."""
    lines = []
    for code in langs:
        _, some = corpus_exact([code])
        lines.extend(some)
    return langs, lines


def corpus_exact(codes):
    saved = REQUIRED[:]
    REQUIRED[:] = codes
    try:
        return corpus(len(codes))
    finally:
        REQUIRED[:] = saved


def speed_rows(binary, clean):
    """Half the lines mojibake: utf8fix on the whole file (median of five runs; on every CPU,
    its default, and on one) against ftfy line by line; and clean text, --mojibake against
    plain utf8fix."""
    mixed = []
    for i, line in enumerate(clean * 4):
        mixed.append(as_cp1252(line.encode("utf-8"), "c1") if i % 2 else line)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mixed.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(mixed) + "\n")
        ours = timed([binary, "--mojibake"], path)
        one_thread = timed([binary, "--mojibake", "-j1"], path)
        _, theirs = run_ftfy(mixed)
        size = os.path.getsize(path)
        print(f"speed on {cpu_model()}, SIMD level "
              f"{os.environ.get('UTF8KIT_FORCE_IMPL', 'the highest it has')}:")
        print(f"speed, {len(mixed)} lines ({size / 1e6:.1f} MB), half of them mojibake: "
              f"utf8fix {ours:.3f} s ({os.cpu_count()} CPUs; -j1 {one_thread:.3f} s), "
              f"ftfy {theirs:.3f} s, ratio {theirs / ours:.1f}x ({theirs / one_thread:.1f}x "
              f"with -j1; target 100x)")
        path = os.path.join(tmp, "clean.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(("\n".join(clean) + "\n") * 40)
        plain = timed([binary], path)
        mojibake = timed([binary, "--mojibake"], path)
        size = os.path.getsize(path)
        print(f"speed, clean text ({size / 1e6:.1f} MB): utf8fix {plain * 1000:.1f} ms, "
              f"--mojibake {mojibake * 1000:.1f} ms, {mojibake / plain:.1f}x its time (target 2x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--utf8fix", default="target/release/utf8fix")
    parser.add_argument("--level", choices=["avx512", "avx2", "portable"],
                        help="cap utf8fix's SIMD at this level (UTF8KIT_FORCE_IMPL)")
    parser.add_argument("--locales", type=int, default=60, help="how many locales (at least 13)")
    parser.add_argument("--show", type=int, default=0, help="print N failures of each kind")
    parser.add_argument("--catalogs", metavar="DIR",
                        help="also read the gettext catalogs (*.mo) under DIR through each encoding")
    parser.add_argument("--lines", metavar="FILE",
                        help="also read 20,000 lines of FILE (UTF-8 text of any kind) through "
                             "each encoding")
    args = parser.parse_args()
    if args.level:
        os.environ["UTF8KIT_FORCE_IMPL"] = args.level

    chosen, clean = corpus(args.locales)
    has_non_ascii = sum(1 for line in clean if not line.isascii())
    print(f"corpus: {len(clean)} lines ({has_non_ascii} with non-ASCII text) "
          f"from {len(chosen)} CLDR locales (Babel {__import__('babel').__version__}), "
          f"ftfy {ftfy.__version__}")
    print()
    print("| input | lines | utf8fix --mojibake | ftfy.fix_encoding |")
    print("|---|---:|---:|---:|")

    ours, ours_time = run_utf8fix(args.utf8fix, clean)
    theirs, theirs_time = run_ftfy(clean)
    ours_changed = [(c, o) for c, o in zip(clean, ours) if c != o]
    theirs_changed = [(c, t) for c, t in zip(clean, theirs) if c != t]
    print(f"| clean text: lines changed (target 0) | {len(clean)} | {len(ours_changed)} "
          f"| {len(theirs_changed)} |")
    failures = {"clean (utf8fix)": ours_changed, "clean (ftfy)": theirs_changed}

    for name, encode in ENCODINGS.items():
        broken = [encode(line) for line in clean]
        # Only lines that the encoding changed are mojibake at all.
        pairs = [(c, b) for c, b in zip(clean, broken) if c != b]
        if name == "question":
            pairs = [(c, b) for c, b in pairs if "?" not in c]
        originals = [c for c, _ in pairs]
        inputs = [b for _, b in pairs]
        ours, t1 = run_utf8fix(args.utf8fix, inputs)
        theirs, t2 = run_ftfy(inputs)
        if name in ("lost-byte", "question", "a0-space"):
            # The lost character cannot come back: a U+FFFD in its place is the best outcome.
            def restored(original, fixed):
                return fixed == original or (
                    len(fixed) == len(original)
                    and all(f == o or f == "\ufffd" for f, o in zip(fixed, original))
                    and "\ufffd" in fixed
                )
            label = f"{name}: restored (U+FFFD for a lost character)"
        else:
            def restored(original, fixed):
                return fixed == original
            label = f"{name}: restored exactly"
        ok_ours = sum(restored(o, f) for o, f in zip(originals, ours))
        ok_theirs = sum(restored(o, f) for o, f in zip(originals, theirs))
        n = len(originals)
        print(f"| {label} | {n} | {ok_ours} ({100 * ok_ours / n:.2f}%) "
              f"| {ok_theirs} ({100 * ok_theirs / n:.2f}%) |")
        failures[f"{name} (utf8fix)"] = [
            (i, f) for o, i, f in zip(originals, inputs, ours) if not restored(o, f)
        ]
        ours_time += t1
        theirs_time += t2

    print()
    legacy_rows(args.utf8fix)
    legacy_rows(args.utf8fix, LEGACY_MORE)
    legacy_rows(args.utf8fix, LEGACY_CJK)
    legacy_rows(args.utf8fix, LEGACY_ALL, short=True)
    if args.catalogs:
        catalog_rows(args.utf8fix, args.catalogs)
    if args.lines:
        total, lines = file_lines(args.lines)
        through_each(args.utf8fix, lines, f"{len(lines)} of the {total} distinct lines with "
                                          "non-ASCII text of the given file")
    ftfy_suite(args.utf8fix)
    speed_rows(args.utf8fix, clean)
    print(f"time for all inputs: utf8fix {ours_time:.2f} s, ftfy {theirs_time:.2f} s")
    if args.show:
        for name, rows in failures.items():
            for before, after in rows[: args.show]:
                print(f"{name}: {before!r} -> {after!r}")
    return 0 if not ours_changed else 1


if __name__ == "__main__":
    sys.exit(main())
