#!/usr/bin/env python3
"""Measure utf8check's legacy-encoding hint (and `utf8enc --from auto`) against the detectors people use.

Two corpora of files whose encoding is known:

  real        files that name their own encoding: every file of vim's runtime whose name carries an
              encoding (`tutor.ru.cp1251`, `greek_iso-8859-7.vim`, `lang/uk.cp1251/.../vim.mo`) and
              that is not valid UTF-8 (vim ships them so; they are not made here)
  made        the UTF-8 tutors, keymaps and menus of the same runtime encoded into each legacy
              encoding their language is written in (lines the encoding cannot hold are left out),
              whole and as short excerpts of 3 to 12 lines; plus mixed files: valid UTF-8 with a
              few lines in a legacy encoding, whose right advice is `utf8fix --fallback`

For each file every detector names one encoding (or none). A name is *right* when it is the
file's encoding, *twin* when it is the sibling that decodes the file's letters the same way
(windows-1250 for ISO-8859-2, windows-1252 for ISO-8859-1 ...), *same* when it is another
encoding that reads every byte of this file as the true one does (an excerpt of Hungarian with
only á, é, ö and ü is the same in windows-1250 and windows-1252), *silent* when the detector names
none, and *wrong* otherwise. The target for utf8check: no wrong hint, and 90% right or twin.

Usage: python3 bench/legacy/eval.py [--bin DIR] [--runtime DIR] [--show N] [--no-declarations]
Needs: pip install charset-normalizer; apt-get install uchardet vim-runtime (for the corpus)
"""

import argparse
import codecs
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TWINS = [
    {"windows-1252", "iso-8859-1", "iso-8859-15"},
    {"windows-1250", "iso-8859-2"},
    {"windows-1251"},
    {"koi8-r", "koi8-u"},
    {"ibm866"},
    {"iso-8859-5"},
    {"x-mac-cyrillic"},
    {"windows-1253", "iso-8859-7"},
    {"windows-1254", "iso-8859-9"},
    {"windows-1255", "iso-8859-8", "iso-8859-8-i"},
    {"windows-1256", "iso-8859-6"},
    {"windows-1257", "iso-8859-13", "iso-8859-4"},
    {"iso-8859-3"},
    {"windows-1258"},
    {"windows-874"},
    {"gbk", "gb18030"},
    {"big5"},
    {"shift_jis"},
    {"euc-jp"},
    {"euc-kr"},
    {"utf-16le"},
    {"utf-16be"},
]

# Python codec names (and other tools' spellings) to WHATWG names.
ALIASES = {
    "latin_1": "iso-8859-1", "latin1": "iso-8859-1", "iso8859_1": "iso-8859-1",
    "cp1250": "windows-1250", "cp1251": "windows-1251", "cp1252": "windows-1252",
    "cp1253": "windows-1253", "cp1254": "windows-1254", "cp1255": "windows-1255",
    "cp1256": "windows-1256", "cp1257": "windows-1257", "cp1258": "windows-1258",
    "cp866": "ibm866", "mac_cyrillic": "x-mac-cyrillic", "cp874": "windows-874", "tis_620": "windows-874",
    "cp936": "gbk", "gb2312": "gbk", "euc_kr": "euc-kr", "cp949": "euc-kr", "uhc": "euc-kr",
    "euc_jp": "euc-jp", "shift_jis": "shift_jis", "cp932": "shift_jis", "sjis": "shift_jis",
    "big5hkscs": "big5", "cp950": "big5", "koi8_r": "koi8-r", "koi8_u": "koi8-u",
    "utf_16_le": "utf-16le", "utf_16_be": "utf-16be", "utf_8": "utf-8", "ascii": "ascii",
    "iso8859_2": "iso-8859-2", "iso8859_5": "iso-8859-5", "iso8859_7": "iso-8859-7",
    "iso8859_8": "iso-8859-8", "iso8859_9": "iso-8859-9", "iso8859_13": "iso-8859-13",
    "iso8859_15": "iso-8859-15", "iso8859_4": "iso-8859-4", "iso8859_3": "iso-8859-3",
    "iso8859_6": "iso-8859-6", "maccyrillic": "x-mac-cyrillic", "ibm866": "ibm866",
}


def canonical(name):
    if not name:
        return None
    name = name.strip().lower()
    try:
        name = codecs.lookup(name).name
    except LookupError:
        pass
    name = ALIASES.get(name.replace("-", "_"), name)
    return ALIASES.get(name, name)


def decode(data, name):
    codec = PYTHON_CODEC.get(name, name)
    try:
        return data.decode(codec, errors="replace")
    except LookupError:
        return None


def grade(truth, guess, data=None):
    if guess is None:
        return "silent"
    if guess == truth:
        return "right"
    # A name that reads every byte of this file as the true encoding does converts it exactly.
    if data is not None and not is_utf8(data) and decode(data, guess) == decode(data, truth):
        return "same"
    for group in TWINS:
        if truth in group and guess in group:
            return "twin"
    return "wrong"


# Languages of the UTF-8 files in vim's runtime, and the legacy encodings each is written in.
LEGACY = {
    "cyrillic": ["windows-1251", "koi8-r", "iso-8859-5", "ibm866", "x-mac-cyrillic"],
    "uk": ["windows-1251", "koi8-u"],
    "greek": ["windows-1253", "iso-8859-7"],
    "hebrew": ["windows-1255", "iso-8859-8"],
    "arabic": ["windows-1256", "iso-8859-6"],
    "turkish": ["windows-1254", "iso-8859-9"],
    "baltic": ["windows-1257", "iso-8859-13"],
    "central": ["windows-1250", "iso-8859-2"],
    "western": ["windows-1252", "iso-8859-1", "iso-8859-15"],
    "esperanto": ["iso-8859-3"],
    "vietnamese": ["windows-1258"],
    "ja": ["shift_jis", "euc-jp"],
    "ko": ["euc-kr"],
    "zh_cn": ["gbk"],
    "zh_tw": ["big5"],
}
PYTHON_CODEC = {"windows-874": "cp874", "x-mac-cyrillic": "mac_cyrillic", "ibm866": "cp866",
                "gbk": "gbk", "shift_jis": "cp932", "euc-kr": "cp949", "big5": "cp950"}
LANGUAGE = {
    "bg": "cyrillic", "ru": "cyrillic", "uk": "uk", "sr": "cyrillic", "el": "greek", "greek": "greek",
    "hebrew": "hebrew", "hebrewp": "hebrew", "arabic": "arabic", "persian-iranian": "arabic", "tr": "turkish",
    "lv": "baltic", "pl": "central", "cs": "central", "sk": "central", "hu": "central", "hr": "central",
    "sl": "central", "croatian": "central", "czech": "central", "slovak": "central", "magyar": "central",
    "polish-slash": "central", "serbian-latin": "central", "de": "western", "fr": "western",
    "es": "western", "it": "western", "pt": "western", "nl": "western", "sv": "western", "da": "western",
    "nb": "western", "no": "western", "ca": "western", "af": "western", "is": "western", "fi": "western",
    "eo": "esperanto", "esperanto": "esperanto", "vi": "vietnamese", "ja": "ja", "ko": "ko",
    "zh_cn": "zh_cn", "zh": "zh_cn", "zh_tw": "zh_tw", "serbian": "cyrillic", "mongolian": "cyrillic",
}
REAL_NAMES = [
    ("latin1", "iso-8859-1"), ("koi8-u", "koi8-u"), ("koi8-r", "koi8-r"), ("euckr", "euc-kr"),
    ("euc-jp", "euc-jp"), ("cp936", "gbk"), ("sjis", "shift_jis"), ("big5", "big5"),
    ("zh.euc", "gbk"), ("ko.euc", "euc-kr"), ("ja.euc", "euc-jp"), ("iso_8859-2", "iso-8859-2"),
    ("iso-8859-2", "iso-8859-2"), ("iso-8859-5", "iso-8859-5"), ("iso_8859-5", "iso-8859-5"),
    ("iso-8859-7", "iso-8859-7"), ("iso-8859-8", "iso-8859-8"), ("iso_8859-9", "iso-8859-9"),
    ("cp1250", "windows-1250"), ("cp1251", "windows-1251"), ("cp1253", "windows-1253"),
    ("cp1254", "windows-1254"), ("cp1255", "windows-1255"),
]


def is_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def real_corpus(runtime):
    files = []
    for path in sorted(glob.glob(os.path.join(runtime, "**", "*"), recursive=True)):
        if not os.path.isfile(path) or path.endswith((".spl", ".sug")):
            continue
        rel = os.path.relpath(path, runtime)
        truth = next((enc for key, enc in REAL_NAMES if key in rel.lower()), None)
        if truth is None:
            continue
        data = open(path, "rb").read()
        if not is_utf8(data):
            files.append(("real", rel, truth, data))
    return files


def encode_lines(text, encoding):
    codec = PYTHON_CODEC.get(encoding, encoding)
    kept = []
    for line in text.splitlines(keepends=True):
        try:
            kept.append(line.encode(codec))
        except UnicodeEncodeError:
            pass
    return kept


def made_corpus(runtime, rng):
    files = []
    sources = glob.glob(os.path.join(runtime, "tutor", "tutor.*.utf-8"))
    sources += glob.glob(os.path.join(runtime, "keymap", "*_utf-8.vim"))
    sources += glob.glob(os.path.join(runtime, "lang", "menu_*.utf-8.vim"))
    for path in sorted(sources):
        base = os.path.basename(path)
        if base.startswith("tutor."):
            lang = base.split(".")[1]
        elif base.startswith("menu_"):
            lang = base[5:].split(".")[0].split("_")[0]
            lang = {"zh": base[5:10]}.get(lang, lang)
        else:
            lang = base.rsplit("_", 1)[0]
        family = LANGUAGE.get(lang)
        if family is None:
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        for encoding in LEGACY[family]:
            lines = encode_lines(text, encoding)
            whole = b"".join(lines)
            if is_utf8(whole):
                continue
            files.append(("made", f"{base} as {encoding}", encoding, whole))
            for i in range(2):
                n = rng.randint(3, 12)
                start = rng.randrange(max(1, len(lines) - n))
                excerpt = b"".join(lines[start:start + n])
                if not is_utf8(excerpt):
                    files.append(("excerpt", f"{base} as {encoding} lines {start}+{n}", encoding, excerpt))
            if encoding in ("windows-1252", "windows-1250", "windows-1251"):
                utf8_lines = text.splitlines(keepends=True)
                mixed = []
                for j, line in enumerate(utf8_lines):
                    legacy = line.encode(PYTHON_CODEC.get(encoding, encoding), errors="ignore")
                    mixed.append(legacy if j % 20 == 7 and not is_utf8(legacy) else line.encode())
                data = b"".join(mixed)
                if not is_utf8(data) and any(b >= 0xC2 for b in data):
                    files.append(("mixed", f"{base} mixed with {encoding}", encoding, data))
    return files


def hint_of(binary, path, declarations):
    """utf8check's hint: the encoding it names, the advice, and the whole line."""
    run = subprocess.run([os.path.join(binary, "utf8check"), path], capture_output=True)
    line = next((l for l in run.stderr.decode("utf-8", "replace").splitlines() if ": hint: " in l), "")
    if not line:
        return None, None, ""
    match = re.search(r"(?:--fallback|--from) (\S+)", line)
    advice = "fallback" if "--fallback" in line else "convert" if "--from" in line else "none"
    if match is None:
        return None, advice, line
    return canonical(match.group(1)), advice, line


def auto_of(binary, path):
    run = subprocess.run([os.path.join(binary, "utf8enc"), "--from", "auto", "-v", path],
                         capture_output=True)
    err = run.stderr.decode("utf-8", "replace")
    match = re.search(r"detected (\S+)", err)
    return canonical(match.group(1)) if match else None


def peers_of(path, data):
    found = {}
    try:
        import charset_normalizer
        best = charset_normalizer.from_bytes(data).best()
        found["charset-normalizer"] = canonical(best.encoding) if best else None
    except ImportError:
        pass
    if shutil.which("uchardet"):
        out = subprocess.run(["uchardet", path], capture_output=True, text=True).stdout.strip()
        found["uchardet"] = None if out in ("", "unknown", "ascii/unknown") else canonical(out)
    if shutil.which("file"):
        out = subprocess.run(["file", "-bi", path], capture_output=True, text=True).stdout
        match = re.search(r"charset=(\S+)", out)
        name = match.group(1) if match else None
        found["file -i"] = None if name in (None, "binary", "unknown-8bit") else canonical(name)
    return found


DECLARATION = re.compile(rb"(scriptencoding|coding[:=]|charset=|encoding=)\s*[\"']?[A-Za-z0-9_.:-]+", re.I)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release")
    parser.add_argument("--runtime", default=None)
    parser.add_argument("--show", type=int, default=0, help="print N wrong or silent cases per tool")
    parser.add_argument("--no-declarations", action="store_true",
                        help="blank out in-file declarations (scriptencoding, coding:, charset=)")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--log", default=None,
                        help="write utf8check's answer for every file to LOG (to compare two builds)")
    args = parser.parse_args()
    runtime = args.runtime or next(iter(sorted(glob.glob("/usr/share/vim/vim9*"))), None)
    if runtime is None or not os.path.isdir(runtime):
        sys.exit("eval.py: vim's runtime is missing: apt-get install vim-runtime, or --runtime DIR")
    rng = random.Random(15)
    files = real_corpus(runtime) + made_corpus(runtime, rng)
    tally = {}
    shown = {}
    advice_tally = {}
    log = open(args.log, "w") if args.log else None
    with tempfile.TemporaryDirectory() as tmp:
        for i, (group, name, truth, data) in enumerate(files):
            if args.no_declarations:
                data = DECLARATION.sub(lambda m: b"x" * len(m.group(0)), data)
            path = os.path.join(tmp, f"sample{i}.txt")
            with open(path, "wb") as f:
                f.write(data)
            guess, advice, line = hint_of(args.bin, path, args.no_declarations)
            results = {"utf8check": guess, "utf8enc auto": auto_of(args.bin, path)}
            if not args.no_peers:
                results.update(peers_of(path, data))
            want = "fallback" if group == "mixed" else "convert"
            if log:
                print(f"{group}\t{name}\t{truth}\t{guess}\t{advice}", file=log)
            if guess is not None:
                key = (group, advice == want)
                advice_tally[key] = advice_tally.get(key, 0) + 1
            for tool, found in results.items():
                mark = grade(truth, found, data)
                tally.setdefault((tool, group), {}).setdefault(mark, 0)
                tally[(tool, group)][mark] += 1
                if mark in ("wrong", "silent") and shown.get((tool, mark), 0) < args.show:
                    shown[(tool, mark)] = shown.get((tool, mark), 0) + 1
                    print(f"  {tool}: {mark}: {group} {name} (truth {truth}, said {found}) {line[-120:] if tool == 'utf8check' else ''}")
    groups = sorted({g for (_, g) in tally}, key=["real", "made", "excerpt", "mixed"].index)
    tools = []
    for (tool, _) in tally:
        if tool not in tools:
            tools.append(tool)
    print(f"\n{len(files)} files; each cell: right+twin+same / wrong / silent (of the files in the group)\n")
    print("| tool | " + " | ".join(f"{g} ({sum(1 for f in files if f[0] == g)})" for g in groups) + " |")
    print("|---|" + "---|" * len(groups))
    for tool in tools:
        cells = []
        for g in groups:
            t = tally.get((tool, g), {})
            total = sum(t.values())
            ok = t.get("right", 0) + t.get("twin", 0) + t.get("same", 0)
            cells.append(f"{100 * ok / total:.0f}% / {t.get('wrong', 0)} / {t.get('silent', 0)}")
        print(f"| {tool} | " + " | ".join(cells) + " |")
    print("\nadvice (hints given): " + ", ".join(f"{g} {'right' if ok else 'WRONG'} {n}" for (g, ok), n in sorted(advice_tally.items())))


if __name__ == "__main__":
    main()
