//! The layer loop: one layer of mojibake undone after another, until nothing changes.

use crate::chain::{MAX_LAYERS, MojibakeChain, MojibakeFix};
use crate::layer::one_layer;
use crate::spare::{SPARE_BYTES, SPARE_LAYER, give_back, spare};

/// Undoes every layer of mojibake in `text`, or returns `None` if nothing changes.
///
/// Returns the repaired text and the number of groups changed over all layers; see
/// [`undo_mojibake`] for the encodings undone.
///
/// ```
/// use utf8kit_mojibake::fix_mojibake;
/// assert_eq!(fix_mojibake("cafÃ©").unwrap().0, "café");
/// assert_eq!(fix_mojibake("itâ€™s").unwrap().0, "it’s");
/// assert_eq!(fix_mojibake("cafÃƒÂ©").unwrap().0, "café"); // encoded twice
/// assert_eq!(fix_mojibake("РґРѕСЂРѕРіРµ").unwrap().0, "дороге"); // through windows-1251
/// assert_eq!(fix_mojibake("п÷я─п╦п╡п╣я┌").unwrap().0, "Привет"); // through KOI8-R
/// assert_eq!(fix_mojibake("SÃO PAULO, AÑO, 50¢, ©, €5"), None); // correct text
/// ```
pub fn fix_mojibake(text: &str) -> Option<(String, usize)> {
    undo_mojibake(text).map(|fix| (fix.text, fix.groups))
}

/// Undoes every layer of mojibake in `text`, saying which encodings it undid, or returns `None`
/// if nothing changes.
///
/// ```
/// use utf8kit_mojibake::undo_mojibake;
/// let fix = undo_mojibake("GrÃƒÂ¼ÃƒÅ¸e").unwrap();
/// assert_eq!(fix.text, "Grüße");
/// assert_eq!(fix.chain.to_string(), "windows-1252 x2");
/// assert_eq!(undo_mojibake("Привет, мир"), None);
/// ```
pub fn undo_mojibake(text: &str) -> Option<MojibakeFix> {
    undo_layers(text)
}

/// [`undo_mojibake`] of a line the line filter ([`first_suspect`]) found suspect.
pub(crate) fn undo_suspect_line(text: &str) -> Option<MojibakeFix> {
    undo_layers(text)
}

/// Undoes the layers of `text`, the first one already found suspect or not.
fn undo_layers(text: &str) -> Option<MojibakeFix> {
    let mut fixed = String::new();
    undo_layers_into(text, &mut fixed).map(|(groups, chain)| MojibakeFix {
        text: fixed,
        groups,
        chain,
    })
}

/// [`undo_layers`] with the repaired text added to `out`: how many groups were decoded, and the
/// chain undone. A run of lines has its texts put in one string this way, without a string of
/// its own for each line.
pub(crate) fn undo_layers_into(text: &str, out: &mut String) -> Option<(usize, MojibakeChain)> {
    undo_layers_from(text, (0, 0, MojibakeChain::default()), out)
}

/// [`undo_layers_into`] of `text`, the answer of the first `done.0` layers, which decoded
/// `done.1` groups over the chain `done.2`: the layers after them, up to [`MAX_LAYERS`] in all.
/// `None` when `text` is the answer of no layer and stays, or when the text still changes at
/// the last layer.
pub(crate) fn undo_layers_from(
    text: &str,
    done: (usize, usize, MojibakeChain),
    out: &mut String,
) -> Option<(usize, MojibakeChain)> {
    let (first, mut groups, mut chain) = done;
    // Each layer reads the last one's answer and writes its own beside it.
    let mut last = spare(&SPARE_LAYER, text.len());
    let mut next = spare(&SPARE_BYTES, text.len());
    let mut answer = None;
    for layer in first..MAX_LAYERS {
        let input = if layer == first {
            text
        } else {
            debug_assert!(std::str::from_utf8(&last).is_ok());
            // SAFETY: `last` holds the answer of `one_layer`, well-formed UTF-8: a string the
            // general judging made, or the shortcut's bytes, whose count walked every byte
            // (see `whole_line_through_windows_1252`). Checking them again was a twentieth of
            // the repair's time.
            unsafe { std::str::from_utf8_unchecked(&last) }
        };
        let Some((count, encoding)) = one_layer(input, &mut next, layer == 0) else {
            if layer > 0 {
                out.push_str(input);
                answer = Some((groups, chain));
            }
            break;
        };
        groups += count;
        chain.push(encoding);
        std::mem::swap(&mut last, &mut next);
    }
    give_back(&SPARE_LAYER, last);
    give_back(&SPARE_BYTES, next);
    // Still changing after as many layers as any real text has been through (no answer): this
    // is not mojibake but text that only looks like it at every depth ("ÂÂÂÂÂÂÂÂÂÂ£"). It is
    // left as it is, which also keeps the repair idempotent and its work linear.
    answer
}

/// The first layer of `text`, a line the line filter found suspect, added to `out`: how many
/// groups it decoded, and its encoding; `None` when nothing in it is accepted.
pub(crate) fn undo_first_layer_into(text: &str, out: &mut String) -> Option<(usize, u8)> {
    let mut bytes = spare(&SPARE_BYTES, text.len());
    let answer = one_layer(text, &mut bytes, true);
    if answer.is_some() {
        debug_assert!(std::str::from_utf8(&bytes).is_ok());
        // SAFETY: `one_layer` answered: `bytes` is well-formed UTF-8 (see `undo_layers_from`).
        out.push_str(unsafe { std::str::from_utf8_unchecked(&bytes) });
    }
    give_back(&SPARE_BYTES, bytes);
    answer
}
