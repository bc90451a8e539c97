//! File names (SPEC 3 and 5): what is wrong with a name, the encoding a broken name is likely
//! in, and what a repair makes of it.
//!
//! A name is one component of a path, as the kernel stores it: bytes without `/` or NUL. utf8check
//! reports the components that are not UTF-8 (`file-name`) or not in NFC (`non-nfc-name`), and
//! `utf8fix --names` renames them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

use unicode_normalization::UnicodeNormalization;
use utf8kit_codec::{RepairOptions, Repairer, Replacement, UnitKind, units};

use crate::encodings::Charset;
use utf8kit_mojibake::scripts::{breaks_case, is_code_page_latin};

/// An ill-formed unit of a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadUnit {
    /// Its byte offset in the name.
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
    /// What it is.
    pub kind: UnitKind,
    /// The code point it decodes to, where it has one.
    pub codepoint: Option<u32>,
}

/// The ill-formed units of a name, in order; none for a UTF-8 name.
pub fn ill_formed(name: &[u8]) -> Vec<BadUnit> {
    if utf8kit_codec::is_well_formed(name) {
        return Vec::new();
    }
    units(name)
        .filter(|(_, unit)| unit.kind != UnitKind::Char)
        .map(|(offset, unit)| BadUnit {
            offset,
            len: unit.len,
            kind: unit.kind,
            codepoint: unit.codepoint,
        })
        .collect()
}

/// Whether a UTF-8 name is in Unicode Normalization Form C; a name that is not UTF-8 is not.
pub fn is_nfc(name: &[u8]) -> bool {
    std::str::from_utf8(name).is_ok_and(unicode_normalization::is_nfc)
}

/// The named components of a path (not `/`, `.` or `..`), each with the path up to and
/// including it.
pub fn components(path: &Path) -> Vec<(&[u8], &Path)> {
    let bytes = path.as_os_str().as_bytes();
    let mut found = Vec::new();
    for component in path.components() {
        if let Component::Normal(name) = component {
            let name = name.as_bytes();
            // A component is a slice of the path: where it ends is where its prefix ends.
            let end = name.as_ptr() as usize - bytes.as_ptr() as usize + name.len();
            found.push((name, Path::new(OsStr::from_bytes(&bytes[..end]))));
        }
    }
    found
}

/// How a broken name is decoded (`utf8fix --names --fallback ENC` or `--from ENC`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decode {
    /// Keep the UTF-8 of the name; each byte that is not UTF-8 is a character of this
    /// single-byte encoding (a name that mixes both, or a Latin-1 name).
    Fallback(Box<[char; 128]>),
    /// The whole name is in this encoding (a ZIP archive's cp437 names, Shift_JIS).
    From(Charset),
}

/// What `utf8fix --names` does to a name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renaming {
    /// Decoding for names that are not UTF-8.
    pub decode: Option<Decode>,
    /// Undo mojibake in UTF-8 names (`cafÃ©` becomes `café`).
    pub mojibake: bool,
    /// Bring names to NFC (macOS writes NFD).
    pub nfc: bool,
}

impl Renaming {
    /// The new name for `name`, or `None` when it stays as it is.
    ///
    /// # Errors
    ///
    /// Why the name cannot be repaired as asked: it is not UTF-8 and no decoding was given, it
    /// is not valid in the encoding of `--from`, or the repair would give a name no file can
    /// have.
    pub fn apply(&self, name: &[u8]) -> Result<Option<Vec<u8>>, String> {
        let mut text = match std::str::from_utf8(name) {
            Ok(text) => text.to_owned(),
            Err(_) => match &self.decode {
                None => {
                    return Err(
                        "the name is not UTF-8: give --fallback ENC or --from ENC to decode it"
                            .to_owned(),
                    );
                }
                Some(decode) => decoded(name, decode)?,
            },
        };
        if self.mojibake
            && let Some(fix) = utf8kit_mojibake::undo_mojibake(&text)
        {
            text = fix.text;
        }
        if self.nfc {
            text = text.nfc().collect();
        }
        if text.as_bytes() == name {
            return Ok(None);
        }
        if text.is_empty() || text == "." || text == ".." || text.contains(['/', '\0']) {
            return Err(format!(
                "the repaired name {} cannot be a file name",
                crate::render::quoted(text.as_bytes())
            ));
        }
        // A rename never creates a name that shows as another (SPEC 5): a control, bidi or
        // invisible character that the old name did not hold, judged as utf8check judges names.
        if let Some((lint, codepoint)) = hiding_character(text.as_bytes())
            && hiding_character(name) != Some((lint, codepoint))
        {
            return Err(format!(
                "not renamed: the new name {} would hold U+{codepoint:04X} ({lint}), which shows a \
                 name as another; decode it with another encoding",
                crate::render::quoted(text.as_bytes())
            ));
        }
        Ok(Some(text.into_bytes()))
    }
}

/// The first character of a UTF-8 `name` that the `control`, `bidi` or `invisible` lint finds
/// (with the context rules of content: an emoji's ZWJ stays), and its lint.
fn hiding_character(name: &[u8]) -> Option<(utf8kit_codec::Lint, u32)> {
    use utf8kit_codec::{Config, FindingKind, Lint, LintSet};
    let lints = [Lint::Control, Lint::Bidi, Lint::Invisible]
        .into_iter()
        .fold(LintSet::NONE, LintSet::with);
    let config = Config {
        lints,
        ..Config::default()
    };
    let mut first = None;
    let _ = utf8kit_codec::scan(name, config, &mut |finding: &utf8kit_codec::Finding<'_>| {
        if let (FindingKind::Lint(lint), Some(codepoint)) = (finding.kind, finding.codepoint) {
            first = Some((lint, codepoint));
            return std::ops::ControlFlow::Break(());
        }
        std::ops::ControlFlow::Continue(())
    });
    first
}

/// `name` decoded as `decode` says.
fn decoded(name: &[u8], decode: &Decode) -> Result<String, String> {
    match decode {
        // What utf8fix --fallback does to content, done to the name.
        Decode::Fallback(table) => {
            let mut repairer = Repairer::new(RepairOptions {
                replacement: Replacement::Fallback(table.clone()),
                ..RepairOptions::default()
            });
            repairer.feed(name, true);
            Ok(String::from_utf8(std::mem::take(repairer.output()))
                .expect("a fallback repair is UTF-8"))
        }
        Decode::From(charset) => decode_whole(name, *charset).ok_or_else(|| {
            format!(
                "the name is not valid {} either",
                crate::encodings::entry_of(*charset).name
            )
        }),
    }
}

/// `name` decoded whole from `charset`, or `None` if it is not valid there.
fn decode_whole(name: &[u8], charset: Charset) -> Option<String> {
    if let Some(table) = charset.high_half() {
        return Some(utf8kit_mojibake::codepages::chars(&table, name).collect());
    }
    match charset {
        Charset::Whatwg(encoding) => encoding
            .decode_without_bom_handling_and_without_replacement(name)
            .map(std::borrow::Cow::into_owned),
        _ => None,
    }
}

/// How a name that is not UTF-8 is likely encoded, and how to decode it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The label to give `utf8fix --names`.
    pub label: &'static str,
    /// `--from` or `--fallback`.
    pub decode: Decode,
    /// Where such names come from.
    pub origin: &'static str,
}

/// Which characters a reading of a name may hold.
type Fits = fn(char) -> bool;

/// The encodings a broken name is tried in, in order of preference.
fn candidates() -> [(Guess, Fits); 4] {
    let charset = |label| {
        crate::encodings::lookup(label)
            .expect("a label of the table")
            .charset
    };
    [
        (
            Guess {
                label: "shift_jis",
                decode: Decode::From(charset("shift_jis")),
                origin: "a Japanese Windows system or ZIP archive",
            },
            is_japanese,
        ),
        (
            Guess {
                label: "windows-1252",
                decode: Decode::Fallback(Box::new(
                    charset("windows-1252")
                        .high_half()
                        .expect("a single-byte encoding"),
                )),
                origin: "a Latin-1 or Windows file server",
            },
            is_code_page_latin,
        ),
        (
            Guess {
                label: "cp437",
                decode: Decode::From(charset("cp437")),
                origin: "a ZIP archive made on Windows",
            },
            is_code_page_latin,
        ),
        (
            Guess {
                label: "cp850",
                decode: Decode::From(charset("cp850")),
                origin: "a ZIP archive made on Windows",
            },
            is_code_page_latin,
        ),
    ]
}

fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3041}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{3005}')
}

/// Whether a reading of a name is plausible: its non-ASCII characters fit the candidate's
/// script; no capital follows a small non-ASCII letter ("âeâX" is Shift_JIS read as cp437,
/// "cafΘ" a Latin-1 name read as cp437); and no Japanese character stands alone
/// against an ASCII letter ("Fran\xe7ais" and "alem\xe1n" are not kanji in Latin words; a
/// Japanese name's characters come in runs, "資料v2").
fn is_plausible(text: &str, fits: Fits) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().all(|(i, &c)| {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        if previous.is_some_and(|p| breaks_case(p, c)) {
            return false;
        }
        if c.is_ascii() {
            return true;
        }
        let neighbours = [previous, next];
        let is_alone_in_latin = neighbours.iter().flatten().any(char::is_ascii_alphabetic)
            && !neighbours.iter().flatten().any(|&n| is_japanese(n));
        fits(c) && !(is_japanese(c) && is_alone_in_latin)
    })
}

/// The likely encoding of a name that is not UTF-8: the first candidate whose reading is
/// plausible (see `is_plausible`). `None` when no reading is (or the name is UTF-8).
pub fn guess(name: &[u8]) -> Option<Guess> {
    if ill_formed(name).is_empty() {
        return None;
    }
    candidates().into_iter().find_map(|(guess, fits)| {
        let text = decoded(name, &guess.decode).ok()?;
        is_plausible(&text, fits).then_some(guess)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renamed(renaming: &Renaming, name: &[u8]) -> Result<Option<String>, String> {
        renaming
            .apply(name)
            .map(|new| new.map(|n| String::from_utf8(n).unwrap()))
    }

    #[test]
    fn names_are_guessed_by_where_they_come_from() {
        let label = |name: &[u8]| guess(name).map(|g| g.label);
        assert_eq!(label(b"caf\xe9.txt"), Some("windows-1252"));
        assert_eq!(label(b"\x82t\x82.txt"), Some("cp437"), "été from a ZIP");
        assert_eq!(label(b"Gr\x81\xe1e.doc"), Some("cp437"), "Grüße from a ZIP");
        assert_eq!(label(b"\x83e\x83X\x83g.txt"), Some("shift_jis"), "テスト");
        assert_eq!(label("café.txt".as_bytes()), None, "UTF-8");
        assert_eq!(label(b"\x9d\x8f\xb0"), None, "nothing plausible");
        // Latin-1 names whose bytes Shift_JIS also reads (CLDR's language names).
        assert_eq!(label(b"alem\xe1n"), Some("windows-1252"));
        assert_eq!(label(b"Fran\xe7ais"), Some("windows-1252"));
        assert_eq!(
            label(b"\x8e\x91\x97\xbfv2.doc"),
            Some("shift_jis"),
            "資料v2.doc"
        );
    }

    #[test]
    fn renamings() {
        let charset = |label| crate::encodings::lookup(label).unwrap().charset;
        let fallback = Renaming {
            decode: Some(Decode::Fallback(Box::new(
                charset("windows-1252").high_half().unwrap(),
            ))),
            ..Renaming::default()
        };
        assert_eq!(
            renamed(&fallback, b"caf\xe9.txt"),
            Ok(Some("café.txt".into()))
        );
        assert_eq!(
            renamed(&fallback, "Kłoczko-\u{e9}".as_bytes()),
            Ok(None),
            "UTF-8 stays"
        );
        assert_eq!(
            renamed(&fallback, b"K\xc5\x82oczko-Bj\xf6rn"),
            Ok(Some("Kłoczko-Björn".into())),
            "mixed: the UTF-8 is kept"
        );
        let zip = Renaming {
            decode: Some(Decode::From(charset("cp437"))),
            ..Renaming::default()
        };
        assert_eq!(renamed(&zip, b"\x82t\x82.txt"), Ok(Some("été.txt".into())));
        let sjis = Renaming {
            decode: Some(Decode::From(charset("shift_jis"))),
            ..Renaming::default()
        };
        assert_eq!(
            renamed(&sjis, b"\x83e\x83X\x83g.txt"),
            Ok(Some("テスト.txt".into()))
        );
        assert!(renamed(&sjis, b"\x83").is_err(), "not Shift_JIS either");
        let nfc = Renaming {
            nfc: true,
            ..Renaming::default()
        };
        assert_eq!(
            renamed(&nfc, "cafe\u{301}.txt".as_bytes()),
            Ok(Some("café.txt".into()))
        );
        assert_eq!(renamed(&nfc, "café.txt".as_bytes()), Ok(None));
        assert!(renamed(&nfc, b"caf\xe9").is_err(), "not UTF-8, no decoding");
        let mojibake = Renaming {
            mojibake: true,
            ..Renaming::default()
        };
        assert_eq!(
            renamed(&mojibake, "cafÃ©.txt".as_bytes()),
            Ok(Some("café.txt".into()))
        );
        assert_eq!(renamed(&mojibake, "São Paulo.txt".as_bytes()), Ok(None));
    }

    #[test]
    fn components_know_their_prefix() {
        let path = Path::new(OsStr::from_bytes(b"./a\xe9/../b/c.txt"));
        let found: Vec<(&[u8], &[u8])> = components(path)
            .into_iter()
            .map(|(name, prefix)| (name, prefix.as_os_str().as_bytes()))
            .collect();
        assert_eq!(
            found,
            [
                (&b"a\xe9"[..], &b"./a\xe9"[..]),
                (b"b", b"./a\xe9/../b"),
                (b"c.txt", b"./a\xe9/../b/c.txt"),
            ]
        );
    }
}
