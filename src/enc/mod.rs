//! `utf8enc`: code points in every notation, and transcoding to and from UTF-8 (SPEC 6).
//!
//! Three modes. Without `--decode`, `--from` or `--to`, the operands are code points, written in
//! the chosen notation. With `--decode`, the operands (or standard input) are bytes in some
//! notation, read back into units. With `--from` and/or `--to`, the operands are files, streamed
//! through a decoder into UTF-8 and an encoder out of it.
//!
//! This file holds the options and the run; each mode has its file: `encode.rs`, `decode.rs`,
//! `transcode.rs`.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};
use encoding_rs::{DecoderResult, EncoderResult};
use utf8kit_codec::encode::{EncodeError, Form, encode};
use utf8kit_codec::notation::{Notation, parse_codepoint, write_notation};
use utf8kit_codec::transcode::{
    Decode, Endian, Malformed, MalformedKind, Ucs2Decoder, Utf7Decoder, Utf7Encoder, Utf16Decoder,
    Utf32Decoder, encode_ucs2, encode_utf16, encode_utf32, latin1_to_utf8,
};
use utf8kit_codec::{
    Config, Finding, RepairOptions, Repairer, Scanner, Sink,
    bom::{ForeignBom, UTF8_BOM},
    scan_unit,
};

use crate::cli::ColorWhen;
use crate::encodings::{self, Charset};
use crate::input::{ChunkReader, Source, io_reason};
use crate::output::Messages;
use crate::render::{char_name, shown};
use crate::report::push_unit_json;
use crate::status::Status;

mod decode;
mod decoders;
mod encode;
mod encoders;
mod sniff;
mod transcode;
mod whole;

use decode::*;
use decoders::*;
use encode::*;
use encoders::*;
use sniff::*;
use transcode::*;

const ABOUT: &str = "Encode code points in every notation; transcode to and from UTF-8";

const LONG_ABOUT: &str = "\
Encode code points in every notation; transcode to and from UTF-8.

Notation: utf8enc CODEPOINT... writes each code point's UTF-8 bytes in the --format asked \
(a table by default). A CODEPOINT is U+20AC, u+20ac, 0x20AC, \\u20AC, \\u{1F600}, \
\\U0001F600, &#8364;, &#x20AC;, bare hex digits (20AC), a single character (€), or a range of \
two of these (U+0400..U+04FF; surrogates inside a range are skipped, and values past \
U+10FFFF without --legacy, each with one note for the whole range). -t/--text takes each \
character of a string; with a string notation (url, c, python, js, java, rust, html, qp, shell, \
octal) the string is written as one string, its plain ASCII as it is and the rest escaped \
(utf8enc -t 'a b/é?' -f url gives a%20b%2F%C3%A9%3F; -f shell gives one $'...'), and utf8enc -d \
reads it back; the other formats write a line per character. --name takes a character by its \
Unicode name. Surrogates (U+D800..U+DFFF) and \
values above U+10FFFF are refused with the reason and status 1, unless --allow-surrogates asks \
for the WTF-8 form of a surrogate or --legacy for the RFC 2279 forms of up to six bytes (up to \
0x7FFFFFFF). --explain walks through the bit filling of RFC 3629 section 3 for each code point.

Decoding: -d/--decode reads bytes written as hex (E2 82 AC, e282ac, 0xE2), C and Python \
escapes (\\xe2\\x82\\xac, \\342), percent-encoding (%E2%82%AC), quoted-printable (=E2), binary, \
or code point escapes (\\u20AC, \\uD83D\\uDE00, &#x20AC;), from the operands or from standard \
input, and shows each unit: 'U+20AC €', or the kind and bytes of an ill-formed one; with \
--format json, the unit objects of utf8dump. Status 1 when a unit is ill-formed. Text that \
holds %XX, \\xhh, \\u or &# escapes is mixed text, as a URL or a string literal is: every other \
character stands for itself (utf8enc -d 'caf%C3%A9' is c, a, f, é), except white space, commas \
and quotes, which separate, and a word of an even number of hex digits on its own, which is bytes. \
Standard input is read in pieces of 64 KiB cut at a line end (or else after a space, tab, comma \
or semicolon, or else inside a long run of hex digits after an even number of them, as xxd -p -c \
0 writes), so memory stays bounded whatever its length: text is mixed from the first piece \
that holds an escape on, a character or surrogate pair split across lines comes out whole, and \
what comes before an unreadable piece is shown before the error.

Transcoding: --from ENC converts input in ENC to UTF-8, --to ENC converts UTF-8 to ENC, both \
together convert from one to the other; the operands are files (standard input when there is \
none). ENC is any name of the one encoding table every program shares (utf8enc -l lists it, \
with the options that take each name): utf-8; utf-16le, utf-16be, utf-16 (a byte order mark, \
else big-endian, as RFC 2781 says; --to writes the mark); unicode (iconv's UNICODE: UTF-16 with \
a mark, little-endian without one; also csunicode, unicodefeff, iso-10646-ucs-2); utf-32le, \
utf-32be, utf-32 (likewise); ucs-2 (UTF-16 without surrogates; ucs-2le, ucs-2be); utf-7 (RFC \
2152); ISO-8859-1 exactly (byte n is U+00nn) under every name people give it: latin1, latin-1, \
iso-8859-1, iso_8859-1, iso8859-1, l1, iso88591, cp819, ibm819, csisolatin1, iso-ir-100 (WHATWG \
reads those as windows-1252); 7-bit ASCII as ascii, us-ascii, ansi_x3.4-1968 (a byte above 7F \
is malformed, a character above U+007F unencodable); the IBM PC code pages WHATWG leaves out: \
ibm437 (cp437), ibm850 (cp850) and ibm855 (cp855, DOS Cyrillic); and every other label of the WHATWG \
Encoding Standard (windows-1252, shift_jis, gb18030, big5, euc-kr, koi8-r, ...). The labels \
WHATWG decodes as its replacement encoding (replacement, hz-gb-2312, iso-2022-kr, iso-2022-cn) \
have no encoder and are refused by --to. Messages name the label as typed, and the encoding it \
means when that is another name: cp1251 (windows-1251).

Byte order marks: a label that names a byte order (utf-16le, utf-16be, utf-32le, utf-32be, \
ucs-2le, ucs-2be, and utf-8) keeps a mark at the start as the character U+FEFF, as RFC 2781 \
section 3.3, iconv and Python do; a label without one (utf-16, utf-32, ucs-2, unicode) reads the \
mark, obeys it and drops it; auto obeys any mark (UTF-8, UTF-16, UTF-32) and drops it; a legacy \
label reads the bytes of a mark as its own characters (EF BB BF is ï»¿ in windows-1252). \
utf8fix and utf8check treat a mark the same way: bytes of UTF-8, a character U+FEFF.

--from auto detects: a byte order mark, then UTF-16 or UTF-32 without a mark (the zero bytes of \
ASCII), then the escape sequences of ISO-2022-JP (7-bit text that would pass for UTF-8), then \
UTF-8 validity of the first 64 KiB, then the detector of utf8check's hint, which reads all of a \
regular file as the hint does (a gettext catalog holds its translations past 64 KiB of tables) \
and the first 64 KiB of standard input, a pipe or a device. It never decodes with an encoding \
it is not sure of: when the evidence is too weak for the hint, or the text is in an encoding no \
decoder here reads (ISO-2022-KR), it writes nothing for that input, names the candidates it \
weighed and sets status 1. --from auto:ENC uses ENC when detection cannot decide (and says so). \
-v names the encoding detected by the label --from takes for the same decoding (utf-32le, not \
utf-32). -o FILE writes the output to a new file beside FILE that \
replaces it only when everything was written and nothing failed (strict errors included), so \
-o notes.txt notes.txt converts in place and a failure leaves FILE as it was. When FILE is a \
device or a FIFO (-o /dev/null, -o /dev/stdout), the output is written to it directly, as a \
shell redirection would, and it is never replaced. A regular file of 16 MiB or more read with \
--from utf-16le, utf-16be or latin1 into UTF-8 is converted on every core (at most 8), in \
parts of 1 MiB written in file order: the output, messages and status are one thread's, and \
from the first part that holds a malformed unit the rest is converted on one thread.

--errors strict (the default) stops an input at its first malformed or unencodable \
character, names its byte offset and sets status 1; the output before it is written. --errors \
replace writes U+FFFD for malformed input and ? for what the target cannot encode; --errors \
html (with --to) writes &#NNNN; for what the target cannot encode; --errors drop, or -c as \
iconv spells it (with --to), leaves out what the target cannot encode (malformed input still \
stops the input, as with strict).

iconv's habits: -l/--list, -o FILE and -c work as in iconv; iconv's -f and -t are --from and \
--to here, since utf8enc's -f is --format and -t is --text (utf8enc -t takes a STRING, even one \
that starts with '-').";

const AFTER_LONG_HELP: &str = "\
Exit status:
  0  everything was encoded, decoded or converted
  1  a refused code point, an ill-formed unit (--decode), or a malformed or unencodable \
character in strict mode
  2  trouble: bad usage, an unreadable file, a failed write

Formats:
  table (default)  the character, its code point, and its bytes in hex, octal and binary
  hex              E2 82 AC            c        \\xe2\\x82\\xac       rust    \\u{20ac}
  python           \\u20ac, \\U0001f600  js, java \\u20AC, \\uD83D\\uDE00  json    one object a line
  url              %E2%82%AC           html     &#x20AC;           qp      =E2=82=AC
  shell            $'\\xe2\\x82\\xac'     octal    \\342\\202\\254       binary  11100010 10000010 10101100
  utf16            20AC, D83D DE00     utf32    000020AC           name    EURO SIGN
  raw              the bytes themselves
  json: {\"codepoint\":8364,\"char\":\"€\",\"utf8\":\"e282ac\"}

Examples:
  utf8enc U+20AC
  utf8enc -f c -t 'naïve'
  utf8enc --name 'EURO SIGN' --explain
  utf8enc -d '\\xc0\\xaf'
  utf8enc --from utf-16 notes.txt > notes.utf8.txt
  utf8enc --from windows-1251 -o tutor.ru tutor.ru
  utf8enc --from auto -v mystery.txt > mystery.utf8.txt
  utf8enc -l | grep -i latin
  utf8enc --to windows-1252 --errors html page.html > page.cp1252.html";

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The character, code point, and bytes in hex, octal and binary.
    #[default]
    Table,
    /// E2 82 AC
    Hex,
    /// \xe2\x82\xac
    C,
    /// \u{20ac}
    Rust,
    /// \u20ac, \U0001f600
    Python,
    /// \u20AC, \uD83D\uDE00
    Js,
    /// \u20AC, \uD83D\uDE00
    Java,
    /// {"codepoint":8364,"char":"€","utf8":"e282ac"}
    Json,
    /// %E2%82%AC
    Url,
    /// &#x20AC;
    Html,
    /// =E2=82=AC
    Qp,
    /// ANSI-C quoting for bash and zsh: a dollar sign, then \xe2\x82\xac in single quotes
    Shell,
    /// \342\202\254
    Octal,
    /// 11100010 10000010 10101100
    Binary,
    /// UTF-16 code units: 20AC, D83D DE00
    Utf16,
    /// The UTF-32 code unit: 000020AC
    Utf32,
    /// The Unicode name
    Name,
    /// The bytes themselves
    Raw,
}

/// Whether `notation` is one a string is written in (a URL, a literal in a program or a shell),
/// rather than a dump of each character's bytes.
fn is_string_notation(notation: Notation) -> bool {
    matches!(
        notation,
        Notation::C
            | Notation::Rust
            | Notation::Python
            | Notation::Js
            | Notation::Java
            | Notation::Url
            | Notation::Html
            | Notation::Qp
            | Notation::Shell
            | Notation::Octal
    )
}

/// `text` as one string in `notation`: the ASCII characters the notation leaves as they are
/// (URL's unreserved characters, printable ASCII but quotes and backslashes in a literal, ...),
/// the others escaped. A shell string is one `$'...'`.
fn string_notation(notation: Notation, text: &str) -> String {
    let is_plain = |c: char| match notation {
        Notation::Url => c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~'),
        Notation::Qp => (' '..='~').contains(&c) && c != '=',
        Notation::Html => (' '..='~').contains(&c) && !matches!(c, '&' | '<' | '>' | '"' | '\''),
        _ => (' '..='~').contains(&c) && !matches!(c, '\\' | '"' | '\''),
    };
    // The shell's quoting wraps the whole string once; within it, bytes are C escapes.
    let (inner, open, close) = match notation {
        Notation::Shell => (Notation::C, "$'", "'"),
        other => (other, "", ""),
    };
    let mut out = String::from(open);
    for c in text.chars() {
        if is_plain(c) {
            out.push(c);
        } else {
            let mut bytes = [0u8; 4];
            let utf8 = c.encode_utf8(&mut bytes).as_bytes();
            utf8kit_codec::notation::write_notation(inner, u32::from(c), utf8, &mut out);
        }
    }
    out.push_str(close);
    out
}

impl Format {
    fn notation(self) -> Option<Notation> {
        Some(match self {
            Format::Hex => Notation::Hex,
            Format::C => Notation::C,
            Format::Rust => Notation::Rust,
            Format::Python => Notation::Python,
            Format::Js => Notation::Js,
            Format::Java => Notation::Java,
            Format::Url => Notation::Url,
            Format::Html => Notation::Html,
            Format::Qp => Notation::Qp,
            Format::Shell => Notation::Shell,
            Format::Octal => Notation::Octal,
            Format::Binary => Notation::Binary,
            Format::Utf16 => Notation::Utf16,
            Format::Utf32 => Notation::Utf32,
            Format::Table | Format::Json | Format::Name | Format::Raw => return None,
        })
    }
}

/// What to do with malformed or unencodable input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Errors {
    /// Stop at the first one, name its byte offset, status 1.
    #[default]
    Strict,
    /// U+FFFD when decoding, ? when encoding.
    Replace,
    /// With --to: &#NNNN; for what the target cannot encode.
    Html,
    /// With --to: leave out what the target cannot encode (iconv -c; also -c).
    Drop,
}

/// The command line of `utf8enc`.
#[derive(Debug, Parser)]
#[command(
    name = "utf8enc",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_LONG_HELP,
    max_term_width = 100
)]
pub struct Args {
    /// Code points; with --decode, bytes in a notation; with --from or --to, files.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<OsString>,

    /// Output format for code points.
    #[arg(short, long, value_enum, default_value_t = Format::Table, value_name = "FORMAT")]
    pub format: Format,

    /// Each character of STRING (which may start with '-': -t -x).
    #[arg(short, long, value_name = "STRING", allow_hyphen_values = true)]
    pub text: Option<String>,

    /// A character by its Unicode name ("EURO SIGN").
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Show the bit filling of RFC 3629 for each code point.
    #[arg(long)]
    pub explain: bool,

    /// Encode surrogates in their WTF-8 form.
    #[arg(long)]
    pub allow_surrogates: bool,

    /// Encode surrogates and values up to 0x7FFFFFFF in the forms of RFC 2279.
    #[arg(long)]
    pub legacy: bool,

    /// Read bytes written in a notation and show their units.
    #[arg(short, long, conflicts_with_all = ["text", "name", "explain", "from", "to"])]
    pub decode: bool,

    /// Convert input in this encoding to UTF-8 (auto: detect it; auto:ENC: ENC when detection
    /// cannot decide).
    #[arg(long, value_name = "ENC", hide_possible_values = true, value_parser = crate::encodings::LabelParser {
        parse: |label| Ok(label.to_owned()),
        accepts: |_| true,
        extra: Some("auto"),
    })]
    pub from: Option<String>,

    /// Convert UTF-8 input to this encoding.
    #[arg(long, value_name = "ENC", hide_possible_values = true, value_parser = crate::encodings::LabelParser {
        parse: |label| Ok(label.to_owned()),
        accepts: |entry| entry.charset.can_encode(),
        extra: None,
    })]
    pub to: Option<String>,

    /// What to do with malformed or unencodable input.
    #[arg(long, value_enum, default_value_t = Errors::Strict, value_name = "MODE")]
    pub errors: Errors,

    /// Leave out what the target cannot encode, as iconv -c does: --errors drop.
    #[arg(short = 'c', conflicts_with = "errors")]
    pub drop_unencodable: bool,

    /// Write the output to FILE, which is replaced only once the whole output is written and
    /// nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,

    /// List every encoding name: the encoding, the options that take it, its labels.
    #[arg(short = 'l', long, conflicts_with_all = ["text", "name", "explain", "decode", "from", "to"])]
    pub list: bool,

    /// With --from auto: name the encoding detected, on standard error.
    #[arg(short, long)]
    pub verbose: bool,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,

    /// Print a man page or a shell completion script, and exit (KIND: man, complete-bash,
    /// complete-zsh, complete-fish, complete-elvish, complete-powershell).
    #[arg(long, value_enum, value_name = "KIND")]
    pub generate: Option<crate::cli::Generate>,
}

/// Runs `utf8enc`.
///
/// # Errors
///
/// Only a failure to write standard output (other than a closed pipe) is an error.
pub fn run(args: &Args) -> Status {
    let mut messages = Messages::new("utf8enc");
    if let Some(path) = &args.output {
        return run_to_file(args, path, &mut messages);
    }
    let mut out = crate::output::byte_stdout(256 * 1024);
    let (written, earned) = match produce(args, &mut out, &mut messages) {
        Ok(status) => (out.flush(), status),
        Err(error) => (Err(error), Status::Clean),
    };
    messages.ended(written, earned)
}

/// `-o FILE`: the output goes to a new file beside FILE that replaces it only when everything
/// was written and nothing failed; otherwise FILE is left as it was.
fn run_to_file(args: &Args, path: &std::path::Path, messages: &mut Messages) -> Status {
    let shown = crate::render::path(path).into_owned();
    let cannot_create = |messages: &mut Messages, error: io::Error| {
        let reason = format!("cannot create the output: {}", io_reason(&error));
        messages.trouble(&shown, reason);
        Status::Trouble
    };
    let place = match crate::replace::Place::of(path) {
        Ok(place) => place,
        Err(error) => return cannot_create(messages, error),
    };
    let existing = place.stat().ok();
    // A device or a FIFO (`-o /dev/null`, `-o /dev/stdout`) is written to, as a shell
    // redirection or iconv -o would: it is never replaced by a regular file.
    if existing.is_some_and(|stat| !stat.is_regular()) {
        return run_to_special_file(args, path, &shown, messages);
    }
    let pending = match crate::replace::PendingFile::create(&place) {
        Ok(pending) => pending,
        Err(error) => return cannot_create(messages, error),
    };
    let mut out = io::BufWriter::with_capacity(256 * 1024, pending.as_file());
    let result = produce(args, &mut out, messages);
    let written = result.and_then(|status| {
        out.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()?;
        Ok(status)
    });
    let status = match written {
        Ok(status) => status.merge(messages.status()),
        Err(error) => {
            messages.trouble(
                &shown,
                format!("cannot write the output: {}", io_reason(&error)),
            );
            return Status::Trouble;
        }
    };
    if status != Status::Clean {
        messages.note(format_args!(
            "{shown}: not written: the output would be incomplete"
        ));
        return status;
    }
    let attributes = match &existing {
        Some(stat) => crate::replace::copy_permissions(stat, pending.as_file()),
        None => crate::replace::default_permissions(pending.as_file()),
    };
    let persisted = attributes.and_then(|()| pending.persist());
    if let Err(error) = persisted {
        messages.trouble(
            &shown,
            format!("cannot write the output: {}", io_reason(&error)),
        );
        return Status::Trouble;
    }
    status
}

/// `-o` naming something other than a regular file: written to directly, in place.
fn run_to_special_file(
    args: &Args,
    path: &std::path::Path,
    shown: &str,
    messages: &mut Messages,
) -> Status {
    let file = match std::fs::OpenOptions::new().write(true).open(path) {
        Ok(file) => file,
        Err(error) => {
            let reason = format!("cannot open the output: {}", io_reason(&error));
            messages.trouble(shown, reason);
            return Status::Trouble;
        }
    };
    let mut out = io::BufWriter::with_capacity(256 * 1024, file);
    let written = produce(args, &mut out, messages).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    match written {
        Ok(status) => status.merge(messages.status()),
        Err(error) => {
            let reason = format!("cannot write the output: {}", io_reason(&error));
            messages.trouble(shown, reason);
            Status::Trouble
        }
    }
}

/// Writes what the command line asks for to `out`.
fn produce(args: &Args, out: &mut dyn Write, messages: &mut Messages) -> io::Result<Status> {
    if args.list {
        list_encodings(out)
    } else if args.from.is_some() || args.to.is_some() {
        transcode_all(args, out, messages)
    } else if args.decode {
        decode_notation(args, out, messages)
    } else {
        encode_codepoints(args, out, messages)
    }
}
