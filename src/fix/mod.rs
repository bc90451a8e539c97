//! `utf8fix`: repair ill-formed or mis-encoded text, in a pipe or in place (SPEC 5).
//!
//! This file holds the options, their settings and the run over the inputs; `stream.rs`
//! repairs one input into standard output (or counts, `--check`), `in_place.rs` is `-i`,
//! `repair_log.rs` is `-v` and `names.rs` is `--names`.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use clap::Parser;
use termcolor::{Color, ColorSpec, StandardStream, WriteColor};
use utf8kit_codec::{RepairOptions, Replacement, repair::RepairKind};
use utf8kit_mojibake::LineRepair;

use crate::cli::ColorWhen;
use crate::input::{ChunkReader, Source, io_reason};
use crate::output::Messages;
use crate::replace::{PendingFile, Place, SetId, Stat, carry_over};
use crate::status::Status;

mod fixer;
mod in_place;
mod legacy;
mod names;
mod pool;
mod repair_log;
mod stream;

use fixer::Fixer;
use in_place::*;
use repair_log::*;
use stream::*;

const ABOUT: &str = "Repair ill-formed or mis-encoded UTF-8, in a pipe or in place";

const LONG_ABOUT: &str = "\
Repair ill-formed or mis-encoded UTF-8, in a pipe or in place.

utf8fix reads each FILE (standard input when there is none, or for '-') and writes it to \
standard output with every ill-formed sequence repaired, or with -i rewrites each FILE. The \
output is always well-formed UTF-8 (with --escape: the valid input plus ASCII), and fixing it \
again changes nothing.

By default each maximal subpart of an ill-formed sequence becomes U+FFFD, as the Unicode \
Standard recommends: the output is byte for byte what Python's \
bytes.decode('utf-8', 'replace').encode('utf-8') and Rust's String::from_utf8_lossy give (C0 AF \
is two replacements, ED A0 80 three, E2 82 at the end of input one). --replacement, --drop, \
--escape and --fallback choose something else.

The default never destroys text that could be decoded without being asked to. When an input \
that needs repairs starts with the byte order mark of UTF-16 or UTF-32, or its ill-formed bytes \
are the evidence on which utf8check names a legacy encoding (windows-1252 'Cr\\xE8me', a \
Shift_JIS file, UTF-16 without a mark), utf8fix -i leaves the file as it is, says the hint \
with the command that decodes it (utf8fix --fallback ENC -i for UTF-8 mixed with stray legacy \
bytes, utf8enc --from ENC -o FILE FILE for a whole legacy file) and makes the status 1. Lone \
letters too few for the detector to name their encoding are left in place too, with \
--fallback ENC as the way. In a pipe the repaired text is written and the same advice (when an \
encoding is named) goes to standard error; --check lists the input and says it as well. An \
explicit --replacement (even --replacement=U+FFFD's own character), --drop, --escape or \
--fallback is a loss or a decoding the user chose: then no advice is given and nothing is \
refused.

No option is silently ignored: an option that does not apply to the mode in use is a usage \
error with the reason (status 2, nothing read or written): --from, --nfc, --apply and -r \
apply only with --names, --follow-symlinks only with -i, -0 only with --check, -j only with \
--mojibake on content.

--fallback ENCODING decodes each ill-formed byte in a single-byte legacy encoding instead, which \
repairs files that mix UTF-8 and Latin-1 ('café' saved by two editors). ENCODING is \
any single-byte name of the encoding table all programs share (utf8enc -l lists it): \
ISO-8859-1 exactly (byte n is U+00nn) under every name people give it (latin1, latin-1, \
iso-8859-1, cp819, l1, ...), windows-1252 (whose 80..9F are the curly quotes, dashes and euro \
sign), windows-1250 to windows-1258, iso-8859-2 to iso-8859-16, koi8-r, koi8-u, ibm866, \
macintosh, x-mac-cyrillic, windows-874. It is the command utf8check's hint advises for a file that \
mixes UTF-8 with stray legacy bytes: it never changes a well-formed character.

These repairs run first, each only when asked: --cesu joins CESU-8 surrogate pairs into the \
4-byte form of their character; --modified also turns Java's C0 80 into U+0000; --strip-bom \
removes a byte order mark (every U+FEFF that would start the output, including one that \
--mojibake decodes from 'ï»¿'); --mojibake undoes text that was UTF-8, was decoded in a \
single-byte legacy encoding and encoded again ('cafÃ©' for 'café' through windows-1252, \
'РґРѕ' for 'до' through windows-1251, 'g√¢teau' for 'gâteau' through MacRoman), as many times \
as it happened.

--strip LINTS removes the characters those lints of utf8check --deny find (invisible, tag, \
bidi, control, bom, nul, noncharacter, private-use, replacement, non-ascii, or all) and leaves every \
other byte as it is: utf8fix --strip invisible,tag,bidi -i cleans hidden text out of a file, \
-v lists each character removed with its offset, and --check fails CI when a file holds any. \
mixed-script (also in all) finds words, which have nothing to remove: the output keeps them, \
and only --check reports them (the file is listed, -v names each word's offset). \
The same context rules apply as in utf8check (a ZWJ inside an emoji sequence, a flag's tags \
stay), judged against the characters that remain, so a second run removes nothing more.

--mojibake knows windows-1252 and ISO-8859-1, windows-1250, ISO-8859-2, windows-1251, \
windows-1253, windows-1254, windows-1257, MacRoman (macintosh) and IBM437, each also in its \
sloppy form (undefined bytes kept as C1 controls or lost to U+FFFD), and KOI8-R and KOI8-U for \
Cyrillic text ('п÷я─п╦п╡п╣я┌' for 'Привет': a terminal set to KOI8). It also undoes UTF-8 read \
as a double-byte encoding, GBK, Shift_JIS, Big5, EUC-KR or EUC-JP ('鍙傛暟閿欒' for '参数错误', \
'繝ｭ繧ｰ' for 'ログ': a Windows console or editor set to a Chinese, Japanese or Korean code page): \
the whole line, written back in that encoding, must be UTF-8 again, its characters rare \
ideographs (rare in that code page's own language: '紊沿乾' is '失败' read as EUC-JP) and the \
answer's common ones; where the reading lost bytes to U+FFFD (or '?'), or on a line with \
neither dropped them before ASCII or the line's end ('鍙傛暟閿欒' is '参数错\u{FFFD}'), each \
character whose bytes were lost becomes one U+FFFD and the rest is restored. And it undoes \
Chinese, Japanese or Korean text saved in one of those encodings and read as windows-1252 or \
Latin-1 ('ÄãºÃ£¬ÊÀ½ç' for '你好，世界' in GBK: old MP3 tags, web pages, ZIP comments), when one \
reading clearly explains the whole line with common characters (-v: 'gbk read as \
windows-1252'); a line two readings explain alike is left. Cyrillic text through the wrong \
code page is undone a whole line at a time too: UTF-8 read as IBM866 ('╨Я╤А╨╕╨▓╨╡╤В'), \
x-mac-cyrillic ('–Я—А–Є–≤–µ—В') or ISO-8859-5, and text in windows-1251, KOI8-R, KOI8-U, IBM866, \
ISO-8859-5 or x-mac-cyrillic read as another of them ('рТЙЧЕФ' for 'Привет': -v 'koi8-r read \
as windows-1251'), when the line breaks what Cyrillic words look like (a capital after a small \
letter, box drawing or signs between letters, letters of no one language, or words of \
capitals only) and exactly one reading gives flawless words of clearly commoner letter pairs. \
It works line by line: \
each encoding that could explain the line is tried, and the one that explains the most bytes \
wins (ties go to the reading with fewer odd letters, such as Latin Extended-B, a capital \
inside a lowercase word or 'ß' after a consonant, then to the order above). A stretch changes \
only where the bytes of its characters form well-formed multi-byte UTF-8 and the result is clearly more plausible: never a control or \
private-use character; never a letter against a letter of another script ('AÑ’' stays \
Spanish); never an accented capital ending a word before punctuation ('CAFÉ…', 'HÄ…' stay); \
never a pair that is ordinary text ('ВІКІ', 'HÅØYA', '√π', '«été', 'Fuß“'), unless the same \
line holds clear mojibake of the same kind. The letters of Africa's Latin alphabets ('likrÉ›ni' \
is 'likrɛni'), pointed Hebrew, Syriac, Thaana, NKo and Chakma are restored too, and a capital \
inside a lowercase word is read as the lead byte it is ('aÄŤinski' is 'ačinski'), as are two \
letters that no one language writes side by side ('ÄŚAS' is 'ČAS'). A run of non-ASCII characters in which a sequence is \
broken is left whole, never half repaired, and a lone pair on a line whose other non-ASCII \
text is correct UTF-8 stays ('Bremer/Mccoy – DrÃ¥ber'). Correct text in any language comes \
out unchanged. Damaged mojibake is repaired as far as it can be, on a line that also holds \
clear mojibake (a byte lost to U+FFFD in windows-1252 text, and 'voilÃ le', need none): a \
sequence with a byte lost to U+FFFD or '?' becomes one U+FFFD, a byte A0 turned into a space \
is put back ('voilÃ le' is 'voilà le', 'Ã s' is 'às', 'hÃ i' is Vietnamese 'hài'; not in \
MacRoman or IBM437, whose A0 is no space), 'â€' that lost its last byte becomes \
U+FFFD, CESU-8 pairs become one character, and C1 controls standing alone (Latin-1 read where windows-1252 was meant) \
become windows-1252's characters. With -v each changed line is reported with the chain it \
undid ('windows-1252 x2', 'windows-1251'). Lines longer than 64 KiB are repaired in pieces, \
cut at an ASCII byte near the end when there is one, else between two characters, so that any \
line takes bounded memory and linear time. Clean lines are passed over at the speed of reading; \
the lines that may hold mojibake are judged on -j threads (default: every CPU), eight at a time \
as each thread comes free, and written in order: the output and the -v report are the same for \
every number. From a regular file, once a 64 KiB chunk holds many such lines, chunks are \
handed whole to the thread that comes free while the next are read, and written up to four \
chunks later; from a pipe or a terminal each line is written as soon as it has been read.

--names renames files instead of repairing their content, as convmv does, but safely: \
utf8fix --names [--fallback ENC | --from ENC] [--mojibake] [--nfc] [-r] [--apply [--undo-log \
FILE]] PATH... shows \
'OLD -> NEW' on standard output for each name that would change, and renames nothing without \
--apply. A name that is not UTF-8 is decoded with --fallback ENC (each byte that is not UTF-8 \
is a character of that single-byte encoding; the UTF-8 of the name stays) or --from ENC (the \
whole name is in that encoding: cp437 or cp850 for a ZIP archive made on Windows, shift_jis, \
windows-1252, any ASCII-based legacy encoding of utf8enc -l). A name that is already UTF-8 is \
never touched unless asked: --mojibake undoes mojibake in it (cafÃ©.txt becomes café.txt), \
--nfc brings it to NFC (macOS writes NFD). -r walks each directory, symbolic links not \
followed, hidden names included, and renames deepest first, so that the paths still to do \
stay valid (whatever the order of the operands: a directory named before a file in it is \
renamed after it); directory names are renamed too; a name reached through two operands \
(d d, . d, d d/sub) is one name. With --check, -0 writes each change as the old path's exact \
bytes, a NUL, the new path's, a NUL (a name may hold ' -> ' or a newline). A rename never replaces a file: a name whose new \
name exists is left and reported, two names that would get the same new name are both left \
and reported (the kernel's renameat2 with RENAME_NOREPLACE makes the check and the rename one \
step where it has it). Each rename is relative to its directory, opened from the operand one \
step at a time without following a link, and made only if the name is still the file the walk \
found (device and inode): a directory swapped for a link since the walk redirects nothing. \
--undo-log FILE (with --apply; FILE must not exist) records each rename, synced, before it is \
made; utf8fix --names --undo FILE [--apply] undoes them, last first, shown as 'NEW -> OLD'. A name that cannot be repaired as asked (not UTF-8 and no decoding \
given, not valid in the --from encoding) is reported and left, and so is a name whose repair \
would hold a control, bidi or invisible character (Latin-1 reads 9B as the C1 control CSI and \
85 as NEL: windows-1252 reads them as punctuation). --check makes the status 1 when \
a name would change (or, with --apply, did); anything left and reported is trouble (status 2).

In place (-i), a file that needs no repair is not touched: its content and modification time \
stay as they are. Otherwise the repaired content is written to a temporary file in the same \
directory, flushed to disk, and renamed over the original, so that the file is always either \
the old or the new content; the directory is then synced. The new file carries over the \
original's owner and group, its mode with the set-user-ID and set-group-ID bits (as sed keeps \
them), and its extended attributes, ACLs among them (not security.capability, which any write \
removes); when one of them cannot be carried over (a file of another user, a file system \
without extended attributes), the rewrite is refused with the reason and the original stays. \
Hard links are split, as with sed -i: the other names keep the old content. Only regular files \
are rewritten: a FIFO, a device, a directory or a file of the kernel's (/proc, /sys: some \
wait for ever when read) is refused before a byte of it is read; as root, a link that another \
user owns is neither followed nor replaced by a copy of a target it does not own. \
A symbolic link is replaced by the repaired file, as sed -i does, and its target is left \
alone; the new file takes the target's owner and permissions but no set-user-ID or \
set-group-ID bit. --follow-symlinks rewrites the target instead; run as root, it refuses a \
link whose owner does not own the target, or that sits in a directory other users can write. \
Where the file system allows it (O_TMPFILE), the temporary file has no name until it is \
complete, so that even a utf8fix killed while writing leaves none behind; elsewhere it has a \
random name and is removed on SIGINT, SIGTERM, SIGHUP and SIGQUIT. With -iSUFFIX (or \
--in-place=SUFFIX) the original is kept as FILE+SUFFIX (for a link, the link itself). On any \
failure the original is left intact and no temporary file remains.";

const AFTER_LONG_HELP: &str = "\
Exit status:
  0  the repaired output was written (repairs are not failures)
  1  with --check: at least one FILE would change (with --names: a name would change); with
     -i: a FILE was left unchanged because its bytes look like decodable legacy text
  2  trouble: bad usage, an unreadable FILE, a failed write (the other FILEs are still done)

Output:
  The repaired text goes to standard output; -v writes each repair to standard error as \
'utf8fix: PATH: offset N: KIND BYTES: what was done', then one summary line per input. \
Trouble goes to standard error as 'utf8fix: PATH: reason'. --color colours the -v lines when \
standard error is a terminal (auto), always, or never.

Examples:
  utf8fix broken.txt > fixed.txt
  utf8fix --fallback windows-1252 -i.orig notes.txt
  utf8fix --check *.csv || echo 'some files need fixing'
  git ls-files -z | xargs -0 utf8fix --strip-bom --check
  utf8fix --names -r --from cp437 unzipped/           # show: ZIP names made on Windows
  utf8fix --names -r --nfc --apply photos/            # rename NFD names from macOS";

/// The command line of `utf8fix`.
#[derive(Debug, Parser)]
#[command(
    name = "utf8fix",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_LONG_HELP,
    max_term_width = 100
)]
pub struct Args {
    /// Files to repair; '-' or none reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the
    /// original as FILE+SUFFIX.
    #[arg(
        short = 'i',
        long,
        value_name = "SUFFIX",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ""
    )]
    pub in_place: Option<String>,

    /// With -i, rewrite the file a symbolic link leads to, not the link itself.
    #[arg(long, requires = "in_place")]
    pub follow_symlinks: bool,

    /// Write nothing: list each input that would change, and exit 1 if any would.
    #[arg(long)]
    pub check: bool,

    /// Lists of files: --files-from, --files0-from, --ignore-missing.
    #[command(flatten)]
    pub lists: crate::walk::ListArgs,

    /// With --check, write a NUL, not a newline, after each path, as its exact bytes (with
    /// --names: OLD NUL NEW NUL for each change).
    #[arg(short = '0', long = "null")]
    pub null: bool,

    /// Report each repair on standard error, with its offset and kind, and a summary per input.
    #[arg(short, long)]
    pub verbose: bool,

    /// Replace each maximal subpart with STR instead of U+FFFD.
    #[arg(long, value_name = "STR", group = "policy")]
    pub replacement: Option<String>,

    /// Delete ill-formed bytes.
    #[arg(long, group = "policy")]
    pub drop: bool,

    /// Write each ill-formed byte as \xhh.
    #[arg(long, group = "policy")]
    pub escape: bool,

    /// Decode each ill-formed byte in this single-byte encoding (windows-1252, iso-8859-1, ...).
    #[arg(long, value_name = "ENCODING", group = "policy", hide_possible_values = true,
        value_parser = crate::encodings::LabelParser {
            parse: parse_fallback,
            accepts: |entry| entry.charset.is_single_byte(),
            extra: None,
        })]
    pub fallback: Option<Fallback>,

    /// Join CESU-8 surrogate pairs into 4-byte sequences.
    #[arg(long)]
    pub cesu: bool,

    /// Java's Modified UTF-8: --cesu, and C0 80 becomes U+0000.
    #[arg(long)]
    pub modified: bool,

    /// Remove a byte order mark at the start.
    #[arg(long)]
    pub strip_bom: bool,

    /// Remove what these lints find, and nothing else: invisible, tag, bidi, control, bom, nul,
    /// noncharacter, private-use, replacement, non-ascii, or all (comma-separated); with --check,
    /// mixed-script words too (kept: nothing to remove).
    #[arg(long, value_name = "LINTS", value_delimiter = ',', value_parser = crate::cli::lint_parser())]
    pub strip: Vec<utf8kit_codec::LintSet>,

    /// Undo mojibake: UTF-8 that was decoded in a legacy encoding (windows-1250..1254, 1257,
    /// ISO-8859-1/-2, MacRoman, IBM437, KOI8-R/-U, IBM866, ISO-8859-5, x-mac-cyrillic; GBK,
    /// Shift_JIS, Big5, EUC-KR, EUC-JP) and encoded again, once or several times ("cafÃ©" for
    /// "café", "鍙傛暟" for "参数"); CJK text in those double-byte encodings read as windows-1252
    /// ("ÄãºÃ£¬ÊÀ½ç" for "你好，世界"); and Cyrillic code pages read as one another ("рТЙЧЕФ"
    /// for "Привет").
    #[arg(long)]
    pub mojibake: bool,

    /// Judge the lines that may hold mojibake on this many threads (default: the number of
    /// CPUs). The output is the same for every number.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// Rename files whose names are not UTF-8 (with --fallback ENC or --from ENC), mojibake
    /// (--mojibake) or not in NFC (--nfc), instead of repairing content: shows OLD -> NEW, and
    /// renames only with --apply.
    #[arg(long, conflicts_with_all = ["in_place", "replacement", "drop", "escape", "cesu",
        "modified", "strip_bom", "strip", "verbose", "files_from", "files0_from"])]
    pub names: bool,

    /// With --names, decode each name that is not UTF-8 whole from this encoding (cp437 or
    /// cp850 for ZIP archives made on Windows, shift_jis, windows-1252, ...).
    #[arg(long, value_name = "ENCODING", requires = "names", conflicts_with = "fallback",
        hide_possible_values = true,
        value_parser = crate::encodings::LabelParser {
            parse: parse_name_encoding,
            accepts: |entry| name_encoding(entry.charset),
            extra: None,
        })]
    pub from: Option<crate::encodings::Charset>,

    /// With --names, bring names to Unicode Normalization Form C (macOS writes NFD).
    #[arg(long, requires = "names")]
    pub nfc: bool,

    /// With --names, rename (without it, only show what would change).
    #[arg(long, requires = "names")]
    pub apply: bool,

    /// With --names, walk each directory and rename what it holds too, deepest first.
    #[arg(short = 'r', long, requires = "names")]
    pub recursive: bool,

    /// With --names --apply, record each rename in FILE (which must not exist) before it is
    /// made, for --undo.
    #[arg(long, value_name = "FILE", requires = "names")]
    pub undo_log: Option<PathBuf>,

    /// With --names, undo the renames an --undo-log FILE records, last first: shows NEW -> OLD,
    /// and renames only with --apply.
    #[arg(long, value_name = "FILE", requires = "names",
        conflicts_with_all = ["undo_log", "from", "fallback", "nfc", "recursive", "mojibake"])]
    pub undo: Option<PathBuf>,

    /// When to colour the -v lines.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print a man page or a shell completion script, and exit (KIND: man, complete-bash,
    /// complete-zsh, complete-fish, complete-elvish, complete-powershell).
    #[arg(long, value_enum, value_name = "KIND")]
    pub generate: Option<crate::cli::Generate>,
}

impl Args {
    /// Parses the process's arguments, reading sed's attached form `-iSUFFIX` as
    /// `--in-place=SUFFIX` (a separate word after `-i` is a FILE, never a suffix).
    pub fn parse_with_attached_suffix() -> Args {
        crate::cli::parse_args("utf8fix", attach_suffix(std::env::args_os()))
    }
}

/// Rewrites `-iSUFFIX` into `--in-place=SUFFIX`, up to a `--` that ends the options.
pub fn attach_suffix(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut options_ended = false;
    let mut rewritten = Vec::new();
    for (i, arg) in args.into_iter().enumerate() {
        let bytes = arg.as_bytes();
        if i > 0 && !options_ended && bytes.len() > 2 && bytes.starts_with(b"-i") {
            let mut long = b"--in-place=".to_vec();
            long.extend_from_slice(&bytes[2..]);
            rewritten.push(OsString::from_vec(long));
        } else {
            options_ended |= i > 0 && bytes == b"--";
            rewritten.push(arg);
        }
    }
    rewritten
}

/// A single-byte encoding for `--fallback`: its name and the character of each byte 80..FF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// The encoding's canonical name.
    pub name: String,
    /// `table[b - 0x80]` is the character of byte `b`.
    pub table: Box<[char; 128]>,
}

/// Resolves a `--fallback` label through the encoding table: a single-byte encoding.
///
/// # Errors
///
/// An unknown label, or an encoding that does not give each byte one character.
pub fn parse_fallback(label: &str) -> Result<Fallback, String> {
    let named = crate::encodings::resolve(label)?;
    let table = named.charset().high_half().ok_or_else(|| {
        format!("{named} is not a single-byte encoding: --fallback decodes one byte at a time")
    })?;
    Ok(Fallback {
        name: named.entry.name.to_ascii_lowercase(),
        table: Box::new(table),
    })
}

/// Whether names can be decoded from `charset` with `--from`: an encoding of bytes (not UTF-16
/// or UTF-32, whose names no Unix file system holds).
fn name_encoding(charset: crate::encodings::Charset) -> bool {
    use crate::encodings::Charset;
    match charset {
        Charset::Latin1 | Charset::CodePage(_) => true,
        Charset::Whatwg(encoding) => {
            encoding.is_ascii_compatible()
                && encoding != encoding_rs::UTF_8
                && encoding != encoding_rs::REPLACEMENT
        }
        _ => false,
    }
}

/// Resolves a `--from` label of `--names`.
///
/// # Errors
///
/// An unknown label, or an encoding names are never in.
pub fn parse_name_encoding(label: &str) -> Result<crate::encodings::Charset, String> {
    let named = crate::encodings::resolve(label)?;
    if !name_encoding(named.charset()) {
        return Err(format!(
            "{named} is not an encoding of file names: --from takes an ASCII-based legacy \
             encoding (cp437, windows-1252, shift_jis, ...)"
        ));
    }
    Ok(named.charset())
}

/// What the command line asks for, resolved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The inputs, in order.
    pub sources: Vec<Source>,
    /// Rewrite files in place, keeping the original as FILE+SUFFIX when the suffix is not empty.
    pub in_place: Option<String>,
    /// With -i, rewrite the target of a symbolic link rather than replace the link.
    pub follow_symlinks: bool,
    /// List what would change; write nothing.
    pub check: bool,
    /// A list of more files (`--files-from`, `--files0-from`).
    pub files_from: Option<crate::walk::FilesFrom>,
    /// End the paths `--check` prints with NUL.
    pub null: bool,
    /// Report each repair.
    pub verbose: bool,
    /// The repairs of the codec.
    pub repair: RepairOptions,
    /// Undo mojibake, line by line, after the codec's repairs.
    pub mojibake: bool,
    /// How many threads judge the lines that may hold mojibake.
    pub threads: usize,
    /// The name of the fallback encoding, for messages.
    pub fallback_name: Option<String>,
    /// The repair is the default U+FFFD, not a loss the user chose (`--replacement`, `--drop`,
    /// `--escape`, `--fallback`): text that could be decoded is not replaced in place.
    pub guards_decodable: bool,
    /// When to colour the -v lines.
    pub color: ColorWhen,
    /// `--names`: rename instead of repairing content.
    pub names: Option<names::NameSettings>,
}

impl Settings {
    /// Resolves the command line.
    ///
    /// # Errors
    ///
    /// A usage problem clap cannot see, as a message.
    pub fn from_args(args: &Args) -> Result<Settings, String> {
        if let Some(reason) = inapplicable_option(args) {
            return Err(reason);
        }
        let names = if args.names {
            if args.undo.is_some() && !args.files.is_empty() {
                return Err("--undo takes no PATH operands: the log names every path".into());
            }
            if args.files.is_empty() && args.undo.is_none() {
                return Err("--names needs PATH operands (use . for the current directory)".into());
            }
            if args.undo_log.is_some() && !args.apply {
                return Err(
                    "--undo-log applies only with --apply: without it nothing is renamed".into(),
                );
            }
            let decode = match (&args.fallback, args.from) {
                (Some(fallback), _) => Some(crate::names::Decode::Fallback(fallback.table.clone())),
                (None, Some(charset)) => Some(crate::names::Decode::From(charset)),
                (None, None) => None,
            };
            Some(names::NameSettings {
                paths: args.files.iter().map(PathBuf::from).collect(),
                recursive: args.recursive,
                renaming: crate::names::Renaming {
                    decode,
                    mojibake: args.mojibake,
                    nfc: args.nfc,
                },
                apply: args.apply,
                check: args.check,
                null: args.null,
                undo_log: args.undo_log.clone(),
                undo: args.undo.clone(),
            })
        } else {
            None
        };
        let operands: Vec<Source> = args.files.iter().map(|f| Source::from_operand(f)).collect();
        let files_from = args.lists.resolve(&operands)?;
        let sources = if files_from.is_none() && operands.is_empty() {
            vec![Source::Stdin]
        } else {
            operands
        };
        if args.in_place.is_some() && sources.contains(&Source::Stdin) {
            return Err("-i needs FILE operands: standard input cannot be edited in place".into());
        }
        let replacement = if let Some(text) = &args.replacement {
            Replacement::Text(text.clone())
        } else if args.drop {
            Replacement::Drop
        } else if args.escape {
            Replacement::Escape
        } else if let Some(fallback) = &args.fallback {
            Replacement::Fallback(fallback.table.clone())
        } else {
            Replacement::default()
        };
        Ok(Settings {
            sources,
            in_place: args.in_place.clone(),
            follow_symlinks: args.follow_symlinks,
            check: args.check,
            files_from,
            null: args.null,
            verbose: args.verbose,
            repair: RepairOptions {
                replacement,
                cesu: args.cesu || args.modified,
                modified: args.modified,
                strip_bom: args.strip_bom,
                words: None,
                strip: args
                    .strip
                    .iter()
                    .fold(utf8kit_codec::LintSet::NONE, |all, &one| all.union(one)),
            },
            mojibake: args.mojibake,
            threads: args.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                |n| n as usize,
            ),
            fallback_name: args.fallback.as_ref().map(|f| f.name.clone()),
            guards_decodable: args.replacement.is_none()
                && !args.drop
                && !args.escape
                && args.fallback.is_none(),
            color: args.color,
            names,
        })
    }
}

/// The first option given that does not apply to the mode in use, with the reason: no option is
/// silently ignored (SPEC 5). clap's own `requires` cannot say it, because it drops the
/// requirement of `--names` as soon as an option that conflicts with `--names` (`-i`, `-v`) is
/// present.
fn inapplicable_option(args: &Args) -> Option<String> {
    if !args.names {
        let names_only = [
            (
                args.from.is_some(),
                "--from",
                "it names the encoding of file names; to convert a file's content use \
                 utf8enc --from ENC, or utf8fix --fallback ENC for stray bytes in UTF-8",
            ),
            (
                args.nfc,
                "--nfc",
                "it brings file names to NFC; the content is never normalised",
            ),
            (
                args.apply,
                "--apply",
                "it carries out the renames --names shows; content is rewritten with -i",
            ),
            (
                args.recursive,
                "-r/--recursive",
                "it walks directories to rename what they hold; content is repaired file by file",
            ),
            (
                args.undo_log.is_some(),
                "--undo-log",
                "it records renames; a content repair keeps no log",
            ),
            (
                args.undo.is_some(),
                "--undo",
                "it undoes renames an --undo-log recorded",
            ),
        ];
        if let Some((_, option, why)) = names_only.iter().find(|(given, ..)| *given) {
            return Some(format!("{option} applies only with --names: {why}"));
        }
    }
    if args.follow_symlinks && args.in_place.is_none() {
        return Some(
            "--follow-symlinks applies only with -i/--in-place: it chooses which file a \
             rewrite replaces"
                .into(),
        );
    }
    if args.null && !args.check {
        return Some(
            "-0/--null applies only with --check: it ends each path --check lists with NUL".into(),
        );
    }
    if args.threads.is_some() && (!args.mojibake || args.names) {
        return Some(
            "-j/--threads applies only with --mojibake on content: it sets how many threads \
             judge the lines that may hold mojibake"
                .into(),
        );
    }
    None
}

/// Why a listed file is not repaired: `Ok(note)` for a file skipped as a walk would skip it (binary,
/// not a regular file, missing under `--ignore-missing`), `Err(reason)` for trouble.
fn skipped(
    source: &Source,
    list: Option<&crate::walk::FilesFrom>,
) -> Option<Result<&'static str, String>> {
    let Source::Path(path) = source else {
        return None;
    };
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error)
            if error.kind() == io::ErrorKind::NotFound
                && list.is_some_and(|l| l.ignore_missing) =>
        {
            return Some(Ok("no such file (--ignore-missing)"));
        }
        Err(error) => return Some(Err(io_reason(&error))),
    };
    if !metadata.is_file() {
        return Some(Ok("not a regular file"));
    }
    let mut head = Vec::with_capacity(crate::input::BINARY_PROBE_LEN);
    let read = fs::File::open(path).and_then(|file| {
        file.take(crate::input::BINARY_PROBE_LEN as u64)
            .read_to_end(&mut head)
    });
    match read {
        Ok(_) if crate::input::looks_binary(&head) => Some(Ok("it looks binary")),
        Ok(_) => None,
        Err(error) => Some(Err(io_reason(&error))),
    }
}

/// Runs `utf8fix`.
///
/// # Errors
///
/// Only a failure to write standard output (other than a closed pipe) is an error.
pub fn run(args: &Args) -> Status {
    let mut messages = Messages::new("utf8fix");
    let settings = match Settings::from_args(args) {
        Ok(settings) => settings,
        Err(reason) => {
            messages.error(reason);
            return Status::Trouble;
        }
    };
    if let Some(names) = &settings.names {
        // Line by line, as the renames happen, beside their messages on standard error.
        let mut out = io::stdout().lock();
        let (written, earned) = match names::run(names, &mut out, &mut messages) {
            Ok(status) => (out.flush(), status),
            Err(error) => (Err(error), Status::Clean),
        };
        return messages.ended(written, earned);
    }
    let stderr_choice = settings.color.resolve(io::stderr().is_terminal());
    let mut log = RepairLog {
        settings: &settings,
        err: StandardStream::stderr(stderr_choice),
    };
    let mut status = Status::Clean;
    let mut reader = ChunkReader::new();
    let mut out = crate::output::byte_stdout(crate::input::CHUNK_LEN);
    // Each input in turn; `Break` carries the status to end the run with (standard output
    // failed). Listed paths are read from the list as they are done, never held all at once.
    let mut do_input = |source: &Source, is_listed: bool| -> ControlFlow<Status> {
        let name = source.display_name().into_owned();
        if is_listed && let Some(reason) = skipped(source, settings.files_from.as_ref()) {
            match reason {
                Ok(note) => messages.note(format_args!("{name}: skipped: {note}")),
                Err(reason) => messages.trouble(&name, reason),
            }
            return ControlFlow::Continue(());
        }
        let result = if settings.check {
            fix_stream(&settings, &mut reader, source, None, &mut log).map(|repaired| {
                if let Some(hint) = &repaired.hint {
                    messages.note(hint);
                }
                if repaired.count > 0 {
                    status = status.merge(Status::Problems);
                    match (settings.null, source) {
                        (true, Source::Path(path)) => out
                            .write_all(path.as_os_str().as_bytes())
                            .and_then(|()| out.write_all(b"\0")),
                        _ => writeln!(out, "{name}"),
                    }
                    .map_err(Failure::Output)
                } else {
                    Ok(())
                }
            })
        } else if let (Some(suffix), Source::Path(path)) = (&settings.in_place, source) {
            fix_in_place(&settings, &mut reader, path, suffix, &mut log).map(Ok)
        } else {
            fix_stream(&settings, &mut reader, source, Some(&mut out), &mut log).map(|repaired| {
                if let Some(hint) = &repaired.hint {
                    messages.note(hint);
                }
                Ok(())
            })
        };
        match result.and_then(|written| written) {
            Ok(()) => ControlFlow::Continue(()),
            Err(Failure::Input(reason)) => {
                messages.trouble(&name, reason);
                ControlFlow::Continue(())
            }
            Err(Failure::Refused(hint)) => {
                messages.note(hint);
                messages.note(format_args!(
                    "{name}: left unchanged: U+FFFD would replace text that can be decoded; \
                     follow the hint, or choose the loss with --replacement, --drop or --escape"
                ));
                status = status.merge(Status::Problems);
                ControlFlow::Continue(())
            }
            Err(Failure::Output(error)) => ControlFlow::Break(messages.ended(Err(error), status)),
        }
    };
    for source in &settings.sources {
        if let ControlFlow::Break(end) = do_input(source, false) {
            return end;
        }
    }
    if let Some(list) = &settings.files_from {
        let mut ended = None;
        let read = list.for_each(&mut |path| match do_input(&Source::Path(path), true) {
            ControlFlow::Break(end) => {
                ended = Some(end);
                ControlFlow::Break(())
            }
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
        });
        if let Some(end) = ended {
            return end;
        }
        if let Err(error) = read {
            messages.trouble(&list.source.display_name(), io_reason(&error));
        }
    }
    let written = out.flush();
    messages.ended(written, status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_labels() {
        let exact = parse_fallback("ISO-8859-1").unwrap();
        assert_eq!(
            exact.table[0x80 - 0x80],
            '\u{80}',
            "exact Latin-1 keeps C1 controls"
        );
        let cp1252 = parse_fallback("windows-1252").unwrap();
        assert_eq!(cp1252.table[0x80 - 0x80], '€');
        assert_eq!(cp1252.table[0xE9 - 0x80], 'é');
        let koi8 = parse_fallback("koi8-r").unwrap();
        assert_eq!(koi8.table[0xC1 - 0x80], 'а');
        assert_eq!(parse_fallback("cp1251").unwrap().name, "windows-1251");
        assert!(
            parse_fallback("shift_jis")
                .unwrap_err()
                .contains("not a single-byte")
        );
        assert!(
            parse_fallback("klingon")
                .unwrap_err()
                .contains("unknown encoding")
        );
    }

    #[test]
    fn attached_suffixes() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            attach_suffix(args(&["utf8fix", "-i.orig", "a", "-i", "b", "--", "-i.x"])),
            args(&["utf8fix", "--in-place=.orig", "a", "-i", "b", "--", "-i.x"])
        );
        let parsed = Args::parse_from(attach_suffix(args(&["utf8fix", "-i.bak", "f"])));
        assert_eq!(parsed.in_place.as_deref(), Some(".bak"));
        let parsed = Args::parse_from(args(&["utf8fix", "-i", "f"]));
        assert_eq!(parsed.in_place.as_deref(), Some(""));
        assert_eq!(parsed.files, [OsString::from("f")]);
    }
}
