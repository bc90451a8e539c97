//! What one encoding makes of a line: its candidates judged, weighed and ranked against the other encodings'.

use crate::bytes::windows_1252_char;
use crate::found::{Candidate, Found};
use crate::judge::judge;
use crate::languages::{is_odd_decoding, rarity};
use crate::letters::{is_alphabetic, is_lowercase, is_uppercase};
use crate::line::Line;
use crate::scripts::is_c1_control;
use crate::spare::{SPARE_FOUND, give_back};

/// C1 controls that no candidate group touches and that windows-1252 defines: Latin-1 read
/// where windows-1252 was meant ("\u{93}quoted\u{94}"). The five bytes windows-1252 leaves
/// undefined stay, as they may be meant.
pub(crate) fn stray_c1_controls(chars: &[char], plan: Option<&Plan>) -> Vec<usize> {
    let covered = |i: usize| {
        plan.is_some_and(|p| {
            let before = p.found.partition_point(|f| f.start <= i);
            before
                .checked_sub(1)
                .is_some_and(|k| i < p.found[k].start + p.found[k].len)
        })
    };
    chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| is_c1_control(c) && windows_1252_char(c) != c && !covered(i))
        .map(|(i, _)| i)
        .collect()
}

/// What one encoding makes of a line.
pub(crate) struct Plan {
    pub(crate) encoding: usize,
    pub(crate) found: Vec<Found>,
    /// The bytes of UTF-8 the accepted groups explain: the encoding with most wins.
    pub(crate) weight: usize,
    /// Among encodings of equal weight, the one with fewer odd decodings wins (see
    /// [`is_odd_decoding`]).
    pub(crate) oddities: usize,
    /// Then the one whose decoded letters are commoner (see [`rarity`]).
    pub(crate) rarity: usize,
}

impl Drop for Plan {
    fn drop(&mut self) {
        give_back(&SPARE_FOUND, std::mem::take(&mut self.found));
    }
}

/// Judges the candidates one encoding finds in a line.
pub(crate) fn plan_for(line: &Line, e: usize, mut found: Vec<Found>) -> Plan {
    judge(line, e, &mut found);
    let weight = found.iter().filter(|f| f.accepted).map(Found::weight).sum();
    // The character at `i` as the line will read: what an accepted group holding it decodes
    // to, or itself.
    let reads_as = |i: usize| -> Option<char> {
        let k = found.partition_point(|f| f.start <= i).checked_sub(1);
        match k.map(|k| &found[k]) {
            Some(f) if f.accepted && i < f.start + f.len => match f.candidate {
                Candidate::Spaced {
                    keeps_space: true, ..
                } if i + 1 == f.start + f.len => Some(' '),
                Candidate::Group { decoded, .. }
                | Candidate::Cesu { decoded }
                | Candidate::Spaced { decoded, .. } => Some(decoded),
                _ => Some('\u{FFFD}'),
            },
            _ => line.chars.get(i).copied(),
        }
    };
    let oddities = found
        .iter()
        .filter(|f| f.accepted)
        .filter(|f| match f.candidate {
            Candidate::Group { decoded, .. } => {
                let before = f.start.checked_sub(1).map(|p| line.chars[p]);
                // "ß" is lowercase and never starts a word ("GĂźceratça" is "Güceratça"
                // through ISO-8859-2, not "Gßceratça" through windows-1250), and it follows
                // a vowel, never a consonant ("fĂźr" is "für", not "fßr").
                let odd_sharp_s =
                    decoded == 'ß' && !before.is_some_and(|b| "aeiouyäöü".contains(b));
                // Outside windows-1252, a capital before a lowercase letter that does not begin
                // a word (it follows a capital: "DĂŠanta" is "Déanta", not "DÊanta"); or "Ê",
                // "Î", "Ì" or "Ï", which begin no name, beginning a word after a lowercase one.
                // ISO-8859-2 reads the same bytes as the lowercase letter ("sur ĂŠvènement" is
                // "évènement", "lipsă ĂŽn" is "în"). Other capitals begin names mid-sentence
                // ("Demirgazyk Ýewropa" in Turkmen, "Insulele Åland"), and German nouns.
                // (Read only for a capital: a search among the groups.)
                let before_word = || f.start.checked_sub(2).and_then(reads_as);
                let odd_capital = e != 0
                    && is_uppercase(decoded)
                    && reads_as(f.start + f.len).is_some_and(is_lowercase)
                    && match before {
                        Some(' ') => {
                            matches!(decoded, 'Ê' | 'Î' | 'Ì' | 'Ï')
                                && before_word().is_some_and(is_lowercase)
                        }
                        Some(b) => is_uppercase(b) && !before_word().is_some_and(is_alphabetic),
                        None => false,
                    };
                is_odd_decoding(decoded, before) || odd_sharp_s || odd_capital
            }
            _ => false,
        })
        .count();
    // Windows-1252, the commonest by far, keeps its ties ("Kĩkũyũ" is no "čkũ" through
    // windows-1257): only the others are told apart by their letters.
    let rarity = if e == 0 {
        0
    } else {
        found
            .iter()
            .filter(|f| f.accepted)
            .map(|f| match f.candidate {
                Candidate::Group { decoded, .. } => rarity(decoded),
                _ => 0,
            })
            .sum()
    };
    Plan {
        encoding: e,
        found,
        weight,
        oddities,
        rarity,
    }
}
