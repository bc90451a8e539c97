//! What utf8check reports: the codec's findings in a file's content, and the issues of a file's
//! name, which only the program checks (the codec never sees a name as one).

use utf8kit_codec::{Lint, Position, UnitKind, bom::ForeignBom};

/// The kind of a finding, as utf8check writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// An ill-formed unit of the content.
    IllFormed(UnitKind),
    /// A well-formed character of the content rejected by a lint.
    Lint(Lint),
    /// A UTF-16 or UTF-32 byte order mark at offset 0.
    ForeignBom(ForeignBom),
    /// The file's name, not its content, is at fault.
    Name(NameIssue),
}

/// What is wrong with a file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NameIssue {
    /// A unit of the name is ill-formed: the name is not UTF-8 (kind `file-name`).
    IllFormed(UnitKind),
    /// The name is UTF-8 but not in Unicode Normalization Form C (kind `non-nfc-name`), as
    /// macOS writes names (NFD).
    NotNfc,
    /// The name holds a character this lint finds (kind `file-name`): a bidirectional control,
    /// a control character, an invisible character or tag characters, which make a name show
    /// as another.
    Lint(Lint),
}

impl NameIssue {
    /// The kind's name in output: `file-name` or `non-nfc-name`.
    pub fn as_str(self) -> &'static str {
        match self {
            NameIssue::IllFormed(_) | NameIssue::Lint(_) => "file-name",
            NameIssue::NotNfc => "non-nfc-name",
        }
    }
}

impl FindingKind {
    /// The kind's name in output: `overlong`, `bidi`, `file-name`...
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::IllFormed(kind) => kind.as_str(),
            FindingKind::Lint(lint) => lint.as_str(),
            FindingKind::ForeignBom(bom) => bom.as_str(),
            FindingKind::Name(issue) => issue.as_str(),
        }
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<utf8kit_codec::FindingKind> for FindingKind {
    fn from(kind: utf8kit_codec::FindingKind) -> FindingKind {
        use utf8kit_codec::FindingKind as Codec;
        match kind {
            Codec::IllFormed(kind) => FindingKind::IllFormed(kind),
            Codec::Lint(lint) => FindingKind::Lint(lint),
            Codec::ForeignBom(bom) => FindingKind::ForeignBom(bom),
            // The codec's kinds are this program's to report: a new one is added here with it
            // (the workspace builds them together).
            other => unreachable!("a finding kind utf8check does not report yet: {other:?}"),
        }
    }
}

/// One finding: where it is, what it is, its bytes and its code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding<'a> {
    /// Where the unit starts (in a name: line and column 0).
    pub position: Position,
    /// What is wrong with it.
    pub kind: FindingKind,
    /// The unit's bytes.
    pub bytes: &'a [u8],
    /// The code point, where one was decoded.
    pub codepoint: Option<u32>,
}

impl<'a> From<&utf8kit_codec::Finding<'a>> for Finding<'a> {
    fn from(finding: &utf8kit_codec::Finding<'a>) -> Finding<'a> {
        Finding {
            position: finding.position,
            kind: finding.kind.into(),
            bytes: finding.bytes,
            codepoint: finding.codepoint,
        }
    }
}
