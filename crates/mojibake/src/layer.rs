//! One layer of mojibake undone on a line: the shortcut, else every encoding that may explain it, judged, and the best plan applied.

use crate::bytes::windows_1252_char;
use crate::candidates::find_candidates;
use crate::chain::{double_byte_layer, legacy_layer};
use crate::cyrillic::{CyrillicReading, undo_cyrillic_layer};
use crate::double::{LatinReading, undo_double, undo_latin};
use crate::found::{Candidate, Edit, Found};
use crate::line::Line;
use crate::plans::{Plan, plan_for, stray_c1_controls};
use crate::shortcut::whole_line_through_windows_1252;
use crate::suspect::first_suspect_in;
use crate::tables::COUNT;

/// Undoes one layer into `out` (well-formed UTF-8 then; its old content is lost), or returns
/// `None` if nothing in `text` is accepted. Returns how many groups were decoded, and the
/// encoding.
///
/// `outermost` says that `text` is the line as it came, no layer undone yet: only there does
/// a line that CJK readings explain but cannot tell apart stop every other reading (deeper, it
/// is the answer of a UTF-8 reading, which went on as such: `ÂÂÂÂÂÂÂÂÂ£` peels on).
pub(crate) fn one_layer(text: &str, out: &mut Vec<u8>, outermost: bool) -> Option<(usize, u8)> {
    // A double-byte reading goes first: its answer decodes every character of the line, where
    // a single-byte judging would see only what such a reading left alone (the C1 control that
    // Shift_JIS reads byte 80 as).
    if let Some(undone) = undo_double(text) {
        out.clear();
        out.extend_from_slice(undone.text.as_bytes());
        return Some((undone.restored, double_byte_layer(undone.reading)));
    }
    // The line filter gives the same answer as `possible_encodings != 0`, with SIMD: the layer
    // that finds nothing more (one in every repaired line) costs little.
    let suspect = first_suspect_in(text.as_bytes()).is_some();
    // Most mojibake is a whole line read once as windows-1252: that reading is answered
    // without building the line the general judging needs. Its bytes are UTF-8, so no reading
    // of CJK text in a legacy encoding explains it.
    if suspect && let Some(answer) = whole_line_through_windows_1252(text, out) {
        return Some(answer);
    }
    // Cyrillic text through the wrong code page: a whole line, judged by its words.
    match undo_cyrillic_layer(text, outermost) {
        CyrillicReading::Undone(undone) => {
            out.clear();
            out.extend_from_slice(undone.text.as_bytes());
            return Some((undone.restored, undone.layer));
        }
        CyrillicReading::Undecided if outermost => return None,
        CyrillicReading::Undecided | CyrillicReading::Not => {}
    }
    let judged = |out: &mut Vec<u8>| {
        if !suspect {
            return None;
        }
        let (fixed, count, encoding) = judge_layer(text)?;
        out.clear();
        out.extend_from_slice(fixed.as_bytes());
        Some((count, encoding))
    };
    // CJK text in a double-byte encoding read as windows-1252 or Latin-1: whole lines whose
    // bytes are not UTF-8 in any code page, which no other reading explains.
    match undo_latin(text) {
        LatinReading::Undone(undone) => {
            // UTF-8 read twice and damaged (`TiÃ¡Â»Â¿ng`), whose bytes Big5 also reads: the
            // single-byte readings' answer, when it explains most of the line.
            if (undone.utf8_like || undone.inside_a_word)
                && let Some(answer) = judged(out)
                && (undone.inside_a_word || explains_most(text, out, answer.0))
            {
                return Some(answer);
            }
            out.clear();
            out.extend_from_slice(undone.text.as_bytes());
            Some((undone.restored, legacy_layer(undone.reading, undone.latin1)))
        }
        LatinReading::Undecided if outermost => None,
        LatinReading::Undecided | LatinReading::Not => judged(out),
    }
}

/// Whether `answer` (the single-byte readings' repair of `text`, with `edits` groups decoded and
/// C1 controls read as windows-1252) decoded at least four in five of the line's characters
/// that are not ASCII in groups.
fn explains_most(text: &str, answer: &[u8], edits: usize) -> bool {
    let count = |s: &str, f: fn(char) -> bool| s.chars().filter(|&c| f(c)).count();
    let high = |c: char| !c.is_ascii();
    let c1 = |c: char| ('\u{80}'..='\u{9F}').contains(&c);
    let Ok(answer) = std::str::from_utf8(answer) else {
        return false;
    };
    let before = count(text, high);
    // Each group of n characters became one; a control read as windows-1252 stays one.
    let controls = count(text, c1).saturating_sub(count(answer, c1));
    let explained = (before + edits).saturating_sub(count(answer, high) + 2 * controls);
    5 * explained >= 4 * before
}

/// [`one_layer`] of a line the line filter found suspect, by the general judging.
pub(crate) fn judge_layer(text: &str) -> Option<(String, usize, u8)> {
    let line = Line::new(text);
    let possible = line.possible;
    if possible == 0 {
        return None;
    }
    let chars = &line.chars[..];
    // An encoding explains at most the characters it reads as bytes 80..FF (a candidate's weight
    // is never more than its characters): this orders the possible encodings (one or two in
    // most lines) and passes over those that cannot beat the best so far without looking for
    // their candidates.
    let readable = line.readable;
    let mut order = [0usize; COUNT];
    let mut tried = 0;
    for e in (0..COUNT).filter(|e| possible & (1 << e) != 0) {
        order[tried] = e;
        tried += 1;
    }
    let order = &mut order[..tried];
    // Most first, ties in table order, which is the order ties are broken in.
    order.sort_unstable_by_key(|&e| (std::cmp::Reverse(readable[e]), e));
    let mut best: Option<Plan> = None;
    // A tie on weight goes to fewer odd decodings, then to the commoner letters, then to the
    // earlier encoding.
    let cannot_win = |best: &Option<Plan>, e: usize, most: usize| {
        let best_weight = best.as_ref().map_or(0, |b| b.weight);
        let could_win_tie = best
            .as_ref()
            .is_some_and(|b| b.oddities > 0 || b.rarity > 0 || e < b.encoding);
        most < best_weight || most == best_weight && !could_win_tie
    };
    for &mut e in order {
        if cannot_win(&best, e, readable[e]) {
            continue;
        }
        let found = find_candidates(&line, e);
        // What the candidates could explain at most bounds what judging them can give.
        let bound = found.iter().map(Found::weight).sum();
        if cannot_win(&best, e, bound) {
            continue;
        }
        let plan = plan_for(&line, e, found);
        let wins = match &best {
            None => plan.weight > 0,
            Some(b) => {
                (
                    plan.weight,
                    std::cmp::Reverse(plan.oddities),
                    std::cmp::Reverse(plan.rarity),
                    std::cmp::Reverse(e),
                ) > (
                    b.weight,
                    std::cmp::Reverse(b.oddities),
                    std::cmp::Reverse(b.rarity),
                    std::cmp::Reverse(b.encoding),
                )
            }
        };
        if wins {
            best = Some(plan);
        }
    }
    let c1 = if line.has_c1 {
        stray_c1_controls(chars, best.as_ref())
    } else {
        Vec::new()
    };
    let plan = best.filter(|p| p.weight > 0);
    let groups = plan
        .as_ref()
        .map_or(&[][..], |p| &p.found[..])
        .iter()
        .filter(|f| f.accepted);
    // Both lists are sorted and never overlap (a stray control is one no candidate covers):
    // one pass writes the line with each edit in place.
    let mut edits: Vec<(usize, usize, Edit)> =
        Vec::with_capacity(groups.clone().count() + c1.len());
    edits.extend(groups.map(|f| (f.start, f.len, Edit::Group(f.candidate))));
    edits.extend(c1.iter().map(|&i| (i, 1, Edit::Control(chars[i]))));
    if edits.is_empty() {
        return None;
    }
    edits.sort_unstable_by_key(|&(start, ..)| start);
    let mut fixed = String::with_capacity(text.len());
    let mut at = 0;
    for &(start, len, edit) in &edits {
        fixed.extend(&chars[at..start]);
        match edit {
            Edit::Control(c) => fixed.push(windows_1252_char(c)),
            Edit::Group(Candidate::Group { decoded, .. } | Candidate::Cesu { decoded }) => {
                fixed.push(decoded)
            }
            Edit::Group(Candidate::Spaced {
                decoded,
                keeps_space,
            }) => {
                fixed.push(decoded);
                if keeps_space {
                    fixed.push(' ');
                }
            }
            Edit::Group(Candidate::Damaged { .. } | Candidate::Truncated) => fixed.push('\u{FFFD}'),
        }
        at = start + len;
    }
    fixed.extend(&chars[at..]);
    // Layer index COUNT names Latin-1 read where windows-1252 was meant.
    let layer = match &plan {
        Some(p) if p.encoding != 0 => p.encoding as u8,
        Some(p) if !p.found.iter().any(|f| f.accepted && f.uses_c1) => 0,
        _ => COUNT as u8,
    };
    Some((fixed, edits.len(), layer))
}
