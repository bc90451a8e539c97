#!/usr/bin/env python3
"""Measure `utf8fix --mojibake` on CJK text in a legacy encoding read as windows-1252 or Latin-1.

The text is the gettext catalogs of one language each (zh_CN, zh_TW, ja, ko by default): every
distinct line with non-ASCII text that the language's legacy encodings can write (GBK for zh_CN,
Big5 for zh_TW, Shift_JIS and EUC-JP for ja, EUC-KR for ko). Each line's bytes in that encoding
are read as windows-1252 (its five undefined bytes kept as C1 controls, as sloppy decoders and
encoding_rs do) and as Latin-1, and saved as UTF-8: `ÄãºÃÊÀ½ç` for `你好世界`. Each must come back
exactly; a line that comes back unchanged is *left*, any other answer is *wrong*. ftfy's
fix_encoding runs on the same lines beside it when ftfy is installed (`--ftfy N`: at most N lines
per category). The clean lines of every catalog language are judged by double.py and eval.py.

Usage: python3 bench/mojibake/legacy.py [--bin target/release] [--catalogs /usr/share/locale]
       [--langs zh_CN,zh_TW,ja,ko] [--show N] [--ftfy N]
"""

import collections
import os
import sys

from common import catalog_parser
from double import catalog_lines, judge

ENCODINGS = {"zh_CN": [("gbk", "gbk")], "zh_TW": [("big5", "big5")],
             "ja": [("shift_jis", "cp932"), ("euc-jp", "euc_jp")], "ko": [("euc-kr", "cp949")]}
SLOPPY = {0x81, 0x8D, 0x8F, 0x90, 0x9D}


def as_windows_1252(data):
    return "".join(chr(b) if b in SLOPPY else bytes([b]).decode("cp1252") for b in data)


def as_latin1(data):
    return data.decode("latin-1")


def main():
    parser = catalog_parser(__doc__, "zh_CN,zh_TW,ja,ko")
    args = parser.parse_args()
    fix = [os.path.join(args.bin, "utf8fix"), "--mojibake"]
    ftfy = None
    if args.ftfy:
        import ftfy
    print("| text | written in | read as | lines | restored exactly | left | wrong |"
          + (" ftfy restored |" if ftfy else ""))
    print("|---|---|---|---:|---:|---:|---:|" + ("---:|" if ftfy else ""))
    totals = collections.Counter()
    for lang in args.langs.split(","):
        clean = catalog_lines(args.catalogs, lang)
        if not clean:
            sys.exit(f"no catalogs for {lang} under {args.catalogs}")
        for name, codec in ENCODINGS[lang]:
            written = []
            for line in clean:
                try:
                    data = line.encode(codec)
                except UnicodeEncodeError:
                    continue
                # Only lines the encoding writes and reads back alike (cp932 writes U+2212 as
                # the pair it reads as U+FF0D).
                if data.decode(codec) == line:
                    written.append((line, data))
            for read_as, read in (("windows-1252", as_windows_1252), ("iso-8859-1", as_latin1)):
                pairs = [(read(data), line) for line, data in written]
                exact, left, wrong, cell = judge(fix, pairs, f"{name} as {read_as}", args.show,
                                                 ftfy, args.ftfy)
                totals["lines"] += len(pairs)
                totals["exact"] += exact
                totals["wrong"] += wrong
                print(f"| {lang} | {name} | {read_as} | {len(pairs)} | {exact} "
                      f"({100 * exact / len(pairs):.1f}%) | {left} | {wrong} |{cell}")
    n = totals["lines"]
    print(f"\nall: {n} lines, restored exactly {totals['exact']} "
          f"({100 * totals['exact'] / max(n, 1):.1f}%), wrong {totals['wrong']}")


if __name__ == "__main__":
    main()
