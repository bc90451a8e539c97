//! The vocabulary of the judging: a candidate stretch, what it decodes to, its neighbours and its verdict.

/// One change to a line: a candidate decoded, or a stray C1 control read as windows-1252.
#[derive(Clone, Copy)]
pub(crate) enum Edit {
    Group(Candidate),
    Control(char),
}

/// What a candidate stretch of characters becomes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Candidate {
    /// A whole group that decodes to `decoded`, `bytes` long in UTF-8.
    Group { decoded: char, bytes: usize },
    /// Two 3-byte groups that are a CESU-8 surrogate pair: one supplementary character.
    Cesu { decoded: char },
    /// A group with a byte lost to U+FFFD (or `?`): one U+FFFD for the lost character. `strong`
    /// when nothing but a lost character explains it.
    Damaged { strong: bool },
    /// "â€" whose third byte was lost: one U+FFFD.
    Truncated,
    /// A group whose byte A0 became a space: `decoded`, and a space after it when the space
    /// was a word's own and the A0 was dropped ("voilÃ le" is "voilà le").
    Spaced { decoded: char, keeps_space: bool },
}

/// A character next to a candidate, as it will read: decoded itself, or original text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neighbour {
    pub(crate) c: char,
    pub(crate) is_decoded: bool,
    /// Decoded from a whole group (or a CESU-8 pair), not from one that lost a byte or a space
    /// and is decoded only beside clear mojibake: such a neighbour cannot itself make its
    /// neighbour clear ("Latvijā” É…" is Latvian with a quote and "É…", not "Latvij┠Ʌ").
    pub(crate) is_sure: bool,
}

pub(crate) struct Found {
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) candidate: Candidate,
    /// Whether a C1 control stands for a byte windows-1252 defines (Latin-1 was read).
    pub(crate) uses_c1: bool,
    pub(crate) verdict: Verdict,
    pub(crate) accepted: bool,
}

impl Found {
    /// The bytes of UTF-8 the candidate explains, once accepted.
    pub(crate) fn weight(&self) -> usize {
        match self.candidate {
            Candidate::Group { bytes, .. } => bytes,
            Candidate::Cesu { .. } => 6,
            _ => 1,
        }
    }
}

/// How plausible a decoded group is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Clearly mojibake.
    Yes,
    /// Not mojibake.
    No,
    /// Not on its own, but yes when the same line holds clear mojibake of the same script.
    Weak,
    /// Damaged or spaced: yes when the same line holds clear mojibake.
    WithEvidence,
}
