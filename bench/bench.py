#!/usr/bin/env python3
"""Time the utf8kit programs beside the tools people use today, in the same run.

    python3 bench/bench.py                 # 256 MiB corpora (SPEC 7); a few minutes
    python3 bench/bench.py --size 16M      # smaller and quicker
    python3 bench/bench.py --memory 4G     # also peak memory streaming 4 GiB through stdin
    python3 bench/bench.py --only utf8enc --corpora /tmp/c   # one program; corpora kept
    python3 bench/bench.py --only 'utf8check -r'             # the walks only
    python3 bench/bench.py --only 'utf8check --deny'         # the lints beside plain utf8check
    python3 bench/bench.py --level avx2    # our programs capped at AVX2 (UTF8KIT_FORCE_IMPL)
    python3 bench/bench.py --levels        # every row once per level this CPU has

Builds the release binaries, generates deterministic corpora in a scratch directory (ASCII,
European text, CJK, emoji-heavy, a multilingual mix, the mix with one error per MiB and one per
KiB, the mix with one error per KiB of every kind in turn, a Latin-1 file, a UTF-16LE file, a
tree of 50,000 small files), names the CPU and the SIMD level our programs run at (the highest
the CPU has, or the one `--level` forces through UTF8KIT_FORCE_IMPL), times each command with hyperfine (files in the page
cache, output to /dev/null) and prints a markdown table: the median, the throughput in MB/s of
input, and the ratio of the peer's median to ours (above 1: we are faster). Peers that are not
installed are left out of the table. Needs hyperfine; the peers come from Debian's packages:
apt-get install hyperfine moreutils hexyl ripgrep (isutf8, hexyl, rg), xxd, iconv and uconv.

The walks run on real trees when they are on the machine: the crate sources in cargo's registry
(what the build downloaded) and the Python standard library; and on the generated tree. ripgrep
reads every file its rules keep with `rg -c NOMATCH` (`--no-require-git`, so that it honours
.gitignore outside a repository as utf8check does).
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release")


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


# Words of several scripts, so that the corpora are text, not noise.
EUROPEAN = ("le la déjà où été garçon cœur über schön Straße Mädchen für año niño "
            "coração São Zażółć gęślą jaźń příliš žluťoučký İstanbul Ångström the and of").split()
CJK = "日本語 東京 漢字 中文 北京 你好 한국어 서울 안녕하세요 テキスト ひらがな カタカナ".split()
EMOJI = "😀 😂 🎉 👍 🚀 ❤️ 🔥 ✨ 🙏 👀 🌍 🍕".split()
ASCII = "the quick brown fox jumps over the lazy dog while 1234 programs run".split()


def text_of(words, size, seed):
    rng = random.Random(seed)
    out = []
    n = 0
    while n < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(5, 14))) + "\n"
        data = line.encode()
        out.append(data)
        n += len(data)
    return b"".join(out)[:size]


def cut_at_char(data):
    """Drops a partial character at the end, so that valid corpora stay valid."""
    end = len(data)
    while end > 0 and (data[end - 1] & 0xC0) == 0x80:
        end -= 1
    if end > 0 and data[end - 1] >= 0xC0:
        end -= 1
    return data[:end] if end < len(data) else data


def with_errors(data, every, seed):
    rng = random.Random(seed)
    errors = [b"\xc0\xaf", b"\xe2\x82", b"\xff", b"\xed\xa0\x80", b"\xe9 "]
    out = bytearray()
    for start in range(0, len(data), every):
        block = data[start:start + every]
        # Insert after a newline or space so that no character is cut.
        cut = max(block.rfind(b" "), 0)
        out += block[:cut] + rng.choice(errors) + block[cut:]
    return bytes(out)


# One of each kind of mistake SPEC 1.2 names: a stray continuation byte, a lone Latin-1 letter
# (truncated), F5-FF, an overlong, a surrogate, a value past U+10FFFF, a cut sequence.
ALL_KINDS = [b"\x80", b"\xe9 ", b"\xf8", b"\xff", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80",
             b"\xf4\x90\x80\x80", b"\xe2\x82 "]


def with_every_kind(data, every):
    """One mistake per `every` bytes, the kinds in turn, so that each is as common as the next."""
    out = bytearray()
    for n, start in enumerate(range(0, len(data), every)):
        block = data[start:start + every]
        cut = max(block.rfind(b" "), 0)
        out += block[:cut] + ALL_KINDS[n % len(ALL_KINDS)] + block[cut:]
    return bytes(out)


def make_tree(directory, files, seed):
    """`files` small text files (100 B to 4 KiB, some with a mistake) in 500 directories."""
    rng = random.Random(seed)
    words = EUROPEAN + CJK + EMOJI + ASCII
    for n in range(files):
        folder = os.path.join(directory, f"d{n % 500:03}")
        os.makedirs(folder, exist_ok=True)
        data = cut_at_char(text_of(words, rng.randint(100, 4096), n))
        if n % 50 == 0:
            data += b"\xff\n"
        with open(os.path.join(folder, f"f{n}.txt"), "wb") as f:
            f.write(data)


def tree_size(path):
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def make_corpora(directory, size, tree_files):
    corpora = {}

    def write(name, data):
        path = os.path.join(directory, name)
        with open(path, "wb") as f:
            f.write(data)
        corpora[name] = path

    write("ascii.txt", text_of(ASCII, size, 1))
    write("european.txt", cut_at_char(text_of(EUROPEAN, size, 2)))
    write("cjk.txt", cut_at_char(text_of(CJK, size, 3)))
    write("emoji.txt", cut_at_char(text_of(EMOJI + ASCII, size, 4)))
    mix = cut_at_char(text_of(EUROPEAN + CJK + EMOJI + ASCII, size, 5))
    write("mix.txt", mix)
    write("mix-err-mib.txt", with_errors(mix, 1 << 20, 6))
    write("mix-err-kib.txt", with_errors(mix, 1 << 10, 7))
    write("mix-allkinds-kib.txt", with_every_kind(mix, 1 << 10))
    latin = text_of([w for w in EUROPEAN if all(ord(c) < 256 for c in w)], size, 8)
    write("latin1.txt", latin.decode().encode("latin-1"))
    write("utf16le.txt", cut_at_char(mix[: size // 2]).decode("utf-8").encode("utf-16-le"))
    name = "tree-50k" if tree_files == 50_000 else f"tree-{tree_files}"
    tree = os.path.join(directory, name)
    make_tree(tree, tree_files, 9)
    corpora[name] = tree
    return corpora


LEVELS = ["avx512", "avx2", "portable"]


def machine():
    """The CPU's model name and the SIMD levels it has, best first (as the programs detect them:
    avx512 needs AVX-512 F, BW and VBMI; avx2 needs AVX2; portable is always there)."""
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    levels = []
    if {"avx512f", "avx512bw", "avx512vbmi"} <= flags:
        levels.append("avx512")
    if "avx2" in flags:
        levels.append("avx2")
    return model, levels + ["portable"]


def have(tool):
    return shutil.which(tool) is not None


def hyperfine(commands, runs, warmup):
    """Runs hyperfine on named commands; returns {name: median seconds}."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        export = f.name
    args = ["hyperfine", "--style", "none", "--runs", str(runs), "--warmup", str(warmup),
            "--export-json", export]
    for name, command in commands:
        args += ["-n", name, command]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(export) as f:
        results = json.load(f)["results"]
    os.unlink(export)
    return {r["command"]: r["median"] for r in results}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="256M", help="corpus size (default 256M)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--memory", default="", help="stream this much through stdin (4G)")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--only", default="",
                        help="time only the programs whose row starts with this (utf8enc, 'utf8dump -x')")
    parser.add_argument("--corpora", default="",
                        help="keep the corpora in this directory and reuse them on the next run")
    parser.add_argument("--tree-files", type=int, default=50_000,
                        help="files in the generated tree (default 50000, as a real repository)")
    parser.add_argument("--level", choices=LEVELS,
                        help="cap our programs at this SIMD level (UTF8KIT_FORCE_IMPL)")
    parser.add_argument("--levels", action="store_true",
                        help="time every row once per SIMD level this CPU has")
    parser.add_argument("--corpora-only", action="store_true",
                        help="generate the corpora (into --corpora) and time nothing")
    args = parser.parse_args()
    model, available = machine()
    if args.level and args.level not in available:
        sys.exit(f"bench.py: this CPU ({model}) has no {args.level} level; it has "
                 + ", ".join(available))
    levels = available if args.levels else [args.level or available[0]]
    if args.corpora_only:
        if not args.corpora:
            sys.exit("bench.py: --corpora-only needs --corpora DIR")
        args.no_build = True
    elif not have("hyperfine"):
        sys.exit("bench.py: hyperfine is missing: apt-get install hyperfine")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    size = parse_size(args.size)
    if args.corpora:
        scratch = os.path.join(args.corpora, str(size))
        os.makedirs(scratch, exist_ok=True)
    else:
        scratch = tempfile.mkdtemp(prefix="utf8kit-bench-")
    marker = os.path.join(scratch, "complete")
    if args.corpora and os.path.exists(marker):
        corpora = {name: os.path.join(scratch, name) for name in os.listdir(scratch)}
    else:
        corpora = make_corpora(scratch, size, args.tree_files)
        open(marker, "w").close()
    if args.corpora_only:
        print(scratch)
        return
    # The dump views format every unit: they run on a 16 MiB slice, like their peers.
    dump_size = min(size, 16 << 20)
    with open(corpora["mix.txt"], "rb") as f:
        small = cut_at_char(f.read(dump_size))
    corpora["mix-16m.txt"] = os.path.join(scratch, "mix-16m.txt")
    with open(corpora["mix-16m.txt"], "wb") as f:
        f.write(small)

    b = lambda name: os.path.join(BIN, name)  # noqa: E731
    null = " > /dev/null"
    grep_env = "LC_ALL=C.UTF-8 "
    # (group, corpus, ours, [(peer name, peer command)]): commands get the path appended.
    plan = []
    for corpus in ["ascii.txt", "european.txt", "cjk.txt", "emoji.txt", "mix.txt"]:
        plan.append(("utf8check FILE", corpus, f"{b('utf8check')} {{}}{null}", [
            ("cat", "cat {}" + null),
            ("isutf8", "isutf8 {}" + null) if have("isutf8") else None,
            ("iconv", "iconv -f UTF-8 -t UTF-8 {}" + null),
        ]))
    plan.append(("utf8check -j1 FILE", "mix.txt", f"{b('utf8check')} -j1 {{}}{null}", [
        ("cat", "cat {}" + null),
        ("utf8check (all cores)", f"{b('utf8check')} {{}}{null}"),
    ]))
    # The lints that find nothing in valid text of every script (all but non-ascii), beside
    # plain utf8check and isutf8.
    lints = ("bom,nul,control,noncharacter,bidi,private-use,replacement,invisible,tag,"
             "mixed-script")
    for corpus in ["european.txt", "cjk.txt", "mix.txt"]:
        plan.append(("utf8check --deny LINTS", corpus,
                     f"{b('utf8check')} --deny {lints} {{}}{null} || true", [
                         ("isutf8", "isutf8 {}" + null) if have("isutf8") else None,
                         ("utf8check", f"{b('utf8check')} {{}}{null}"),
                     ]))
    for corpus in ["mix-err-kib.txt", "mix-allkinds-kib.txt"]:
        plan.append(("utf8check --format json", corpus,
                     f"{b('utf8check')} --format json {{}}{null} || true", [
                         # GNU grep stops at the first match when its output is /dev/null: a
                         # pipe makes it count them all.
                         ("grep -caxv", grep_env + "grep -caxv '.*' {} | cat" + null),
                     ]))
    cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    trees = {
        "cargo registry sources": os.path.join(cargo_home, "registry", "src"),
        "python stdlib": sysconfig.get_paths()["stdlib"],
        **{name: path for name, path in corpora.items() if name.startswith("tree-")},
    }
    for name, tree in trees.items():
        if not os.path.isdir(tree):
            continue
        corpora[name] = tree
        plan.append(("utf8check -r TREE", name, f"{b('utf8check')} -r {{}}{null} || true", [
            ("rg -c NOMATCH", "rg --no-require-git -c NOMATCH {}" + null + " || true")
            if have("rg") else None,
            ("find | xargs isutf8", "find {} -type f -print0 | xargs -0 isutf8" + null
             + " || true") if have("isutf8") else None,
            ("utf8check -r -j1", f"{b('utf8check')} -r -j1 {{}}{null} || true"),
        ]))
    for corpus in ["mix.txt", "mix-err-kib.txt"]:
        plan.append(("utf8fix", corpus, f"{b('utf8fix')} {{}}{null}", [
            ("uconv", "uconv -f utf-8 -t utf-8 --from-callback substitute {}" + null)
            if have("uconv") else None,
            ("python", "python3 -c \"import sys; sys.stdout.buffer.write(open(sys.argv[1],'rb')"
                       ".read().decode('utf-8','replace').encode())\" {}" + null),
        ]))
    plan.append(("utf8dump -x", "mix-16m.txt", f"{b('utf8dump')} -x {{}}{null}", [
        ("xxd", "xxd {}" + null) if have("xxd") else None,
    ]))
    plan.append(("utf8dump", "mix-16m.txt", f"{b('utf8dump')} --color never {{}}{null}", [
        ("hexyl", "hexyl --color never {}" + null) if have("hexyl") else None,
    ]))
    plan.append(("utf8enc --from utf-16le", "utf16le.txt",
                 f"{b('utf8enc')} --from utf-16le {{}}{null}", [
                     ("uconv", "uconv -f utf-16le -t utf-8 {}" + null) if have("uconv") else None,
                     ("iconv", "iconv -f UTF-16LE -t UTF-8 {}" + null),
                 ]))
    plan.append(("utf8enc --from latin1", "latin1.txt",
                 f"{b('utf8enc')} --from latin1 {{}}{null}", [
                     ("uconv", "uconv -f iso-8859-1 -t utf-8 {}" + null) if have("uconv") else None,
                     ("iconv", "iconv -f ISO-8859-1 -t UTF-8 {}" + null),
                 ]))

    print(f"Corpora of {args.size} ({size} bytes; the dump views {dump_size} bytes), "
          f"median of {args.runs} runs after {args.warmup} warm-up, on {os.cpu_count()} CPUs: "
          f"{model}, SIMD levels {', '.join(available)}.")
    print()
    print("| program | input | level | median | MB/s | peer | peer median | ratio |")
    print("|---|---|---|---:|---:|---|---:|---:|")
    plan = [row for row in plan if row[0].startswith(args.only)]
    for group, corpus, ours, peers in plan:
        path = corpora[corpus]
        mb = (tree_size(path) if os.path.isdir(path) else os.path.getsize(path)) / 1e6
        peers = [p for p in peers if p is not None]
        for level in levels:
            # Our commands (the row's and any of ours among its peers) run at the level; the
            # peers' own SIMD is theirs.
            force = f"UTF8KIT_FORCE_IMPL={level} "
            ours_at = lambda command: force + command if BIN in command else command  # noqa: E731
            commands = [("ours", ours_at(ours.format(path)))]
            commands += [(name, ours_at(command.format(path))) for name, command in peers]
            medians = hyperfine(commands, args.runs, args.warmup)
            mine = medians["ours"]
            first = True
            for name, _ in peers:
                theirs = medians[name]
                left = (f"| {group} | {corpus} | {level} | {mine:.3f} s | {mb / mine:.0f} |"
                        if first else "| | | | | |")
                print(f"{left} {name} | {theirs:.3f} s | {theirs / mine:.2f}x |")
                first = False
            if not peers:
                print(f"| {group} | {corpus} | {level} | {mine:.3f} s | {mb / mine:.0f} "
                      "| - | - | - |")

    if args.memory:
        amount = parse_size(args.memory)
        print()
        print(f"Peak memory streaming {args.memory} through standard input (/usr/bin/time -v):")
        print()
        print("| program | peak RSS |")
        print("|---|---:|")
        # The corpus is shorter than the amount: repeat it.
        repeat = max(1, amount // size + 1)
        feed = f"for i in $(seq {repeat}); do cat {corpora['mix.txt']}; done | head -c {amount}"
        for name, command in [
            ("utf8check", b("utf8check")),
            ("utf8fix", b("utf8fix")),
            ("utf8enc --to utf-16le", b("utf8enc") + " --to utf-16le --errors replace"),
            ("utf8dump -x (first 256 MiB)", b("utf8dump") + " -x -n 256M"),
        ]:
            shell = f"{feed} | /usr/bin/time -v {command} > /dev/null"
            result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True)
            peak = [l for l in result.stderr.splitlines() if "Maximum resident" in l]
            kib = int(peak[0].split()[-1]) if peak else -1
            print(f"| {name} | {kib / 1024:.1f} MiB |")
    if not args.corpora:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
