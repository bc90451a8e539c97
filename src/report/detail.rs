//! The sentence that explains a finding, shared by every format.

use super::*;

/// The sentence that explains a finding. Plain ASCII without quotes, except the text hidden in
/// tag characters and the word of a `mixed-script` finding (JSON escapes those).
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
                Lint::Invisible => write!(f, "invisible character U+{cp:04X}"),
                Lint::NonAscii => {
                    let text = String::from_utf8_lossy(finding.bytes);
                    let count = text.chars().filter(|c| !c.is_ascii()).count();
                    match count {
                        1 => write!(f, "non-ASCII character U+{cp:04X}"),
                        n => write!(f, "{n} non-ASCII characters, from U+{cp:04X}"),
                    }
                }
                // A run of tag characters spells the ASCII it hides: each printable one as the
                // character it stands for (a quote or backslash escaped), the others (the
                // language tag, the cancel tag) as \u{...}.
                Lint::Tag => {
                    let text = String::from_utf8_lossy(finding.bytes);
                    let mut hidden = String::new();
                    for c in text.chars() {
                        match char::from_u32(u32::from(c).wrapping_sub(0xE_0000)) {
                            Some(h @ ('"' | '\\')) => {
                                hidden.push('\\');
                                hidden.push(h);
                            }
                            Some(h @ (' '..='~')) => hidden.push(h),
                            _ => hidden.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
                        }
                    }
                    match text.chars().count() {
                        1 => write!(f, "tag character U+{cp:04X} hiding \"{hidden}\""),
                        _ => write!(f, "tag characters hiding \"{hidden}\""),
                    }
                }
                Lint::MixedScript => f.write_str(&crate::mixed_script::describe(
                    &String::from_utf8_lossy(finding.bytes),
                )),
                // A lint the codec adds before it is described here (a test fails meanwhile).
                _ => write!(f, "{lint}: U+{cp:04X}"),
            },
            FindingKind::ForeignBom(bom) => write!(
                f,
                "{} byte order mark: the input is {} in {} byte order, not UTF-8",
                bom.encoding(),
                &bom.encoding()[..6],
                bom.byte_order()
            ),
            FindingKind::Name(NameIssue::IllFormed(kind)) => {
                let unit = Finding {
                    kind: FindingKind::IllFormed(kind),
                    ..*finding
                };
                write!(f, "the name is not UTF-8: {}", Detail(&unit))
            }
            FindingKind::Name(NameIssue::NotNfc) => write!(
                f,
                "the name is not in Unicode Normalization Form C (NFC), as macOS writes names"
            ),
            FindingKind::Name(NameIssue::Lint(lint)) => {
                let character = Finding {
                    kind: FindingKind::Lint(lint),
                    ..*finding
                };
                write!(
                    f,
                    "the name holds a {} ({}), which shows it as another name",
                    Detail(&character),
                    lint.as_str()
                )
            }
        }
    }
}
