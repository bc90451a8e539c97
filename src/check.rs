//! `utf8check`: validate inputs and report every ill-formed unit (SPEC 3).
//!
//! Inputs come from [`walk::jobs`] in output order. With one thread they are
//! checked one after the other straight into standard output; with more, each input is rendered
//! into its own buffer by a worker and the buffers are printed in input order, so the output is
//! byte for byte the same whatever the number of threads.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Seek, Write};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use clap::Parser;
use termcolor::{BufferWriter, WriteColor};
use utf8kit_codec::{
    Config, Finding, FindingKind, LintSet, NameIssue, Policy, Position, Scanner, Sink, UnitKind,
};

use crate::cli::{parse_size, ColorWhen, Denied};
use crate::input::{io_reason, looks_binary, ChunkReader, Source};
use crate::output::{self, Messages};
use crate::report::{Format, InputName, Printer, Sarif, Severity, Summary};
use crate::status::Status;
use crate::walk::{self, FilesFrom, Job, ListArgs, WalkOptions};

mod hint;
mod whole;

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
non-nfc-name makes them warnings. all does not include non-nfc-name.

--deny adds findings for well-formed characters: bom (U+FEFF at offset 0), nul (U+0000), \
control (C0 controls but TAB, LF, VT, FF, CR; DEL; C1 controls), noncharacter (U+FDD0..U+FDEF, \
U+xxFFFE, U+xxFFFF), bidi (U+202A..U+202E, U+2066..U+2069, the Trojan Source controls), \
private-use, replacement (U+FFFD), invisible, tag, non-ascii. --allow accepts ill-formed units that other systems write on \
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
hyphen and U+200E/U+200F, which have a job in ordinary text. tag reports each Unicode tag \
character U+E0000..U+E007F, which renders as nothing and spells hidden ASCII (the message \
shows the letter it hides), except inside an emoji flag sequence: U+1F3F4, then 1 to 32 tags \
U+E0020..U+E007E, then U+E007F (the flags of England, Scotland, Wales). non-ascii is the \
ASCII-only rule: every character above U+007F that no other lint asked for matches, and each \
run of such characters is one finding: the ASCII spaces, tabs and punctuation between them on \
a line join them, an ASCII letter or digit or a line end does not (its offset, line and column \
are the run's first character's, its bytes span the run; a run longer than 4096 bytes is \
reported in pieces), so a line of Greek is one finding, not forty.

The line is 1 + the number of LF bytes before the unit; the column is 1 + the number of units \
since the last LF, so a column counts characters, and an ill-formed unit counts as one.

With -r, directories are walked as ripgrep walks them: files and directories that .gitignore, \
.ignore or git's exclude files name are skipped (inside a git repository or not), and so are \
hidden ones. Inside a git work tree the walk also takes every file git tracks (git ls-files), \
whatever hides it: a hidden directory such as .github/, a file force-added although ignored, an \
.ignore file; a gate cannot be talked out of a tracked file. Symbolic links are not followed \
unless --follow (which never enters /proc, /sys or /dev, and skips a link loop with a note). \
-L is ripgrep's -L where links are found (with -r, --files-from or --files0-from, it is \
--follow) and grep's -L everywhere else (--files-without-errors); the long names always mean \
one thing, so scripts should spell them out. \
Files found by the walk or listed by --files-from that look binary (a NUL byte and bytes that \
are not UTF-8 in the first 8 KiB, or a known binary signature: PNG, JPEG, gzip, xz, zstd, 7-Zip, \
zip, ELF, Mach-O, Java class, WebAssembly, SQLite, TrueType, icon, Ogg, MP4, tar; never with a \
UTF-16 or UTF-32 byte order mark) are skipped unless --binary: a text file that holds a NUL is \
checked (--deny nul reports the NUL). Each signature holds a byte that source text does not \
start with, but a file can still be made to look binary on purpose: a gate that must read \
every byte adds --binary. A file named on the command line is always checked. Entries are \
visited in sorted order. A --glob that matches no file and an ignore file that cannot be used \
(a line that is not a glob, a pattern set too large) are trouble, so that a typo cannot pass as \
a clean run.

Names are shown safely: in human output and messages a control character is a C escape (\\n, \
\\r, \\t, \\x1b), a bidi, format or invisible character \\u{202e}, a byte that is not UTF-8 \
\\xe9, a backslash \\\\, and a relative name that starts with ':', '#' or white space gets './', \
so that no name can move the cursor, start a line or forge a finding or a CI command. The \
github format escapes every name as a property (%0A, %3A, %2C, %25); JSON carries the name as a \
string and, when it is not UTF-8, its exact bytes in \"path_base64\"; SARIF percent-encodes the \
exact bytes; -0 writes them as they are, for xargs -0.

When the findings of an input look like text in a legacy encoding (nine in ten of them lone \
bytes; three in four for a double-byte encoding such as Shift_JIS, whose pairs can read as longer \
units, and then only such an encoding is named), or a valid input looks like UTF-16 or UTF-32 \
without a byte order mark, the human format \
adds a note on standard error, 'utf8check: PATH: hint: ...'. It names an encoding only on strong \
evidence: the lines that are not UTF-8 are read in each candidate encoding, and one reading must \
put at least 90% of its letters into the alphabet of one language written in that encoding, in \
words of one script, and lead every reading that differs from it and is not its twin (the same \
alphabet in another code page); a legacy encoding the file declares for itself (scriptencoding, \
coding:, charset=, encoding=) counts when the text agrees; a file that lists letters one by one \
(a keymap) is named when exactly one encoding reads at least 12 of them as letters of one \
language, half its alphabet or more. On weaker evidence the note says \
'possibly A or B' without a command, on too little it is silent. The advice never changes a \
well-formed character: a file that mixes UTF-8 with stray bytes of a single-byte encoding (more \
than one well-formed multi-byte character per hundred broken bytes) gets 'utf8fix --fallback ENC \
-i FILE', which decodes only the ill-formed bytes; a file wholly in a legacy encoding (where a few \
byte pairs may be well-formed UTF-8 by chance) or in UTF-16 gets 'utf8enc --from ENC -o FILE \
FILE', which converts it and replaces it atomically. Pasted, the command \
fixes the file. The note is not trouble: it \
does not change the exit status, and standard output keeps one line per finding.";

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
  utf8check -r -l -0 . | xargs -0 utf8fix -i  # repair every file with findings
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
    /// private-use, replacement, invisible, tag, non-ascii, or all (comma-separated); and
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

    /// Check this many inputs at once (default: the number of CPUs).
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
    let settings = match Settings::from_args(args) {
        Ok(settings) => settings,
        Err(reason) => {
            messages.error(reason);
            return Status::Trouble;
        }
    };
    let mut tally = Tally::new(&settings);
    let written = if settings.threads > 1 && settings.may_have_many_inputs() {
        check_parallel(&settings, &mut tally, &mut messages)
    } else {
        let mut out = output::stdout(settings.color);
        check_sequential(&settings, &mut *out, &mut tally, &mut messages)
            .and_then(|()| tally.finish(&mut *out))
            .and_then(|()| out.flush())
    };
    messages.ended(written, tally.status)
}

/// Checks the inputs one after the other, writing straight to `out`.
///
/// # Errors
///
/// A failure to write to `out`.
pub fn check_sequential(
    settings: &Settings,
    out: &mut dyn WriteColor,
    tally: &mut Tally,
    messages: &mut Messages,
) -> io::Result<()> {
    let mut reader = ChunkReader::new();
    let mut result = Ok(());
    let _ = walk::jobs(
        &settings.operands,
        settings.files_from.as_ref(),
        &settings.walk,
        &mut |job| {
            if tally.is_stopped {
                // -q has its answer: only trouble can still change the status.
                tally.absorb(probe_job(&job), messages);
                return ControlFlow::Continue(());
            }
            let mut outcome = check_job(settings, &job, &mut reader, out);
            let write_error = outcome.write_error.take();
            // After -q's first finding the later jobs are still probed for trouble.
            tally.absorb(outcome, messages);
            match write_error {
                Some(error) => {
                    result = Err(error);
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            }
        },
    );
    result
}

/// Checks the inputs on `settings.threads` threads, each into its own buffer, and prints the
/// buffers in input order: the walker and `threads - 1` workers. The walker checks jobs itself
/// whenever the workers' queue is full, so that it neither waits nor competes with one thread
/// more than cores (with a separate walker on two cores, the walk got two thirds of a core and
/// set the pace: the Python standard library took 0.90 of ripgrep's time, now 1.00).
///
/// The walker hands out jobs in batches, and a worker sends back a batch's results at once, so
/// that the threads meet once per batch, not once per file (per-file hand-offs cost 7 futex
/// calls a file and made two threads slower than one on a tree of small files). Batches grow
/// from 1 job to [`BATCH_MAX`], so that the first results of a walk are printed at once.
///
/// Every job index gets an outcome, so the in-order printer never waits for one that will not
/// come. When `-q` sees a finding, `stop_after` drops to that job's index: later jobs are only
/// probed for trouble, earlier ones still run, and the result is what one thread gives. When
/// standard output closes, `is_closed` stops the listing.
fn check_parallel(
    settings: &Settings,
    tally: &mut Tally,
    messages: &mut Messages,
) -> io::Result<()> {
    type Done = (usize, Vec<(termcolor::Buffer, Outcome)>);
    let is_terminal = io::stdout().is_terminal();
    let choice = settings.color.resolve(is_terminal);
    let writer = BufferWriter::stdout(choice);
    let stop_after = AtomicUsize::new(usize::MAX);
    let is_closed = AtomicBool::new(false);
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Vec<Job>)>(settings.threads * 2);
    // How many results may wait for an earlier, slower one: a job is handed out only once the
    // printer is within REORDER_WINDOW of it, so a slow first input (a FIFO, a huge file) holds
    // at most that many rendered results in memory, not the whole tree's.
    let printed = (Mutex::new(0usize), std::sync::Condvar::new());
    let batch_rx = Mutex::new(batch_rx);
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut result = Ok(());
    // One batch of jobs, checked by whichever thread holds it, into its results.
    let check_batch = |first: usize, jobs: &[Job], reader: &mut ChunkReader| {
        let mut results = Vec::with_capacity(jobs.len());
        for (index, job) in (first..).zip(jobs) {
            let mut buffer = writer.buffer();
            let outcome = if index > stop_after.load(Ordering::Relaxed) {
                probe_job(job)
            } else {
                check_job(settings, job, reader, &mut buffer)
            };
            if settings.mode == Mode::Quiet && outcome.has_findings() {
                stop_after.fetch_min(index, Ordering::Relaxed);
            }
            results.push((buffer, outcome));
        }
        results
    };
    std::thread::scope(|scope| {
        let walker_done_tx = done_tx.clone();
        let (check_batch, printed, is_closed) = (&check_batch, &printed, &is_closed);
        scope.spawn(move || {
            let mut reader = ChunkReader::new();
            let mut first = 0;
            let mut batch = Vec::with_capacity(1);
            let mut batch_len = 1;
            let mut send = |batch: Vec<Job>, first: usize| -> ControlFlow<()> {
                let (count, turned) = printed;
                let mut count = count.lock().expect("no thread panics holding it");
                while first >= *count + REORDER_WINDOW && !is_closed.load(Ordering::Relaxed) {
                    count = turned.wait(count).expect("no thread panics holding it");
                }
                drop(count);
                if is_closed.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                // The walker is one of the threads: while the workers are behind, it checks the
                // batch's jobs itself, one at a time so that it hands the rest over as soon as
                // a worker is free (a whole batch would leave the workers idle meanwhile).
                let (mut batch, mut at, mut results) = (batch, first, Vec::new());
                let handed = loop {
                    match batch_tx.try_send((at, batch)) {
                        Ok(()) => break true,
                        Err(mpsc::TrySendError::Full((_, rest))) => batch = rest,
                        Err(mpsc::TrySendError::Disconnected(_)) => break false,
                    }
                    let rest = batch.split_off(1);
                    results.extend(check_batch(at, &batch, &mut reader));
                    (batch, at) = (rest, at + 1);
                    if batch.is_empty() {
                        break true;
                    }
                };
                let sent = results.is_empty() || walker_done_tx.send((first, results)).is_ok();
                if handed && sent {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            };
            let walked = walk::jobs(
                &settings.operands,
                settings.files_from.as_ref(),
                &settings.walk,
                &mut |job| {
                    batch.push(job);
                    if batch.len() < batch_len {
                        return ControlFlow::Continue(());
                    }
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(batch_len * 2));
                    let sent = full.len();
                    send(full, first)?;
                    first += sent;
                    batch_len = (batch_len * 2).min(BATCH_MAX);
                    ControlFlow::Continue(())
                },
            );
            if walked.is_continue() && !batch.is_empty() {
                let _ = send(batch, first);
            }
            drop(batch_tx);
        });
        // The walker checks when the workers are behind: one worker fewer than threads keeps
        // every core busy without one thread more than cores.
        for _ in 1..settings.threads {
            let done_tx = done_tx.clone();
            let batch_rx = &batch_rx;
            scope.spawn(move || {
                let mut reader = ChunkReader::new();
                loop {
                    let next = batch_rx.lock().expect("no worker panics").recv();
                    let Ok((first, jobs)) = next else { break };
                    if done_tx
                        .send((first, check_batch(first, &jobs, &mut reader)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (first, results) in done_rx {
            pending.insert(first, results);
            while let Some(results) = pending.remove(&next) {
                next += results.len();
                for (buffer, mut outcome) in results {
                    if result.is_err() {
                        continue;
                    }
                    if tally.is_stopped {
                        // -q has its answer: only trouble can still change the status.
                        tally.absorb(probe_outcome(outcome), messages);
                        continue;
                    }
                    let shown = match outcome.write_error.take() {
                        Some(error) => Err(error),
                        None => writer.print(&buffer),
                    };
                    // The findings count even when their output could not be written.
                    tally.absorb(outcome, messages);
                    if let Err(error) = shown {
                        stop_after.store(0, Ordering::Relaxed);
                        is_closed.store(true, Ordering::Relaxed);
                        result = Err(error);
                    }
                }
                // Under the lock, so that the walker cannot miss the wake-up.
                *printed.0.lock().expect("no thread panics holding it") = next;
                printed.1.notify_all();
            }
        }
    });
    result?;
    let mut buffer = writer.buffer();
    tally.finish(&mut buffer)?;
    writer.print(&buffer)
}

/// How many jobs past the oldest unprinted one may be handed out (see `check_parallel`). 512 held
/// the walk back behind a run of slow files (a directory of legacy files, each read again for
/// its hint: 0.75 of ripgrep's time on a 50k-file tree, 0.89 with 2048).
const REORDER_WINDOW: usize = 2048;

/// The most jobs a batch of `check_parallel` holds.
const BATCH_MAX: usize = 64;

/// What is left of a job once `-q` has its answer: trouble (a missing file) still counts, since
/// trouble wins over findings; nothing is read.
fn probe_job(job: &Job) -> Outcome {
    let trouble = match job {
        Job::Trouble { path, reason } => Some((path.clone(), reason.clone())),
        Job::Note { .. } | Job::Name { .. } => None,
        Job::Check {
            source: Source::Stdin,
            ..
        } => None,
        Job::Check {
            source: Source::Path(path),
            ..
        } => std::fs::File::open(path)
            .err()
            .map(|error| (crate::render::path(path).into_owned(), io_reason(&error))),
    };
    Outcome {
        trouble,
        ..Outcome::default()
    }
}

/// The trouble of an outcome checked before `-q` stopped the run, without its findings.
fn probe_outcome(outcome: Outcome) -> Outcome {
    Outcome {
        trouble: outcome.trouble,
        ..Outcome::default()
    }
}

/// What checking one job gave, besides the output it wrote.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The summary of an input that was read; `None` for trouble and skipped binary files.
    summary: Option<Summary>,
    /// Trouble: `(path, reason)`.
    trouble: Option<(String, String)>,
    /// The findings of a one-document format: SARIF results or CodeClimate issues.
    results: Vec<serde_json::Value>,
    /// The hints (legacy encoding, a name's encoding) or another note, for standard error.
    hints: Vec<String>,
    /// A failure to write the job's output; its findings still count.
    write_error: Option<io::Error>,
}

impl Outcome {
    fn has_findings(&self) -> bool {
        self.summary.is_some_and(|s| s.errors > 0)
    }
}

/// The state of a run: its status, totals and SARIF log.
#[derive(Debug)]
pub struct Tally {
    status: Status,
    mode: Mode,
    format: Format,
    summary: bool,
    inputs: u64,
    inputs_with_findings: u64,
    findings: u64,
    sarif: Option<Sarif>,
    /// The issues of `--format codeclimate`, written as one array at the end.
    codeclimate: Option<Vec<serde_json::Value>>,
    is_stopped: bool,
}

impl Tally {
    /// An empty tally for a run with these settings.
    pub fn new(settings: &Settings) -> Tally {
        Tally {
            status: Status::Clean,
            mode: settings.mode,
            format: settings.format,
            summary: settings.summary,
            inputs: 0,
            inputs_with_findings: 0,
            findings: 0,
            sarif: (settings.format == Format::Sarif && settings.mode == Mode::Findings)
                .then(Sarif::default),
            codeclimate: (settings.format == Format::Codeclimate
                && settings.mode == Mode::Findings)
                .then(Vec::new),
            is_stopped: false,
        }
    }

    /// Takes in the outcome of the next job in output order; `-q` stops at its first finding.
    fn absorb(&mut self, outcome: Outcome, messages: &mut Messages) {
        if let Some((path, reason)) = outcome.trouble {
            messages.trouble(&path, reason);
        }
        for hint in outcome.hints {
            messages.note(hint);
        }
        if let Some(sarif) = &mut self.sarif {
            sarif.extend(outcome.results);
        } else if let Some(issues) = &mut self.codeclimate {
            issues.extend(outcome.results);
        }
        if let Some(summary) = outcome.summary {
            self.inputs += 1;
            if summary.errors > 0 {
                self.inputs_with_findings += 1;
                self.findings += summary.errors;
                self.status = self.status.merge(Status::Problems);
                if self.mode == Mode::Quiet {
                    self.is_stopped = true;
                }
            }
        }
    }

    /// Writes what comes after the last input: the SARIF log, or the `--summary` total.
    fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if let Some(sarif) = self.sarif.take() {
            return sarif.write(out);
        }
        if let Some(issues) = self.codeclimate.take() {
            let array = serde_json::Value::Array(issues);
            serde_json::to_writer_pretty(&mut *out, &array)?;
            return writeln!(out);
        }
        let shows_total = matches!(self.format, Format::Human | Format::Github);
        if self.summary && shows_total && self.mode == Mode::Findings {
            let plural =
                |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            if self.format == Format::Github {
                write!(out, "::notice title=utf8check summary::")?;
            }
            writeln!(
                out,
                "{} checked, {} with findings, {} in all",
                plural(self.inputs, "input"),
                self.inputs_with_findings,
                plural(self.findings, "finding")
            )?;
        }
        Ok(())
    }
}

/// How many bytes at the start of an input the hint looks at for UTF-16 without a mark (and
/// keeps of standard input, which cannot be read again).
const HINT_SAMPLE_LEN: usize = 64 * 1024;

/// Checks one job, writing its output to `out`. A failure to write is kept in the outcome,
/// whose findings still count.
fn check_job(
    settings: &Settings,
    job: &Job,
    reader: &mut ChunkReader,
    out: &mut dyn WriteColor,
) -> Outcome {
    let directory;
    let (source, from_walk, name_only) = match job {
        Job::Trouble { path, reason } => return trouble(settings, out, path, reason.clone()),
        Job::Note { path, text } => {
            return Outcome {
                hints: vec![format!("{path}: {text}")],
                ..Outcome::default()
            }
        }
        Job::Check { source, from_walk } => (source, *from_walk, false),
        // A directory on an input's path: only its name is checked.
        Job::Name { path } => {
            directory = Source::Path(path.clone());
            (&directory, true, true)
        }
    };
    let name = InputName::of(source, settings.label.as_deref());
    let printer = Printer::new(settings.format);
    let wants_hint = settings.mode == Mode::Findings && settings.format == Format::Human;
    let mut scanner = Scanner::new(settings.codec);
    let mut sink = FindingSink {
        settings,
        printer: &printer,
        name: &name,
        out,
        errors: 0,
        short_units: 0,
        ill_formed: 0,
        has_foreign_bom: false,
        is_capped: false,
        warnings: 0,
        results: Vec::new(),
        write_error: None,
    };
    // The input's own name comes first: its findings are those of the input.
    let own_name = match source {
        Source::Path(path) => path.file_name().map(OsStrExt::as_bytes),
        Source::Stdin => None,
    };
    let named = own_name.map_or(ControlFlow::Continue(()), |name| sink.name(name));
    let mut is_binary = false;
    let mut is_first = true;
    // Standard input cannot be read again: its start is kept for the hint. A file is read
    // again only if the hint is wanted (findings of the legacy kind, or a NUL near the start).
    let mut sample = Vec::new();
    let keeps_sample = wants_hint && matches!(source, Source::Stdin);
    let mut head_seen = 0;
    let mut head_has_nul = false;
    let skips_content = name_only || named.is_break();
    let mut well_formed_len = None;
    let read = if skips_content {
        Ok(())
    } else {
        source.open().and_then(|mut file| {
            let is_skipped_binary =
                |head: &[u8]| from_walk && !settings.binary && looks_binary(head);
            let mut whole = |file: &mut File, first: &[u8]| {
                // A binary file in a walk is skipped after its first chunk, not read whole.
                if is_skipped_binary(first) {
                    return false;
                }
                well_formed_len = well_formed_on_every_core(settings, file, first.len() as u64);
                well_formed_len.is_some()
            };
            let taken = reader.read_file_unless(&mut file, &mut whole, &mut |chunk, is_last| {
                if is_first {
                    is_first = false;
                    if is_skipped_binary(chunk) {
                        is_binary = true;
                        return ControlFlow::Break(());
                    }
                }
                if wants_hint && head_seen < HINT_SAMPLE_LEN {
                    let head = &chunk[..chunk.len().min(HINT_SAMPLE_LEN - head_seen)];
                    head_has_nul |= head.contains(&0);
                    head_seen += head.len();
                    if keeps_sample {
                        sample.extend_from_slice(head);
                    }
                }
                scanner.feed(chunk, is_last, &mut sink)
            })?;
            if let (true, Some(len)) = (taken && wants_hint, well_formed_len) {
                // A valid file has no finding; only the hint's look at its head is left.
                let head = read_head(&mut file, len);
                head_has_nul = head.contains(&0);
                if keeps_sample {
                    sample = head;
                }
            }
            Ok(())
        })
    };
    let FindingSink {
        errors,
        short_units,
        ill_formed,
        has_foreign_bom,
        is_capped,
        warnings,
        results,
        write_error,
        out,
        ..
    } = sink;
    let summary = Summary {
        bytes: well_formed_len.unwrap_or_else(|| scanner.bytes_scanned()),
        errors,
        warnings: (!settings.warn.is_empty()).then_some(warnings),
        complete: !is_capped,
    };
    if let Some(error) = write_error {
        return Outcome {
            summary: Some(summary),
            write_error: Some(error),
            ..Outcome::default()
        };
    }
    if let Err(error) = read {
        return trouble(settings, out, name.human(), io_reason(&error));
    }
    if is_binary && errors == 0 {
        return Outcome::default();
    }
    let listed = |out: &mut dyn WriteColor, count: Option<u64>| -> io::Result<()> {
        let path = match (settings.null, source) {
            (true, Source::Path(path)) => path.as_os_str().as_bytes(),
            _ => name.listed(settings.format).as_bytes(),
        };
        out.write_all(path)?;
        match (count, settings.null) {
            (None, true) => out.write_all(b"\0"),
            (None, false) => out.write_all(b"\n"),
            (Some(n), true) => writeln!(out, "\0{n}"),
            (Some(n), false) => writeln!(out, ":{n}"),
        }
    };
    let written = match settings.mode {
        Mode::Quiet => Ok(()),
        Mode::FilesWithErrors if errors > 0 => listed(out, None),
        Mode::FilesWithoutErrors if errors == 0 => listed(out, None),
        Mode::FilesWithErrors | Mode::FilesWithoutErrors => Ok(()),
        Mode::Count if settings.count_shows_names() => listed(out, Some(errors)),
        Mode::Count => writeln!(out, "{errors}"),
        Mode::Findings => printer.summary(out, &name, &summary, settings.summary),
    };
    let findings = if has_foreign_bom {
        hint::Findings::Other
    } else {
        hint::Findings::of(ill_formed, short_units)
    };
    let may_be_utf16 = !has_foreign_bom && head_has_nul;
    let mut hints = Vec::new();
    if wants_hint {
        if let (Source::Path(path), Some(name)) = (source, own_name) {
            hints.extend(hint::name_hint(path, name));
        }
        if findings != hint::Findings::Other || may_be_utf16 {
            hints.extend(hint::hint(source, reader, &sample, findings));
        }
    }
    Outcome {
        summary: Some(summary),
        trouble: None,
        results,
        hints,
        write_error: written.err(),
    }
}

/// The length of `file` when it is a big regular file that every thread read together and
/// found well-formed ([`whole`]); `None` sends it to the one-thread scan, which also gives
/// every finding of a file that is not. `read` bytes were read from it already.
fn well_formed_on_every_core(settings: &Settings, file: &mut File, read: u64) -> Option<u64> {
    // Lints find well-formed characters, which a validation does not see.
    if settings.threads < 2 || !settings.codec.lints.is_empty() {
        return None;
    }
    let metadata = file.metadata().ok()?;
    // Standard input may have been read from already: only what is left is its content.
    let start = file.stream_position().ok()?.checked_sub(read)?;
    let len = metadata.len().checked_sub(start)?;
    let big_file = metadata.is_file() && len >= whole::MIN_LEN;
    (big_file && whole::is_well_formed(file, start, len, settings.threads)).then_some(len)
}

/// The first [`HINT_SAMPLE_LEN`] bytes of the last `len` bytes of `file` (fewer when it is
/// shorter or cannot be read), read without moving its position.
fn read_head(file: &mut File, len: u64) -> Vec<u8> {
    use std::os::unix::fs::FileExt;
    let mut head = vec![0; HINT_SAMPLE_LEN];
    let mut filled = 0;
    let start = file.metadata().map_or(0, |m| m.len().saturating_sub(len));
    while filled < head.len() {
        match file.read_at(&mut head[filled..], start + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    head.truncate(filled);
    head
}

/// The outcome of trouble with one input: a message for standard error, and with `--format
/// github` an `::error` annotation too, so that the run's log shows it where findings are.
fn trouble(settings: &Settings, out: &mut dyn WriteColor, path: &str, reason: String) -> Outcome {
    let annotated = if settings.format == Format::Github && settings.mode == Mode::Findings {
        writeln!(
            out,
            "::error file={},title=utf8check trouble::{}",
            crate::report::github_property(path),
            crate::report::github_message(&reason)
        )
    } else {
        Ok(())
    };
    Outcome {
        trouble: Some((path.to_owned(), reason)),
        write_error: annotated.err(),
        ..Outcome::default()
    }
}

/// Writes or counts each finding as it comes.
struct FindingSink<'a> {
    settings: &'a Settings,
    printer: &'a Printer,
    name: &'a InputName,
    out: &'a mut dyn WriteColor,
    errors: u64,
    /// Ill-formed units of one or two bytes: what a legacy single-byte encoding leaves.
    short_units: u64,
    ill_formed: u64,
    has_foreign_bom: bool,
    /// `--max-errors` stopped the scan: more findings follow.
    is_capped: bool,
    /// Findings of the `--warn` lints.
    warnings: u64,
    /// SARIF results or CodeClimate issues, for the document written at the end.
    results: Vec<serde_json::Value>,
    write_error: Option<io::Error>,
}

impl FindingSink<'_> {
    /// Reports what is wrong with the input's name: each unit that is not UTF-8 (`file-name`),
    /// or, if asked, a UTF-8 name that is not in NFC (`non-nfc-name`). The offsets are those
    /// inside the name; line and column are 0, since the name is not in the content.
    fn name(&mut self, name: &[u8]) -> ControlFlow<()> {
        let at = |byte_offset: usize| Position {
            byte_offset: byte_offset as u64,
            line: 0,
            column: 0,
        };
        let bad = crate::names::ill_formed(name);
        for unit in &bad {
            self.finding(&Finding {
                position: at(unit.offset),
                kind: FindingKind::Name(NameIssue::IllFormed(unit.kind)),
                bytes: &name[unit.offset..unit.offset + unit.len],
                codepoint: unit.codepoint,
            })?;
        }
        if bad.is_empty() && self.settings.nfc_names.is_some() && !crate::names::is_nfc(name) {
            self.finding(&Finding {
                position: at(0),
                kind: FindingKind::Name(NameIssue::NotNfc),
                bytes: name,
                codepoint: None,
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Writes one finding in the chosen format, or keeps it for the run's document.
    fn report(&mut self, finding: &Finding<'_>, severity: Severity) -> ControlFlow<()> {
        match self.settings.format {
            Format::Sarif => {
                self.results
                    .push(Sarif::result(self.name, finding, severity));
                ControlFlow::Continue(())
            }
            Format::Codeclimate => {
                self.results.push(crate::report::codeclimate_issue(
                    self.name, finding, severity,
                ));
                ControlFlow::Continue(())
            }
            _ => match self.printer.finding(self.out, self.name, finding, severity) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    self.write_error = Some(error);
                    ControlFlow::Break(())
                }
            },
        }
    }
}

impl Sink for FindingSink<'_> {
    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let is_warning = match finding.kind {
            FindingKind::Lint(lint) => self.settings.warn.contains(lint),
            FindingKind::Name(NameIssue::NotNfc) => {
                self.settings.nfc_names == Some(Severity::Warning)
            }
            _ => false,
        };
        if is_warning {
            // A warning: shown with the findings, never counted as an error.
            self.warnings += 1;
            return match self.settings.mode {
                Mode::Findings => self.report(finding, Severity::Warning),
                _ => ControlFlow::Continue(()),
            };
        }
        if self
            .settings
            .max_errors
            .is_some_and(|max| self.errors >= max)
        {
            self.is_capped = true;
            return ControlFlow::Break(());
        }
        self.errors += 1;
        match finding.kind {
            FindingKind::IllFormed(kind) => {
                self.ill_formed += 1;
                // A legacy single-byte encoding leaves lone letters C0..FF and 80..BF (or a
                // lead byte with one 80..BF byte after it), never overlongs or surrogates; a lone
                // C0, C1 or F5..FF is a letter too (Turkish ı and ş are FD and FE).
                let is_lone_byte = matches!(
                    kind,
                    UnitKind::Truncated | UnitKind::UnexpectedContinuation | UnitKind::InvalidByte
                );
                self.short_units += u64::from(is_lone_byte && finding.bytes.len() <= 2);
            }
            FindingKind::ForeignBom(_) => self.has_foreign_bom = true,
            FindingKind::Lint(_) | FindingKind::Name(_) => {}
        }
        match self.settings.mode {
            // One finding decides these: stop reading the input.
            Mode::Quiet | Mode::FilesWithErrors | Mode::FilesWithoutErrors => {
                ControlFlow::Break(())
            }
            Mode::Count => ControlFlow::Continue(()),
            Mode::Findings => self.report(finding, Severity::Error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_and_lints_parse() {
        let error = Args::try_parse_from(["utf8check", "--allow", "strict"]).unwrap_err();
        assert!(error
            .to_string()
            .contains("[possible values: surrogates, cesu8, modified]"));
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
