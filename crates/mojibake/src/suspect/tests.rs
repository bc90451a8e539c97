//! The line filter against the judging it stands for, on every SIMD path and the bytewise one.

use super::*;
use crate::automaton::possible_encodings;
use crate::tables::OTHER_BYTES;
#[cfg(target_arch = "x86_64")]
use crate::tables::{COUNT, NAMES};
use crate::tests::script_letters;
use proptest::prelude::*;

/// Every character the tables give a byte, the stand-ins for lost bytes, and characters
/// of each other kind (ASCII, CJK, 4-byte, a newline).
fn alphabet() -> Vec<char> {
    let mut chars: Vec<char> = (0x80..=0xFFu32).filter_map(char::from_u32).collect();
    chars.extend(OTHER_BYTES.iter().map(|(c, _)| *c));
    chars.extend([
        '\u{FFFD}', ' ', '?', 'a', '中', '😀', '\n', 'ё', 'і', 'д', 'Ά', 'ά', '，', '⠁', '￡',
        '\u{F900}',
    ]);
    chars
}

/// [`scan`] as it was, a byte at a time with every set looked up at each byte that may start
/// an end: the reference of the character-at-a-time walk, which must give the same place.
fn scan_bytewise(text: &[u8], table: &MaskTable) -> Option<usize> {
    let mut at = 0;
    while at < text.len() {
        if ends_nothing_for_eight(text, at) {
            at += 8;
            continue;
        }
        if may_end_a_candidate(text, at) && ends_a_candidate(text, at, table) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// What each path gives: the AVX-512 and the AVX2 one (where the processor has them; the
/// bytewise answer stands in for a path it lacks, which the test output says once) and the
/// one that reads a byte at a time.
fn both_paths(text: &str) -> [Option<usize>; 3] {
    let bytes = text.as_bytes();
    let table = MaskTable::get();
    let by_byte = scan(bytes, table);
    assert_eq!(by_byte, scan_bytewise(bytes, table), "{text:?}");
    #[cfg(target_arch = "x86_64")]
    {
        static MISSING: std::sync::Once = std::sync::Once::new();
        MISSING.call_once(|| {
            if !crate::simd::has_avx512_vbmi() {
                eprintln!("no AVX-512 VBMI here: the 64-byte filter is not tested");
            }
            if !std::is_x86_feature_detected!("avx2") {
                eprintln!("no AVX2 here: the 32-byte filter is not tested");
            }
        });
        let wide = if crate::simd::has_avx512_vbmi() {
            // SAFETY: the processor has AVX-512 F, BW and VBMI, checked just above.
            unsafe { avx512::first_suspect(bytes, table) }
        } else {
            by_byte
        };
        let narrow = if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            unsafe { avx2::first_suspect(bytes, table) }
        } else {
            by_byte
        };
        [wide, narrow, by_byte]
    }
    #[cfg(not(target_arch = "x86_64"))]
    [by_byte; 3]
}

/// The byte range of the first line of `text` in which `possible_encodings` finds
/// something.
fn first_possible_line(text: &str) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if possible_encodings(line.chars()) != 0 {
            return Some(start..start + line.len());
        }
        start += line.len();
    }
    None
}

/// Both paths point into the first line `possible_encodings` finds something in, and find
/// nothing when it finds nothing.
fn assert_exact(text: &str) {
    let expected = first_possible_line(text);
    for got in both_paths(text) {
        match (&expected, got) {
            (None, None) => {}
            (Some(line), Some(at)) if line.contains(&at) => {}
            _ => panic!("{text:?}: {got:?}, expected in {expected:?}"),
        }
    }
}

/// Every pair of the alphabet's characters, alone and where the SIMD path reads it: at each
/// place of a block (a character cut by the block's end, stand-ins read across it).
#[test]
fn every_pair_of_characters_is_judged_as_a_whole_line_pass_would() {
    let chars = alphabet();
    let mut found = 0;
    for &a in &chars {
        for &b in &chars {
            let pair = format!("{a}{b}");
            assert_exact(&pair);
            found += usize::from(first_possible_line(&pair).is_some());
            let lead = "x".repeat(usize::from(u32::from(a) as u8) % 67);
            assert_exact(&format!("{lead}{pair}{}", "y".repeat(40)));
        }
    }
    // Pairs that start a group exist in every encoding: the test saw some.
    assert!(found > 1000, "{found}");
}

/// Two letters that windows-1252 has at C0..FF after every character of the alphabet
/// (`ends_a_candidate` settles such a pair after ASCII without looking it up), after groups
/// the pair may continue, and where the SIMD paths read them.
#[test]
fn every_pair_of_western_letters_is_judged_as_a_whole_line_pass_would() {
    let western: Vec<char> = ('\u{C0}'..='\u{FF}')
        .filter(|c| c.is_alphabetic())
        .step_by(3)
        .collect();
    let befores: Vec<String> = alphabet()
        .iter()
        .map(char::to_string)
        .chain(["ṣ", "Ã ", "Ã", "ð", "ðŸ", "â€", "x ", "中x"].map(String::from))
        .collect();
    let mut found = 0;
    for before in &befores {
        for &a in &western {
            for &b in &western {
                let text = format!("{before}{a}{b}");
                assert_exact(&text);
                found += usize::from(first_possible_line(&text).is_some());
                let lead = "y".repeat(usize::from(u32::from(b) as u8) % 67);
                assert_exact(&format!("{lead}{text}{}", "z".repeat(40)));
            }
        }
    }
    // Some such pairs end a group (after a lead that wants them, in MacRoman or IBM437).
    assert!(found > 100, "{found}");
}

/// Two letters of an encoding's script that make a group, before what may show them to be
/// a word or not (a letter of the script that begins a whole group, one that begins a group
/// broken off or none, anything else, the end), alone and where the SIMD paths read them:
/// the place the filter finds waits for what follows as the whole-line pass does.
#[test]
fn every_group_of_two_script_letters_waits_for_what_follows() {
    let [leads, conts, mut thirds] = script_letters(&alphabet());
    thirds.extend(['x', ' ', 'é', '中', '°']);
    let fourths = ["", "Ђ", "°", "і", "x", "П", "?", "\u{FFFD}", "Ђ\u{A0}"];
    let (mut held, mut counted) = (0, 0);
    for &a in &leads {
        for &b in &conts {
            for &c in &thirds {
                for d in fourths {
                    let word = format!("{a}{b}{c}{d}");
                    assert_exact(&word);
                    assert_exact(&format!("ж x{word}"));
                    let lead = "x".repeat(usize::from(u32::from(c) as u8) % 67);
                    assert_exact(&format!("{lead}{word}\n{}", "y".repeat(40)));
                    if possible_encodings(word.chars()) == 0 {
                        held += 1;
                    } else {
                        counted += 1;
                    }
                }
            }
        }
    }
    // Both outcomes were seen: groups what follows shows to be a word, and groups that
    // count.
    assert!(held > 10_000 && counted > 10_000, "{held} {counted}");
}

/// The AVX-512 path passes over a group of two Cyrillic letters before a word's letter by
/// itself: sound only because every Cyrillic character the tables have is windows-1251's, or
/// KOI8's, where no such pair starts (`word_lead` leaves out what KOI8 reads as a lead).
#[test]
#[cfg(target_arch = "x86_64")]
fn only_windows_1251_and_koi8_have_cyrillic_characters() {
    let mut seen = 0;
    for (c, bytes) in OTHER_BYTES.iter() {
        if avx512::is_cyrillic(*c) {
            let has: Vec<&str> = (0..COUNT)
                .filter(|&e| bytes[e] != 0)
                .map(|e| NAMES[e])
                .filter(|&name| name != "koi8-r" && name != "koi8-u")
                .collect();
            assert_eq!(has, ["windows-1251"], "{c:?}");
            seen += 1;
        }
    }
    assert!(seen > 60, "{seen}");
    let sets = avx512::sets();
    for (c, bytes) in OTHER_BYTES.iter().filter(|(c, _)| c.len_utf8() == 2) {
        let koi8_lead = (0..COUNT)
            .filter(|&e| NAMES[e].starts_with("koi8"))
            .any(|e| (0xC0..0xE0).contains(&bytes[e]));
        let mut utf8 = [0; 2];
        c.encode_utf8(&mut utf8);
        if koi8_lead {
            assert!(!sets.word_lead.contains(utf8[0], utf8[1]), "{c:?}");
        }
    }
}

/// Short pieces of mojibake and near misses at every place of two blocks of either SIMD path,
/// after ASCII and after letters that are not: each part of a piece may fall at a block's
/// end (the letter a space follows, the character two or three before an ending).
#[test]
fn every_place_of_two_blocks() {
    let pieces = [
        "Ã ",
        "Ã©",
        "â€œ",
        "Ã\u{85}",
        "\u{85}",
        "Ð¿Ñ€",
        "Î³Î¹",
        "Ã ?",
        "Ã\u{FFFD}",
        "é ",
        "Ã ",
        "вЂ",
        "Ã©Ã",
        "ÃƒÂ©",
        "Г ",
        "ĂŽ",
        "Ć ",
        "Південна",
        "Пі°",
        "П°",
        "РівЂ“",
        "Піх",
        "ПіП",
        "вЂіх",
        "рэгіён",
        "гіёЂ°",
        "лі",
        "ці ",
        "яЎ",
        "дґ",
        "РЁлї",
        "中，Ã©",
        "，Ã ",
        "⠁Ã©",
        "“Ã©”",
    ];
    for filler in ["x", "é", "ж", "中"] {
        for piece in pieces {
            for at in 0..=140 {
                let before: String = filler.repeat(at / filler.len() + 1);
                let cut = (0..=at)
                    .rev()
                    .find(|&i| before.is_char_boundary(i))
                    .unwrap_or(0);
                assert_exact(&format!("{}{piece}{}\n", &before[..cut], "y".repeat(70)));
                assert_exact(&format!("{}{piece}", &before[..cut]));
            }
        }
    }
}

/// The boxes hold every 2-byte character they stand for, and the 3-byte test every 3-byte
/// character the tables have; and the letters of Russian and Greek words stay out, so
/// that their text is read at SIMD speed.
#[test]
fn the_byte_level_sets_hold_every_character_they_stand_for() {
    let table = MaskTable::get();
    for lead in 0xC2..=0xDFu8 {
        for second in 0x80..=0xBFu8 {
            let (m, _) = table.of(&[lead, second]);
            let at = format!("{lead:02X} {second:02X}");
            if m.cont != 0 {
                assert!(ENDS.contains(lead, second), "{at}");
            }
            if m.lead[0] | m.cont != 0 {
                assert!(BEFORE_ENDS.contains(lead, second), "{at}");
            }
        }
    }
    let mut three = 0;
    let mut c3 = 0;
    let in_tables = |c: &char| crate::automaton::masks(*c) != Masks::default();
    for c in ('\u{80}'..='\u{10FFFF}').filter(in_tables) {
        let mut bytes = [0; 4];
        c.encode_utf8(&mut bytes);
        assert!(LEADS.contains(&bytes[0]), "{c:?}");
        if c.len_utf8() == 3 {
            assert!(in_tables_3(bytes[0], bytes[1]), "{c:?}");
            three += 1;
        }
        // A space after a 2-byte character, two bytes back, is all the SIMD paths look at.
        if crate::automaton::masks(c).c3 != 0 {
            assert_eq!(c.len_utf8(), 2, "{c:?}");
            assert!(BEFORE_SPACES.contains(bytes[0], bytes[1]), "{c:?}");
            c3 += 1;
        }
    }
    assert!(three > 50, "{three}");
    assert_eq!(c3, 5, "Ã Ă Ć Г Γ");
    let spaced = (0xC2..=0xDFu8)
        .flat_map(|lead| (0x80..=0xBFu8).map(move |second| (lead, second)))
        .filter(|&(lead, second)| BEFORE_SPACES.contains(lead, second));
    assert_eq!(spaced.count(), 5, "no more than Ã Ă Ć Г Γ");
    // A Cyrillic ending ends a group only in windows-1251, where the small letters are no
    // 2-byte lead or continuation byte: no such pair ends a candidate.
    let two_byte = |lead: u8| (0x80..=0xBFu8).map(move |second| (lead, second));
    let all: Vec<(u8, u8)> = (0xC2..=0xDFu8).flat_map(two_byte).collect();
    let ends: Vec<_> = all
        .iter()
        .filter(|&&(l, s)| is_cyrillic_end(l, s))
        .collect();
    let befores: Vec<_> = all
        .iter()
        .filter(|&&(l, s)| is_koi8_only_before(l, s))
        .collect();
    assert_eq!((ends.len(), befores.len()), (34, 32));
    let mut ending = 0;
    for &&(lead, second) in &ends {
        let (e, _) = table.of(&[lead, second]);
        ending += usize::from(e.cont & !e.unclear != 0);
        for &&(before_lead, before_second) in &befores {
            let (b, _) = table.of(&[before_lead, before_second]);
            let at = format!("{before_lead:02X} {before_second:02X} {lead:02X} {second:02X}");
            assert_eq!((b.lead[0] | b.cont) & e.cont & !e.unclear, 0, "{at}");
        }
    }
    // All but Ѐ, Ѝ, ѐ and ѝ, which windows-1251 lacks.
    assert_eq!(ending, 30);
    for c in ('а'..='я').chain('α'..='ω').filter(|&c| c != 'π') {
        let mut bytes = [0; 2];
        c.encode_utf8(&mut bytes);
        assert!(!ENDS.contains(bytes[0], bytes[1]), "{c}");
    }
}

/// The AVX-512 path's sets, made from the masks: every character they stand for is in them,
/// and where a lead has a bit of its own, no other; the letters of Russian and Greek words
/// and those that are a lead byte in every encoding stay out.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_exact_sets_hold_what_they_stand_for_and_no_more() {
    let table = MaskTable::get();
    let sets = avx512::sets();
    let shared = [0xC6, 0xCB, 0xD2];
    let mut members = [0; 3];
    for lead in 0xC2..=0xDFu8 {
        for second in 0x80..=0xBFu8 {
            let (m, _) = table.of(&[lead, second]);
            let roles = [m.cont != 0, m.lead[0] | m.cont != 0, m.c3 != 0];
            let found = [
                sets.ends.contains(lead, second),
                sets.before_ends.contains(lead, second),
                sets.before_spaces.contains(lead, second),
            ];
            for k in 0..3 {
                let at = format!("set {k}: {lead:02X} {second:02X}");
                if roles[k] {
                    assert!(found[k], "{at}");
                    members[k] += 1;
                } else if !shared.contains(&lead) {
                    assert!(!found[k], "{at}");
                }
            }
        }
    }
    assert_eq!(members[2], 5, "Ã Ă Ć Г Γ");
    assert!(members[0] > 100 && members[1] > members[0], "{members:?}");
    for c in ('а'..='я')
        .chain('α'..='ω')
        .chain("čćěňřőűāēīūęńğı".chars())
    {
        let mut bytes = [0; 2];
        c.encode_utf8(&mut bytes);
        let (lead, second) = (bytes[0], bytes[1]);
        assert_eq!(sets.ends.contains(lead, second), c == 'π', "{c}");
    }
}

#[test]
fn clean_text_is_passed_over_whole() {
    for text in [
        "Grüße aus Köln\n",
        "Привет, мир, всё ещё\n",
        "Україна, Київ, Біла Церква, Бєлгород\n",
        "Ευρωπαϊκή Ένωση, Άγιος Δομίνικος\n",
        "日本語のテキスト\n",
        "plain\n",
        "malijský frank, maltská libra, marocký dinár, Saúdská Arábie\n",
    ] {
        assert_eq!(both_paths(text), [None; 3], "{text:?}");
        let long = text.repeat(5);
        assert_eq!(both_paths(&long), [None; 3], "{long:?}");
    }
    // Mojibake is found in its own line, past the clean ones: "Ã©" ends at "©".
    let text = "clean line\ncafÃ©\n";
    assert_eq!(both_paths(text), [Some(16); 3]);
    let text = format!("{}cafÃ©\n", "clean line\n".repeat(9));
    assert_eq!(both_paths(&text), [Some(104); 3]);
    // A C1 control alone; "Ã" and a space standing for a lost A0 ("à").
    assert_eq!(both_paths("a\u{85}"), [Some(1); 3]);
    assert_eq!(both_paths("voilÃ  là"), [Some(6); 3]);
    // Spaces and `?` that stand for a lost byte elsewhere, "â€" cut short, and bytes lost
    // to U+FFFD outside windows-1252 are repaired only beside clear mojibake, which a line
    // holding nothing else lacks: "ð?Ÿ˜" ("😀" with a byte lost), "Ð " ("Р" with its A0
    // lost), "â€ " and "Р\u{FFFD}" (windows-1251).
    for text in ["x ð?Ÿ˜ y\n", "Ñ? x\n", "Ð  and\n", "â€ x\n", "Р\u{FFFD}x\n"] {
        assert_eq!(both_paths(text), [None; 3], "{text:?}");
    }
    // Both kinds beside clear mojibake: the line is found at its end.
    assert_eq!(both_paths("Ð  and Ã©\n"), [Some(10); 3]);
    // A byte lost to U+FFFD in windows-1252 can be repaired alone.
    assert_eq!(both_paths("caf\u{C3}\u{FFFD}\n"), [Some(5); 3]);
}

/// The suspect lines of `text`, one after another, each found by a fresh call on the rest.
fn suspect_lines_afresh(text: &[u8]) -> Vec<usize> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = first_any_suspect(&text[from..]).map(|at| from + at) {
        found.push(at);
        from = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |end| at + end + 1);
    }
    found
}

/// The same, asked of one walk.
fn suspect_lines_walked(text: &[u8]) -> Vec<usize> {
    let mut walk = SuspectWalk::default();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = walk.first_from(text, from) {
        found.push(at);
        from = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |end| at + end + 1);
    }
    found
}

/// A walk that keeps what each filter found gives, line after line, what a fresh call on the
/// rest of the text gives: in Latin mojibake between clean Cyrillic lines, and in lines of one
/// reading's mojibake after another's.
#[test]
fn a_walk_finds_what_fresh_calls_find() {
    let lines = [
        "plain\n",
        "cafÃ©\n",
        "Привет, мир\n",
        "ПАРАМЕТР ЗНАЧЕНИЕ\n",
        "鍙傛暟閿欒\n",
        "п÷я─п╦п╡п╣я┌\n",
        "ÄãºÃÊÀ½ç\n",
        "рТЙЧЕФ мир\n",
        "Україна, Київ\n",
    ];
    let mut text = String::new();
    for i in 0..400 {
        text.push_str(lines[(i * 7 + i / 9) % lines.len()]);
    }
    let afresh = suspect_lines_afresh(text.as_bytes());
    assert!(afresh.len() > 100, "{}", afresh.len());
    assert_eq!(suspect_lines_walked(text.as_bytes()), afresh);
}

proptest! {
    #[test]
    fn a_walk_finds_what_fresh_calls_find_in_any_lines(
        picks in prop::collection::vec(0usize..1000, 0..400)
    ) {
        let mut chars = alphabet();
        chars.extend(['\n'; 40]);
        let text: String = picks.iter().map(|&k| chars[k % chars.len()]).collect();
        prop_assert_eq!(
            suspect_lines_walked(text.as_bytes()),
            suspect_lines_afresh(text.as_bytes())
        );
    }

    #[test]
    fn the_first_line_that_may_hold_mojibake_is_found_exactly(
        picks in prop::collection::vec(0usize..1000, 0..120)
    ) {
        let chars = alphabet();
        let text: String = picks.iter().map(|&k| chars[k % chars.len()]).collect();
        assert_exact(&text);
    }

    /// Lines thick with stand-ins and ASCII letters, where groups are cut short, continued
    /// across lost bytes, or follow a word.
    #[test]
    fn stand_ins_and_ascii_are_judged_exactly(
        picks in prop::collection::vec(0usize..3000, 0..60)
    ) {
        let chars = alphabet();
        let text: String = picks
            .iter()
            .map(|&k| match k % 3 {
                0 => [' ', '?', 'k', '\u{FFFD}'][k / 3 % 4],
                _ => chars[k / 3 % chars.len()],
            })
            .collect();
        assert_exact(&text);
    }
}

/// No filter finds a place in text of ASCII alone, whatever its bytes: the walk passes over
/// such lines without asking them.
#[test]
fn no_filter_finds_a_place_in_ascii() {
    let every: Vec<u8> = (0..0x80u8).cycle().take(128 * 40).collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut texts = vec![every.clone(), every.iter().rev().copied().collect()];
    for _ in 0..200 {
        texts.push(
            (0..(seed % 3000) as usize)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    [b' ', b'\n', b'?', b'a', b'Z', b'%', 0x1B, 0x7F][(seed % 8) as usize]
                })
                .collect(),
        );
    }
    for text in &texts {
        for (k, filter) in FILTERS.iter().enumerate() {
            assert_eq!(
                filter(text),
                None,
                "filter {k} on {:?}",
                text.escape_ascii()
            );
        }
    }
}

/// The walk's windows, each asked of every filter, lines of ASCII or not: the reference for
/// [`SuspectWalk::first_from`], which passes over lines of ASCII.
fn every_window_asked(text: &[u8]) -> Option<usize> {
    SuspectWalk::default().walk(text, 0, false)
}

/// The first place the walk finds, lines of ASCII passed over, is the first place it finds
/// asking every window.
#[test]
fn lines_of_ascii_passed_over_change_no_answer() {
    let lines = [
        "plain text of ASCII\n",
        "a longer line of ASCII that runs past the first window of the walk, which reads 256 \
         bytes and then twice as many, so that the windows fall in every place of the text\n",
        "\n",
        "cafÃ©\n",
        "Привет, мир\n",
        "鍙傛暟閿欒\n",
        "Ð  and\n",
        "naïve café\n",
        "рТЙЧЕФ\n",
        "x ð?Ÿ˜ y\n",
        // ASCII before the line's first character above U+007F, which some readings weigh.
        "\"%s\" Ч тест\n",
        "a Ð  and\n",
        "x%sФайл\n",
        "it’s\n",
        "Copyright © 2024\n",
        "Ã\n",
        " Ã©\n",
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..3000 {
        let text: String = (0..1 + round % 40)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // ASCII lines most of the time, as in source code.
                let pick = (seed % 40) as usize;
                lines[if pick < 30 {
                    pick % 3
                } else {
                    pick % lines.len()
                }]
            })
            .collect();
        let want = every_window_asked(text.as_bytes());
        assert_eq!(first_any_suspect(text.as_bytes()), want, "{text:?}");
        assert_eq!(
            suspect_lines_walked(text.as_bytes()),
            suspect_lines_afresh(text.as_bytes()),
            "{text:?}"
        );
    }
}
