//! `utf8enc`: code points in every notation, and transcoding to and from UTF-8 (SPEC 6).
//!
//! Three modes. Without `--decode`, `--from` or `--to`, the operands are code points, written in
//! the chosen notation. With `--decode`, the operands (or standard input) are bytes in some
//! notation, read back into units. With `--from` and/or `--to`, the operands are files, streamed
//! through a decoder into UTF-8 and an encoder out of it.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};
use encoding_rs::{DecoderResult, EncoderResult};
use utf8kit_codec::{
    encode, encode_ucs2, encode_utf32, latin1_to_utf8, parse_byte_notation, parse_codepoint_arg,
    units, write_notation, CodepointArg, Config, EncodeError, Endian, Finding, ForeignBom, Form,
    Malformed, Notation, RepairOptions, Repairer, Scanner, Sink, Ucs2Decoder, Utf16Decoder,
    Utf32Decoder, Utf7Decoder, Utf7Encoder, UTF8_BOM,
};

use crate::cli::ColorWhen;
use crate::encodings::{self, Charset};
use crate::input::{io_reason, ChunkReader, Source};
use crate::output::Messages;
use crate::render::{char_name, shown};
use crate::report::push_unit_json;
use crate::status::Status;

const ABOUT: &str = "Encode code points in every notation; transcode to and from UTF-8";

const LONG_ABOUT: &str = "\
Encode code points in every notation; transcode to and from UTF-8.

Notation: utf8enc CODEPOINT... writes each code point's UTF-8 bytes in the --format asked \
(a table by default). A CODEPOINT is U+20AC, u+20ac, 0x20AC, \\u20AC, \\u{1F600}, \
\\U0001F600, &#8364;, &#x20AC;, bare hex digits (20AC), a single character (€), or a range of \
two of these (U+0400..U+04FF; surrogates inside a range are skipped). -t/--text takes each \
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
and quotes, which separate, and a word of an even number of hex digits on its own, which is bytes.

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
is malformed, a character above U+007F unencodable); and every other label of the WHATWG \
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

--from auto detects: a byte order mark, then UTF-8 validity of the first 64 KiB, then UTF-16 or \
UTF-32 without a mark (the zero bytes of ASCII), then the detector of utf8check's hint, which \
reads all of a regular file as the hint does (a gettext catalog holds its translations past 64 \
KiB of tables) and the first 64 KiB of standard input, a pipe or a device. When the \
evidence is too weak for the hint, the likeliest reading is used and a note says it is a guess; \
-v names the encoding detected. -o FILE writes the output to a new file beside FILE that \
replaces it only when everything was written and nothing failed (strict errors included), so \
-o notes.txt notes.txt converts in place and a failure leaves FILE as it was. When FILE is a \
device or a FIFO (-o /dev/null, -o /dev/stdout), the output is written to it directly, as a \
shell redirection would, and it is never replaced.

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
            utf8kit_codec::write_notation(inner, u32::from(c), utf8, &mut out);
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

    /// Convert input in this encoding to UTF-8.
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
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(256 * 1024, stdout.lock());
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

// ---------------------------------------------------------------------------------------------
// Notation

fn encode_codepoints(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    let mut status = Status::Clean;
    // Ranges of code points (one point is a range of one), generated as they are written: a
    // range as wide as 0..0x7FFFFFFF streams in constant memory.
    let skips_surrogates = !args.allow_surrogates && !args.legacy;
    let mut ranges: Vec<(std::ops::RangeInclusive<u32>, bool)> = Vec::new();
    for input in &args.inputs {
        let text = input.to_string_lossy();
        match parse_codepoint_arg(&text) {
            Ok(CodepointArg::Single(cp)) => ranges.push((cp..=cp, false)),
            Ok(CodepointArg::Range(first, last)) => {
                let surrogates = last.min(0xDFFF).saturating_sub(first.max(0xD800)) + 1;
                if skips_surrogates && first <= 0xDFFF && last >= 0xD800 {
                    messages.note(format_args!(
                        "{text}: skipped {surrogates} surrogates (--allow-surrogates includes them)"
                    ));
                }
                ranges.push((first..=last.min(0x7FFF_FFFF), skips_surrogates));
            }
            Err(error) => {
                messages.error(error);
                return Ok(Status::Trouble);
            }
        }
    }
    // A string notation writes -t's text as one string, as it would sit in a URL or a source
    // file; the other formats write a line per character.
    let mut wrote_string = false;
    if let Some(text) = &args.text {
        match args.format.notation().filter(|_| !args.explain) {
            Some(notation) if is_string_notation(notation) => {
                let mut line = string_notation(notation, text);
                line.push('\n');
                out.write_all(line.as_bytes())?;
                wrote_string = true;
            }
            _ => ranges.extend(text.chars().map(|c| (u32::from(c)..=u32::from(c), false))),
        }
    }
    if let Some(name) = &args.name {
        match unicode_names2::character(name) {
            Some(c) => ranges.push((u32::from(c)..=u32::from(c), false)),
            None => {
                messages.error(format_args!("no character is named '{name}'"));
                return Ok(Status::Trouble);
            }
        }
    }
    if ranges.is_empty() && wrote_string {
        return Ok(status);
    }
    if ranges.is_empty() {
        messages
            .error("no code point given: name one (U+20AC), or use -t, --name, -d, --from or --to");
        return Ok(Status::Trouble);
    }
    let codepoints = ranges.iter().flat_map(|(range, skips)| {
        let skips = *skips;
        range
            .clone()
            .filter(move |cp| !skips || !(0xD800..=0xDFFF).contains(cp))
    });
    let form = if args.legacy {
        Form::Legacy
    } else if args.allow_surrogates {
        Form::Wtf8
    } else {
        Form::Standard
    };
    let mut needs_header = args.format == Format::Table && !args.explain;
    let mut line = String::new();
    for cp in codepoints {
        let encoded = match encode(cp, form) {
            Ok(encoded) => encoded,
            Err(error) => {
                let hint = match error {
                    EncodeError::Surrogate(_) => {
                        ": --allow-surrogates writes its WTF-8 form, --legacy its RFC 2279 form"
                    }
                    EncodeError::OutOfRange(v) if v <= 0x7FFF_FFFF => {
                        ": --legacy writes the RFC 2279 form"
                    }
                    EncodeError::OutOfRange(_) => "",
                };
                messages.note(format_args!("{error}{hint}"));
                status = status.merge(Status::Problems);
                continue;
            }
        };
        let bytes = encoded.as_bytes();
        line.clear();
        if args.explain {
            explain(cp, bytes, &mut line);
            out.write_all(line.as_bytes())?;
            continue;
        }
        match args.format {
            Format::Raw => {
                out.write_all(bytes)?;
                continue;
            }
            Format::Table => {
                if std::mem::take(&mut needs_header) {
                    let _ = writeln!(
                        line,
                        "{:<6}{:<12}{:<18}{:<22}binary",
                        "char", "code point", "hex", "octal"
                    );
                }
                let mut glyph = String::new();
                let width = match char::from_u32(cp) {
                    Some(c) => shown(c).push_to(&mut glyph),
                    None => {
                        glyph.push('-');
                        1
                    }
                };
                let mut hex = String::new();
                let mut octal = String::new();
                let mut binary = String::new();
                for (i, byte) in bytes.iter().enumerate() {
                    let sep = if i > 0 { " " } else { "" };
                    let _ = write!(hex, "{sep}{byte:02X}");
                    let _ = write!(octal, "{sep}{byte:03o}");
                    let _ = write!(binary, "{sep}{byte:08b}");
                }
                let pad = 6usize.saturating_sub(width);
                let _ = write!(
                    line,
                    "{glyph}{:pad$}{:<12}{hex:<18}{octal:<22}{binary}",
                    "",
                    format!("U+{cp:04X}")
                );
            }
            Format::Json => {
                let _ = write!(line, "{{\"codepoint\":{cp},\"char\":");
                // I-JSON (RFC 7493): a surrogate or a value past U+10FFFF is no character, and a
                // lone "\ud800" escape would be rejected by strict parsers.
                match char::from_u32(cp) {
                    Some(c) => line.push_str(
                        &serde_json::to_string(&c.to_string()).expect("a string serialises"),
                    ),
                    None => line.push_str("null"),
                }
                line.push_str(",\"utf8\":\"");
                for byte in bytes {
                    let _ = write!(line, "{byte:02x}");
                }
                line.push_str("\"}");
            }
            Format::Name => match char::from_u32(cp) {
                Some(c) => line.push_str(&char_name(c)),
                None if (0xD800..=0xDFFF).contains(&cp) => line.push_str("<surrogate>"),
                None => line.push_str("<not a code point>"),
            },
            format => {
                let notation = format.notation().expect("every other format is a notation");
                write_notation(notation, cp, bytes, &mut line);
            }
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(status)
}

/// The bit filling of RFC 3629 section 3, step by step.
fn explain(cp: u32, bytes: &[u8], out: &mut String) {
    let name = char::from_u32(cp).map_or_else(|| "<surrogate>".to_owned(), char_name);
    let _ = writeln!(out, "U+{cp:04X} {name}");
    let n = bytes.len();
    if n == 1 {
        let _ = writeln!(
            out,
            "  U+0000..U+007F take 1 byte, 0xxxxxxx: the 7 bits go as they are\n  \
             bits    {cp:07b}\n  bytes   {:08b} = {:02X}\n",
            bytes[0], bytes[0]
        );
        return;
    }
    let (range, template) = match n {
        2 => ("U+0080..U+07FF", "110xxxxx 10xxxxxx"),
        3 => ("U+0800..U+FFFF", "1110xxxx 10xxxxxx 10xxxxxx"),
        4 => ("U+10000..U+10FFFF", "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx"),
        5 => (
            "0x200000..0x3FFFFFF (RFC 2279)",
            "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        ),
        _ => (
            "0x4000000..0x7FFFFFFF (RFC 2279)",
            "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
        ),
    };
    let lead_bits = 7 - n;
    let payload = lead_bits + 6 * (n - 1);
    let bits = format!("{cp:0payload$b}");
    let mut groups = vec![bits[..lead_bits].to_owned()];
    for i in 0..n - 1 {
        let start = lead_bits + 6 * i;
        groups.push(bits[start..start + 6].to_owned());
    }
    let markers: Vec<String> = (0..n)
        .map(|i| {
            if i == 0 {
                format!("{}0", "1".repeat(n))
            } else {
                "10".to_owned()
            }
        })
        .collect();
    let filled: Vec<String> = markers
        .iter()
        .zip(&groups)
        .map(|(m, g)| format!("{m}({g})"))
        .collect();
    let binary: Vec<String> = bytes.iter().map(|b| format!("{b:08b}")).collect();
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    let split: Vec<String> = std::iter::once(lead_bits.to_string())
        .chain(std::iter::repeat_n("6".to_owned(), n - 1))
        .collect();
    let _ = writeln!(
        out,
        "  {range} take {n} bytes: {template} ({payload} bits)\n  \
         bits    {bits}\n  \
         split   {} ({})\n  \
         fill    {}\n  \
         bytes   {} = {}\n",
        groups.join(" "),
        split.join(" + "),
        filled.join(" "),
        binary.join(" "),
        hex.join(" ")
    );
}

// ---------------------------------------------------------------------------------------------
// Decoding notations

fn decode_notation(
    args: &Args,
    out: &mut dyn Write,
    messages: &mut Messages,
) -> io::Result<Status> {
    if !matches!(args.format, Format::Table | Format::Json) {
        messages.error("--decode writes lines or, with --format json, unit objects");
        return Ok(Status::Trouble);
    }
    let text = if args.inputs.is_empty() {
        let mut text = String::new();
        let read = crate::input::stdin().and_then(|mut stdin| stdin.read_to_string(&mut text));
        if let Err(error) = read {
            messages.trouble("<stdin>", io_reason(&error));
            return Ok(Status::Trouble);
        }
        text
    } else {
        let parts: Vec<String> = args
            .inputs
            .iter()
            .map(|i| i.to_string_lossy().into_owned())
            .collect();
        parts.join(" ")
    };
    let bytes = match parse_byte_notation(&text) {
        Ok(bytes) => bytes,
        Err(error) => {
            messages.error(error);
            return Ok(Status::Trouble);
        }
    };
    let mut status = Status::Clean;
    let mut line = String::new();
    for (offset, unit) in units(&bytes) {
        let unit_bytes = &bytes[offset..offset + unit.len];
        line.clear();
        if args.format == Format::Json {
            push_unit_json(
                &mut line,
                offset as u64,
                unit_bytes,
                unit.kind,
                unit.codepoint,
            );
        } else if unit.kind.is_ill_formed() {
            let hex = crate::render::Hex(unit_bytes, " ");
            let _ = write!(line, "{} {hex}", unit.kind.as_str());
            if let Some(cp) = unit.codepoint {
                let _ = write!(line, " (U+{cp:04X})");
            }
        } else {
            let cp = unit.codepoint.expect("a character has a code point");
            let _ = write!(line, "U+{cp:04X} ");
            shown(char::from_u32(cp).expect("a scalar value")).push_to(&mut line);
        }
        if unit.kind.is_ill_formed() {
            status = Status::Problems;
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(status)
}

// ---------------------------------------------------------------------------------------------
// Transcoding

/// The canonical name of an encoding, for messages.
fn name_of(charset: Charset) -> String {
    encodings::entry_of(charset).name.to_owned()
}

/// `--list`: every encoding, the options that take it, and its labels.
fn list_encodings(out: &mut dyn Write) -> io::Result<Status> {
    writeln!(out, "{:<16} {:<22} LABELS", "ENCODING", "ACCEPTED BY")?;
    for entry in encodings::table() {
        writeln!(
            out,
            "{:<16} {:<22} {}",
            entry.name,
            entry.accepted_by().join(" "),
            entry.labels.join(" ")
        )?;
    }
    writeln!(
        out,
        "{:<16} {:<22} auto (a byte order mark, UTF-8, BOM-less UTF-16/32, then the detector \
         of utf8check's hint)",
        "(detect)", "--from"
    )?;
    Ok(Status::Clean)
}

fn transcode_all(args: &Args, out: &mut dyn Write, messages: &mut Messages) -> io::Result<Status> {
    // Messages name the label as the user typed it, and what it resolved to. `None` is auto.
    let parse = |label: &Option<String>| -> Result<(Option<Charset>, String), String> {
        match label.as_deref() {
            None => Ok((Some(Charset::Utf8), "UTF-8".to_owned())),
            Some(label) if label.trim().eq_ignore_ascii_case("auto") => {
                Ok((None, "auto".to_owned()))
            }
            Some(label) => {
                encodings::resolve(label).map(|named| (Some(named.charset()), named.to_string()))
            }
        }
    };
    let ((from, from_label), (to, to_label)) = match (parse(&args.from), parse(&args.to)) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(reason), _) | (_, Err(reason)) => {
            messages.error(reason);
            return Ok(Status::Trouble);
        }
    };
    let Some(to) = to else {
        messages.error("--to auto: detection only reads input");
        return Ok(Status::Trouble);
    };
    if !to.can_encode() {
        let typed = args.to.as_deref().unwrap_or_default().trim();
        messages.error(format_args!(
            "--to {typed}: {typed} is decoded as the WHATWG replacement encoding, which has no \
             encoder; nothing can be written in it"
        ));
        return Ok(Status::Trouble);
    }
    let errors = if args.drop_unencodable {
        Errors::Drop
    } else {
        args.errors
    };
    if matches!(errors, Errors::Html | Errors::Drop) && args.to.is_none() {
        messages.error(
            "--errors html, --errors drop and -c are for --to: what the target cannot encode",
        );
        return Ok(Status::Trouble);
    }
    let sources = Source::from_operands(&args.inputs);
    let mut reader = ChunkReader::new();
    let mut status = Status::Clean;
    for source in &sources {
        let name = source.display_name().into_owned();
        let mut decoder = Decoder::new(from, matches!(errors, Errors::Replace | Errors::Html));
        if let (Decoder::Sniffing { file, .. }, Source::Path(path)) = (&mut decoder, source) {
            // Only a regular file can be read twice; a FIFO or a device is judged by its head.
            if from.is_none() && std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
                *file = Some(path.clone());
            }
        }
        let mut encoder = Encoder::new(to, &to_label, errors);
        let mut text = Vec::new();
        let mut bytes = Vec::new();
        // The first malformed or unencodable character ends the input (strict); what came
        // before it is written. A failed write ends the run.
        let mut problem: Option<String> = None;
        let mut write_error: Option<io::Error> = None;
        let read = reader.read(source, &mut |chunk, is_last| {
            // A chunk is at most 64 KiB (`CHUNK_LEN`): converted whole, in bounded memory.
            {
                let (piece, last) = (chunk, is_last);
                text.clear();
                bytes.clear();
                let decoded = decoder.decode(piece, last, &mut text);
                if let Err(malformed) = &decoded {
                    problem = Some(if from == Some(Charset::Whatwg(encoding_rs::REPLACEMENT)) {
                        let typed = args.from.as_deref().unwrap_or_default().trim();
                        format!(
                            "{typed} is decoded as the WHATWG replacement encoding: its input \
                             is one malformed character (--errors replace writes U+FFFD)"
                        )
                    } else if from.is_none() {
                        format!("malformed {}: {malformed}", decoder.name())
                    } else {
                        format!("malformed {from_label}: {malformed}")
                    });
                }
                // To UTF-8 the decoded bytes are the output; only another target needs them as
                // text. The decoders write whole UTF-8 characters, and the copy they wrote is
                // checked as it is (SIMD, a small share of a conversion): no unchecked `&str`.
                let encoded = if to == Charset::Utf8 {
                    Ok(())
                } else {
                    match simdutf8::basic::from_utf8(&text) {
                        Ok(text) => encoder.encode(text, last && decoded.is_ok(), &mut bytes),
                        Err(_) => Err("the decoder wrote text that is not UTF-8".to_owned()),
                    }
                };
                let output = if to == Charset::Utf8 {
                    &text[..]
                } else {
                    &bytes[..]
                };
                if let Err(error) = out.write_all(output) {
                    write_error = Some(error);
                    return ControlFlow::Break(());
                }
                if let Err(detail) = encoded {
                    problem.get_or_insert(detail);
                }
                if problem.is_some() {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        let failure = match (write_error, problem) {
            (Some(error), _) => Some(Err(error)),
            (None, Some(detail)) => Some(Ok(detail)),
            (None, None) => None,
        };
        match failure {
            Some(Err(error)) => return Err(error),
            Some(Ok(detail)) => {
                messages.note(format_args!("{name}: {detail}"));
                status = status.merge(Status::Problems);
            }
            None => {}
        }
        if let Some((found, sure)) = decoder.detection() {
            if !sure {
                messages.note(format_args!(
                    "{name}: read as {found}, a guess: the detector found too little evidence \
                     (name the encoding with --from)"
                ));
            } else if args.verbose {
                messages.note(format_args!("{name}: detected {found}"));
            }
        }
        if let Err(error) = read {
            messages.trouble(&name, io_reason(&error));
        }
    }
    Ok(status)
}

/// Decodes one input into UTF-8.
enum Decoder {
    Utf8Strict(Scanner),
    /// The codec's default repair: one U+FFFD per maximal subpart.
    Utf8Lossy(Repairer),
    Rs {
        decoder: encoding_rs::Decoder,
        consumed: u64,
        replace: bool,
        name: String,
    },
    Latin1,
    /// An IBM PC code page: every byte is a character.
    CodePage(&'static [char; 128]),
    /// 7-bit ASCII: the bytes read so far, and whether to replace.
    Ascii(u64, bool),
    Utf16(Utf16Decoder, bool),
    Utf32(Utf32Decoder, bool),
    Ucs2(Ucs2Decoder, bool),
    Utf7(Utf7Decoder, bool),
    /// A byte order mark or a detection decides the decoder: the head is held until then.
    Sniffing {
        /// `None`: auto.
        enc: Option<Charset>,
        head: Vec<u8>,
        replace: bool,
        /// For auto, the regular file being read: when its head leaves the encoding to the
        /// detector, the detector reads all of it, as utf8check's hint does, so the two agree.
        file: Option<PathBuf>,
    },
    /// After sniffing: the byte order mark's length is added to every offset.
    /// The third field: for `--from auto`, whether the detection was sure.
    Shifted(Box<Decoder>, u64, Option<bool>),
}

/// How much input `--from auto` looks at before deciding.
const SNIFF_LEN: usize = 64 * 1024;

impl Decoder {
    /// A decoder for `enc`; `None` detects.
    fn new(enc: Option<Charset>, replace: bool) -> Decoder {
        let Some(charset) = enc else {
            return Decoder::Sniffing {
                enc,
                head: Vec::new(),
                replace,
                file: None,
            };
        };
        match charset {
            Charset::Utf8 if replace => Decoder::Utf8Lossy(Repairer::new(RepairOptions::default())),
            Charset::Utf8 => Decoder::Utf8Strict(Scanner::new(Config::default())),
            // The codec's decoder converts 16 units at a time (AVX2; 8 with SSSE3): 2.2 GB/s
            // where encoding_rs's decoder gave 0.55 GB/s on the bench's multilingual mix.
            Charset::Utf16(Some(endian)) => Decoder::Utf16(Utf16Decoder::new(endian), replace),
            // An explicit label reads a byte order mark as what its bytes are in that encoding
            // (the same rule as utf-8 and utf-16le: see the man page).
            Charset::Whatwg(encoding) => Decoder::Rs {
                decoder: encoding.new_decoder_without_bom_handling(),
                consumed: 0,
                replace,
                name: encoding.name().to_owned(),
            },
            Charset::Latin1 => Decoder::Latin1,
            Charset::CodePage(table) => Decoder::CodePage(table),
            Charset::Ascii => Decoder::Ascii(0, replace),
            Charset::Utf32(Some(endian)) => Decoder::Utf32(Utf32Decoder::new(endian), replace),
            Charset::Ucs2(Some(endian)) => Decoder::Ucs2(Ucs2Decoder::new(endian), replace),
            Charset::Utf7 => Decoder::Utf7(Utf7Decoder::new(), replace),
            Charset::Utf16(None)
            | Charset::Unicode
            | Charset::Utf32(None)
            | Charset::Ucs2(None) => Decoder::Sniffing {
                enc,
                head: Vec::new(),
                replace,
                file: None,
            },
        }
    }

    fn name(&self) -> String {
        match self {
            Decoder::Utf8Strict(_) | Decoder::Utf8Lossy(_) => "UTF-8".into(),
            Decoder::Rs { name, .. } => name.clone(),
            Decoder::Latin1 => "ISO-8859-1".into(),
            Decoder::CodePage(table) => name_of(Charset::CodePage(table)),
            Decoder::Ascii(..) => "US-ASCII".into(),
            Decoder::Utf16(decoder, _) => decoder.name().into(),
            Decoder::Utf32(..) => "UTF-32".into(),
            Decoder::Ucs2(..) => "UCS-2".into(),
            Decoder::Utf7(..) => "UTF-7".into(),
            Decoder::Sniffing { enc, .. } => enc.map_or_else(|| "auto".to_owned(), name_of),
            Decoder::Shifted(inner, ..) => inner.name(),
        }
    }

    /// For `--from auto`, once decided: the encoding found and whether the evidence was strong.
    fn detection(&self) -> Option<(String, bool)> {
        match self {
            Decoder::Shifted(inner, _, Some(sure)) => Some((inner.name(), *sure)),
            _ => None,
        }
    }

    fn decode(&mut self, src: &[u8], last: bool, dst: &mut Vec<u8>) -> Result<(), Malformed> {
        match self {
            Decoder::Utf8Lossy(repairer) => {
                repairer.feed(src, last);
                dst.append(repairer.output());
                Ok(())
            }
            Decoder::Utf8Strict(scanner) => {
                let mut sink = StrictSink { dst, error: None };
                let _ = scanner.feed(src, last, &mut sink);
                sink.error.map_or(Ok(()), Err)
            }
            Decoder::Rs {
                decoder,
                consumed,
                replace,
                ..
            } => decode_rs(decoder, consumed, *replace, src, last, dst),
            Decoder::Latin1 => {
                latin1_to_utf8(src, dst);
                Ok(())
            }
            Decoder::CodePage(table) => {
                for c in crate::codepages::chars(table, src) {
                    dst.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                Ok(())
            }
            Decoder::Ascii(consumed, replace) => {
                let result = decode_ascii(src, *consumed, *replace, dst);
                *consumed += src.len() as u64;
                result
            }
            Decoder::Utf16(decoder, replace) => decoder.decode(src, last, dst, *replace),
            Decoder::Utf32(decoder, replace) => decoder.decode(src, last, dst, *replace),
            Decoder::Ucs2(decoder, replace) => decoder.decode(src, last, dst, *replace),
            Decoder::Utf7(decoder, replace) => decoder.decode(src, last, dst, *replace),
            Decoder::Shifted(inner, shift, _) => inner.decode(src, last, dst).map_err(|mut e| {
                e.byte_offset += *shift;
                e
            }),
            Decoder::Sniffing {
                enc,
                head,
                replace,
                file,
            } => {
                head.extend_from_slice(src);
                let needed = if enc.is_none() { SNIFF_LEN } else { 4 };
                if head.len() < needed && !last {
                    return Ok(());
                }
                let head = std::mem::take(head);
                let (decided, bom_len, sure) = sniff(*enc, &head, last, file.as_deref());
                let mut inner = Decoder::new(Some(decided), *replace);
                let result = inner.decode(&head[bom_len..], last, dst);
                *self = Decoder::Shifted(Box::new(inner), bom_len as u64, sure);
                result.map_err(|mut e| {
                    e.byte_offset += bom_len as u64;
                    e
                })
            }
        }
    }
}

/// Decides an encoding from the start of the input (`is_whole` when that is all of it): the
/// encoding and the length of its byte order mark.
/// `enc` is `None` for auto, which also reports whether its detection was sure.
fn sniff(
    enc: Option<Charset>,
    head: &[u8],
    is_whole: bool,
    file: Option<&Path>,
) -> (Charset, usize, Option<bool>) {
    let is_utf32 = matches!(enc, Some(Charset::Utf32(None)));
    let bom = match ForeignBom::detect(head) {
        Some(mark) if mark.len_bytes() == 4 && (is_utf32 || enc.is_none()) => {
            Some((Charset::Utf32(Some(mark.endian())), 4))
        }
        // Under a UTF-16 label `FF FE 00 00` is UTF-16LE's mark and a NUL.
        Some(ForeignBom::Utf16Le | ForeignBom::Utf32Le) if !is_utf32 => {
            Some((with_endian(enc, Endian::Little), 2))
        }
        Some(ForeignBom::Utf16Be) if !is_utf32 => Some((with_endian(enc, Endian::Big), 2)),
        _ if enc.is_none() && head.starts_with(UTF8_BOM) => Some((Charset::Utf8, 3)),
        _ => None,
    };
    if let Some((found, len)) = bom {
        return (found, len, enc.is_none().then_some(true));
    }
    match enc {
        None => {
            let (found, sure) = detect_head(head, is_whole, file);
            (found, 0, Some(sure))
        }
        // iconv's UNICODE: without a byte order mark, little-endian.
        Some(Charset::Unicode) => (Charset::Utf16(Some(Endian::Little)), 0, None),
        // RFC 2781: without a byte order mark, big-endian.
        other => (with_endian(other, Endian::Big), 0, None),
    }
}

/// `--from auto` without a byte order mark: UTF-8 when the head is valid (but for a character
/// cut by its end), UTF-16/32 by the zero bytes of ASCII, else the detector of utf8check's hint,
/// over all of `file` when the input is a regular file longer than its head (a gettext catalog
/// holds its translations past 64 KiB of tables and English), over the head otherwise;
/// windows-1252 when even the likeliest reading is no better than a guess.
fn detect_head(head: &[u8], is_whole: bool, file: Option<&Path>) -> (Charset, bool) {
    let is_utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && !is_whole,
    };
    if let Some(charset) = crate::detect::unmarked_utf16_or_32(head) {
        return (charset, true);
    }
    if is_utf8 {
        return (Charset::Utf8, true);
    }
    let mut evidence = crate::detect::Evidence::new();
    let whole = file.filter(|_| !is_whole).and_then(|path| {
        let mut whole = crate::detect::Evidence::new();
        feed_file(path, &mut whole).ok().map(|()| whole)
    });
    match whole {
        Some(whole) => evidence = whole,
        None => evidence.feed(head),
    }
    evidence.finish();
    let verdict = crate::detect::detect(&evidence);
    let found = verdict
        .likeliest()
        .unwrap_or(Charset::Whatwg(encoding_rs::WINDOWS_1252));
    (found, matches!(verdict, crate::detect::Verdict::Sure(_)))
}

/// Feeds a whole file to the detector, read again from its start (the conversion goes on from
/// the head it already holds).
fn feed_file(path: &Path, evidence: &mut crate::detect::Evidence) -> io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; SNIFF_LEN];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => evidence.feed(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// 7-bit ASCII into UTF-8: a byte above 7F is malformed (U+FFFD when replacing).
fn decode_ascii(
    src: &[u8],
    consumed: u64,
    replace: bool,
    dst: &mut Vec<u8>,
) -> Result<(), Malformed> {
    let ascii = src.iter().position(|&b| b >= 0x80).unwrap_or(src.len());
    dst.extend_from_slice(&src[..ascii]);
    if ascii == src.len() {
        return Ok(());
    }
    if !replace {
        return Err(Malformed {
            byte_offset: consumed + ascii as u64,
            reason: format!("byte {:02x} is not 7-bit ASCII", src[ascii]),
        });
    }
    for &byte in &src[ascii..] {
        if byte < 0x80 {
            dst.push(byte);
        } else {
            dst.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    Ok(())
}

/// The byte-ordered form of a UTF-16, UTF-32 or UCS-2 label (UTF-16 for auto and `unicode`).
fn with_endian(enc: Option<Charset>, endian: Endian) -> Charset {
    match enc {
        Some(Charset::Utf32(_)) => Charset::Utf32(Some(endian)),
        Some(Charset::Ucs2(_)) => Charset::Ucs2(Some(endian)),
        _ => Charset::Utf16(Some(endian)),
    }
}

fn decode_rs(
    decoder: &mut encoding_rs::Decoder,
    consumed: &mut u64,
    replace: bool,
    src: &[u8],
    last: bool,
    dst: &mut Vec<u8>,
) -> Result<(), Malformed> {
    let mut src = src;
    loop {
        let room = if replace {
            decoder.max_utf8_buffer_length(src.len())
        } else {
            decoder.max_utf8_buffer_length_without_replacement(src.len())
        }
        .unwrap_or(src.len() * 3 + 16)
        .max(16);
        let start = dst.len();
        dst.resize(start + room, 0);
        if replace {
            let (_, read, written, _) = decoder.decode_to_utf8(src, &mut dst[start..], last);
            dst.truncate(start + written);
            *consumed += read as u64;
            src = &src[read..];
            if src.is_empty() {
                return Ok(());
            }
            continue;
        }
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(src, &mut dst[start..], last);
        dst.truncate(start + written);
        match result {
            DecoderResult::InputEmpty => {
                *consumed += read as u64;
                return Ok(());
            }
            DecoderResult::OutputFull => {
                *consumed += read as u64;
                src = &src[read..];
            }
            DecoderResult::Malformed(bad, extra) => {
                let offset =
                    (*consumed + read as u64).saturating_sub(u64::from(bad) + u64::from(extra));
                return Err(Malformed {
                    byte_offset: offset,
                    reason: format!("{bad} byte(s) that do not form a character"),
                });
            }
        }
    }
}

struct StrictSink<'a> {
    dst: &'a mut Vec<u8>,
    error: Option<Malformed>,
}

impl Sink for StrictSink<'_> {
    fn text(&mut self, _: u64, bytes: &[u8]) -> ControlFlow<()> {
        self.dst.extend_from_slice(bytes);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self.error = Some(Malformed {
            byte_offset: finding.position.byte_offset,
            reason: format!(
                "{} {}",
                finding.kind,
                crate::render::Hex(finding.bytes, " ")
            ),
        });
        ControlFlow::Break(())
    }
}

/// Encodes UTF-8 text into the target, handling what it cannot encode as `--errors` says.
struct Encoder {
    kind: EncoderKind,
    target: String,
    errors: Errors,
    /// Bytes of text encoded so far: where an unencodable character is.
    text_offset: u64,
}

enum EncoderKind {
    Utf8,
    Utf16 { endian: Endian, needs_bom: bool },
    Utf32 { endian: Endian, needs_bom: bool },
    Ucs2 { endian: Endian, needs_bom: bool },
    Utf7(Utf7Encoder),
    Latin1,
    CodePage(&'static [char; 128]),
    Ascii,
    Rs(encoding_rs::Encoder),
}

fn push_bom(dst: &mut Vec<u8>, needs_bom: &mut bool, endian: Endian, width: usize) {
    if std::mem::take(needs_bom) {
        let mark = if width == 2 {
            ForeignBom::utf16(endian)
        } else {
            ForeignBom::utf32(endian)
        };
        dst.extend_from_slice(mark.bytes());
    }
}

impl Encoder {
    fn new(enc: Charset, label: &str, errors: Errors) -> Encoder {
        let kind = match enc {
            Charset::Utf8 => EncoderKind::Utf8,
            Charset::Utf16(endian) => EncoderKind::Utf16 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Utf32(endian) => EncoderKind::Utf32 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Ucs2(endian) => EncoderKind::Ucs2 {
                endian: endian.unwrap_or(Endian::Big),
                needs_bom: endian.is_none(),
            },
            Charset::Utf7 => EncoderKind::Utf7(Utf7Encoder::new()),
            Charset::Unicode => EncoderKind::Utf16 {
                endian: Endian::Little,
                needs_bom: true,
            },
            Charset::Latin1 => EncoderKind::Latin1,
            Charset::CodePage(table) => EncoderKind::CodePage(table),
            Charset::Ascii => EncoderKind::Ascii,
            Charset::Whatwg(encoding) => EncoderKind::Rs(encoding.new_encoder()),
        };
        Encoder {
            kind,
            target: label.to_owned(),
            errors,
            text_offset: 0,
        }
    }

    /// What replaces an unencodable character, or the strict error naming it.
    fn unencodable(&self, offset_in_text: usize, c: char) -> Result<String, String> {
        match self.errors {
            Errors::Strict => Err(format!(
                "byte offset {}: U+{:04X} {} cannot be encoded in {}",
                self.text_offset + offset_in_text as u64,
                u32::from(c),
                char_name(c),
                self.target
            )),
            Errors::Replace => Ok("?".to_owned()),
            Errors::Html => Ok(format!("&#{};", u32::from(c))),
            Errors::Drop => Ok(String::new()),
        }
    }

    fn encode(&mut self, text: &str, last: bool, dst: &mut Vec<u8>) -> Result<(), String> {
        let result = self.encode_text(text, last, dst);
        self.text_offset += text.len() as u64;
        result
    }

    fn encode_text(&mut self, text: &str, last: bool, dst: &mut Vec<u8>) -> Result<(), String> {
        match &mut self.kind {
            EncoderKind::Utf8 => Ok(()),
            EncoderKind::Utf16 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 2);
                let mut units = vec![0u16; text.len()];
                let count = encoding_rs::mem::convert_str_to_utf16(text, &mut units);
                dst.reserve(count * 2);
                for unit in &units[..count] {
                    match endian {
                        Endian::Little => dst.extend_from_slice(&unit.to_le_bytes()),
                        Endian::Big => dst.extend_from_slice(&unit.to_be_bytes()),
                    }
                }
                Ok(())
            }
            EncoderKind::Utf32 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 4);
                encode_utf32(text, *endian, dst);
                Ok(())
            }
            EncoderKind::Ucs2 { endian, needs_bom } => {
                push_bom(dst, needs_bom, *endian, 2);
                let endian = *endian;
                let mut rest = text;
                let mut done = 0;
                while let Err(bad) = encode_ucs2(rest, endian, dst, None) {
                    let replacement = self.unencodable(done + bad.byte_offset, bad.character)?;
                    encode_ucs2(&replacement, endian, dst, None).expect("ASCII is UCS-2");
                    let next = bad.byte_offset + bad.character.len_utf8();
                    done += next;
                    rest = &rest[next..];
                }
                Ok(())
            }
            EncoderKind::Utf7(encoder) => {
                encoder.encode(text, last, dst);
                Ok(())
            }
            EncoderKind::Latin1 => {
                if encoding_rs::mem::is_str_latin1(text) {
                    let start = dst.len();
                    dst.resize(start + text.len(), 0);
                    let written = encoding_rs::mem::convert_utf8_to_latin1_lossy(
                        text.as_bytes(),
                        &mut dst[start..],
                    );
                    dst.truncate(start + written);
                    return Ok(());
                }
                for (offset, c) in text.char_indices() {
                    match u8::try_from(u32::from(c)) {
                        Ok(byte) => dst.push(byte),
                        Err(_) => dst.extend_from_slice(self.unencodable(offset, c)?.as_bytes()),
                    }
                }
                Ok(())
            }
            EncoderKind::CodePage(table) => {
                let table: &'static [char; 128] = table;
                for (offset, c) in text.char_indices() {
                    if c.is_ascii() {
                        dst.push(c as u8);
                    } else if let Some(i) = table.iter().position(|&t| t == c) {
                        dst.push(0x80 + i as u8);
                    } else {
                        dst.extend_from_slice(self.unencodable(offset, c)?.as_bytes());
                    }
                }
                Ok(())
            }
            EncoderKind::Ascii => {
                let ascii = text.bytes().position(|b| b >= 0x80).unwrap_or(text.len());
                dst.extend_from_slice(&text.as_bytes()[..ascii]);
                for (offset, c) in text[ascii..].char_indices() {
                    if c.is_ascii() {
                        dst.push(c as u8);
                    } else {
                        let replacement = self.unencodable(ascii + offset, c)?;
                        dst.extend_from_slice(replacement.as_bytes());
                    }
                }
                Ok(())
            }
            EncoderKind::Rs(_) => self.encode_rs(text, last, dst),
        }
    }

    fn encode_rs(&mut self, text: &str, last: bool, dst: &mut Vec<u8>) -> Result<(), String> {
        let mut rest = text;
        let mut done = 0;
        loop {
            let EncoderKind::Rs(encoder) = &mut self.kind else {
                unreachable!("called for encoding_rs encoders only")
            };
            let room = encoder
                .max_buffer_length_from_utf8_without_replacement(rest.len())
                .unwrap_or(rest.len() * 4 + 16)
                .max(16);
            let start = dst.len();
            dst.resize(start + room, 0);
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(rest, &mut dst[start..], last);
            dst.truncate(start + written);
            match result {
                EncoderResult::InputEmpty => return Ok(()),
                EncoderResult::OutputFull => {
                    done += read;
                    rest = &rest[read..];
                }
                EncoderResult::Unmappable(c) => {
                    let offset = done + read - c.len_utf8();
                    let replacement = self.unencodable(offset, c)?;
                    // ASCII replacements are the same in every encoding utf8enc writes this way.
                    dst.extend_from_slice(replacement.as_bytes());
                    done += read;
                    rest = &rest[read..];
                }
            }
        }
    }
}
