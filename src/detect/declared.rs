//! The encoding a text declares for itself (vim's `scriptencoding`, Emacs' and Python's
//! `coding:`, `charset=`, XML's `encoding=`, CSS's `@charset`), which the detector takes when
//! the text agrees with it.

use crate::encodings::Charset;

/// What a declaration of the text's encoding begins with, in any case.
const DECLARATION_KEYS: [&[u8]; 5] = [
    b"scriptencoding ",
    b"coding:",
    b"coding=",
    b"charset=",
    b"@charset ",
];

/// The encoding the text declares for itself, as editors and parsers read it: vim's
/// `scriptencoding`, the `coding:` line of Emacs and Python, `charset=` (HTML, e-mail, the header
/// of a gettext catalogue), XML's `encoding=` and CSS's `@charset`. Only a legacy encoding
/// counts: a file that says UTF-8 and is not is the very case the hint is for.
pub(super) fn declared(line: &[u8]) -> Option<Charset> {
    // Every line of an input with a finding is searched: a key is looked for only where it can
    // start (no lowercase copy of each line, no comparison at every position). Each key has a
    // `c` first or second, so it starts at a `c` or the byte before one.
    let mut from = 0;
    for c in memchr::memchr2_iter(b'c', b'C', line) {
        for at in c.saturating_sub(1).max(from)..=c {
            if let Some(charset) = declared_at(&line[at..]) {
                return Some(charset);
            }
        }
        from = c + 1;
    }
    None
}

/// The legacy encoding that a declaration at the start of `rest` names, if one does.
fn declared_at(rest: &[u8]) -> Option<Charset> {
    let byte = rest[0].to_ascii_lowercase();
    let key = DECLARATION_KEYS.iter().find(|key| {
        key[0] == byte && rest.len() >= key.len() && rest[..key.len()].eq_ignore_ascii_case(key)
    })?;
    let rest = &rest[key.len()..];
    let rest = &rest[rest
        .iter()
        .position(|&b| !matches!(b, b' ' | b'"' | b'\''))
        .unwrap_or(rest.len())..];
    let end = rest
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b"_.:-".contains(&b)))
        .unwrap_or(rest.len());
    let label = std::str::from_utf8(&rest[..end]).ok()?;
    let entry = crate::encodings::lookup(label)?;
    match entry.charset {
        Charset::Whatwg(encoding)
            if encoding != encoding_rs::UTF_8 && encoding != encoding_rs::REPLACEMENT =>
        {
            Some(entry.charset)
        }
        Charset::Latin1 | Charset::CodePage(_) => Some(entry.charset),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Declarations are found where a key starts at any place: the search from each `c` finds
    /// what trying every place finds, in lines built from keys in every case, next to other
    /// `c`s, with labels that name a legacy encoding, UTF-8 or nothing.
    #[test]
    fn declared_finds_what_every_place_finds() {
        let every_place = |line: &[u8]| {
            if !line.contains(&b'=') && !line.contains(&b':') && !line.contains(&b' ') {
                return None;
            }
            (0..line.len()).find_map(|at| declared_at(&line[at..]))
        };
        let pieces: [&[u8]; 16] = [
            b"scriptencoding ",
            b"SCRIPTENCODING cp1253",
            b"sscriptencoding koi8-r",
            b"# -*- coding: latin-1 -*-",
            b"encoding=\"windows-1251\"",
            b"Content-Type: text/plain; CharSet=KOI8-R",
            b"charset=utf-8 ",
            b"@charset \"shift_jis\";",
            b"@@charset ",
            b"cc",
            b"c",
            b"coding:",
            b"charset=nonsense",
            b" ",
            b"x",
            b"\xC3\xA9",
        ];
        let mut state = 0x853C_49E6_748F_EA9Bu64;
        let mut found = 0;
        for _ in 0..20_000 {
            let mut line = Vec::new();
            for _ in 0..1 + state % 5 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                line.extend_from_slice(pieces[(state % 16) as usize]);
            }
            let expected = every_place(&line);
            found += usize::from(expected.is_some());
            assert_eq!(
                declared(&line),
                expected,
                "{}",
                String::from_utf8_lossy(&line)
            );
        }
        assert!(found > 1000, "{found} lines declare an encoding");
    }
}
