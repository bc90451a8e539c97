//! Each candidate's verdict in its line, and the runs of non-ASCII characters weighed whole.

use utf8kit_codec::unit::is_continuation;

use crate::automaton::{is_lead, is_script_letter};
use crate::found::{Candidate, Found, Neighbour, Verdict};
use crate::languages::is_capital_pair;
use crate::letters::{is_alphabetic, is_lowercase};
use crate::line::Line;
use crate::scripts::{Script, is_c1_control, judged_script};
use crate::spare::{SPARE_COVERED, give_back, spare};
use crate::verdict::{Context, is_plausible};

/// Gives every candidate its verdict and decides which are accepted.
pub(crate) fn judge(line: &Line, e: usize, found: &mut [Found]) {
    let chars = &line.chars[..];
    if found.is_empty() {
        return;
    }
    // Neighbours are judged as they would read once the other candidates are decoded.
    let covered = covering(chars.len(), found);
    // What each candidate reads as to its neighbours, and whether that says the word goes on.
    // Two capitals of one script read as one letter elsewhere than in windows-1252 are likelier
    // a word ("ЕЊ"): such a neighbour is no sign of it.
    let readings: Vec<(char, bool)> = found
        .iter()
        .map(|f| match f.candidate {
            Candidate::Group { decoded, .. } => (
                decoded,
                e == 0 || !is_capital_pair(&chars[f.start..f.start + f.len]),
            ),
            Candidate::Cesu { decoded } => (decoded, true),
            Candidate::Spaced { decoded, .. } => (decoded, false),
            _ => ('\u{FFFD}', false),
        })
        .collect();
    let decoded_at = |index: usize| -> Option<Neighbour> {
        if let Some(&k) = covered.get(index).filter(|&&k| k != usize::MAX) {
            let (c, is_sure) = readings[k];
            return Some(Neighbour {
                c,
                is_decoded: true,
                is_sure,
            });
        }
        chars.get(index).map(|&c| Neighbour {
            c,
            is_decoded: false,
            is_sure: false,
        })
    };
    // A letter of the encoding's script right after a group that begins no whole group (a
    // candidate there starts there: candidates do not overlap) shows the group to be part of a
    // word (`Pending::held`).
    let holds_back = |found: &[Found], i: usize| {
        let begins_whole = covered.get(i).is_some_and(|&k| {
            k != usize::MAX
                && matches!(
                    found[k].candidate,
                    Candidate::Group { .. } | Candidate::Cesu { .. }
                )
        });
        chars
            .get(i)
            .is_some_and(|&c| line.byte(i, e) != 0 && is_script_letter(c) && !begins_whole)
    };
    for k in 0..found.len() {
        let f = &found[k];
        let verdict = match f.candidate {
            Candidate::Group { decoded, bytes } => {
                let context = Context {
                    holds_back: holds_back(found, f.start + f.len),
                    before_prev: f.start.checked_sub(2).and_then(&decoded_at),
                    prev: f.start.checked_sub(1).and_then(&decoded_at),
                    next: decoded_at(f.start + f.len),
                    after_next: decoded_at(f.start + f.len + 1),
                };
                is_plausible(decoded, bytes, &chars[f.start..f.start + f.len], e, context)
            }
            Candidate::Cesu { .. } => Verdict::Yes,
            Candidate::Damaged { strong: true } => Verdict::Yes,
            Candidate::Spaced { decoded: 'à', .. }
                if e == 0 && f.start > 0 && is_lowercase(chars[f.start - 1]) =>
            {
                // A lowercase letter, a capital Ã and a space: "voilÃ le" is nothing but "voilà".
                Verdict::Yes
            }
            // A lead past E3, a space and a sign is also how text runs ("très – bien" is no
            // "tr耖bien"): only among clear mojibake of its script ("ë ˆì¦ˆ" is Korean "레즈").
            Candidate::Spaced { decoded, .. } if u32::from(decoded) >= 0x4000 => Verdict::Weak,
            _ => Verdict::WithEvidence,
        };
        found[k].verdict = verdict;
    }
    // Every acceptance needs a group that is clear mojibake by itself (below), and the verdicts
    // of the whole line only ever take one back: with none, nothing is accepted. Most clean
    // lines the filter lets through end here, without weighing their runs.
    if !found.iter().any(|f| f.verdict == Verdict::Yes) {
        return;
    }
    weigh_runs(line, e, found, &covered);
    // The scripts clear mojibake decodes into, as a set of bits.
    let clear_scripts: u16 = found
        .iter()
        .filter(|f| f.verdict == Verdict::Yes)
        .filter_map(|f| match f.candidate {
            Candidate::Group { decoded, .. } => Some(1 << judged_script(decoded) as u16),
            _ => None,
        })
        .fold(0, |set, bit| set | bit);
    // A group holding a C1 control is mojibake whatever it decodes to: no text holds those
    // controls, and an encoding that leaves bytes 80..9F undefined puts them in every group
    // with such a byte ("â\u{80}\u{93}" is "–" through ISO-8859-2). It is evidence for every
    // script of the line ("KongĂł â\u{80}\u{93} Brazzaville" is "Kongó – Brazzaville").
    let c1_clear = e != 0
        && found.iter().any(|f| {
            f.verdict == Verdict::Yes
                && matches!(f.candidate, Candidate::Group { .. })
                && chars[f.start..f.start + f.len]
                    .iter()
                    .any(|&c| is_c1_control(c))
        });
    let is_clear = |own: Script| c1_clear || clear_scripts & (1 << own as u16) != 0;
    let evidence = found
        .iter()
        .filter(|f| {
            f.verdict == Verdict::Yes
                && matches!(
                    f.candidate,
                    Candidate::Group { .. } | Candidate::Cesu { .. }
                )
        })
        .count();
    let touches_yes = |k: usize| {
        let f = &found[k];
        k.checked_sub(1).is_some_and(|p| {
            found[p].verdict == Verdict::Yes && found[p].start + found[p].len == f.start
        }) || found
            .get(k + 1)
            .is_some_and(|n| n.verdict == Verdict::Yes && n.start == f.start + f.len)
    };
    let touching: Vec<bool> = (0..found.len()).map(touches_yes).collect();
    for (f, touching) in found.iter_mut().zip(touching) {
        f.accepted = match f.verdict {
            Verdict::Yes => true,
            Verdict::No => false,
            Verdict::WithEvidence => evidence > 0,
            Verdict::Weak => match f.candidate {
                Candidate::Group { decoded, .. } | Candidate::Spaced { decoded, .. } => {
                    let own = judged_script(decoded);
                    touching
                        || !matches!(own, Script::Latin | Script::Common) && is_clear(own)
                        || own == Script::Latin && is_clear(own) && (evidence >= 2 || e != 0)
                        // A modifier letter ("Ęź" is "ʼ" through ISO-8859-2) belongs to no
                        // script: the line's clear mojibake of any script vouches for it.
                        || own == Script::Common
                            && (clear_scripts != 0 || c1_clear)
                            && (evidence >= 2 || e != 0)
                }
                _ => false,
            },
        };
    }
}

/// For each character of a line, the index of the candidate that covers it, or `usize::MAX`.
/// Candidates are sorted and do not overlap.
pub(crate) fn covering(len: usize, found: &[Found]) -> Covering {
    let mut covered = spare(&SPARE_COVERED, len);
    covered.resize(len, usize::MAX);
    for (k, f) in found.iter().enumerate() {
        for slot in &mut covered[f.start..f.start + f.len] {
            *slot = k;
        }
    }
    Covering(covered)
}

/// What [`covering`] gives: its vector goes back to the thread for the next line.
pub(crate) struct Covering(Vec<usize>);

impl std::ops::Deref for Covering {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        &self.0
    }
}

impl Drop for Covering {
    fn drop(&mut self) {
        give_back(&SPARE_COVERED, std::mem::take(&mut self.0));
    }
}

/// The verdicts that depend on the whole line rather than on a group's neighbours.
pub(crate) fn weigh_runs(line: &Line, e: usize, found: &mut [Found], covered: &[usize]) {
    let chars = &line.chars[..];
    // Runs of non-ASCII characters (a `?` or a space inside a candidate belongs to it).
    // The runs holding characters no candidate covers.
    let mut untiled_runs = Vec::new();
    let mut run_start = None;
    let mut next_found = 0;
    for i in 0..=chars.len() {
        let inside = i < chars.len() && (!chars[i].is_ascii() || covered[i] != usize::MAX);
        match (inside, run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(start)) => {
                run_start = None;
                let run = start..i;
                let mut broken = false;
                let mut foreign = false;
                let mut untiled = false;
                for j in run.clone() {
                    if covered[j] != usize::MAX {
                        continue;
                    }
                    let c = chars[j];
                    let byte = line.byte(j, e);
                    if c == '\u{FFFD}' {
                        continue;
                    }
                    // Only a character the encoding has shows that this stretch did not go
                    // through it ("–" beside "DrÃ¥ber"); one it lacks ("ʼ") tells nothing.
                    untiled |= byte != 0;
                    if byte == 0 {
                        foreign = true;
                    } else if is_continuation(byte) && is_alphabetic(c) {
                        // A letter that can only continue a group, standing alone among groups:
                        // garble ("ã†â€™ãƒâ€" through MacRoman), not a layer of mojibake.
                        broken = true;
                    } else if is_lead(byte)
                        && chars
                            .get(j + 1)
                            .is_some_and(|&n| !n.is_ascii() && is_continuation(line.byte(j + 1, e)))
                    {
                        broken = true;
                    }
                }
                if untiled {
                    untiled_runs.push(run.clone());
                }
                // Candidates are sorted: those of this run follow those of the runs before it.
                while next_found < found.len() && found[next_found].start < run.start {
                    next_found += 1;
                }
                let first = next_found;
                while next_found < found.len() && run.contains(&found[next_found].start) {
                    next_found += 1;
                }
                for f in &mut found[first..next_found] {
                    if broken {
                        f.verdict = Verdict::No;
                    } else if foreign
                        && f.verdict == Verdict::Yes
                        && matches!(f.candidate, Candidate::Group { bytes: 2, .. })
                    {
                        f.verdict = Verdict::Weak;
                    }
                }
            }
            _ => {}
        }
    }
    // A lone 2-byte group among correct UTF-8 is the text as written.
    let mut yes = (0..found.len()).filter(|&k| found[k].verdict == Verdict::Yes);
    if let (Some(only), None) = (yes.next(), yes.next()) {
        let f = &mut found[only];
        let elsewhere = untiled_runs.iter().any(|run| !run.contains(&f.start));
        if elsewhere && matches!(f.candidate, Candidate::Group { bytes: 2, .. }) {
            f.verdict = Verdict::Weak;
        }
    }
}
