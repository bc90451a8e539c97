//! Every finding kind, and its short and full description (SARIF's rules, `--help`).

use super::*;

/// Every finding kind a run can report, one per rule, in rule order: the ill-formed units, the
/// lints, then the byte order marks of UTF-16 and UTF-32; built from the codec's own lists, so
/// that a new kind is a rule at once.
pub fn kinds() -> &'static [FindingKind] {
    static KINDS: std::sync::LazyLock<Vec<FindingKind>> = std::sync::LazyLock::new(|| {
        UnitKind::ILL_FORMED
            .into_iter()
            .map(FindingKind::IllFormed)
            .chain(Lint::ALL.iter().copied().map(FindingKind::Lint))
            .chain([
                FindingKind::ForeignBom(ForeignBom::Utf16Le),
                FindingKind::ForeignBom(ForeignBom::Utf32Le),
                FindingKind::Name(NameIssue::IllFormed(UnitKind::Truncated)),
                FindingKind::Name(NameIssue::NotNfc),
            ])
            .collect()
    });
    &KINDS
}

/// The short and the full description of a kind, for SARIF rules. The codec's kinds are open
/// (`#[non_exhaustive]`): a kind it adds gets [`UNDESCRIBED`] until it is described here, and
/// a test fails while any kind of [`kinds`] has it.
pub fn kind_help(kind: FindingKind) -> (&'static str, &'static str) {
    match kind {
        FindingKind::IllFormed(UnitKind::UnexpectedContinuation) => (
            "Continuation byte without a lead byte",
            "A byte 80..BF appears where a character should start. It is usually a fragment of \
             a character cut in two, or a byte of a legacy encoding such as windows-1252.",
        ),
        FindingKind::IllFormed(UnitKind::InvalidByte) => (
            "Byte FE or FF",
            "FE and FF are never used in any form of UTF-8. They often start a UTF-16 byte \
             order mark or come from binary data.",
        ),
        FindingKind::IllFormed(UnitKind::Truncated) => (
            "Sequence cut short",
            "A lead byte announces more continuation bytes than follow it. A lone byte C0..FF \
             followed by ASCII usually means Latin-1 or windows-1252 text.",
        ),
        FindingKind::IllFormed(UnitKind::Overlong) => (
            "Overlong encoding",
            "A value is encoded in more bytes than it needs (C0 AF for '/'). RFC 3629 forbids \
             overlong forms because they can smuggle characters past filters.",
        ),
        FindingKind::IllFormed(UnitKind::Surrogate) => (
            "Encoded UTF-16 surrogate",
            "U+D800..U+DFFF are UTF-16 code units, not characters; UTF-8 must not encode them. \
             Lone surrogates come from WTF-8 or from broken UTF-16 conversions.",
        ),
        FindingKind::IllFormed(UnitKind::SurrogatePair) => (
            "CESU-8 surrogate pair",
            "A supplementary character encoded as two 3-byte surrogates (CESU-8, or Java's \
             Modified UTF-8) instead of one 4-byte sequence. utf8fix --cesu repairs it.",
        ),
        FindingKind::IllFormed(UnitKind::OutOfRange) => (
            "Value above U+10FFFF",
            "The sequence decodes to a value beyond the last Unicode code point, using the \
             4- to 6-byte forms of the obsolete RFC 2279.",
        ),
        FindingKind::IllFormed(UnitKind::Char) => (
            "Character",
            "A well-formed character; it is a finding only through a lint.",
        ),
        FindingKind::Lint(Lint::Bom) => (
            "Byte order mark",
            "The file starts with U+FEFF. UTF-8 needs no byte order mark, and many tools \
             (shells, compilers, CSV readers) misread one.",
        ),
        FindingKind::Lint(Lint::Nul) => (
            "NUL character",
            "U+0000 in text is usually a sign of binary data or UTF-16.",
        ),
        FindingKind::Lint(Lint::Control) => (
            "Control character",
            "A C0 control other than TAB, LF, VT, FF and CR, DEL, or a C1 control \
             U+0080..U+009F (often windows-1252 text decoded as Latin-1).",
        ),
        FindingKind::Lint(Lint::Noncharacter) => (
            "Noncharacter",
            "U+FDD0..U+FDEF and every code point ending in FFFE or FFFF are reserved for \
             internal use and should not appear in interchanged text.",
        ),
        FindingKind::Lint(Lint::Bidi) => (
            "Bidirectional control",
            "Embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069) can \
             make source code read differently from how it compiles (Trojan Source, \
             CVE-2021-42574).",
        ),
        FindingKind::Lint(Lint::PrivateUse) => (
            "Private-use character",
            "A code point whose meaning is private to some application or font.",
        ),
        FindingKind::Lint(Lint::Replacement) => (
            "Replacement character",
            "U+FFFD marks data already lost by an earlier lossy conversion.",
        ),
        FindingKind::Lint(Lint::Invisible) => (
            "Invisible character",
            "A character that renders as nothing where it has no typographic job (U+200B, \
             U+2060..U+2064, U+FEFF after the start, Hangul fillers, a stray ZWJ, ZWNJ or \
             variation selector, ...): it makes identifiers and strings that look equal differ.",
        ),
        FindingKind::Lint(Lint::Tag) => (
            "Tag character",
            "Unicode tag characters (U+E0000..U+E007F) render as nothing and spell hidden ASCII \
             text, used to smuggle instructions past reviewers; only an emoji flag sequence \
             (U+1F3F4 followed by tags and U+E007F) is exempt.",
        ),
        FindingKind::Lint(Lint::NonAscii) => (
            "Non-ASCII text",
            "A character above U+007F where the rule is ASCII only; each run of such \
             characters is one finding (up to 4096 bytes).",
        ),
        FindingKind::Lint(Lint::MixedScript) => (
            "Mixed-script word",
            "A word whose letters come from scripts that no writing system mixes (Unicode TR39, \
             Highly Restrictive): 'pаypal' with a Cyrillic 'а' looks like 'paypal' but is another \
             word, the homoglyph half of Trojan Source (CVE-2021-42694) and the typosquat.",
        ),
        FindingKind::ForeignBom(ForeignBom::Utf16Le | ForeignBom::Utf16Be) => (
            "UTF-16 byte order mark",
            "The file starts with a UTF-16 byte order mark: it is UTF-16, not UTF-8. Convert it \
             with utf8enc --from utf-16.",
        ),
        FindingKind::Name(NameIssue::IllFormed(_)) => (
            "File name not UTF-8",
            "A component of the file's path is not UTF-8: names from a ZIP archive made on \
             Windows (cp437, cp850), an old Latin-1 file server (windows-1252) or a Japanese \
             system (Shift_JIS). Tools show it with U+FFFD, which names no file. utf8fix \
             --names renames it.",
        ),
        FindingKind::Name(NameIssue::NotNfc) => (
            "File name not in NFC",
            "The name is UTF-8 but not in Unicode Normalization Form C: macOS writes names \
             decomposed (NFD), so that a copy made on Linux and one made on macOS are two \
             files to git. utf8fix --names --nfc renames it.",
        ),
        FindingKind::ForeignBom(ForeignBom::Utf32Le | ForeignBom::Utf32Be) => (
            "UTF-32 byte order mark",
            "The file starts with a UTF-32 byte order mark: it is UTF-32, not UTF-8. Convert it \
             with utf8enc --from utf-32.",
        ),
        _ => UNDESCRIBED,
    }
}

/// The description of a kind not yet described.
pub const UNDESCRIBED: (&str, &str) = ("Finding", "A finding of a kind not yet described.");
