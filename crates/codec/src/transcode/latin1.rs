//! Latin-1 (ISO-8859-1 exactly, every byte its own code point) into UTF-8.

use crate::widen::{self, write_into};

/// ISO-8859-1 to UTF-8: byte n is U+00nn. Sixteen bytes are converted at a time (SSSE3),
/// eight ASCII bytes at a time without it.
///
/// ```
/// let mut out = Vec::new();
/// utf8kit_codec::transcode::latin1_to_utf8(b"caf\xE9", &mut out);
/// assert_eq!(out, "café".as_bytes());
/// ```
pub fn latin1_to_utf8(src: &[u8], dst: &mut Vec<u8>) {
    // Every byte becomes at most two; the kernel also wants 32 bytes of room to store into.
    write_into(dst, src.len() * 2 + 32, |out| {
        let done = widen::latin1(src, out);
        let mut words = src[done..].chunks_exact(8);
        for word in &mut words {
            if u64::from_ne_bytes(word.try_into().expect("chunks of eight")) & 0x8080_8080_8080_8080
                == 0
            {
                out.push(word);
            } else {
                for &byte in word {
                    out.push_latin1(byte);
                }
            }
        }
        for &byte in words.remainder() {
            out.push_latin1(byte);
        }
    });
}
