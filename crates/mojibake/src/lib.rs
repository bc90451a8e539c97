//! Undoing mojibake: UTF-8 text that was decoded in a single-byte legacy encoding and encoded
//! again. The mojibake repair of utf8kit, over its codec (`utf8kit_codec`): it starts no thread
//! (a program may lend it [`Helpers`]) and does no I/O.
//!
//! - [`fix_mojibake`] and [`undo_mojibake`] answer one text: what it was, and the chain undone;
//!   [`undo_lines`] many lines of one text at once, on the helper threads a program lends.
//! - [`MojibakeRepairer`] repairs a stream as the codec's `Repairer` does, and undoes mojibake
//!   line by line, holding only the lines in which mojibake may start.
//! - [`letters`]: `is_alphabetic`, `is_uppercase`, `is_lowercase` from tables, for code that
//!   asks them of every character (the judging here, utf8kit's encoding detector).
//! - [`scripts`]: the script of a letter, for the same judges and utf8kit's file-name guesser.
//! - [`codepages`]: the IBM PC code pages (cp437, cp850) that WHATWG leaves out.
//!
//! "café" encoded as UTF-8 is `63 61 66 C3 A9`; read as windows-1252 those bytes are "cafÃ©",
//! and written back as UTF-8 they stay that way. Read as windows-1251 the same bytes are "cafГ©",
//! as MacRoman "caf√©". [`fix_mojibake`] reverses this, once per layer, until nothing changes,
//! and leaves correct text alone. The encodings it knows are those of [`ENCODINGS`]:
//! windows-1250 to -1254 and -1257, ISO-8859-1 and -2, MacRoman and IBM437, each also in its
//! *sloppy* form, where the bytes it leaves undefined survive as C1 controls or are lost to
//! U+FFFD; and KOI8-R and KOI8-U for Cyrillic text ("п÷я─п╦п╡п╣я┌" is "Привет"), whose letters
//! stand where UTF-8 has lead bytes: the tables keep only the leads such mojibake starts with,
//! and a KOI8 group is clear only when it ends with one of KOI8's signs (box drawing, `÷`), so
//! that correct Cyrillic text (`всё`, `ці`) stays as it is.
//!
//! It also undoes UTF-8 read as a double-byte encoding ([`DOUBLE_BYTE`]: GBK, Shift_JIS, Big5,
//! EUC-KR, EUC-JP), where a pair of bytes became one character: `鍙傛暟閿欒` is `参数错误` read as
//! GBK. A line is undone as a whole: written back in that encoding it must be UTF-8 again (each
//! U+FFFD, a byte or two the reading lost, becomes one U+FFFD for each character it cut), the
//! line's characters must be rare ones (the first two bytes of every CJK character in UTF-8 read
//! as a pair of the encoding's second level or extensions: rare in that encoding's own language
//! at least) and the answer's common ones, with no control or private-use character. Such a line is found by its first character that is not
//! ASCII, 64 bytes at a time; the double-byte reading is judged before the single-byte ones.
//!
//! Cyrillic text through the wrong code page is undone a whole line at a time as well
//! ([`CYRILLIC`]): UTF-8 read as IBM866 (`╨Я╤А╨╕╨▓╨╡╤В`), x-mac-cyrillic or ISO-8859-5, and
//! text in one of windows-1251, KOI8-R, KOI8-U, IBM866, ISO-8859-5 and x-mac-cyrillic read as
//! another (`рТЙЧЕФ` is `Привет` in KOI8-R read as windows-1251). The line must break what
//! Cyrillic words look like, and exactly one reading must make flawless words whose letter
//! pairs are clearly commoner (a table of letter pairs counted in Russian, Ukrainian and
//! Serbian text).
//!
//! # How a change is decided
//!
//! A line in which no character that is a UTF-8 lead byte in some encoding is followed by as
//! many continuation bytes as it declares in the same encoding (or "Ã" by a space, the lost A0 of
//! "à", or a windows-1252 lead by U+FFFD), and which holds no C1 control, holds no mojibake that
//! can be repaired, and costs nothing more: every other kind of damage is repaired only beside
//! such a group. The repair finds these lines with SIMD, 32 bytes at a time, and never holds
//! them (`first_suspect`).
//!
//! Otherwise each possible encoding is tried on the whole line. A *group* is a lead byte C2..F4
//! followed by exactly the continuation bytes it needs, forming well-formed UTF-8; ASCII is never
//! part of one. Each group gets a verdict from what it decodes to and what surrounds it (the
//! neighbours as they will read once the other groups are decoded):
//!
//! - never a control, private-use character or noncharacter, nor a 2-byte group outside the
//!   alphabetic scripts and Latin-1 symbols;
//! - a decoded letter must not sit against a letter of another script ("AÑ’" is Spanish with a
//!   quote, not Cyrillic ђ);
//! - some groups read as well as text as they do as mojibake ("CAFÉ…", "HÄ…", "Ã’s", "ВІ",
//!   box drawing): those are *weak*, and are decoded only when the same line holds clear mojibake
//!   of the same kind;
//! - but what no text writes is clear: a capital inside a lowercase word ("aÄŤinski"), box
//!   characters against a word ("j├╕disk"), in windows-1252 the IPA letters of African alphabets
//!   after a lowercase letter ("likrÉ›ni"); and the marks of Hebrew, Syriac, Thaana and NKo are
//!   believed beside clear mojibake of their script.
//!
//! Then the line as a whole is weighed:
//!
//! - a run of non-ASCII characters in which a group is broken (a lead followed by a continuation
//!   that does not complete) is garble, not mojibake: nothing in that run changes, so a repair is
//!   never partial inside a word;
//! - a run holding a character the encoding does not have is correct text: its 2-byte groups are
//!   weak;
//! - a single 2-byte group on a line whose other non-ASCII characters are correct UTF-8 is the
//!   text as written ("Bremer/Mccoy – DrÃ¥ber");
//! - the encoding that explains the most bytes wins; on a tie the one whose reading has fewer
//!   odd letters (`is_odd_decoding`), then, outside windows-1252, commoner ones (`rarity`),
//!   then the earlier in [`ENCODINGS`].
//!
//! Damaged mojibake is repaired as far as it can be, and only with clear mojibake on the line (or
//! inside a word, where nothing else explains it): a group with a byte lost to U+FFFD or `?`
//! becomes one U+FFFD; a byte A0 turned into a space is put back ("Ã " is "à", "Ð " is "Р");
//! "â€" whose third byte was dropped becomes U+FFFD. A three- or four-byte lead whose every
//! continuation was lost, right after an ASCII letter, is the word's own letter before U+FFFD
//! ("café\u{FFFD}\u{FFFD}" keeps its "é"), unless it is "â", the lead of punctuation's mojibake.
//! With characters to strip (`--strip`), what stripping removes from a decoded line may have stood
//! between two layers ("â€®Ã„€"): the rest is judged again until nothing more is stripped, so
//! that one run reaches the fixed point. CESU-8 pairs ("í ½í¸") become the one
//! character they encode, and C1 controls left standing alone (Latin-1 read where windows-1252
//! was meant) become windows-1252's characters.
//!
//! # The commonest case, answered first
//!
//! Most mojibake is a whole line read once as windows-1252: every character that is not ASCII
//! is in a group, and each group is clear mojibake. Such a line is answered from its bytes in
//! windows-1252, without building what the judging above needs
//! (`whole_line_through_windows_1252`); the answer is the one the judging would give, which
//! tests check both ways. Any other line goes to the judging.

#![deny(missing_docs)]

mod automaton;
mod bytes;
mod candidates;
mod chain;
pub mod codepages;
mod cyrillic;
mod double;
mod found;
pub mod helpers;
mod judge;
mod languages;
mod layer;
pub mod letters;
mod line;
mod plans;
mod pool;
mod reencode;
pub mod scripts;
mod shortcut;
mod simd;
mod spare;
mod stream;
mod suspect;
mod tables;
#[cfg(test)]
mod testing;
mod undo;
mod verdict;

pub use chain::{CYRILLIC, DOUBLE_BYTE, ENCODINGS, Encoding, Layer, MojibakeChain, MojibakeFix};
pub use helpers::{Helpers, Work};
pub use pool::undo_lines;
pub use stream::{LineRepair, MAX_HELD_LINE, MojibakeLine, MojibakeRepairer};
pub use suspect::first_suspect;
pub use undo::{fix_mojibake, undo_mojibake};

#[cfg(test)]
mod tests;
