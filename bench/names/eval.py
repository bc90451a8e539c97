#!/usr/bin/env python3
"""Check utf8check's file-name findings and hints on names we did not write.

(a) Every name of the naughty-strings list (../shared/conformance), and its NFD form, as a file:
    `--deny non-nfc-name` must flag exactly the names Python's unicodedata says are not NFC.
(b) CLDR's language and territory names (Babel) in French, German, Spanish, Portuguese, Italian
    and Swedish written in windows-1252 and cp437, and Japanese in Shift_JIS, as file names: the
    hint must name the encoding they were written in (cp850 counts for cp437).

Usage: python3 bench/names/eval.py [PATH-TO-utf8check]   (from the repository root)
Needs: pip install babel
"""
import os, sys, json, subprocess, tempfile, unicodedata, re

CONFORMANCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/conformance")
if not os.path.isdir(CONFORMANCE):
    sys.exit(f"the shared conformance data is absent: {CONFORMANCE}")
U = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/utf8check")
# (a) NFC: naughty strings as file names, utf8check --deny non-nfc-name against Python.
lines = open(os.path.join(CONFORMANCE, "naughty-strings/blns.txt"), encoding="utf-8", errors="surrogateescape").read().split("\n")
d = tempfile.mkdtemp()
made = {}
for i, line in enumerate(lines):
    if not line or line.startswith("#") or "/" in line or "\0" in line or line in (".", ".."):
        continue
    name = line.encode("utf-8", "surrogateescape")[:200]
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        continue
    try:
        with open(os.path.join(d.encode(), name), "wb") as f:
            f.write(b"x")
        made[name] = True
    except OSError:
        pass
out = subprocess.run([U, "-r", "--format", "json", "--deny", "non-nfc-name", "."], cwd=d, capture_output=True).stdout
flagged = set()
for l in out.splitlines():
    o = json.loads(l)
    if o.get("kind") == "non-nfc-name":
        flagged.add(o["path"].encode())
python = {n for n in made if not unicodedata.is_normalized("NFC", n.decode())}
print(f"NFC: {len(made)} naughty names, Python says {len(python)} not NFC, utf8check flags {len(flagged)}, disagreements {len(python ^ flagged)}")
# NFD forms of the same names, as macOS would write them.
d2 = tempfile.mkdtemp()
made2 = set()
for n in made:
    nfd = unicodedata.normalize("NFD", n.decode()).encode()
    try:
        with open(os.path.join(d2.encode(), nfd), "wb") as f: f.write(b"x")
        made2.add(nfd)
    except OSError: pass
out = subprocess.run([U, "-r", "--format", "json", "--deny", "non-nfc-name", "."], cwd=d2, capture_output=True).stdout
flagged = {json.loads(l)["path"].encode() for l in out.splitlines() if json.loads(l).get("kind") == "non-nfc-name"}
python = {n for n in made2 if not unicodedata.is_normalized("NFC", n.decode())}
print(f"NFD: {len(made2)} names, Python says {len(python)} not NFC, utf8check flags {len(flagged)}, disagreements {len(python ^ flagged)}")
# (b) The hint's guess on CLDR words (Babel) written in the encodings names come in.
from babel import Locale
cases = [("windows-1252", "cp1252", ["fr", "de", "es", "pt", "it", "sv"]),
         ("cp437", "cp437", ["fr", "de", "es", "pt"]),
         ("shift_jis", "shift_jis", ["ja"])]
for want, codec, locales in cases:
    d3 = tempfile.mkdtemp()
    names = set()
    for loc in locales:
        for word in list(Locale(loc).languages.values()) + list(Locale(loc).territories.values()):
            if "/" in word or word.isascii():
                continue
            try:
                b = word.encode(codec)
            except UnicodeEncodeError:
                continue
            if len(b) > 200: continue
            try:
                b.decode("utf-8"); continue  # still UTF-8: no finding
            except UnicodeDecodeError: pass
            names.add(b)
    for b in names:
        with open(os.path.join(d3.encode(), b), "wb") as f: f.write(b"x")
    err = subprocess.run([U, "-r", "."], cwd=d3, capture_output=True).stderr.decode()
    guesses = re.findall(r"hint: the name looks like (\S+)", err)
    right = sum(g == want or (want == "cp437" and g == "cp850") for g in guesses)
    silent = len(names) - len(guesses)
    print(f"{want}: {len(names)} names, {right} right, {len(guesses)-right} wrong, {silent} silent")
