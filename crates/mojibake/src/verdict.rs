//! Whether one decoded group is plausible text: the rules, from what it decodes to and what surrounds it.

use utf8kit_codec::unit::is_continuation;

use crate::automaton::is_script_letter;
use crate::bytes::{byte_in, bytes_of};
use crate::found::{Neighbour, Verdict};
use crate::languages::{is_capital_pair, is_foreign_pair, is_odd_decoding};
use crate::letters::{is_alphabetic, is_alphanumeric, is_lowercase, is_numeric, is_uppercase};
use crate::scripts::{
    Script, breaks_case, ends_words, is_box, is_c1_control, is_koi8_mark, is_math, judged_script,
};

/// What surrounds a candidate, as it will read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context {
    /// The character after the group is a letter of the encoding's script that begins no whole
    /// group (see `Pending::held`).
    pub(crate) holds_back: bool,
    pub(crate) before_prev: Option<Neighbour>,
    pub(crate) prev: Option<Neighbour>,
    pub(crate) next: Option<Neighbour>,
    pub(crate) after_next: Option<Neighbour>,
}

/// The commonest clear mojibake, answered without the rules of [`is_plausible`], for
/// windows-1252 (with nothing held back, as in a whole line of it): `true` only where
/// `is_plausible` says [`Verdict::Yes`] (a test holds it to that on every group, beside every
/// kind of neighbour); `false` says nothing. Three kinds of group (the third, Latin letters, in
/// [`is_surely_clear_latin`]):
///
/// - three or four characters that decode to anything but a control, a private-use character or
///   a noncharacter, with no original letter on either side ("à¤¹à¤¿à¤‚" is "हिं", "â€™" is
///   "’"). Such a group is no ideograph squeezed against a word, no sign against a letter, no
///   accented letter and no-break space before a symbol, no letter and guillemet before
///   punctuation.
/// - two that decode to a letter of Greek, Cyrillic, Armenian or Arabic beside a letter of the
///   same script decoded from a whole group, with no letter of another script on either side
///   ("Ð°Ð±Ñ…Ð°Ð·" is "абхаз"). It is no control, sign, mark, box, formula or quote; it clashes
///   with no letter and is not lone in its script; it ends no word after an original letter
///   (the decoded neighbour is sure); and its lead is not "Ã" or "Â", which decode to Latin-1
///   and have rules of their own.
pub(crate) fn is_surely_clear(decoded: char, group: &[char], context: &Context) -> bool {
    let lead = group[0];
    if context.holds_back
        || !is_alphabetic(lead)
        || group.iter().all(|&c| is_math(c))
        || is_odd_decoding(decoded, None)
    {
        return false;
    }
    if group.len() > 2 {
        // Decoded text or no letter.
        let is_plain = |n: Option<Neighbour>| n.is_none_or(|n| n.is_decoded || !is_alphabetic(n.c));
        return !is_no_text(decoded)
            && !matches!(group[1], '\u{A0}' | '»')
            && is_plain(context.prev)
            && is_plain(context.next);
    }
    let own = judged_script(decoded);
    if !is_alphabetic(decoded) {
        return false;
    }
    if own == Script::Latin {
        return is_surely_clear_latin(group, context);
    }
    if !is_pair_script_letter(decoded) {
        return false;
    }
    // A sure letter of the same script, or no letter at all.
    let is_own = |n: &Neighbour| n.is_decoded && n.is_sure && judged_script(n.c) == own;
    let fits = |n: Option<Neighbour>| n.is_none_or(|n| !is_alphabetic(n.c) || is_own(&n));
    let is_chained = |n: Option<Neighbour>| n.is_some_and(|n| is_alphabetic(n.c) && is_own(&n));
    fits(context.prev)
        && fits(context.next)
        && (is_chained(context.prev) || is_chained(context.next))
}

/// A letter of Greek, Cyrillic, Armenian or Arabic that `is_plausible` takes from a 2-byte
/// group (not the marks and signs of those blocks).
pub(crate) fn is_pair_script_letter(c: char) -> bool {
    let in_range = matches!(u32::from(c), 0x370..=0x3FF | 0x400..=0x482 | 0x48A..=0x52F
        | 0x531..=0x58F | 0x600..=0x6FF | 0x750..=0x77F);
    let is_script = matches!(
        judged_script(c),
        Script::Greek | Script::Cyrillic | Script::Armenian | Script::Arabic
    );
    in_range && is_script && is_alphabetic(c)
}

/// A character no group decodes to in text: a control, a private-use character, a noncharacter,
/// or a code point past plane 3 (planes 4 to 13 hold nothing, 14 only tags and selectors, 15
/// and 16 private use).
pub(crate) fn is_no_text(c: char) -> bool {
    let cp = u32::from(c);
    c.is_control()
        || (0xE000..=0xF8FF).contains(&cp)
        || cp >= 0x4_0000
        || (0xFDD0..=0xFDEF).contains(&cp)
        || cp & 0xFFFE == 0xFFFE
}

/// [`is_surely_clear`] for a 2-byte group that decodes to a Latin letter of Latin-1 or Latin
/// Extended-A and -B (below the IPA letters): "Ã" and a byte 80..BF ("Ã©" is "é"), or "Ä" to
/// "È" and one ("Å‚" is "ł"). It clashes with no letter of another script beside it; its second
/// character is no apostrophe or no-break space (which end or join words); after "Ã" it is not
/// inside a word of original capitals ("CAFÃ©" may be "CAFÃ" and a sign); after the others the
/// word goes on (at a word's end "HÄ…" is text).
pub(crate) fn is_surely_clear_latin(group: &[char], context: &Context) -> bool {
    let lead = group[0];
    let no_clash = |n: Option<Neighbour>| {
        n.is_none_or(|n| {
            !is_alphabetic(n.c) || matches!(judged_script(n.c), Script::Latin | Script::Common)
        })
    };
    let is_original_capital =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_uppercase(n.c));
    let goes_on = context
        .next
        .is_some_and(|n| n.is_decoded || is_alphabetic(n.c));
    let fits_lead = match lead {
        'Ã' => !(is_original_capital(context.prev) && is_original_capital(context.before_prev)),
        'Ä'..='È' => goes_on,
        _ => false,
    };
    fits_lead
        && !matches!(group[1], '’' | '\u{A0}')
        && no_clash(context.prev)
        && no_clash(context.next)
}

/// The verdict on one group that decodes to `decoded` in encoding `e`, from what it decodes
/// to and what surrounds it: the named rules below, asked in order.
pub(crate) fn is_plausible(
    decoded: char,
    bytes: usize,
    group: &[char],
    e: usize,
    context: Context,
) -> Verdict {
    let case = Case {
        decoded,
        bytes,
        group,
        e,
        cp: u32::from(decoded),
        holds_back: context.holds_back,
        before_prev: context.before_prev,
        prev: context.prev,
        next: context.next,
        after_next: context.after_next,
    };
    // The rules in order: the first that answers decides; a group no rule doubts is mojibake.
    koi8(&case)
        .or_else(|| controls(&case))
        .or_else(|| outside_text(&case))
        .or_else(|| drawing_and_formulas(&case))
        .or_else(|| words_of_one_script(&case))
        .or_else(|| words_of_the_lead_script(&case))
        .or_else(|| lone_odd_letter(&case))
        .or_else(|| two_byte_groups(&case))
        .or_else(|| scripts_of_neighbours(&case))
        .or_else(|| signs_between_letters(&case))
        .or_else(|| word_ends(&case))
        .or_else(|| held_back(&case))
        .unwrap_or(Verdict::Yes)
}

/// One group and what surrounds it, as every rule of [`is_plausible`] reads them.
#[derive(Clone, Copy)]
struct Case<'a> {
    decoded: char,
    bytes: usize,
    group: &'a [char],
    /// The encoding's index in the tables (0 is windows-1252).
    e: usize,
    cp: u32,
    holds_back: bool,
    before_prev: Option<Neighbour>,
    prev: Option<Neighbour>,
    next: Option<Neighbour>,
    after_next: Option<Neighbour>,
}

impl Case<'_> {
    /// No letter on either side, decoded or not.
    fn stands_alone(&self) -> bool {
        !self.prev.is_some_and(|p| is_alphabetic(p.c))
            && !self.next.is_some_and(|n| is_alphabetic(n.c))
    }

    /// A character of the lead's script (the lead is a letter of the text elsewhere than in
    /// windows-1252).
    fn of_lead_script(&self, c: char) -> bool {
        judged_script(c) == judged_script(self.group[0])
    }

    /// A decoded letter of Syriac, Thaana or NKo.
    fn is_west_asian(&self) -> bool {
        matches!(
            judged_script(self.decoded),
            Script::Syriac | Script::Thaana | Script::NKo
        )
    }
}

/// KOI8-R and KOI8-U undo the mojibake of Cyrillic text only: a group decodes to a Cyrillic
/// letter or a combining accent (two bytes), a Latin-1 sign such as `«` or a no-break space, or
/// punctuation (`—`, `…`, `№`), nothing else (`ці` is Belarusian, not `æ`). The tables keep
/// only the KOI8 leads that such mojibake starts with (`б ц й л м п я р с Б`), but correct Cyrillic text still holds
/// groups of them (`всё`, `сі`): a group is clear only when it ends with what KOI8 holds besides
/// letters ([`is_koi8_mark`]: `п÷я─п╦`), and weak otherwise, as `possible_encodings` counts it.
fn koi8(case: &Case) -> Option<Verdict> {
    let Case {
        bytes,
        group,
        e,
        cp,
        ..
    } = *case;
    if crate::chain::KOI8 & 1 << e == 0 {
        return None;
    }
    let fits = match bytes {
        2 => matches!(cp, 0x2BC | 0x300..=0x36F | 0x400..=0x52F | 0xA0..=0xBF),
        3 => matches!(cp, 0x2010..=0x205F | 0x2116 | 0x20AC | 0x2122),
        _ => false,
    };
    if !fits {
        return Some(Verdict::No);
    }
    let is_mark = group.last().is_some_and(|&c| is_koi8_mark(c));
    // The letters of Russian, Ukrainian, Belarusian, Bulgarian, Serbian and Macedonian, the
    // apostrophe ʼ of Ukrainian and Belarusian, and the accents Bulgarian marks stress with.
    let is_common =
        matches!(cp, 0x2BC | 0x300..=0x36F | 0x400..=0x45F | 0x490 | 0x491) || bytes == 3;
    Some(if is_mark && is_common {
        Verdict::Yes
    } else {
        Verdict::WithEvidence
    })
}

/// C1 controls: a layer in between, Latin-1 read where windows-1252 was meant, or two letters
/// of the text.
fn controls(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        prev,
        ..
    } = *case;
    // A C1 control right after a decoded character that the encoding has is a layer in
    // between: the next pass reads it as the byte it was ("MÃ„Â\u{81}ori" is "MÄ\u{81}ori",
    // then "Māori").
    let is_c1 = is_c1_control(decoded);
    let is_between_layers = is_c1
        && prev.is_some_and(|p| {
            p.is_decoded && bytes_of(p.c).is_some_and(|b| b.iter().any(|&b| b >= 0x80))
        });
    // "Â" and a C1 control is exactly what Latin-1 makes of a C1 control in UTF-8: the
    // control is what was there ("Â\u{84}Handwerk" is "\u{84}Handwerk", a layer closer to
    // "„Handwerk").
    if is_between_layers || is_c1 && is_c1_control(group[1]) {
        return Some(Verdict::Yes);
    }
    // Elsewhere than windows-1252 and Latin-1, whose undefined bytes sloppy decoders keep as
    // C1 controls, a group that decodes to one is two letters of the text ("ÂŤ" is "«" through
    // ISO-8859-2, not U+008D through windows-1250).
    if is_c1 {
        return Some(if e == 0 {
            Verdict::WithEvidence
        } else {
            Verdict::No
        });
    }
    // A C1 control right after a letter is never text: the pair is Latin-1 mojibake ("Ð\u{95}"
    // is "Е", whatever stands beside it).
    if bytes == 2 && is_c1_control(group[1]) && !decoded.is_control() && is_alphabetic(decoded) {
        return Some(Verdict::Yes);
    }
    None
}

/// Code points no text holds, and what lands among historic scripts or reads as a formula.
fn outside_text(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        group,
        e,
        cp,
        ..
    } = *case;
    // Four-byte mojibake decodes into planes 1 to 3 (emoji, historic scripts, CJK extensions);
    // planes 4 to 13 hold nothing, 14 only tags and selectors, 15 and 16 private use.
    if is_no_text(decoded) {
        return Some(Verdict::No);
    }
    // Below its emoji and symbols, plane 1 holds historic scripts (cuneiform, hieroglyphs,
    // Linear B) and a few living ones (Chakma, Adlam): elsewhere than in windows-1252, a
    // decoding that lands there is only believed beside clear mojibake ("π’®’", Greek with
    // quotes read as windows-1253, is not U+12B92). In windows-1252 the group is "ð" and
    // three signs ("ð‘„ƒ" is Chakma "𑄃"), which no text writes.
    if (0x1_0000..0x1_F000).contains(&cp) && e != 0 {
        return Some(Verdict::Weak);
    }
    // A no-break space leads a group only in MacRoman (CA), where a space before a sign is
    // what it looks like ("\u{a0}±" would be U+02B1, a phonetic modifier letter): only beside
    // clear mojibake. (The okina and the modifier apostrophe, CA BB and CA BC, are real.)
    if group[0] == '\u{a0}' && group[1..].iter().all(|&c| is_math(c)) {
        return Some(Verdict::Weak);
    }
    None
}

/// Box drawing and formulas, which read as letters in IBM437 and MacRoman.
fn drawing_and_formulas(case: &Case) -> Option<Verdict> {
    let Case {
        group,
        before_prev,
        prev,
        next,
        after_next,
        ..
    } = *case;
    // Text drawn with box characters reads as letters in IBM437 ("├┤" is "ô"), formulas as
    // letters in MacRoman ("√π" is "ù", "∆°" is "ơ"): only with clear mojibake beside them.
    // Two box characters against a word of two letters or more, with no other box character
    // beside them, draw nothing: they are a letter ("j├╕disk" is "jødisk", "merkist├╢" is
    // "merkistö"); between single letters they are line art ("├┤a┼┐a┼┐a").
    let in_word = prev.is_some_and(|p| !p.is_decoded && is_alphabetic(p.c));
    let is_letter = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_alphabetic(n.c));
    let is_drawing = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_box(n.c));
    // A pair between two letters, with no box character or other group beyond them, is inside
    // a word too ("f├╝r" is "für"; "├┤a┼┐a┼┐a" is line art).
    let is_plain = |n: Option<Neighbour>| !n.is_some_and(|n| n.is_decoded || is_box(n.c));
    let in_text = || {
        let beside_word = is_letter(prev) && is_letter(before_prev)
            || is_letter(next) && is_letter(after_next)
            || is_letter(prev) && is_letter(next) && is_plain(before_prev) && is_plain(after_next);
        beside_word && !is_drawing(prev) && !is_drawing(next)
    };
    // Signs that start a word of two lowercase letters or more are its first letter
    // ("√∏stfrisisk" is "østfrisisk"); a formula has a digit or a letter before them ("2√πr").
    let is_lower = |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_lowercase(n.c));
    let opens_lowercase_word = || {
        is_lower(next)
            && is_lower(after_next)
            && !prev.is_some_and(|p| is_alphanumeric(p.c) || is_math(p.c))
    };
    if group.iter().all(|&c| is_box(c)) && !in_text()
        || group.iter().all(|&c| is_math(c)) && !in_word && !opens_lowercase_word()
    {
        return Some(Verdict::Weak);
    }
    None
}

/// Letters of one script that are a word of it whatever they decode to.
fn words_of_one_script(case: &Case) -> Option<Verdict> {
    let Case {
        bytes,
        group,
        e,
        prev,
        next,
        ..
    } = *case;
    // Letters that windows-1252 has too, where they form no group, are text in the languages
    // that write them ("HÅØYA" is Norwegian, not "HŨYA" through windows-1257).
    if e != 0
        && bytes == 2
        && group
            .iter()
            .all(|&c| is_alphabetic(c) && !is_continuation(byte_in(c, 0)) && byte_in(c, 0) != 0)
    {
        return Some(Verdict::WithEvidence);
    }
    // Three or four letters of one script other than Latin (an apostrophe inside the word
    // counts as one) are a word of it, whatever they decode to: Ukrainian "дії" is no CJK "䳿"
    // through windows-1251, "д’є" no "䒺". Real mojibake of CJK text holds signs in most of
    // its groups, and those vouch for the others; three accented Latin letters in a row are no
    // word ("Êúà" is "月" through MacRoman).
    // Squeezed against an original letter of another script, they are no word: "Tiбєїng" is
    // Vietnamese "Tiếng" through windows-1251, and "вЂЊ" between Persian letters is a ZWNJ.
    let is_word = |c: char| is_alphabetic(c) || matches!(c, '’' | 'ʼ');
    let is_foreign_letter = |n: Option<Neighbour>| {
        n.is_some_and(|n| {
            !n.is_decoded
                && is_alphabetic(n.c)
                && !matches!(judged_script(n.c), Script::Common)
                && judged_script(n.c) != judged_script(group[0])
        })
    };
    // Nor is a run with a capital after a lowercase letter: "вЂћ" is "„" through windows-1251.
    let has_inner_capital = group.windows(2).any(|pair| breaks_case(pair[0], pair[1]));
    if e != 0
        && bytes > 2
        && judged_script(group[0]) != Script::Latin
        && !has_inner_capital
        && !is_foreign_letter(prev)
        && !is_foreign_letter(next)
        && group.iter().all(|&c| is_word(c))
        && group
            .iter()
            .filter(|&&c| is_alphabetic(c))
            .all(|&c| judged_script(c) == judged_script(group[0]))
    {
        return Some(Verdict::Weak);
    }
    None
}

/// Elsewhere than windows-1252, where the lead is a letter: pairs that are a word of its
/// script.
fn words_of_the_lead_script(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        cp,
        before_prev,
        prev,
        next,
        ..
    } = *case;
    // The rules below are for the encodings other than windows-1252, whose leads are letters.
    if e != 0 {
        // Letters of a script that decode to a letter of the same script are a word of it ("Тё"
        // in Russian is not "Ҹ" through windows-1251, "ášť" in Czech not "ṻ"), unless the line
        // shows more of the same mojibake ("Рё" beside "Р°" is "и"). A capital inside a lowercase
        // word is no word of any script, but a lead ("jĆødisk" is "jødisk" through windows-1257,
        // "aÄŤinski" is "ačinski" through windows-1250). Nor are three letters that decode to a
        // letter of Vietnamese, which no word of these encodings' languages holds ("Tiáşżng" is
        // "Tiếng"), nor a group led by "ƒ", the florin or function sign that MacRoman has at C4
        // ("afƒÅru" is "afāru", "abhazƒÉ" is "abhază").
        let capital_inside_word = prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && is_uppercase(group[0])
            && is_lowercase(decoded);
        let is_vietnamese = bytes == 3 && (0x1EA0..=0x1EF9).contains(&cp);
        // No word goes on in lowercase after two capitals of the same script: such a pair is one
        // letter ("JĂĽdisch" is "Jüdisch" through windows-1250, "ГЃrabes" is "Árabes" through
        // windows-1251).
        let before_lowercase_word = next.is_some_and(|n| !n.is_decoded && is_lowercase(n.c));
        // Nor is a pair that makes a word of its own after an elision ("c'ГЁ" is Italian "c'è"
        // through windows-1251, "c'ĆØ" through windows-1257).
        let after_elision = matches!(prev, Some(p) if !p.is_decoded && matches!(p.c, '\'' | '’'))
            && before_prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && !next.is_some_and(|n| is_alphabetic(n.c));
        // And a standalone capital pair that is a Latin-1 letter ("%s ГЁ una" is Italian "è",
        // "ГҐ" Norwegian "å" through windows-1251): no two-letter word of capitals is written so.
        let is_latin1_pair = byte_in(group[0], e) == 0xC3 && case.stands_alone();
        let is_pair_before_lowercase = is_capital_pair(group)
            && (before_lowercase_word || after_elision || is_latin1_pair)
            || is_foreign_pair(group);
        // Nor does a Latin word start with a capital and one of the lowercase letters these
        // encodings hold at 80..BF (ą ł ľ ś š ş ť ź ž ż), alone or after one capital: "Ăźbergeben"
        // is "übergeben" through ISO-8859-2, "FĆølgende" "Følgende" through windows-1257.
        let starts_word_here = !prev.is_some_and(|p| is_alphabetic(p.c))
            || prev.is_some_and(|p| !p.is_decoded && is_uppercase(p.c))
                && !before_prev.is_some_and(|p| is_alphabetic(p.c));
        let is_title_pair = bytes == 2
            && judged_script(decoded) == Script::Latin
            && judged_script(group[0]) == Script::Latin
            && is_uppercase(group[0])
            && is_lowercase(group[1])
            && starts_word_here;
        if !capital_inside_word
            && !is_pair_before_lowercase
            && !is_title_pair
            && !is_vietnamese
            && group[0] != 'ƒ'
            && is_alphabetic(decoded)
            && group
                .iter()
                .all(|&c| is_alphabetic(c) && judged_script(c) == judged_script(decoded))
        {
            return Some(Verdict::Weak);
        }
        // Elsewhere than windows-1252, two capitals of one script are a word of it whatever they
        // decode to (Serbian "ОГРАНИЧЕЊЕ" is no "ОГРАНИЧŌ" through windows-1251); a letter of
        // Latin Extended-B is what a letter and a quote make ("»З«" is no "»ǫ"); and a letter
        // before an apostrophe is a word ("Л’Акуила" is no "˒Акуила").
        let is_elided = bytes == 2 && is_alphabetic(group[0]) && matches!(group[1], '’' | 'ʼ');
        // And a capital ending a word in capitals before punctuation or a no-break space
        // ("УПОЗОРЕЊЕ…", "ЕЊЕ\u{A0}").
        let after_capitals = prev.is_some_and(|p| {
            if p.is_decoded {
                // Decoded from two capitals (see `judge`).
                !p.is_sure
            } else {
                // Of the same script: "%PВ\u{A0}:" is a no-break space through windows-1251.
                is_uppercase(p.c) && case.of_lead_script(p.c)
            }
        });
        let ends_capital_word =
            bytes == 2 && is_uppercase(group[0]) && ends_words(group[1]) && after_capitals;
        if !capital_inside_word
            && (is_capital_pair(group) && !is_pair_before_lowercase
                || is_elided
                || ends_capital_word
                || is_odd_decoding(decoded, None))
        {
            return Some(Verdict::Weak);
        }
    }
    None
}

/// An odd letter with no letter on either side.
fn lone_odd_letter(case: &Case) -> Option<Verdict> {
    let Case { decoded, bytes, .. } = *case;
    // In windows-1252 too, such a letter with no letter on either side is what a capital and a
    // sign make in a list of symbols ("€Æ¾÷ß" is no "€ƾ÷ß"): only beside clear mojibake.
    if bytes == 2 && case.stands_alone() && is_odd_decoding(decoded, None) {
        return Some(Verdict::Weak);
    }
    None
}

/// What a 2-byte group may decode to: marks, ranges, IPA, combining marks, symbols, quotes.
fn two_byte_groups(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        cp,
        before_prev,
        prev,
        next,
        after_next,
        ..
    } = *case;
    if bytes == 2 {
        // The marks and signs of Hebrew (points, geresh and gershayim: "×\u{90}Ö·" is "אַ",
        // "×’×³" is "ג׳"), Syriac, Thaana and NKo, and in windows-1252 the Cyrillic titlo and
        // breathings of Church Slavonic ("Ò†"), belong to the letters beside them: only with
        // clear mojibake of their script on the line, as "Ö·", "×³", "Ò…" and "ß²" are also a
        // capital or a times sign before a sign ("PERCHÒ…"), or German "ß" with a square.
        let is_script_mark = matches!(cp, 0x591..=0x5C7 | 0x5F0..=0x5F4 | 0x730..=0x74A
            | 0x7A6..=0x7B0 | 0x7EB..=0x7F5)
            || e == 0 && (0x483..=0x489).contains(&cp);
        if is_script_mark {
            return Some(Verdict::Weak);
        }
        let is_combining = (0x300..=0x36F).contains(&cp);
        let in_range = matches!(cp, 0xA0..=0x2FF | 0x370..=0x3FF | 0x400..=0x52F
            | 0x531..=0x58F | 0x5D0..=0x5EA | 0x600..=0x6FF | 0x750..=0x77F
            // The letters of Syriac, Thaana and NKo; not NKo's digits ("ß…" is German).
            | 0x710..=0x72F | 0x74D..=0x74F | 0x780..=0x7A5 | 0x7B1 | 0x7CA..=0x7EA)
            || is_combining;
        // What a 2-byte group decodes to is a letter, a digit, a mark, or one of Latin-1's
        // symbols; not a Cyrillic combining sign ("“Ö" through MacRoman is not "\u{485}").
        let is_sign = !(0x483..=0x489).contains(&cp);
        if !in_range || !is_sign {
            return Some(Verdict::No);
        }
        // A Syriac, Thaana or NKo letter is "Ü", "Ý", "Þ" or "ß" and a sign, a Hebrew one "×"
        // and a sign: with a quote, a dash, an ellipsis or a no-break space after it that is
        // how German and Icelandic words end ("Fuß“", "Fuß\u{A0}") and how a times sign
        // stands ("2×\u{A0}3"), so only clear mojibake of the script vouches for it.
        let sign_after_text = ends_words(group[1]) || matches!(group[1], '“' | '‘' | '«' | '‹');
        if (case.is_west_asian() || judged_script(decoded) == Script::Hebrew) && sign_after_text {
            return Some(Verdict::Weak);
        }
        // IPA letters are what a no-break space or a capital before a sign makes in MacRoman
        // ("\u{A0}è" reads as "ʏ", "É¿" as "ɿ"), and a capital É or Ê before a sign in
        // windows-1252 ("CAFÉ–BAR"): only beside clear mojibake. But the alphabets of West and
        // Central Africa write some of them as letters ("likrɛni", "Zapɔ", "Dentuɗi", "imək"):
        // in windows-1252, right after a lowercase letter, the pair is that letter.
        // At the start of a word, before a lowercase letter, it is that letter too ("ɔtb"), and
        // after the capital of a word in title case ("Dɔmimiki", not "CAFÉ–bar").
        let after_lowercase = prev.is_some_and(|p| is_lowercase(p.c));
        let before_lowercase = next.is_some_and(|n| is_lowercase(n.c));
        let starts_word = !prev.is_some_and(|p| is_alphabetic(p.c)) && before_lowercase;
        let after_initial = prev.is_some_and(|p| !p.is_decoded && is_uppercase(p.c))
            && !before_prev.is_some_and(|p| is_alphabetic(p.c))
            && before_lowercase;
        let is_african_letter = after_lowercase || starts_word || after_initial;
        // Elsewhere than windows-1252 the pair is a letter of the encoding's script or a sign,
        // which no text puts between two lowercase Latin letters ("HaЙ—a" is Hausa "Haɗa"
        // through windows-1251, "Ha…óa" through MacRoman).
        let is_latin_lower = |n: Option<Neighbour>| {
            n.is_some_and(|n| is_lowercase(n.c) && judged_script(n.c) == Script::Latin)
        };
        let inside_latin_word =
            prev.is_some_and(|p| !p.is_decoded) && is_latin_lower(prev) && is_latin_lower(next);
        let is_african_alphabet = matches!(
            cp,
            0x251
                | 0x253
                | 0x254
                | 0x256
                | 0x257
                | 0x259
                | 0x25B
                | 0x263
                | 0x266
                | 0x268
                | 0x269
                | 0x26A
                | 0x272
                | 0x283
                | 0x289..=0x28B | 0x292
        );
        if (0x250..=0x2AF).contains(&cp)
            && !(e == 0 && is_african_letter)
            && !(e != 0 && inside_latin_word && is_african_alphabet)
        {
            return Some(Verdict::Weak);
        }
        if is_combining {
            // A mark decoded from a pair no text holds ("Ì¶", "Ì€": a capital and a symbol),
            // after anything, as in struck-out prices and emoticons; from a plainer pair only
            // after a letter, and with more on the line. Two letters are a plainer pair ("ĚŽ" in
            // Czech capitals is no "\u{30E}" through windows-1250).
            let is_plain_pair = group.iter().all(|&c| is_alphabetic(c));
            return Some(if is_odd_after_letter(group[1]) && !is_plain_pair {
                Verdict::Yes
            } else if prev.is_some_and(|p| is_alphabetic(p.c)) {
                Verdict::Weak
            } else {
                Verdict::No
            });
        }
        // Two letters that read as a symbol or a modifier ("ВІ" in Ukrainian capitals is not
        // "²"): text, unless the line shows more.
        let is_symbolic = !is_alphabetic(decoded) || judged_script(decoded) == Script::Common;
        // A quote before a word or a sign is how text starts or joins one ("«été", "“Öl", "«©",
        // "’à’Über"), whatever a MacRoman reading makes of it. Not a guillemet inside a
        // lowercase word, where no text puts one: MacRoman reads C8 as "»" ("ba»ôkir" is
        // Romanian "bașkir").
        let is_guillemet_in_word = matches!(group[0], '«' | '»')
            && prev.is_some_and(|p| !p.is_decoded && is_lowercase(p.c))
            && next.is_some_and(|n| is_lowercase(n.c));
        if matches!(
            group[0],
            '«' | '“' | '‘' | '‚' | '„' | '‹' | '¿' | '¡' | '’' | '”' | '»' | '›'
        ) && !is_guillemet_in_word
        {
            return Some(Verdict::Weak);
        }
        let is_word_letter = |c: &char| is_alphabetic(*c) && !matches!(c, 'µ' | 'ª' | 'º');
        // Spanish opens its questions and exclamations with "¿" and "¡" ("ÂżEstá" is "¿Está"
        // through windows-1250), and guillemets and the common signs are what two letters of
        // no one language make ("ÂŤ%sÂť" is "«%s»", "Copyright ÂŠ 2004" is "©" and "Âś" is
        // "¶" through ISO-8859-2; "Āø", a lone cedilla, stays).
        let opens_sentence =
            matches!(decoded, '¿' | '¡') && next.is_some_and(|n| is_alphabetic(n.c));
        // Not "¥": ISO-8859-2's "ÂĄ" is also "¡" through windows-1250.
        let is_common_sign = matches!(decoded, '«' | '»' | '©' | '®' | '°' | '±' | '§' | '¶' | '£');
        if is_symbolic
            && !opens_sentence
            && !(is_foreign_pair(group) && is_common_sign)
            && group.iter().all(is_word_letter)
        {
            return Some(Verdict::Weak);
        }
        // "’s" after a capital is English ("There are a lot of Ã’s"); the possessive and the
        // contractions end the word right after.
        let is_contraction = group[1] == '’'
            && next.is_some_and(|n| !n.is_decoded && matches!(n.c, 's' | 't' | 'd' | 'm'))
            && !after_next.is_some_and(|n| is_alphabetic(n.c));
        if is_contraction {
            return Some(Verdict::Weak);
        }
    }
    None
}

/// A decoded letter against the letters beside it: clashing scripts, lone letters, ideographs.
fn scripts_of_neighbours(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        cp,
        prev,
        next,
        ..
    } = *case;
    if is_alphabetic(decoded) {
        let own = judged_script(decoded);
        // Chuvash is often typed with the Latin "ă", "ĕ" and "ç" for its Cyrillic letters
        // ("вăтаçĕр"): those sit among Cyrillic letters.
        let is_chuvash_letter = |c: char| matches!(c, 'ă' | 'Ă' | 'ĕ' | 'Ĕ' | 'ç' | 'Ç');
        let clashes = |n: Option<Neighbour>| {
            n.is_some_and(|n| {
                let theirs = judged_script(n.c);
                is_alphabetic(n.c)
                    && theirs != own
                    && theirs != Script::Common
                    && own != Script::Common
                    && !(is_chuvash_letter(decoded) && theirs == Script::Cyrillic)
                    && !(own == Script::Cyrillic && is_chuvash_letter(n.c))
            })
        };
        // A pair no text holds ("Î³" in "IL2RÎ³cKO") is mojibake even among Latin letters, and
        // a decoded run of a script may start right after a letter of another ("CÑ€Ð¿" is a
        // Latin C before Cyrillic). Not a Syriac, Thaana or NKo letter: "Ü" or "ß" and any sign
        // is a German word, or garble ("ßŸÜ" among Arabic read as MacRoman).
        let chained =
            |n: Option<Neighbour>| n.is_some_and(|n| n.is_decoded && judged_script(n.c) == own);
        if bytes == 2
            && !(e == 0 && is_odd_after_letter(group[1]) && !case.is_west_asian())
            && (clashes(prev) && !chained(next) || clashes(next) && !chained(prev))
        {
            return Some(Verdict::No);
        }
        // Mojibake of Greek, Cyrillic, Armenian, Hebrew or Arabic text decodes into runs of that
        // script: a lone letter of one ("×’" as a Hebrew gimel), with no letter of its script
        // beside it (nor a group that lost a byte, "ÐŸÑ\u{FFFD}Ð¸"), needs the line to show more.
        let same_script = |n: Option<Neighbour>| {
            n.is_some_and(|n| {
                n.is_decoded && n.c == '\u{FFFD}' || is_alphabetic(n.c) && judged_script(n.c) == own
            })
        };
        let is_lone_foreign_letter = bytes == 2
            && !is_odd_after_letter(group[1])
            && !matches!(own, Script::Latin | Script::Common)
            && !same_script(prev)
            && !same_script(next);
        if is_lone_foreign_letter {
            return Some(Verdict::Weak);
        }
        // Three- and four-byte groups decode to scripts that do mix with Latin letters in real
        // text ("RINET基金", "文字A"), but then in runs: against an original letter of another
        // script, the other side must be decoded text of the same script, or the line must
        // show clear mojibake of that script, for the kana, ideographs and syllables that mix
        // with Latin words ("GUIë¥¼ 실행" is Korean "GUI를" among more of it, "%sã\u{81}¨%s"
        // Japanese "%sと%s"). A lone ideograph squeezed against a Latin word
        // ("été\u{A0}©", "café”…") is the text as written.
        let against_original =
            |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded) && clashes(n);
        let is_east_asian = matches!(cp, 0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7A3);
        if bytes > 2
            && (against_original(prev) && !chained(next)
                || against_original(next) && !chained(prev))
        {
            return Some(if is_east_asian {
                Verdict::Weak
            } else {
                Verdict::No
            });
        }
    }
    None
}

/// Signs squeezed against letters, and groups that a word end and a sign make.
fn signs_between_letters(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        cp,
        prev,
        next,
        ..
    } = *case;
    // A sign (or an unassigned code point) of a script's block squeezed against a letter of the
    // text ("się’Ł" is not "si꒣", "zvlášť" is not "zvl\u{169D}"): the punctuation, symbols and
    // fullwidth forms of the shared blocks do sit between letters ("itâ€™s", "Ningboï¼ŒChina").
    let is_far_sign = bytes > 2
        && !is_alphabetic(decoded)
        && !is_numeric(decoded)
        && !matches!(cp, 0x2000..=0x2BFF | 0x3000..=0x303F | 0xFE00..=0xFE0F | 0xFE30..=0xFE4F
            | 0xFEFF | 0xFF00..=0xFFEF | 0xFFFD);
    let touches_letter =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_alphabetic(n.c));
    // Elsewhere than windows-1252 the lead is a letter of the text, so only punctuation,
    // currency, letterlike and mathematical signs may sit against letters ("Latvijā’©" is not
    // "Latvij⒩"; MacRoman's "‚àö" is the "√" of a layer below).
    let is_odd_sign = e != 0
        && bytes > 2
        && !is_alphabetic(decoded)
        && !matches!(cp, 0x2000..=0x22FF | 0x3000..=0x303F | 0xFEFF | 0xFF00..=0xFFEF);
    if (is_far_sign || is_odd_sign) && (touches_letter(prev) || touches_letter(next)) {
        return Some(Verdict::No);
    }
    // A word-final accented letter, a no-break space and a symbol ("à\u{A0}©") read as one
    // ideograph or syllable too; real CJK and Hangul mojibake does that only among more of its
    // own script on the line.
    if bytes > 2 && group[1] == '\u{A0}' {
        return Some(Verdict::Weak);
    }
    // So does a word-final accented letter before a closing guillemet and punctuation ("«mamá»…"
    // is no "«mamễ", "«está»—dijo" no "«estỗdijo"): real Vietnamese mojibake, which makes
    // such groups of "ễ", "ỗ", "ờ" and "ớ", holds more groups on the line.
    let closes_quote = group.len() == 3
        && is_alphabetic(group[0])
        && group[1] == '»'
        && matches!(group[2], '…' | '—' | '–' | '”' | '’' | '»' | '›')
        && (!next.is_some_and(|n| is_alphabetic(n.c)) || matches!(group[2], '—' | '–'));
    if closes_quote {
        return Some(Verdict::Weak);
    }
    None
}

/// The end of a word: Latin-1 letters, capitals, quotes and punctuation after a group.
fn word_ends(case: &Case) -> Option<Verdict> {
    let Case {
        decoded,
        bytes,
        group,
        e,
        before_prev,
        prev,
        next,
        ..
    } = *case;
    // "Ã" and a byte 80..BF is a Latin-1 letter, the commonest mojibake of all ("NÃ–" is "NÖ",
    // "NÃ¼" is "Nü", "Ã…rhus" is "Århus"): the general end-of-word rules at the bottom are for
    // the rarer leads, and "Ã" has its own narrower ones.
    // "Â" (C2 where it is that letter) and a byte A0..BF, a Latin-1 sign, is as common: the
    // no-break space French puts before a colon ("%PÂ\u{A0}: ne peut"). MacRoman's C2, "¬",
    // keeps the general rules ("`¬´", one of ftfy's negative cases).
    let is_latin1_letter = byte_in(group[0], e) == 0xC3 || group[0] == 'Â';
    let ends_the_word = !next.is_some_and(|n| is_alphabetic(n.c) || n.is_decoded);
    // An apostrophe or a no-break space after a capitalised word ("HÄ’été", "HÄ\u{A0}été")
    // separates words; at the start of a word it is the second byte of a letter
    // ("Å\u{A0}panělsko" is "Španělsko", "Ã’gmhios" is "Ògmhios"), and inside a lowercase word,
    // or after decoded text, it is mojibake too.
    let is_original_capital =
        |n: Option<Neighbour>| n.is_some_and(|n| !n.is_decoded && is_uppercase(n.c));
    let separates_words = matches!(group[1], '’' | '\u{A0}');
    // (A capital of another script does not make a word with the lead: "%PВ\u{A0}:" is a
    // no-break space through windows-1251.)
    let same_word = prev.is_some_and(|p| case.of_lead_script(p.c));
    if bytes == 2 && !is_latin1_letter && separates_words && is_original_capital(prev) && same_word
    {
        return Some(Verdict::Weak);
    }
    // For "Ã" the same holds only inside an all-capitals word ("IRMÃ’été", "IRMÃ\u{A0}été"),
    // with a closing quote or an ellipsis that ends it too ("“IRMÃ”", "«IRMÃ»", "IRMÃ…"). After
    // a single capital the word is in title case and "Ã" is mojibake ("TÃ\u{A0}idh" is
    // "Tàidh", "DÃ\u{A0}" is "Dà"), as it is after a lowercase letter ("voilÃ\u{A0}"). Before
    // the punctuation French spaces off, "Â" and a no-break space is that space ("d'IDÂ\u{A0};"),
    // where before a word it may end one in capitals ("MISUTÂ\u{A0}AJIKKO", romaji).
    let in_capital_word = is_original_capital(prev) && is_original_capital(before_prev);
    let is_trailing =
        matches!(group[1], '…' | '”' | '»' | '™' | '›' | '‘' | '´' | '©') && ends_the_word;
    let french_spacing = group == ['Â', '\u{A0}']
        && next.is_some_and(|n| matches!(n.c, ';' | ':' | '!' | '?' | '»'));
    if is_latin1_letter && !french_spacing && in_capital_word && (separates_words || is_trailing) {
        return Some(Verdict::Weak);
    }
    if bytes == 2 && !is_latin1_letter && !next.is_some_and(|n| is_alphabetic(n.c) || n.is_decoded)
    {
        // The group ends a word (a decoded neighbour would mean the word goes on, in layers).
        // After an original capital ("HÄ…"), a lowercase decode is the text as written; after
        // anything but an original lowercase letter ("CAFÉ…", "É…"), so is an accented capital
        // followed by word-final punctuation. After a lowercase letter ("sÄ…" for "są") it is
        // mojibake.
        let prev_original = prev.filter(|p| !p.is_decoded).map(|p| p.c);
        let after_capital = prev_original.is_some_and(is_uppercase);
        let after_lowercase = prev_original.is_some_and(is_lowercase);
        // A decoded neighbour says the word goes on, unless this group decodes to a letter
        // text rarely holds ("CAFÉ’É…" is no "CAFɒɅ").
        let after_decoded =
            prev.is_some_and(|p| p.is_decoded && p.is_sure) && !is_odd_decoding(decoded, None);
        if after_capital && is_lowercase(decoded) {
            return Some(Verdict::Weak);
        }
        // A lead of another script than the letter before it is no letter of that word
        // ("%PВ\u{A0}:" is a no-break space through windows-1251).
        let glued = prev_original.is_some_and(|p| {
            is_alphabetic(p)
                && is_alphabetic(group[0])
                && !case.of_lead_script(p)
                && judged_script(group[0]) != Script::Common
        });
        if !after_lowercase && !after_decoded && !glued && ends_words(group[1]) {
            return Some(Verdict::Weak);
        }
    }
    None
}

/// Letters of the encoding's script before a letter that begins no group.
fn held_back(case: &Case) -> Option<Verdict> {
    let Case {
        group, holds_back, ..
    } = *case;
    // Letters of the encoding's own script, before another that begins no whole group, are a
    // word of that script: Ukrainian "Південна" is no "ϳвденна" through windows-1251, nor
    // Belarusian "рэгіён" "рэ㳸н", whatever the line's other groups say (`Pending` holds such a
    // group back the same way).
    if group.iter().all(|&c| is_script_letter(c)) && holds_back {
        return Some(Verdict::Weak);
    }
    None
}

/// A character that text rarely puts right after a letter: a symbol that windows-1252 and its
/// kin hold at a continuation byte, where it follows a letter only as mojibake.
pub(crate) fn is_odd_after_letter(c: char) -> bool {
    matches!(
        c,
        '\u{80}'
            ..='\u{9F}'
                | '¤'
                | '¦'
                | '¨'
                | '¬'
                | '¯'
                | '¸'
                | '¶'
                | '§'
                | '±'
                | '¹'
                | '²'
                | '³'
                | '°'
                | '¼'
                | '½'
                | '¾'
                | '¢'
                | '€'
                | 'ƒ'
                | '†'
                | '‡'
                | 'ˆ'
                | '‰'
                | '‹'
                | '˜'
                | '¡'
                | '¿'
                | 'Œ'
                | 'œ'
                | 'Š'
                | 'š'
                | 'Ž'
                | 'ž'
                | 'Ÿ'
    )
}
