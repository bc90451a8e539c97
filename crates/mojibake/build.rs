//! Writes the tables of `letters.rs`: for every code point, whether it is alphabetic,
//! uppercase, lowercase and numeric, as the standard library of this compiler answers, so that
//! the mojibake judging asks a table instead of searching std's compressed one (a test compares
//! every character with std); and those of `double/tables.rs`, each character's bytes in each
//! double-byte reading as encoding_rs's decoders give them, so that no run builds them (a test
//! compares them with what the decoders give).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "src/double/index.rs"]
mod index;

fn main() {
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    letters(&dir);
    double_tables(&dir);
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/double/index.rs");
}

/// `letters_table.rs`: each block of 256 code points' answers.
fn letters(dir: &Path) {
    const ALPHABETIC: u8 = 1;
    const UPPERCASE: u8 = 2;
    const LOWERCASE: u8 = 4;
    const NUMERIC: u8 = 8;
    // Each block of 256 code points as its answers; blocks alike (all letters, all none) share
    // one page.
    let mut pages: Vec<[u8; 256]> = Vec::new();
    let mut page_of = [0u16; 0x1100];
    for (block, slot) in page_of.iter_mut().enumerate() {
        let mut page = [0u8; 256];
        for (low, flags) in page.iter_mut().enumerate() {
            // Surrogate code points are no characters: they stay 0.
            if let Some(c) = char::from_u32((block as u32) << 8 | low as u32) {
                *flags = (u8::from(c.is_alphabetic()) * ALPHABETIC)
                    | (u8::from(c.is_uppercase()) * UPPERCASE)
                    | (u8::from(c.is_lowercase()) * LOWERCASE)
                    | (u8::from(c.is_numeric()) * NUMERIC);
            }
        }
        let index = match pages.iter().position(|known| *known == page) {
            Some(index) => index,
            None => {
                pages.push(page);
                pages.len() - 1
            }
        };
        *slot = u16::try_from(index).expect("fewer distinct pages than blocks");
    }
    let mut out = String::new();
    writeln!(out, "static PAGE_OF: [u16; 0x1100] = {page_of:?};").unwrap();
    writeln!(out, "static PAGES: [[u8; 256]; {}] = [", pages.len()).unwrap();
    for page in &pages {
        writeln!(out, "    {page:?},").unwrap();
    }
    writeln!(out, "];").unwrap();
    std::fs::write(dir.join("letters_table.rs"), out).expect("OUT_DIR is writable");
}

/// `double_codes.bin` and `double_classes.bin`: the pages of 256 BMP characters that hold a
/// character of some reading (page 0 none), a `u16` per reading and character (the byte, or the
/// pair) and a byte of class bits per character; `double_tables.rs`: which page each block of
/// 256 is, and the lists of the characters beyond the BMP and of second sequences.
fn double_tables(dir: &Path) {
    let index = index::index();
    let mut page_of = [0u8; 256];
    let mut codes = vec![0u8; 256 * index::N * 2];
    let mut classes = vec![0u8; 256];
    for (block, slot) in page_of.iter_mut().enumerate() {
        let chars = block << 8..(block + 1) << 8;
        let held = |c: usize| index.class[c] != 0 || index.bytes[c].iter().any(|&code| code != 0);
        if !chars.clone().any(held) {
            continue;
        }
        *slot = u8::try_from(classes.len() / 256).expect("fewer than 256 pages");
        for c in chars {
            for code in index.bytes[c] {
                let short = match code >> 24 {
                    0 => 0,
                    1 => u16::try_from(code & 0xFF).expect("a byte"),
                    _ => u16::try_from(code & 0xFFFF).expect("a pair"),
                };
                assert!(
                    code == 0 || (short >= 0x100) == (code >> 24 == 2),
                    "{code:x}"
                );
                codes.extend(short.to_le_bytes());
            }
            classes.push(index.class[c]);
        }
    }
    let mut out = String::new();
    writeln!(out, "static CODE_PAGE_OF: [u8; 256] = {page_of:?};").unwrap();
    for (name, list) in [("ASTRAL", &index.astral), ("ALTERNATES", &index.alternates)] {
        writeln!(
            out,
            "static {name}: [(u32, usize, u32); {}] = {list:?};",
            list.len()
        )
        .unwrap();
    }
    std::fs::write(dir.join("double_tables.rs"), out).expect("OUT_DIR is writable");
    std::fs::write(dir.join("double_codes.bin"), codes).expect("OUT_DIR is writable");
    std::fs::write(dir.join("double_classes.bin"), classes).expect("OUT_DIR is writable");
}
