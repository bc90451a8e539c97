//! Formatting findings: one module for every program that reports them.
//!
//! - `human`: `PATH:LINE:COLUMN: KIND: detail (bytes c0 af at offset 1)`, coloured like grep.
//! - `json`: JSON Lines, one `error` object per finding and one `summary` object per input, with
//!   the field names of SPEC 3.
//! - `github`: GitHub Actions workflow commands, so findings become pull-request annotations.
//! - `sarif`: one SARIF 2.1.0 log for the whole run ([`Sarif`]), for code-scanning tools.
//!
//! One file per format: `human.rs`, `json.rs` (and the unit object utf8dump shares),
//! `github.rs`, `sarif.rs`, `codeclimate.rs`. This file holds what they share: the [`Printer`]
//! that sends each finding and summary to its format, input names, summaries; `kinds.rs` is the
//! list and descriptions of finding kinds, `detail.rs` the sentence every format shows.

use std::cell::OnceCell;
use std::ffi::OsStr;
use std::fmt::{self, Display};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use termcolor::{Color, ColorSpec, WriteColor};
use utf8kit_codec::{Lint, UnitKind, bom::ForeignBom, unit::declared_len};

use crate::hint::Hint;
use crate::input::Source;
use crate::render::Hex;

mod codeclimate;
mod detail;
mod finding;
mod github;
mod human;
mod json;
mod kinds;
mod sarif;

pub use codeclimate::*;
pub use detail::*;
pub use finding::{Finding, FindingKind, NameIssue};
pub use github::{github_message, github_property};
pub use json::push_unit_json;
pub use kinds::*;
pub use sarif::*;

/// How findings are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `PATH:LINE:COLUMN: message`, one line per finding.
    #[default]
    Human,
    /// JSON Lines: one object per finding, then a summary object per input.
    Json,
    /// GitHub Actions workflow commands: `::error file=PATH,line=N,col=N,title=KIND::message`.
    Github,
    /// One SARIF 2.1.0 log with a rule per kind and a result per finding, written at the end.
    Sarif,
    /// GitLab's Code Quality report (CodeClimate JSON): one array of issues, written at the end.
    Codeclimate,
}

/// How much a finding weighs: an error makes the status 1, a warning (`--warn`) does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Severity {
    /// The default: every ill-formed unit, and the lints of `--deny`.
    #[default]
    Error,
    /// A lint of `--warn`.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as JSON, GitHub and SARIF spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// An input's name in each format (SPEC 2): shown safely to people, escaped as a GitHub
/// property, as a JSON string with the exact bytes in `path_base64` when they are not UTF-8, and
/// percent-encoded from the exact bytes for SARIF. Each form is made the first time it is asked
/// for: most inputs of a walk are valid and never named, and escaping every path of a 50,000-file
/// tree six ways was a tenth of the walk's time.
#[derive(Clone, Debug)]
pub struct InputName {
    /// The name's bytes: the path, `-`, or the label.
    raw: Vec<u8>,
    /// Standard input without a label: `<stdin>` for people.
    is_stdin: bool,
    human: OnceCell<String>,
    github: OnceCell<String>,
    /// The name on a line of its own in `--format github`: as people read it (`./` before a name
    /// that could start a command), escaped as a property.
    github_listed: OnceCell<String>,
    /// The JSON fields that name the input: `"path":P` and, for a name that is not UTF-8,
    /// `,"path_base64":B`.
    json: OnceCell<String>,
    uri: OnceCell<String>,
    /// The name as a machine reads it: the path (lossy where it is not UTF-8), or `-`.
    machine: OnceCell<String>,
}

impl InputName {
    /// The names of `source`; standard input is `<stdin>` for people and `-` for machines, or
    /// `label` in every format (`--label`).
    pub fn of(source: &Source, label: Option<&OsStr>) -> InputName {
        let raw: &[u8] = match (source, label) {
            (Source::Stdin, Some(label)) => label.as_bytes(),
            (Source::Stdin, None) => b"-",
            (Source::Path(path), _) => path.as_os_str().as_bytes(),
        };
        InputName {
            raw: raw.to_vec(),
            is_stdin: matches!((source, label), (Source::Stdin, None)),
            human: OnceCell::new(),
            github: OnceCell::new(),
            github_listed: OnceCell::new(),
            json: OnceCell::new(),
            uri: OnceCell::new(),
            machine: OnceCell::new(),
        }
    }

    /// The name as people read it: the path shown safely, or `<stdin>`.
    pub fn human(&self) -> &str {
        self.human.get_or_init(|| {
            if self.is_stdin {
                "<stdin>".to_owned()
            } else {
                crate::render::path(Path::new(OsStr::from_bytes(&self.raw))).into_owned()
            }
        })
    }

    /// The name on a line of its own (`-l`, `-L`, `-c`) in `format`: escaped as a GitHub property
    /// for `github`, so that no name can start a workflow command; else as people read it.
    pub fn listed(&self, format: Format) -> &str {
        match format {
            Format::Github => self
                .github_listed
                .get_or_init(|| github_property(self.human())),
            _ => self.human(),
        }
    }

    /// The name as a machine reads it (CodeClimate's `location.path`): the path, or `-`.
    pub fn machine(&self) -> &str {
        self.machine
            .get_or_init(|| String::from_utf8_lossy(&self.raw).into_owned())
    }

    /// The name as a GitHub Actions property value: the real path, property-escaped only (so
    /// that the annotation lands on the file, a backslash or a tab in its name included). A
    /// name that is not UTF-8, which no workflow command can carry, or that holds a control or
    /// bidi character, which could redraw the log, is written as in human output (`\xE9`,
    /// `\x1b`).
    pub fn github(&self) -> &str {
        self.github.get_or_init(|| {
            let is_hostile = |c: char| {
                c.is_control() && c != '\t'
                    || utf8kit_codec::Lint::classify(u32::from(c), 1)
                        == Some(utf8kit_codec::Lint::Bidi)
            };
            match std::str::from_utf8(&self.raw) {
                Ok(path) if !path.chars().any(is_hostile) => github_property(path),
                _ => github_property(&crate::render::quoted(&self.raw)),
            }
        })
    }

    /// The name in CodeClimate's `location.path`: the path as it is; a name that is not UTF-8
    /// (GitLab reads paths as UTF-8 strings) with each byte that is not as `\xE9`, so that two
    /// such names never share one path.
    pub fn codeclimate_path(&self) -> std::borrow::Cow<'_, str> {
        match std::str::from_utf8(&self.raw) {
            Ok(_) => std::borrow::Cow::Borrowed(self.machine()),
            Err(_) => crate::render::quoted(&self.raw),
        }
    }

    /// The name's exact bytes.
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// The JSON fields that name the input: `"path":P`, and `,"path_base64":B` for a name that
    /// is not UTF-8.
    pub fn json(&self) -> &str {
        self.json.get_or_init(|| {
            let mut json = format!("\"path\":{}", json_string(self.machine()));
            if std::str::from_utf8(&self.raw).is_err() {
                json.push_str(",\"path_base64\":\"");
                json.push_str(&base64(&self.raw));
                json.push('"');
            }
            json
        })
    }

    /// The name as a SARIF artifact URI: the exact bytes, percent-encoded.
    pub fn uri(&self) -> &str {
        self.uri.get_or_init(|| uri_of(&self.raw))
    }
}

/// A JSON string whose invisible, format and bidi characters are `\uXXXX` escapes (the same
/// string to a parser, and no raw U+202E in a terminal that shows the JSON).
pub fn json_string(text: &str) -> String {
    let json = serde_json::to_string(text).expect("a string always serialises");
    if !json.chars().any(crate::render::is_invisible) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if crate::render::is_invisible(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = fmt::Write::write_fmt(&mut out, format_args!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding), for `path_base64`.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What is known about an input once it has been checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The input's length, or the bytes scanned when the scan stopped early.
    pub bytes: u64,
    /// The number of findings that are errors.
    pub errors: u64,
    /// The number of findings that are warnings; `None` without `--warn` (the JSON summary then
    /// has no `warnings` field, as SPEC 3 writes it).
    pub warnings: Option<u64>,
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
    pub(super) path: ColorSpec,
    pub(super) position: ColorSpec,
    pub(super) ill_formed: ColorSpec,
    pub(super) lint: ColorSpec,
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
        severity: Severity,
    ) -> io::Result<()> {
        match self.format {
            Format::Human => human::finding(self, out, name, finding, severity),
            Format::Json => json::finding(out, name, finding, severity),
            Format::Github => github::finding(out, name, finding, severity),
            // SARIF and CodeClimate are one document for the whole run: see `Sarif` and
            // `codeclimate_issue`.
            Format::Sarif | Format::Codeclimate => Ok(()),
        }
    }

    /// Writes a hint about the input `name` in the formats that stream records: a `hint` object
    /// in JSON, a `::notice` for GitHub; the others carry it elsewhere (standard error for
    /// people, [`Sarif::hint`], [`codeclimate_hint`]).
    ///
    /// # Errors
    ///
    /// The error of writing to `out`.
    pub fn hint(&self, out: &mut dyn WriteColor, name: &InputName, hint: &Hint) -> io::Result<()> {
        match self.format {
            Format::Json => json::hint(out, name, hint),
            Format::Github => github::hint(out, name, hint),
            Format::Human | Format::Sarif | Format::Codeclimate => Ok(()),
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
            Format::Json => json::summary(out, name, summary),
            Format::Human if always => human::summary(self, out, name, summary),
            Format::Github if always => github::summary(out, name, summary),
            Format::Human | Format::Github | Format::Sarif | Format::Codeclimate => Ok(()),
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

    fn named(path: &str) -> InputName {
        InputName::of(&Source::Path(path.into()), None)
    }

    fn render(format: Format, finding: &Finding<'_>) -> String {
        let mut out = NoColor::new(Vec::new());
        let name = named("a \"b\".txt");
        Printer::new(format)
            .finding(&mut out, &name, finding, Severity::Error)
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
        let boms = [ForeignBom::Utf16Le, ForeignBom::Utf32Be];
        let kinds = UnitKind::ILL_FORMED
            .into_iter()
            .map(FindingKind::IllFormed)
            .chain(Lint::ALL.iter().copied().map(FindingKind::Lint))
            .chain(boms.into_iter().map(FindingKind::ForeignBom));
        for kind in kinds {
            let text = Detail(&finding(b"\xFF", kind, Some(0x10FFFF))).to_string();
            // The text hidden in tag characters and a mixed-script word are quoted (and escaped
            // in JSON); the word is shown as it is.
            if kind == FindingKind::Lint(Lint::MixedScript) {
                continue;
            }
            let quotes = kind == FindingKind::Lint(Lint::Tag);
            assert!(
                text.bytes()
                    .all(|b| (0x20..0x7F).contains(&b) && (quotes || (b != b'"' && b != b'\\'))),
                "{kind}: {text}"
            );
        }
    }

    #[test]
    fn kinds_cover_every_finding_kind() {
        let names = UnitKind::ILL_FORMED
            .iter()
            .map(|k| k.as_str())
            .chain(Lint::ALL.iter().map(|l| l.as_str()))
            .chain(["utf16-bom", "utf32-bom", "file-name", "non-nfc-name"]);
        assert!(names.eq(kinds().iter().map(|k| k.as_str())));
        let mut shorts: Vec<&str> = kinds().iter().map(|&k| kind_help(k).0).collect();
        shorts.sort_unstable();
        shorts.dedup();
        assert_eq!(
            shorts.len(),
            kinds().len(),
            "each rule has its own description"
        );
        // The codec's kinds are open: one it adds compiles, and is caught here until described.
        for &kind in kinds() {
            assert_ne!(kind_help(kind), UNDESCRIBED, "{kind} has no description");
        }
        for &lint in Lint::ALL {
            let f = finding(b"A", FindingKind::Lint(lint), Some(0x41));
            let detail = Detail(&f).to_string();
            assert_ne!(detail, format!("{lint}: U+0041"), "{lint} has no sentence");
        }
    }

    #[test]
    fn github_line_escapes_properties() {
        let f = finding(b"\xFF", FindingKind::IllFormed(UnitKind::InvalidByte), None);
        let mut out = NoColor::new(Vec::new());
        let name = named("a,b:c%.txt");
        Printer::new(Format::Github)
            .finding(&mut out, &name, &f, Severity::Error)
            .unwrap();
        assert_eq!(
            String::from_utf8(out.into_inner()).unwrap(),
            "::error file=a%2Cb%3Ac%25.txt,line=1,col=2,title=utf8check invalid-byte::\
             byte 0xFF never appears in UTF-8 (bytes ff at offset 1)\n"
        );
    }

    #[test]
    fn sarif_region_and_uri() {
        let f = finding(
            b"\xC0\xAF",
            FindingKind::IllFormed(UnitKind::Overlong),
            Some(0x2F),
        );
        let result = Sarif::result(&named("dir/a b.txt"), &f, Severity::Error);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "dir/a%20b.txt");
        let absolute = Sarif::result(&named("/tmp/a b.txt"), &f, Severity::Error);
        assert_eq!(
            absolute["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///tmp/a%20b.txt"
        );
        assert_eq!(location["region"]["startLine"], 1);
        assert_eq!(location["region"]["startColumn"], 2);
        assert_eq!(location["region"]["byteOffset"], 1);
        assert_eq!(location["region"]["byteLength"], 2);
        assert_eq!(result["ruleId"], "overlong");
        assert_eq!(result["ruleIndex"], 3);
    }

    #[test]
    fn a_hostile_name_is_safe_in_every_format_and_exact_for_machines() {
        let raw = b"x\n::error file=a::forged\x1b[2J\xe9";
        let name = InputName::of(&Source::Path(OsStr::from_bytes(raw).into()), None);
        assert_eq!(name.human(), "x\\n::error file=a::forged\\x1b[2J\\xe9");
        assert_eq!(
            name.listed(Format::Github),
            "x\\n%3A%3Aerror file=a%3A%3Aforged\\x1b[2J\\xe9"
        );
        let f = finding(b"\xFF", FindingKind::IllFormed(UnitKind::InvalidByte), None);
        let mut out = NoColor::new(Vec::new());
        Printer::new(Format::Json)
            .finding(&mut out, &name, &f, Severity::Error)
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out.into_inner()).unwrap();
        assert_eq!(value["path"], "x\n::error file=a::forged\u{1b}[2J\u{FFFD}");
        assert_eq!(value["path_base64"], base64(raw));
        let result = Sarif::result(&name, &f, Severity::Error);
        assert_eq!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "x%0A%3A%3Aerror%20file%3Da%3A%3Aforged%1B%5B2J%E9"
        );
        let utf8 = named("é.txt");
        let mut out = NoColor::new(Vec::new());
        Printer::new(Format::Json)
            .finding(&mut out, &utf8, &f, Severity::Error)
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out.into_inner()).unwrap();
        assert_eq!(value["path"], "é.txt");
        assert!(
            value.get("path_base64").is_none(),
            "only for names that are not UTF-8"
        );
        let stdin = InputName::of(&Source::Stdin, None);
        assert_eq!((stdin.human(), stdin.github()), ("<stdin>", "-"));
        let labelled = InputName::of(&Source::Stdin, Some(OsStr::new("src/a.rs")));
        assert_eq!(
            (labelled.human(), labelled.github()),
            ("src/a.rs", "src/a.rs")
        );
    }

    #[test]
    fn base64_is_rfc_4648() {
        let rows = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
        ];
        for (plain, encoded) in rows {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(base64(b"\xff\xfe\xfd"), "//79");
    }

    #[test]
    fn colour_marks_the_parts() {
        let f = finding(b"\xFF", FindingKind::IllFormed(UnitKind::InvalidByte), None);
        let mut out = Ansi::new(Vec::new());
        let name = named("f");
        Printer::new(Format::Human)
            .finding(&mut out, &name, &f, Severity::Error)
            .unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        assert_eq!(
            text,
            "\x1b[0m\x1b[35mf\x1b[0m:\x1b[0m\x1b[32m1:2\x1b[0m: \x1b[0m\x1b[1m\x1b[31minvalid-byte\
             \x1b[0m: byte 0xFF never appears in UTF-8 (bytes ff at offset 1)\n"
        );
    }
}
