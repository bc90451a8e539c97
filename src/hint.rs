//! The encoding hint (SPEC 3): when an input's findings look like text in a legacy encoding, or
//! a valid input looks like UTF-16 or UTF-32 without a byte order mark, a note on standard error
//! names the encoding and the command that fixes the file. The detector is the one
//! `utf8enc --from auto` uses ([`crate::detect`]); the note names an encoding only on strong
//! evidence, says "possibly A or B" on some, and nothing on too little.
//!
//! The advice never changes a well-formed character beyond what chance explains: a file that
//! mixes UTF-8 with stray bytes of a single-byte encoding is repaired with
//! `utf8fix --fallback ENC -i FILE`, which decodes only the ill-formed bytes; a file in a legacy
//! encoding (with at most one chance UTF-8 pair per hundred lone bytes, see
//! [`Evidence::is_mixed`]), or in UTF-16/32 without a mark, is converted whole with
//! `utf8enc --from ENC -o FILE FILE`, which replaces the file atomically.

use std::ops::ControlFlow;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use utf8kit_codec::{UnitKind, bom::ForeignBom};

use crate::detect::{self, Evidence, Verdict};
use crate::encodings::{self, Charset};
use crate::input::{ChunkReader, Source};

/// What an input's findings say of a legacy encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Findings {
    /// Not the kinds legacy text leaves (or none at all).
    Other,
    /// Lone bytes (a lead with at most one byte after it), at least nine in ten: what any legacy
    /// encoding leaves.
    Legacy,
    /// Mostly lone bytes, at least three in four, with the longer units that the pairs of a
    /// double-byte encoding make when read as UTF-8 (Shift_JIS "検索" ends in `8D F5 82 B7`,
    /// an out-of-range unit): a double-byte encoding is named, or a single-byte one for a file
    /// with no well-formed UTF-8 among its legacy bytes.
    DoubleByte,
}

impl Findings {
    /// From the counts of ill-formed units and of lone bytes among them.
    pub fn of(ill_formed: u64, lone_bytes: u64) -> Findings {
        if ill_formed == 0 {
            Findings::Other
        } else if lone_bytes * 10 >= ill_formed * 9 {
            Findings::Legacy
        } else if lone_bytes * 4 >= ill_formed * 3 {
            Findings::DoubleByte
        } else {
            Findings::Other
        }
    }
}

/// The ill-formed units of an input, counted for [`Findings`]: all of them, and the lone bytes
/// among them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegacyTally {
    /// Ill-formed units.
    pub ill_formed: u64,
    /// Those of them that a legacy single-byte encoding leaves.
    pub lone_bytes: u64,
    /// Those of them that are one byte long (not a UTF-8 sequence cut short), FE and FF aside.
    pub single_bytes: u64,
}

impl LegacyTally {
    /// Counts one ill-formed unit of `kind` and `len` bytes.
    pub fn count(&mut self, kind: UnitKind, len: usize) {
        self.ill_formed += 1;
        // A legacy single-byte encoding leaves lone letters C0..FF and 80..BF (or a lead byte
        // with one 80..BF byte after it), never overlongs or surrogates; a lone C0, C1 or F5..FF
        // is a letter too (Turkish ı and ş are FD and FE).
        let is_lone_byte = matches!(
            kind,
            UnitKind::Truncated | UnitKind::UnexpectedContinuation | UnitKind::InvalidByte
        );
        self.lone_bytes += u64::from(is_lone_byte && len <= 2);
        self.single_bytes += u64::from(len == 1 && kind != UnitKind::InvalidByte);
    }

    /// Whether nearly every unit counted (nine in ten) is a single byte: the letters of a
    /// legacy encoding, not UTF-8 cut short (`E2 82` at the end of a file cut in two).
    pub fn is_single_bytes(self) -> bool {
        self.ill_formed > 0 && self.single_bytes * 10 >= self.ill_formed * 9
    }

    /// What the units counted say.
    pub fn findings(self) -> Findings {
        Findings::of(self.ill_formed, self.lone_bytes)
    }
}

/// A hint: the sentence people read, and for machine formats the encoding it names and the
/// command it advises, where it has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The input (or the file whose name it is about), shown as people read it.
    pub name: String,
    /// The encoding the hint names: a label `--from` and `--fallback` take.
    pub encoding: Option<String>,
    /// The command that fixes the input, ready to paste.
    pub command: Option<String>,
    /// What the hint says, the command included, without the name.
    pub message: String,
}

impl Hint {
    fn new(name: impl Into<String>, message: String) -> Hint {
        Hint {
            name: name.into(),
            encoding: None,
            command: None,
            message,
        }
    }

    /// The hint as a line of standard error says it (after `PROGRAM: `).
    pub fn human(&self) -> String {
        format!("{}: hint: {}", self.name, self.message)
    }

    /// A hint that names `encoding` and gives `advice`: `message` then `; ` and the advice.
    fn advising(source: &Source, encoding: &str, message: String, advice: Advice<'_>) -> Hint {
        let (words, command) = advised(source, advice);
        Hint {
            name: source.display_name().into_owned(),
            encoding: Some(encoding.to_owned()),
            command: Some(command.clone()),
            message: format!("{message}; {words}: {command}"),
        }
    }
}

/// The hint for an input that starts with the byte order mark of UTF-16 or UTF-32: the
/// command that converts it.
pub fn bom_hint(source: &Source, bom: ForeignBom) -> Hint {
    let charset = match (bom, bom.endian()) {
        (ForeignBom::Utf16Le | ForeignBom::Utf16Be, endian) => Charset::Utf16(Some(endian)),
        (ForeignBom::Utf32Le | ForeignBom::Utf32Be, endian) => Charset::Utf32(Some(endian)),
    };
    let label = encodings::entry_of(charset).labels[0];
    Hint::advising(
        source,
        label,
        format!(
            "this is {} text with a byte order mark, not UTF-8",
            bom.encoding()
        ),
        Advice::Convert(label),
    )
}

/// The hint for an input whose ill-formed bytes are lone bytes, too few for the detector to name
/// their encoding (a word or two of Latin-1 in a UTF-8 file): `--fallback` with the right one.
pub fn unnamed_legacy_hint(source: &Source) -> Hint {
    let file = match source {
        Source::Path(path) => format!(" -i {}{}", end_of_options(path), shell_quote(path)),
        Source::Stdin => String::new(),
    };
    Hint::new(
        source.display_name(),
        format!(
            "its ill-formed bytes look like letters of a legacy encoding, too few to tell \
             which; decode them with the right one: utf8fix --fallback ENC{file} (windows-1252 \
             for Western European text; utf8enc -l lists the encodings)"
        ),
    )
}

/// The note for a valid input some of whose lines look like mojibake: text decoded as
/// `encoding` (the outer layer; `read` says it whole, `UTF-8 read as windows-1252`) and encoded
/// again, which `utf8fix --mojibake` undoes.
pub fn mojibake_hint(source: &Source, encoding: &str, read: &str, example: &str) -> Hint {
    let command = match source {
        Source::Path(path) => format!(
            "utf8fix --mojibake -i {}{}",
            end_of_options(path),
            shell_quote(path)
        ),
        Source::Stdin => "utf8fix --mojibake".to_owned(),
    };
    Hint {
        name: source.display_name().into_owned(),
        encoding: Some(encoding.to_owned()),
        command: Some(command.clone()),
        message: format!(
            "valid UTF-8, but some lines look like mojibake ({read} and saved again: \
             {example}); repair them with: {command}"
        ),
    }
}

/// The note for a valid input that is ISO-2022 text: 7-bit, so its bytes are valid UTF-8, but
/// its escape sequences switch to Japanese or Korean.
pub fn iso_2022_hint(source: &Source, iso_2022: crate::detect::Iso2022) -> Hint {
    match iso_2022 {
        crate::detect::Iso2022::Japanese => Hint::advising(
            source,
            "iso-2022-jp",
            "valid UTF-8 bytes, but ISO-2022-JP text (its escape sequences switch to Japanese)"
                .to_owned(),
            Advice::Convert("iso-2022-jp"),
        ),
        crate::detect::Iso2022::Korean => Hint::new(
            source.display_name(),
            "valid UTF-8 bytes, but ISO-2022-KR text (its escape sequences switch to Korean), \
             which utf8enc cannot decode; iconv -f ISO-2022-KR -t UTF-8 can"
                .to_owned(),
        ),
    }
}

/// The hint for one input, if there is one to give.
///
/// `sample` is the start of standard input (a file is read again for the evidence: the hint is
/// rare, only for inputs with findings of the legacy kind or a NUL byte near the start).
pub fn hint(
    source: &Source,
    reader: &mut ChunkReader,
    sample: &[u8],
    findings: Findings,
) -> Option<Hint> {
    let label = |charset: Charset| encodings::entry_of(charset).labels[0];
    let mut evidence = Evidence::new();
    // Only a regular file can be read again (a FIFO's writer is gone, a device may block).
    let is_regular = |path: &Path| std::fs::metadata(path).is_ok_and(|m| m.is_file());
    match source {
        Source::Path(path) if !is_regular(path) => evidence.feed(sample),
        Source::Stdin => evidence.feed(sample),
        Source::Path(_) => {
            // Without legacy findings the only question is UTF-16 or UTF-32 without a mark,
            // which the head answers: a big file is not read to its end for it.
            let head_only = findings == Findings::Other;
            let read = reader.read(source, &mut |chunk, _| {
                evidence.feed(chunk);
                if head_only && evidence.head_is_full() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if read.is_err() {
                evidence = Evidence::new();
                evidence.feed(sample);
            }
        }
    }
    evidence.finish();
    if let Some(charset) = detect::unmarked_utf16_or_32(evidence.head()) {
        return Some(Hint::advising(
            source,
            label(charset),
            format!(
                "this looks like {} without a byte order mark, not UTF-8",
                encodings::entry_of(charset).name
            ),
            Advice::Convert(label(charset)),
        ));
    }
    let verdict = match (findings, detect::detect(&evidence)) {
        (Findings::Other, _) => return None,
        (Findings::DoubleByte, Verdict::Sure(charset)) if !charset.is_single_byte() => {
            Verdict::Sure(charset)
        }
        // A whole file in a single-byte code page whose letters make longer units when read as
        // UTF-8 (IBM855's `за` is F3 A0, `загрузки` a lead byte and two continuations).
        (Findings::DoubleByte, Verdict::Sure(charset)) if !evidence.is_mixed() => {
            Verdict::Sure(charset)
        }
        (Findings::DoubleByte, _) => return None,
        (Findings::Legacy, verdict) => verdict,
    };
    match verdict {
        Verdict::Sure(charset) if charset.is_single_byte() && evidence.is_mixed() => {
            Some(Hint::advising(
                source,
                label(charset),
                format!("this looks like UTF-8 mixed with {} bytes", label(charset)),
                Advice::Fallback(label(charset)),
            ))
        }
        // Chance explains some well-formed UTF-8 in a multi-byte legacy encoding (EUC-JP's
        // pairs are often well-formed UTF-8), not more of it than of the broken units.
        Verdict::Sure(charset)
            if !charset.is_single_byte() && evidence.valid_multibyte > evidence.ill_formed =>
        {
            let mut hint = Hint::new(
                source.display_name(),
                format!(
                    "some lines look like {} text among UTF-8; no command repairs only them \
                     (utf8fix --fallback takes single-byte encodings)",
                    label(charset)
                ),
            );
            hint.encoding = Some(label(charset).to_owned());
            Some(hint)
        }
        Verdict::Sure(charset) => Some(Hint::advising(
            source,
            label(charset),
            format!("this looks like {} text, not UTF-8", label(charset)),
            Advice::Convert(label(charset)),
        )),
        Verdict::Possibly(first, second) => Some(Hint::new(
            source.display_name(),
            format!(
                "these findings may be legacy text, possibly {} or {}; too little evidence to \
                 tell",
                label(first),
                label(second)
            ),
        )),
        Verdict::Unknown => None,
    }
}

/// The hint for a name that is not UTF-8: where such names come from, and the command that
/// renames the file (or directory).
pub fn name_hint(path: &Path, name: &[u8]) -> Option<Hint> {
    let guess = crate::names::guess(name)?;
    let option = match &guess.decode {
        crate::names::Decode::From(_) => "--from",
        crate::names::Decode::Fallback(_) => "--fallback",
    };
    let command = format!(
        "utf8fix --names {option} {} --apply {}{}",
        guess.label,
        end_of_options(path),
        shell_quote(path)
    );
    Some(Hint {
        name: crate::render::path(path).into_owned(),
        encoding: Some(guess.label.to_string()),
        command: Some(command.clone()),
        message: format!(
            "the name looks like {} ({}); rename it with: {command}",
            guess.label, guess.origin
        ),
    })
}

enum Advice<'a> {
    /// `utf8fix --fallback`: only the ill-formed bytes.
    Fallback(&'a str),
    /// `utf8enc --from`: the whole input.
    Convert(&'a str),
}

/// The words before the command that fixes the input, and the command: in place for a file, as
/// a filter for standard input.
fn advised(source: &Source, advice: Advice<'_>) -> (&'static str, String) {
    match (source, advice) {
        (Source::Path(path), Advice::Fallback(label)) => (
            "repair it in place with",
            format!(
                "utf8fix --fallback {label} -i {}{}",
                end_of_options(path),
                shell_quote(path)
            ),
        ),
        (Source::Path(path), Advice::Convert(label)) => {
            let guard = end_of_options(path);
            let path = shell_quote(path);
            (
                "convert it in place with",
                format!("utf8enc --from {label} -o {path} {guard}{path}"),
            )
        }
        (Source::Stdin, Advice::Fallback(label)) => {
            ("repair it with", format!("utf8fix --fallback {label}"))
        }
        (Source::Stdin, Advice::Convert(label)) => {
            ("convert it with", format!("utf8enc --from {label}"))
        }
    }
}

/// `-- ` before an operand that starts with `-`, which no program may take for an option.
fn end_of_options(path: &Path) -> &'static str {
    if path.as_os_str().as_bytes().starts_with(b"-") {
        "-- "
    } else {
        ""
    }
}

/// Quotes a path for the shell, safely whatever bytes it holds: as it is when it needs no
/// quoting; in single quotes when it is printable UTF-8; otherwise in `$'...'` (bash, zsh, ksh and
/// POSIX.1-2024 sh), with every byte that is not printable ASCII written `\xHH`, so that the
/// command is one plain line that names the exact file. A name that starts with `-` gets `./`
/// (the option `-o` takes it as a value; `--` guards the operands).
fn shell_quote(path: &Path) -> String {
    let mut bytes = path.as_os_str().as_bytes().to_vec();
    if bytes.starts_with(b"-") {
        bytes.splice(0..0, *b"./");
    }
    let is_plain = !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./+,:@%".contains(b));
    if is_plain {
        return String::from_utf8(bytes).expect("ASCII");
    }
    match std::str::from_utf8(&bytes) {
        Ok(text) if crate::render::quoted(text.as_bytes()) == text => {
            format!("'{}'", text.replace('\'', r"'\''"))
        }
        _ => {
            let mut quoted = String::from("$'");
            for &b in &bytes {
                match b {
                    b'\'' => quoted.push_str("\\'"),
                    b'\\' => quoted.push_str("\\\\"),
                    b' '..=b'~' => quoted.push(char::from(b)),
                    _ => crate::render::push_byte_escape(&mut quoted, b),
                }
            }
            quoted.push('\'');
            quoted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote(Path::new("src/a.txt")), "src/a.txt");
        assert_eq!(shell_quote(Path::new("my file.txt")), "'my file.txt'");
        assert_eq!(shell_quote(Path::new("it's")), r"'it'\''s'");
        assert_eq!(shell_quote(Path::new("-i")), "./-i");
        assert_eq!(shell_quote(Path::new("été.txt")), "'été.txt'");
        let hostile = OsStr::from_bytes(b"a\n::error x\x1b[2J\xe9'\\.txt");
        assert_eq!(
            shell_quote(Path::new(hostile)),
            r"$'a\x0a::error x\x1b[2J\xe9\'\\.txt'"
        );
    }
}
