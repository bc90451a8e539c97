//! Formatting findings: one module for every program that reports them.
//!
//! - `human`: `PATH:LINE:COLUMN: KIND: detail (bytes c0 af at offset 1)`, coloured like grep.
//! - `json`: JSON Lines, one `error` object per finding and one `summary` object per input, with
//!   the field names of SPEC 3.

use std::fmt::{self, Display};
use std::io;

use termcolor::{Color, ColorSpec, WriteColor};
use utf8kit_codec::{declared_len, Finding, FindingKind, Lint, UnitKind};

/// How findings are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `PATH:LINE:COLUMN: message`, one line per finding.
    #[default]
    Human,
    /// JSON Lines: one object per finding, then a summary object per input.
    Json,
}

/// An input's name, prepared once for each format.
#[derive(Clone, Debug)]
pub struct InputName {
    human: String,
    json: String,
}

impl InputName {
    /// The names of an input: `human` (`<stdin>` for standard input) and `machine` (`-`).
    pub fn new(human: &str, machine: &str) -> InputName {
        InputName {
            human: human.to_owned(),
            json: serde_json::to_string(machine).expect("a string always serialises"),
        }
    }
}

/// What is known about an input once it has been checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The input's length, or the bytes scanned when the scan stopped early.
    pub bytes: u64,
    /// The number of findings.
    pub errors: u64,
    /// False when the scan stopped before the end (`--max-errors`).
    pub complete: bool,
}

/// The colour of each part of a human finding line.
fn spec(fg: Color, bold: bool) -> ColorSpec {
    let mut spec = ColorSpec::new();
    spec.set_fg(Some(fg)).set_bold(bold);
    spec
}

/// Writes findings and summaries in one format.
#[derive(Debug)]
pub struct Printer {
    format: Format,
    path: ColorSpec,
    position: ColorSpec,
    ill_formed: ColorSpec,
    lint: ColorSpec,
}

impl Printer {
    /// A printer for `format`.
    pub fn new(format: Format) -> Printer {
        Printer {
            format,
            path: spec(Color::Magenta, false),
            position: spec(Color::Green, false),
            ill_formed: spec(Color::Red, true),
            lint: spec(Color::Yellow, true),
        }
    }

    /// Writes one finding of the input `name`.
    ///
    /// # Errors
    ///
    /// The error of writing to `out`.
    pub fn finding(
        &self,
        out: &mut dyn WriteColor,
        name: &InputName,
        finding: &Finding<'_>,
    ) -> io::Result<()> {
        let p = finding.position;
        match self.format {
            Format::Human => {
                out.set_color(&self.path)?;
                write!(out, "{}", name.human)?;
                out.reset()?;
                write!(out, ":")?;
                out.set_color(&self.position)?;
                write!(out, "{}:{}", p.line, p.column)?;
                out.reset()?;
                write!(out, ": ")?;
                out.set_color(match finding.kind {
                    FindingKind::IllFormed(_) => &self.ill_formed,
                    FindingKind::Lint(_) => &self.lint,
                })?;
                write!(out, "{}", finding.kind)?;
                out.reset()?;
                writeln!(
                    out,
                    ": {} (bytes {} at offset {})",
                    Detail(finding),
                    Hex(finding.bytes, " "),
                    p.byte_offset
                )
            }
            Format::Json => {
                write!(
                    out,
                    "{{\"type\":\"error\",\"path\":{},\"offset\":{},\"length\":{},\"line\":{},\
                     \"column\":{},\"kind\":\"{}\",\"bytes\":\"{}\",\"codepoint\":",
                    name.json,
                    p.byte_offset,
                    finding.bytes.len(),
                    p.line,
                    p.column,
                    finding.kind,
                    Hex(finding.bytes, ""),
                )?;
                match finding.codepoint {
                    Some(cp) => write!(out, "{cp}")?,
                    None => write!(out, "null")?,
                }
                // The detail is plain ASCII without quotes or backslashes: no escaping needed.
                writeln!(out, ",\"message\":\"{}\"}}", Detail(finding))
            }
        }
    }

    /// Writes the summary of the input `name`: the summary object in JSON, nothing in human
    /// format unless `always` (the `--summary` option) asks for a line.
    ///
    /// # Errors
    ///
    /// The error of writing to `out`.
    pub fn summary(
        &self,
        out: &mut dyn WriteColor,
        name: &InputName,
        summary: &Summary,
        always: bool,
    ) -> io::Result<()> {
        match self.format {
            Format::Json => writeln!(
                out,
                "{{\"type\":\"summary\",\"path\":{},\"bytes\":{},\"errors\":{},\"valid\":{},\
                 \"complete\":{}}}",
                name.json,
                summary.bytes,
                summary.errors,
                summary.errors == 0,
                summary.complete
            ),
            Format::Human if always => {
                out.set_color(&self.path)?;
                write!(out, "{}", name.human)?;
                out.reset()?;
                let verdict = match (summary.errors, summary.complete) {
                    (0, _) => "valid".to_owned(),
                    (1, true) => "1 error".to_owned(),
                    (n, true) => format!("{n} errors"),
                    (n, false) => format!("at least {n} errors (stopped early)"),
                };
                writeln!(out, ": {verdict} in {} bytes", summary.bytes)
            }
            Format::Human => Ok(()),
        }
    }
}

/// Bytes in lowercase hex, joined by a separator.
struct Hex<'a>(&'a [u8], &'a str);

impl Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(self.1)?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// The sentence that explains a finding. Plain ASCII, no quotes: it goes into JSON unescaped.
pub struct Detail<'a, 'b>(pub &'a Finding<'b>);

impl Display for Detail<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.0;
        let cp = finding.codepoint.unwrap_or(0);
        let lead = finding.bytes[0];
        match finding.kind {
            FindingKind::IllFormed(kind) => match kind {
                UnitKind::UnexpectedContinuation => {
                    write!(f, "continuation byte 0x{lead:02X} with no lead byte")
                }
                UnitKind::InvalidByte => write!(f, "byte 0x{lead:02X} never appears in UTF-8"),
                UnitKind::Truncated => write!(
                    f,
                    "lead byte 0x{lead:02X} starts a {}-byte sequence, only {} present",
                    declared_len(lead).unwrap_or(0),
                    finding.bytes.len()
                ),
                UnitKind::Overlong => write!(
                    f,
                    "overlong encoding of U+{cp:04X} in {} bytes",
                    finding.bytes.len()
                ),
                UnitKind::Surrogate => write!(f, "encoded UTF-16 surrogate U+{cp:04X}"),
                UnitKind::SurrogatePair => {
                    write!(f, "CESU-8 surrogate pair encoding U+{cp:04X}")
                }
                UnitKind::OutOfRange => write!(f, "value U+{cp:04X} is above U+10FFFF"),
                UnitKind::Char => write!(f, "character U+{cp:04X}"),
            },
            FindingKind::Lint(lint) => match lint {
                Lint::Bom => write!(f, "byte order mark U+FEFF at the start"),
                Lint::Nul => write!(f, "NUL character U+0000"),
                Lint::Control => write!(f, "control character U+{cp:04X}"),
                Lint::Noncharacter => write!(f, "noncharacter U+{cp:04X}"),
                Lint::Bidi => write!(f, "bidirectional control U+{cp:04X}"),
                Lint::PrivateUse => write!(f, "private-use character U+{cp:04X}"),
                Lint::Replacement => write!(
                    f,
                    "replacement character U+FFFD, left by an earlier lossy conversion"
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcolor::{Ansi, NoColor};
    use utf8kit_codec::Position;

    fn finding(bytes: &[u8], kind: FindingKind, codepoint: Option<u32>) -> Finding<'_> {
        Finding {
            position: Position {
                byte_offset: 1,
                line: 1,
                column: 2,
            },
            kind,
            bytes,
            codepoint,
        }
    }

    fn render(format: Format, finding: &Finding<'_>) -> String {
        let mut out = NoColor::new(Vec::new());
        let name = InputName::new("a \"b\".txt", "a \"b\".txt");
        Printer::new(format)
            .finding(&mut out, &name, finding)
            .unwrap();
        String::from_utf8(out.into_inner()).unwrap()
    }

    #[test]
    fn human_line() {
        let f = finding(
            b"\xC0\xAF",
            FindingKind::IllFormed(UnitKind::Overlong),
            Some(0x2F),
        );
        assert_eq!(
            render(Format::Human, &f),
            "a \"b\".txt:1:2: overlong: overlong encoding of U+002F in 2 bytes \
             (bytes c0 af at offset 1)\n"
        );
    }

    #[test]
    fn json_line_escapes_the_path() {
        let f = finding(
            b"\xE2\x82",
            FindingKind::IllFormed(UnitKind::Truncated),
            None,
        );
        let line = render(Format::Json, &f);
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["path"], "a \"b\".txt");
        assert_eq!(value["bytes"], "e282");
        assert_eq!(value["codepoint"], serde_json::Value::Null);
        assert_eq!(value["length"], 2);
        assert_eq!(
            value["message"],
            "lead byte 0xE2 starts a 3-byte sequence, only 2 present"
        );
    }

    #[test]
    fn every_detail_is_json_safe() {
        let kinds = UnitKind::ILL_FORMED
            .into_iter()
            .map(FindingKind::IllFormed)
            .chain(Lint::ALL.into_iter().map(FindingKind::Lint));
        for kind in kinds {
            let text = Detail(&finding(b"\xFF", kind, Some(0x10FFFF))).to_string();
            assert!(
                text.bytes()
                    .all(|b| (0x20..0x7F).contains(&b) && b != b'"' && b != b'\\'),
                "{kind}: {text}"
            );
        }
    }

    #[test]
    fn colour_marks_the_parts() {
        let f = finding(b"\xFF", FindingKind::IllFormed(UnitKind::InvalidByte), None);
        let mut out = Ansi::new(Vec::new());
        let name = InputName::new("f", "f");
        Printer::new(Format::Human)
            .finding(&mut out, &name, &f)
            .unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        assert_eq!(
            text,
            "\x1b[0m\x1b[35mf\x1b[0m:\x1b[0m\x1b[32m1:2\x1b[0m: \x1b[0m\x1b[1m\x1b[31minvalid-byte\
             \x1b[0m: byte 0xFF never appears in UTF-8 (bytes ff at offset 1)\n"
        );
    }
}
