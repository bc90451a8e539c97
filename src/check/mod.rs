//! `utf8check`: validate inputs and report every ill-formed unit (SPEC 3).
//!
//! Inputs come from [`walk::jobs`] in output order. With one thread they are
//! checked one after the other straight into standard output; with more, each input is rendered
//! into its own buffer by a worker and the buffers are printed in input order, so the output is
//! byte for byte the same whatever the number of threads.
//!
//! This file holds the options, their settings and the run; `job.rs` checks one input,
//! `parallel.rs` runs the jobs on one thread or many, `tally.rs` adds up their outcomes,
//! and `whole.rs` one big file on every core; the hint is `crate::hint`, which utf8fix shares. The walk is
//! `crate::walk` (utf8fix's lists use it too) and the formats `crate::report`.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Seek, Write};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use clap::Parser;
use termcolor::{BufferWriter, WriteColor};
use utf8kit_codec::{Config, Lint, LintSet, Policy, Position, Scanner, Sink};

use crate::cli::{ColorWhen, Denied, parse_size};
use crate::hint;
use crate::input::{ChunkReader, Source, io_reason, looks_binary};
use crate::output::{self, Messages};
use crate::report::{
    Finding, FindingKind, Format, InputName, NameIssue, Printer, Sarif, Severity, Summary,
};
use crate::status::Status;
use crate::walk::{self, FilesFrom, Job, ListArgs, WalkOptions};

mod job;
mod parallel;
mod tally;
mod whole;

use job::*;
use parallel::*;
use tally::*;

const ABOUT: &str = "Validate UTF-8 and report every ill-formed sequence";

const LONG_ABOUT: &str = "\
Validate UTF-8 and report every ill-formed sequence.

utf8check reads each FILE (standard input when there is none, or for '-') and reports every \
ill-formed unit it holds, with its byte offset, line, column, kind, bytes and code point. \
Well-formed UTF-8 is exactly RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. \
An empty file is valid.

Each mistake is reported once, as one unit whose length follows its lead byte. The kinds:

unexpected-continuation: a continuation byte (80..BF) with no lead byte.

invalid-byte: FE or FF, never used in any form of UTF-8.

truncated: a lead byte followed by too few continuation bytes (E2 82 at the end of input).

overlong: a value encoded in more bytes than it needs (C0 AF for '/').

surrogate: an encoded UTF-16 surrogate, U+D800..U+DFFF (ED A0 80).

surrogate-pair: a CESU-8 pair of surrogates, one 6-byte unit (ED A0 BD ED B8 80).

out-of-range: a value above U+10FFFF (F4 90 80 80), in the 4- to 6-byte forms of RFC 2279.

utf16-bom, utf32-bom: the input starts with the byte order mark of UTF-16 or UTF-32 (it is \
not UTF-8 at all); one finding at offset 0 covers the mark.

file-name: a component of the path is not UTF-8 (a name from a ZIP archive made on Windows, \
an old Latin-1 file server, ...). Each ill-formed unit of the name is one finding, whose offset \
is inside the name and whose line and column are 0 (human output: 'PATH: file-name: ... (bytes \
e9 at offset 3 of the name)'; github: an annotation on the file without a line; SARIF: a \
result on the file without a region). A file's own name is checked with the file; a directory \
whose name is not UTF-8 is reported once, before the first input under it, as an input of its \
own with 0 bytes (-l lists it). The hint names the likely encoding of the name (windows-1252, \
cp437 or cp850 for a ZIP archive, shift_jis) and the utf8fix --names command that renames it. \
--deny non-nfc-name also reports names that are UTF-8 but not in Unicode Normalization Form C \
(macOS writes NFD, and git then sees two files), one finding covering the name; --warn \
non-nfc-name makes them warnings. all does not include non-nfc-name. The lints bidi, \
control, invisible and tag (and all) read names too, with the rules they follow in content (an \
emoji's ZWJ, a real flag stay): a name holding such a character (an RLO that shows \
'\\u{202e}gnp.js' as 'sj.png', a NEL, a CSI) is a file-name finding naming the character and \
its offset in the name.

--deny adds findings for well-formed characters: bom (U+FEFF at offset 0), nul (U+0000), \
control (C0 controls but TAB, LF, VT, FF, CR; DEL; C1 controls), noncharacter (U+FDD0..U+FDEF, \
U+xxFFFE, U+xxFFFF), bidi (U+202A..U+202E, U+2066..U+2069, the Trojan Source controls), \
private-use, replacement (U+FFFD), invisible, tag, non-ascii, mixed-script. --allow accepts ill-formed units that other systems write on \
purpose: surrogates (WTF-8), cesu8 (surrogate pairs only), modified (Java's Modified UTF-8: \
surrogates and C0 80).

invisible reports characters that render as nothing where they have no typographic job, each \
as one finding: U+200B zero width space (except between letters of scripts written without \
spaces: Thai, Lao, Khmer, Myanmar, Tibetan, Chinese, Japanese), U+2060 word joiner, U+2061..U+2064 \
(invisible mathematical operators), U+FEFF after offset 0, U+200C ZWNJ and U+200D ZWJ (except \
inside an emoji sequence or between letters and marks of a joining script), the variation \
selectors U+FE00..U+FE0F (except after a character they vary: not after ASCII other than \
0-9 # *, which keycaps use) and U+E0100..U+E01EF (except after a CJK ideograph), U+180E \
(except between Mongolian letters), the Hangul fillers U+115F and U+1160 (except inside a \
conjoining jamo sequence), U+3164 and U+FFA0, U+034F combining grapheme joiner, U+17B4 and \
U+17B5, and U+2800 Braille blank (except next to Braille). Left out on purpose: U+00AD soft \
hyphen and U+200E/U+200F, which have a job in ordinary text. tag reports the Unicode tag \
characters U+E0000..U+E007F, which render as nothing and spell hidden ASCII: each run of them \
(tags right after each other) is one finding, whose message spells the text it hides \
('tag characters hiding \"ignore previous instructions\"'), except inside an emoji flag sequence: U+1F3F4, then a subdivision \
code of 3 to 6 tags of lowercase letters and digits, then U+E007F (the flags of England, \
Scotland, Wales); any other run of tags after U+1F3F4 (capitals, spaces, more than 6) is hidden \
text and is reported. non-ascii is the \
ASCII-only rule: every character above U+007F that no other lint asked for matches, and each \
run of such characters is one finding: the ASCII spaces, tabs and punctuation between them on \
a line join them, an ASCII letter or digit or a line end does not (its offset, line and column \
are the run's first character's, its bytes span the run; a run longer than 4096 bytes is \
reported in pieces), so a line of Greek is one finding, not forty.

mixed-script reports words (maximal runs of letters, marks and digits) whose letters come from \
scripts that no writing system mixes, as Unicode TR39 judges at its Highly Restrictive level: \
Common and Inherited characters (digits, combining accents) take the word's script, and Latin \
with Han and kana (Japanese), Han with Hangul (Korean) and Han with Bopomofo pass. One finding \
per word, its bytes spanning the word, whose message names the scripts and, where each letter \
outside ASCII has an ASCII look-alike (TR39's confusable prototypes), the word it imitates: \
'pаypal' mixes Latin and Cyrillic; it looks like 'paypal'. Its letters are then no non-ascii \
finding. Limits: a whole word in one look-alike script (an all-Cyrillic 'аре') is single-script \
and passes; a word longer than 1024 bytes is judged in pieces; file names are not judged.

The line is 1 + the number of LF bytes before the unit; the column is 1 + the number of units \
since the last LF, so a column counts characters, and an ill-formed unit counts as one.

With -r, directories are walked as ripgrep walks them: files and directories that .gitignore, \
.ignore or git's exclude files name are skipped (inside a git repository or not), and so are \
hidden ones. Inside a git work tree the walk also takes every file git tracks (git ls-files), \
whatever hides it: a hidden directory such as .github/, a file force-added although ignored, an \
.ignore file, a submodule (its tracked files are checked too); a gate cannot be talked out of a \
tracked file, and a GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE inherited from the environment (git \
exports them to hooks) is not passed to git. Symbolic links are not followed \
unless --follow (which never enters /proc, /sys or /dev, and skips a link loop with a note). \
-L is ripgrep's -L where links are found (with -r, --files-from or --files0-from, it is \
--follow) and grep's -L everywhere else (--files-without-errors); the long names always mean \
one thing, so scripts should spell them out. \
A directory in a list is walked with -r, and a submodule (a directory with its own .git, which \
a list of changed files names as one path) always. \
Files found by the walk or listed by --files-from that look binary (bytes that are not UTF-8 in \
the first 8 KiB, together with a known binary signature: PNG, JPEG, gzip, xz, zstd, 7-Zip, zip, \
ELF, Mach-O, Java class, WebAssembly, SQLite, TrueType, icon, Ogg, Sun audio, MP4, tar, \
compiled Python; or with NUL bytes \
and at least one byte in 128 of those 8 KiB a NUL or another control byte; never with a UTF-16 \
or UTF-32 byte order mark) are skipped unless --binary. A file whose first \
8 KiB are valid UTF-8 is never binary, whatever signature it starts with (a script that begins \
'PK\\x03\\x04' still runs), and a text file that holds a NUL is checked (--deny nul reports the \
NUL). One NUL and one stray byte do not make a text file binary; a file can still be made to \
look binary on purpose (64 control bytes in its first 8 KiB): a gate that must read every byte \
adds --binary. A file named on the command line is always checked. Entries are \
visited in sorted order. A --glob that matches no file and an ignore file that cannot be used \
(a line that is not a glob, a pattern set too large) are trouble, so that a typo cannot pass as \
a clean run.

Names are shown safely: in human output and messages a control character is a C escape (\\n, \
\\r, \\t, \\x1b), a bidi, format or invisible character \\u{202e}, a byte that is not UTF-8 \
\\xe9, a backslash \\\\, and a relative name that starts with ':', '#' or white space gets './', \
so that no name can move the cursor, start a line or forge a finding or a CI command. The \
github format writes the real path escaped as a property (%0A, %3A, %2C, %25), and the escaped \
form above only for a name that is not UTF-8 or holds a control (but a tab) or bidi character; \
JSON carries the name as a string and, when it is not UTF-8, its exact bytes in \"path_base64\"; \
SARIF percent-encodes the exact bytes (an absolute path as a file:// URI); codeclimate writes a \
name that is not UTF-8 in the escaped form (caf\\xe9: two names never share a path) and takes \
its fingerprints from the exact bytes; -0 writes them as they are, for xargs -0.

When the findings of an input look like text in a legacy encoding (nine in ten of them lone \
bytes; three in four for a double-byte encoding such as Shift_JIS, whose pairs can read as longer \
units, or for a single-byte one when no well-formed UTF-8 stands among the legacy bytes: IBM855 \
writes 'за' as F3 A0), or a valid input looks like UTF-16 or UTF-32 \
without a byte order mark, or starts with the byte order mark of UTF-16 or UTF-32, a hint \
says how to convert it: the human format adds a note on standard error, 'utf8check: PATH: hint: \
...'; JSON a {\"type\":\"hint\",\"path\":P,\"encoding\":E,\"command\":C,\"message\":S} object \
before the input's summary; GitHub a ::notice on the file; SARIF a result of level note (rule \
'hint') on the file; CodeClimate an issue of severity info. A valid input whose first lines read \
as mojibake (UTF-8 decoded in a legacy encoding and saved again: 'cafÃ©'; or Chinese, Japanese or \
Korean text in a double-byte encoding decoded as windows-1252: 'ÄãºÃ£¬ÊÀ½ç', the note says 'gbk \
text read as windows-1252'; or a Cyrillic code page read as another: 'рТЙЧЕФ', 'koi8-r text read \
as windows-1251') gets the same kind of note, pointing to utf8fix --mojibake -i FILE; so does a \
valid input in ISO-2022-JP (7-bit, its escape sequences switch to Japanese), pointing to utf8enc \
--from iso-2022-jp, or in ISO-2022-KR, which no decoder here reads; it stays valid, and the note is never a finding. It names an encoding only on strong \
evidence: the lines that are not UTF-8 are read in each candidate encoding, and one reading must \
put at least 90% of its letters into the alphabet of one language written in that encoding, in \
words of one script, and lead every reading that differs from it (a twin, the same alphabet in \
another code page, only when it ties; a close call of fewer than 16 letters is left open); a legacy encoding the file declares for itself (scriptencoding, \
coding:, charset=, encoding=) counts when the text agrees; a file that lists letters one by one \
(a keymap) is named when exactly one encoding reads at least 12 of them as letters of one \
language, half its alphabet or more. On weaker evidence the note says \
'possibly A or B' without a command, on too little it is silent. The advice never changes a \
well-formed character: a file that mixes UTF-8 with stray bytes of a single-byte encoding (more \
than one well-formed multi-byte character per hundred broken bytes) gets 'utf8fix --fallback ENC \
-i FILE', which decodes only the ill-formed bytes; a file wholly in a legacy encoding (where a few \
byte pairs may be well-formed UTF-8 by chance) or in UTF-16 gets 'utf8enc --from ENC -o FILE \
FILE', which converts it and replaces it atomically. Pasted, the command \
fixes the file. A hint is not trouble and no finding: it does not change the exit status or \
the counts.";

const AFTER_LONG_HELP: &str = "\
Exit status:
  0  every input is valid
  1  at least one finding
  2  trouble: bad usage, or an input that could not be read (the other inputs are still \
checked); trouble wins over findings

Output:
  Findings go to standard output, trouble to standard error as 'utf8check: PATH: reason'. \
Standard input is named <stdin> in human output and - in JSON. -l, -L (without -r) and -c print plain \
lines whatever the --format (names escaped as GitHub properties with --format github); -c \
prints 'PATH:COUNT', or only COUNT when a single input is named and nothing is walked, as grep \
does; with -0 a NUL follows each path. With --format github, trouble is an ::error annotation \
too and --summary writes ::notice lines. A closed standard output (utf8check big | head) ends \
the program quietly with the status earned so far: 1 once a finding was made. -q stops reading \
at the first finding, but a later input that cannot be opened still makes the status 2. A \
standard input closed at start (<&-) is trouble, not an empty input. With -j, inputs are checked in parallel and printed in input order: \
the output is the same for every number of threads.

Colour:
  --color auto (the default) colours only a terminal, and never when NO_COLOR is set or TERM \
is dumb. --color always colours a pipe too.

Formats:
  human   PATH:LINE:COLUMN: KIND: detail (bytes c0 af at offset 1)
  json    {\"type\":\"error\",\"path\":P,\"offset\":N,\"length\":N,\"line\":N,\"column\":N,\
\"kind\":K,\"bytes\":\"c0af\",\"codepoint\":N|null,\"message\":S}, and after each input \
{\"type\":\"summary\",\"path\":P,\"bytes\":N,\"errors\":N,\"valid\":B,\"complete\":B}
  github  ::error file=P,line=N,col=N,title=utf8check KIND::message (GitHub Actions annotations)
  sarif   one SARIF 2.1.0 log: a rule per kind, a result per finding with its line, column \
(columnKind unicodeCodePoints), byte offset and byte length
  codeclimate  GitLab's Code Quality report: one JSON array of issues (description, \
check_name utf8check/KIND, fingerprint, severity, location.path, location.lines.begin), written \
at the end; point a job's artifacts:reports:codequality at it

Warnings:
  --warn LINTS reports those lints as warnings: 'PATH:LINE:COLUMN: warning: KIND: ...' in human \
output, type warning in JSON (and a warnings count in the summary), ::warning in GitHub, level \
warning in SARIF, severity minor in CodeClimate (errors are major). Warnings never make the \
status 1 and are not counted by -c, -l, -L, -q or --max-errors. A lint named by both --deny \
and --warn is an error.

Examples:
  utf8check notes.txt
  printf 'a\\xc0\\xafb\\n' | utf8check --format json
  utf8check -q data.csv && echo valid
  utf8check -r --deny bidi,control .          # lint a whole repository in CI
  git diff --name-only -z origin/main... | utf8check --files0-from - --ignore-missing
  utf8check -r -l -0 . | utf8fix -i --files0-from -  # repair them; legacy text is left with a hint
  utf8check -r --format sarif . > utf8check.sarif
  utf8check -r --deny bidi --warn invisible,tag --format codeclimate . > gl-code-quality.json
  utf8check -r --deny non-nfc-name .          # names not UTF-8, or NFD from macOS";

/// The command line of `utf8check`.
#[derive(Debug, Parser)]
#[command(
    name = "utf8check",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_LONG_HELP,
    max_term_width = 100
)]
pub struct Args {
    /// Files or directories to check; '-' or none reads standard input (with -r, none walks '.').
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    pub format: Format,

    /// Print nothing; exit with the status only, stopping at the first finding.
    #[arg(short, long)]
    pub quiet: bool,

    /// No messages on standard error about inputs that cannot be read (grep -s); the status
    /// is still 2.
    #[arg(short = 's', long)]
    pub no_messages: bool,

    /// Accepted for grep's habit and ignored: human output always shows line numbers.
    #[arg(short = 'n', long)]
    pub line_number: bool,

    /// Accepted for grep's habit and ignored: findings always name their file.
    #[arg(short = 'H', long)]
    pub with_filename: bool,

    /// Print only the names of inputs with at least one finding.
    #[arg(short = 'l', long, group = "listing")]
    pub files_with_errors: bool,

    /// Print only the names of inputs without any finding.
    #[arg(long, group = "listing")]
    pub files_without_errors: bool,

    /// grep's -L and ripgrep's -L at once: in a walk or a list (-r, --files-from,
    /// --files0-from) it is --follow; otherwise it is --files-without-errors.
    #[arg(short = 'L')]
    pub ell: bool,

    /// Print only the number of findings of each input.
    #[arg(short, long, group = "listing")]
    pub count: bool,

    /// Stop reading an input after N findings, N at least 1 (its summary then says "complete":
    /// false).
    #[arg(short, long, value_name = "N", value_parser = parse_max_errors)]
    pub max_errors: Option<u64>,

    /// After each input, a line with its size and its number of findings (human format), and a
    /// total at the end.
    #[arg(long)]
    pub summary: bool,

    /// Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified
    /// (comma-separated).
    #[arg(long, value_name = "POLICY", value_delimiter = ',', value_parser = crate::cli::policy_parser())]
    pub allow: Vec<Policy>,

    /// Also report these well-formed characters: bom, nul, control, noncharacter, bidi,
    /// private-use, replacement, invisible, tag, non-ascii, mixed-script, or all
    /// (comma-separated); and
    /// non-nfc-name for file names that are UTF-8 but not in NFC.
    #[arg(long, value_name = "LINTS", value_delimiter = ',', value_parser = crate::cli::deny_parser())]
    pub deny: Vec<Denied>,

    /// Report these lints as warnings: shown in every format (::warning, SARIF level warning,
    /// CodeClimate severity minor) but not errors, so they never make the status 1.
    #[arg(long, value_name = "LINTS", value_delimiter = ',', value_parser = crate::cli::deny_parser())]
    pub warn: Vec<Denied>,

    /// Lists of files: --files-from, --files0-from, --ignore-missing.
    #[command(flatten)]
    pub lists: ListArgs,

    /// Write a NUL, not a newline, after each path that -l or -L prints (and between path and
    /// count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes.
    #[arg(short = '0', long = "null")]
    pub null: bool,

    /// The name standard input gets in every format (default: `<stdin>` for people, `-` in JSON).
    #[arg(long, value_name = "NAME")]
    pub label: Option<OsString>,

    /// Walk directories.
    #[arg(short, long)]
    pub recursive: bool,

    /// With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable;
    /// matched like .gitignore lines).
    #[arg(short, long, value_name = "GLOB")]
    pub glob: Vec<String>,

    /// With -r, include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// With -r, do not skip what .gitignore, .ignore and git's exclude files name.
    #[arg(long)]
    pub no_ignore: bool,

    /// Also check files found by a walk or a list that look binary.
    #[arg(long)]
    pub binary: bool,

    /// Follow symbolic links found by a walk or a list (never into /proc, /sys or /dev); -L
    /// with -r or a list.
    #[arg(long)]
    pub follow: bool,

    /// Check this many inputs at once (default: the number of CPUs); threads the system refuses
    /// (a process limit) are done without, with a note.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print a man page or a shell completion script, and exit (KIND: man, complete-bash,
    /// complete-zsh, complete-fish, complete-elvish, complete-powershell).
    #[arg(long, value_enum, value_name = "KIND")]
    pub generate: Option<crate::cli::Generate>,
}

fn parse_max_errors(text: &str) -> Result<u64, String> {
    match parse_size(text)? {
        0 => {
            Err("0 would check nothing: use at least 1 (or -q to stop at the first finding)".into())
        }
        n => Ok(n),
    }
}

/// What is printed for each input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every finding, in the chosen format.
    Findings,
    /// Nothing; stop at the first finding (`-q`).
    Quiet,
    /// Names of inputs with findings (`-l`).
    FilesWithErrors,
    /// Names of inputs without findings (`-L`).
    FilesWithoutErrors,
    /// The number of findings of each input (`-c`).
    Count,
}

/// What the command line asks for, resolved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The inputs named as operands.
    pub operands: Vec<Source>,
    /// A list of more inputs.
    pub files_from: Option<FilesFrom>,
    /// How directories are walked.
    pub walk: WalkOptions,
    /// How findings are written.
    pub format: Format,
    /// What is printed for each input.
    pub mode: Mode,
    /// Stop reading an input after this many findings.
    pub max_errors: Option<u64>,
    /// Print a summary line per input and a total (human format).
    pub summary: bool,
    /// Check files that look binary even when a walk or a list found them.
    pub binary: bool,
    /// End printed paths with NUL (`-0`).
    pub null: bool,
    /// The name of standard input (`--label`).
    pub label: Option<OsString>,
    /// The lints of `--warn` that `--deny` does not also name: their findings are warnings.
    pub warn: LintSet,
    /// Names that are UTF-8 but not in NFC are findings of this severity (`--deny` or `--warn
    /// non-nfc-name`).
    pub nfc_names: Option<Severity>,
    /// What counts as a finding.
    pub codec: Config,
    /// Inputs checked at once.
    pub threads: usize,
    /// When to colour.
    pub color: ColorWhen,
}

impl Settings {
    /// Resolves the command line.
    ///
    /// # Errors
    ///
    /// A usage problem clap cannot see (an invalid glob), as a message.
    pub fn from_args(args: &Args) -> Result<Settings, String> {
        // SPEC gives -L to both grep's --files-without-match and ripgrep's --follow. Following
        // means something only where links are found (a walk, a list): there -L follows, and
        // everywhere else it lists the inputs without findings, as grep's -L does.
        let finds_links =
            args.recursive || args.lists.files_from.is_some() || args.lists.files0_from.is_some();
        let follow = args.follow || (args.ell && finds_links);
        let files_without_errors = args.files_without_errors || (args.ell && !finds_links);
        if args.ell && !finds_links && (args.files_with_errors || args.count) {
            let other = if args.files_with_errors { "-l" } else { "-c" };
            return Err(format!(
                "the argument '-L' (--files-without-errors without -r) cannot be used with '{other}'"
            ));
        }
        let mode = if args.quiet {
            Mode::Quiet
        } else if args.files_with_errors {
            Mode::FilesWithErrors
        } else if files_without_errors {
            Mode::FilesWithoutErrors
        } else if args.count {
            Mode::Count
        } else {
            Mode::Findings
        };
        let walk = WalkOptions {
            recursive: args.recursive,
            hidden: args.hidden,
            no_ignore: args.no_ignore,
            follow,
            globs: args.glob.clone(),
            nfc_names: args.deny.contains(&Denied::NonNfcName)
                || args.warn.contains(&Denied::NonNfcName),
        };
        walk.validate()?;
        let operands: Vec<Source> = args.files.iter().map(|f| Source::from_operand(f)).collect();
        let files_from = args.lists.resolve(&operands)?;
        let threads = args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |n| n as usize,
        );
        let union = |named: &[Denied]| {
            named.iter().fold(LintSet::NONE, |all, one| match one {
                Denied::Lints(lints) => all.union(*lints),
                Denied::NonNfcName => all,
            })
        };
        let (deny, warn) = (union(&args.deny), union(&args.warn));
        let nfc_names = if args.deny.contains(&Denied::NonNfcName) {
            Some(Severity::Error)
        } else if args.warn.contains(&Denied::NonNfcName) {
            Some(Severity::Warning)
        } else {
            None
        };
        Ok(Settings {
            operands,
            files_from,
            walk,
            format: args.format,
            mode,
            max_errors: args.max_errors,
            summary: args.summary,
            binary: args.binary,
            null: args.null,
            label: args.label.clone(),
            warn: warn.without(deny),
            nfc_names,
            codec: Config {
                policy: args
                    .allow
                    .iter()
                    .fold(Policy::STRICT, |all, &one| all.union(one)),
                lints: deny.union(warn),
                foreign_bom: true,
                words: Some(crate::mixed_script::RULE),
            },
            threads,
            color: args.color,
        })
    }

    /// Whether `-c` prints names: unless a single input is named and nothing is walked.
    fn count_shows_names(&self) -> bool {
        self.walk.recursive || self.files_from.is_some() || self.operands.len() > 1
    }

    /// Whether more than one input may be checked, so that threads can help.
    fn may_have_many_inputs(&self) -> bool {
        self.walk.recursive || self.files_from.is_some() || self.operands.len() > 1
    }
}

/// Runs `utf8check` with standard output as the output.
///
/// # Errors
///
/// Only a failure to write standard output (other than a closed pipe) is an error; trouble with
/// one input is reported on standard error and makes the status 2.
pub fn run(args: &Args) -> Status {
    let mut messages = Messages::new("utf8check");
    if args.no_messages {
        messages = messages.without_trouble_lines();
    }
    let settings = match Settings::from_args(args) {
        Ok(settings) => settings,
        Err(reason) => {
            messages.error(reason);
            return Status::Trouble;
        }
    };
    let mut tally = Tally::new(&settings);
    let parallel = if settings.threads > 1 && settings.may_have_many_inputs() {
        check_parallel(&settings, &mut tally, &mut messages)
    } else {
        Ok(false)
    };
    let written = match parallel {
        Ok(true) => Ok(()),
        Err(error) => Err(error),
        Ok(false) => {
            if settings.threads > 1 && settings.may_have_many_inputs() {
                messages.note("threads could not be started; checking on this one");
            }
            let mut out = output::stdout(settings.color);
            check_sequential(&settings, &mut *out, &mut tally, &mut messages)
                .and_then(|()| tally.finish(&mut *out))
                .and_then(|()| out.flush())
        }
    };
    messages.ended(written, tally.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_and_lints_parse() {
        let error = Args::try_parse_from(["utf8check", "--allow", "strict"]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("[possible values: surrogates, cesu8, modified]")
        );
        let error = Args::try_parse_from(["utf8check", "--deny", "bidi,nope"]).unwrap_err();
        assert!(
            error.to_string().contains("invalid value 'nope'"),
            "{error}"
        );
        let args = Args::parse_from([
            "utf8check",
            "--allow",
            "cesu8,surrogates",
            "--deny",
            "bom",
            "--deny",
            "bidi,nul",
        ]);
        let settings = Settings::from_args(&args).unwrap();
        assert_eq!(
            settings.codec.lints,
            LintSet::parse("bom,bidi,nul").unwrap(),
            "every list joins"
        );
        let args = Args::parse_from(["utf8check", "--allow", "cesu8,surrogates", "--deny", "bom"]);
        let settings = Settings::from_args(&args).unwrap();
        assert_eq!(settings.codec.policy, Policy::SURROGATES);
        assert_eq!(
            settings.codec.lints,
            LintSet::NONE.with(utf8kit_codec::Lint::Bom)
        );
    }
}
