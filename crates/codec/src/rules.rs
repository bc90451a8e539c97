//! Policies and lints (SPEC 1.6): the two ways a caller moves the line between good and bad.
//!
//! A [`Policy`] accepts some ill-formed units as valid, for data that comes from systems which
//! write them on purpose (WTF-8, CESU-8, Java's Modified UTF-8). A [`LintSet`] rejects some
//! well-formed characters, each reported with its own [`Lint`] kind.

use std::fmt;

use crate::unit::{Unit, UnitKind};

/// Which ill-formed units are accepted as valid.
///
/// The three named policies nest: `cesu8` accepts surrogate pairs, `surrogates` also lone
/// surrogates, `modified` also `C0 80` for U+0000.
///
/// ```
/// use utf8kit_codec::{scan_unit, Policy};
/// let pair = scan_unit(b"\xED\xA0\xBD\xED\xB8\x80", true).unwrap();
/// let lone = scan_unit(b"\xED\xA0\x80", true).unwrap();
/// assert!(Policy::CESU8.accepts(&pair, b"\xED\xA0\xBD\xED\xB8\x80"));
/// assert!(!Policy::CESU8.accepts(&lone, b"\xED\xA0\x80"));
/// assert!(Policy::SURROGATES.accepts(&lone, b"\xED\xA0\x80"));
/// assert!(!Policy::STRICT.accepts(&pair, b"\xED\xA0\xBD\xED\xB8\x80"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policy {
    /// Accept surrogate pairs (6-byte CESU-8 sequences).
    pub surrogate_pairs: bool,
    /// Accept lone surrogates.
    pub lone_surrogates: bool,
    /// Accept the overlong `C0 80` as U+0000.
    pub c0_80: bool,
}

impl Policy {
    /// RFC 3629 exactly: nothing ill-formed is accepted.
    pub const STRICT: Policy = Policy {
        surrogate_pairs: false,
        lone_surrogates: false,
        c0_80: false,
    };
    /// `cesu8`: surrogate pairs only.
    pub const CESU8: Policy = Policy {
        surrogate_pairs: true,
        lone_surrogates: false,
        c0_80: false,
    };
    /// `surrogates`: lone surrogates and pairs, as WTF-8 and CESU-8 carry them.
    pub const SURROGATES: Policy = Policy {
        surrogate_pairs: true,
        lone_surrogates: true,
        c0_80: false,
    };
    /// `modified`: Java's Modified UTF-8, everything `surrogates` accepts plus `C0 80`.
    pub const MODIFIED: Policy = Policy {
        surrogate_pairs: true,
        lone_surrogates: true,
        c0_80: true,
    };

    /// The policy named `surrogates`, `cesu8` or `modified` (or `strict`).
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "strict" => Some(Policy::STRICT),
            "cesu8" => Some(Policy::CESU8),
            "surrogates" => Some(Policy::SURROGATES),
            "modified" => Some(Policy::MODIFIED),
            _ => None,
        }
    }

    /// The union of two policies.
    #[must_use]
    pub fn union(self, other: Policy) -> Policy {
        Policy {
            surrogate_pairs: self.surrogate_pairs || other.surrogate_pairs,
            lone_surrogates: self.lone_surrogates || other.lone_surrogates,
            c0_80: self.c0_80 || other.c0_80,
        }
    }

    /// True when the policy accepts nothing ill-formed.
    pub fn is_strict(self) -> bool {
        self == Policy::STRICT
    }

    /// Whether this ill-formed `unit`, whose bytes are `bytes`, is accepted.
    #[inline]
    pub fn accepts(self, unit: &Unit, bytes: &[u8]) -> bool {
        match unit.kind {
            UnitKind::SurrogatePair => self.surrogate_pairs,
            UnitKind::Surrogate => self.lone_surrogates,
            UnitKind::Overlong => self.c0_80 && bytes == b"\xC0\x80",
            _ => false,
        }
    }
}

/// A well-formed character that a lint rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lint {
    /// U+FEFF at offset 0.
    Bom,
    /// U+0000.
    Nul,
    /// C0 controls except TAB, LF, VT, FF and CR; DEL; C1 controls.
    Control,
    /// U+FDD0..U+FDEF and every U+xxFFFE and U+xxFFFF.
    Noncharacter,
    /// The bidirectional embedding, override and isolate controls ("Trojan Source").
    Bidi,
    /// The private-use areas of the BMP and planes 15 and 16.
    PrivateUse,
    /// U+FFFD, the scar of an earlier lossy conversion.
    Replacement,
    /// Characters that render as nothing where they have no typographic job (see
    /// [`Lint::classify`] for the set and `crate::context` for the contexts that exempt them).
    Invisible,
    /// Unicode tag characters U+E0000..U+E007F outside an emoji tag sequence: ASCII text hidden
    /// in plain sight.
    Tag,
    /// Any character above U+007F that no other lint of the set matches (the ASCII-only rule),
    /// one finding per run of such characters.
    NonAscii,
    /// A word whose letters come from scripts that no writing system mixes (`pаypal` with a
    /// Cyrillic `а`). A lint of words, not of characters: [`Lint::classify`] and
    /// [`LintSet::check`] never answer it; the scanner asks the caller's [`WordRule`] at the end
    /// of each word (`crate::words`), because the Unicode script data is not the codec's.
    ///
    /// [`WordRule`]: crate::words::WordRule
    MixedScript,
}

impl Lint {
    /// Every lint, in the order of SPEC 1.6.
    pub const ALL: &'static [Lint] = &[
        Lint::Bom,
        Lint::Nul,
        Lint::Control,
        Lint::Noncharacter,
        Lint::Bidi,
        Lint::PrivateUse,
        Lint::Replacement,
        Lint::Invisible,
        Lint::Tag,
        Lint::NonAscii,
        Lint::MixedScript,
    ];

    /// The lint's name as written in options and output: `bom`, `private-use`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Lint::Bom => "bom",
            Lint::Nul => "nul",
            Lint::Control => "control",
            Lint::Noncharacter => "noncharacter",
            Lint::Bidi => "bidi",
            Lint::PrivateUse => "private-use",
            Lint::Replacement => "replacement",
            Lint::Invisible => "invisible",
            Lint::Tag => "tag",
            Lint::NonAscii => "non-ascii",
            Lint::MixedScript => "mixed-script",
        }
    }

    /// Parses a name written by [`Lint::as_str`].
    pub fn from_name(name: &str) -> Option<Lint> {
        Lint::ALL.iter().copied().find(|lint| lint.as_str() == name)
    }

    /// The lint a character at `byte_offset` matches, if any (at most one matches).
    ///
    /// For `invisible` and `tag` this is the candidate set; the scanner then exempts the
    /// characters whose neighbours give them a job (`crate::context`). The `invisible` set:
    ///
    /// - U+200B zero width space, U+2060 word joiner, U+2061..U+2064 the invisible mathematical
    ///   operators, U+FEFF after offset 0 (a zero width no-break space in mid-text): all render as
    ///   nothing;
    /// - U+200C ZWNJ and U+200D ZWJ: they shape joining scripts and build emoji sequences, and are
    ///   exempt between two such characters;
    /// - U+FE00..U+FE0F and U+E0100..U+E01EF, the variation selectors: exempt after a character
    ///   they can vary (not after ASCII other than `0-9 # *`, which keycap emoji use);
    /// - U+180E Mongolian vowel separator, exempt between Mongolian letters;
    /// - U+115F and U+1160, the Hangul choseong and jungseong fillers, exempt inside a jamo
    ///   sequence; U+3164 Hangul filler and U+FFA0 halfwidth Hangul filler, which render blank and
    ///   are a common way to make an identifier that looks empty;
    /// - U+034F combining grapheme joiner, U+17B4 and U+17B5 (Khmer inherent vowels, deprecated);
    /// - U+2800 Braille pattern blank, exempt next to other Braille.
    ///
    /// Left out on purpose: U+00AD soft hyphen and U+200E/U+200F (LRM, RLM), which have a
    /// typographic job in ordinary text; the bidi controls are the `bidi` lint.
    ///
    /// ```
    /// use utf8kit_codec::Lint;
    /// assert_eq!(Lint::classify(0xFEFF, 0), Some(Lint::Bom));
    /// assert_eq!(Lint::classify(0xFEFF, 7), Some(Lint::Invisible));
    /// assert_eq!(Lint::classify(0xE0041, 7), Some(Lint::Tag));
    /// assert_eq!(Lint::classify(0x202E, 7), Some(Lint::Bidi));
    /// assert_eq!(Lint::classify(u32::from('\t'), 0), None);
    /// ```
    pub fn classify(codepoint: u32, byte_offset: u64) -> Option<Lint> {
        match codepoint {
            0 => Some(Lint::Nul),
            0x09..=0x0D => None,
            0x01..=0x1F | 0x7F..=0x9F => Some(Lint::Control),
            0xFEFF if byte_offset == 0 => Some(Lint::Bom),
            0xFDD0..=0xFDEF => Some(Lint::Noncharacter),
            cp if cp & 0xFFFE == 0xFFFE => Some(Lint::Noncharacter),
            0x202A..=0x202E | 0x2066..=0x2069 => Some(Lint::Bidi),
            0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD => Some(Lint::PrivateUse),
            0xFFFD => Some(Lint::Replacement),
            0x200B..=0x200D
            | 0x2060..=0x2064
            | 0xFEFF
            | 0xFE00..=0xFE0F
            | 0xE_0100..=0xE_01EF
            | 0x180E
            | 0x115F
            | 0x1160
            | 0x3164
            | 0xFFA0
            | 0x034F
            | 0x17B4
            | 0x17B5
            | 0x2800 => Some(Lint::Invisible),
            0xE_0000..=0xE_007F => Some(Lint::Tag),
            _ => None,
        }
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of lints, cheap to copy and test.
///
/// ```
/// use utf8kit_codec::{Lint, LintSet};
/// let set = LintSet::parse("bom,bidi")?;
/// assert!(set.contains(Lint::Bidi) && !set.contains(Lint::Nul));
/// assert_eq!(LintSet::parse("all")?, LintSet::ALL);
/// assert!(LintSet::parse("bom,nope").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LintSet(u16);

impl LintSet {
    /// No lint.
    pub const NONE: LintSet = LintSet(0);
    /// Every lint.
    pub const ALL: LintSet = LintSet((1 << Lint::ALL.len()) - 1);

    /// The set with `lint` added.
    #[must_use]
    pub fn with(self, lint: Lint) -> LintSet {
        LintSet(self.0 | 1 << lint as u16)
    }

    /// Whether `lint` is in the set.
    #[inline]
    pub fn contains(self, lint: Lint) -> bool {
        self.0 & (1 << lint as u16) != 0
    }

    /// True when the set holds no lint.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union of two sets.
    #[must_use]
    pub fn union(self, other: LintSet) -> LintSet {
        LintSet(self.0 | other.0)
    }

    /// The lints of this set that are not in `other`.
    #[must_use]
    pub fn without(self, other: LintSet) -> LintSet {
        LintSet(self.0 & !other.0)
    }

    /// Parses a comma-separated list of lint names, or `all`.
    ///
    /// # Errors
    ///
    /// Returns the first name that is neither a lint nor `all`.
    pub fn parse(list: &str) -> Result<LintSet, UnknownName> {
        list.split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .try_fold(LintSet::NONE, |set, name| match name {
                "all" => Ok(LintSet::ALL),
                _ => Lint::from_name(name)
                    .map(|lint| set.with(lint))
                    .ok_or_else(|| UnknownName(name.to_owned())),
            })
    }

    /// The lint a character at `byte_offset` matches, if it is in this set: the lint
    /// [`Lint::classify`] gives, or else `non-ascii` for any character above U+007F.
    #[inline]
    pub fn check(self, codepoint: u32, byte_offset: u64) -> Option<Lint> {
        match Lint::classify(codepoint, byte_offset) {
            Some(lint) if self.contains(lint) => Some(lint),
            _ if codepoint > 0x7F && self.contains(Lint::NonAscii) => Some(Lint::NonAscii),
            _ => None,
        }
    }
}

/// A name that is not a lint, returned by [`LintSet::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName(pub String);

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown lint '{}'", self.0)
    }
}

impl std::error::Error for UnknownName {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lint_classes() {
        let rows: &[(u32, u64, Option<Lint>)] = &[
            (0x00, 5, Some(Lint::Nul)),
            (0x01, 5, Some(Lint::Control)),
            (0x08, 5, Some(Lint::Control)),
            (0x09, 5, None),
            (0x0A, 5, None),
            (0x0B, 5, None),
            (0x0C, 5, None),
            (0x0D, 5, None),
            (0x0E, 5, Some(Lint::Control)),
            (0x1B, 5, Some(Lint::Control)),
            (0x1F, 5, Some(Lint::Control)),
            (0x20, 5, None),
            (0x7E, 5, None),
            (0x7F, 5, Some(Lint::Control)),
            (0x80, 5, Some(Lint::Control)),
            (0x9F, 5, Some(Lint::Control)),
            (0xA0, 5, None),
            (0xFEFF, 0, Some(Lint::Bom)),
            (0xFEFF, 1, Some(Lint::Invisible)),
            (0x200B, 5, Some(Lint::Invisible)),
            (0x200A, 5, None),
            (0x200E, 5, None),
            (0x00AD, 5, None),
            (0x2064, 5, Some(Lint::Invisible)),
            (0x2065, 5, None),
            (0xFE0F, 5, Some(Lint::Invisible)),
            (0xE_0100, 5, Some(Lint::Invisible)),
            (0xE_01EF, 5, Some(Lint::Invisible)),
            (0xE_01F0, 5, None),
            (0x3164, 5, Some(Lint::Invisible)),
            (0x2800, 5, Some(Lint::Invisible)),
            (0x2801, 5, None),
            (0xE_0000, 5, Some(Lint::Tag)),
            (0xE_007F, 5, Some(Lint::Tag)),
            (0xE_0080, 5, None),
            (0xFDCF, 5, None),
            (0xFDD0, 5, Some(Lint::Noncharacter)),
            (0xFDEF, 5, Some(Lint::Noncharacter)),
            (0xFDF0, 5, None),
            (0xFFFE, 5, Some(Lint::Noncharacter)),
            (0xFFFF, 5, Some(Lint::Noncharacter)),
            (0x1FFFE, 5, Some(Lint::Noncharacter)),
            (0x10FFFF, 5, Some(Lint::Noncharacter)),
            (0xFFFFE, 5, Some(Lint::Noncharacter)),
            (0x2029, 5, None),
            (0x202A, 5, Some(Lint::Bidi)),
            (0x202E, 5, Some(Lint::Bidi)),
            (0x202F, 5, None),
            (0x2066, 5, Some(Lint::Bidi)),
            (0x2069, 5, Some(Lint::Bidi)),
            (0x206A, 5, None),
            (0xE000, 5, Some(Lint::PrivateUse)),
            (0xF8FF, 5, Some(Lint::PrivateUse)),
            (0xF900, 5, None),
            (0xF0000, 5, Some(Lint::PrivateUse)),
            (0xFFFFD, 5, Some(Lint::PrivateUse)),
            (0x100000, 5, Some(Lint::PrivateUse)),
            (0x10FFFD, 5, Some(Lint::PrivateUse)),
            (0xFFFD, 5, Some(Lint::Replacement)),
            (0xFFFC, 5, None),
            (0x1F600, 5, None),
        ];
        for &(codepoint, offset, expected) in rows {
            assert_eq!(
                Lint::classify(codepoint, offset),
                expected,
                "U+{codepoint:04X} at {offset}"
            );
        }
    }

    #[test]
    fn lint_set_parse() {
        let set = LintSet::parse("nul, control").unwrap();
        assert!(set.contains(Lint::Nul) && set.contains(Lint::Control));
        assert!(!set.contains(Lint::Bom));
        assert_eq!(LintSet::parse("").unwrap(), LintSet::NONE);
        assert_eq!(
            LintSet::parse("bidi,foo").unwrap_err().to_string(),
            "unknown lint 'foo'"
        );
        let both = LintSet::parse("bom,bidi").unwrap();
        assert_eq!(
            both.without(LintSet::parse("bidi,nul").unwrap()),
            LintSet::NONE.with(Lint::Bom)
        );
        for &lint in Lint::ALL {
            assert!(LintSet::ALL.contains(lint), "{lint}");
            assert_eq!(Lint::from_name(lint.as_str()), Some(lint));
        }
    }

    #[test]
    fn policies_nest() {
        let c080 = Unit {
            kind: UnitKind::Overlong,
            len: 2,
            codepoint: Some(0),
        };
        assert!(Policy::MODIFIED.accepts(&c080, b"\xC0\x80"));
        assert!(!Policy::MODIFIED.accepts(&c080, b"\xC1\x80"));
        assert!(!Policy::SURROGATES.accepts(&c080, b"\xC0\x80"));
        assert_eq!(Policy::CESU8.union(Policy::SURROGATES), Policy::SURROGATES);
        assert_eq!(Policy::from_name("modified"), Some(Policy::MODIFIED));
        assert_eq!(Policy::from_name("wtf"), None);
    }
}
