//! The tests of the quiet text: every level against the portable masks, lanes and zones, and
//! every answer against the characters judged one by one.

use super::*;

const CYRILLIC: Home = Home {
    zones: &[Zone::leads(0xD0, 0xD3)],
    takes_ascii: false,
};
const LATIN: Home = Home {
    zones: &[Zone::leads(0xC3, 0xC9)],
    takes_ascii: true,
};
const QUIET: Quiet = Quiet::new(
    &[Zone::after(0xC2, 0xAB, 0xAB), Zone::after(0xC2, 0xBB, 0xBB)],
    &[CYRILLIC, LATIN],
);

/// A block's masks, zones and lanes at one level.
type Level = (
    &'static str,
    fn(&[u8; SPAN]) -> Masks,
    fn(&[u8; SPAN], &[Zone], u64) -> u64,
    LanesOf,
);

/// The masks of every level this processor has, the portable ones first.
fn levels() -> Vec<Level> {
    #[allow(unused_mut)]
    let mut levels: Vec<Level> = vec![
        ("portable", portable_masks, portable_zones, portable_lanes),
        ("eight bytes", swar_masks, portable_zones, portable_lanes),
    ];
    // A level's kernels, behind the check that the processor has its instructions.
    #[cfg(target_arch = "x86_64")]
    macro_rules! level {
        ($name:literal, $kernels:ident, $feature:tt) => {
            if std::is_x86_feature_detected!($feature) {
                fn masks(span: &[u8; SPAN]) -> Masks {
                    // SAFETY: the test runs this only where the processor has the level.
                    unsafe { $kernels::masks(span) }
                }
                fn zones(span: &[u8; SPAN], zones: &[Zone], wanted: u64) -> u64 {
                    // SAFETY: as above.
                    unsafe { $kernels::zones(span, zones, wanted) }
                }
                fn lanes(span: &[u8; SPAN], lanes: &Lanes) -> LaneMasks {
                    // SAFETY: as above.
                    unsafe { $kernels::lanes(span, lanes) }
                }
                levels.push(($name, masks, zones, lanes));
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    level!("avx2", avx2, "avx2");
    #[cfg(target_arch = "x86_64")]
    level!("avx512", avx512, "avx512bw");
    levels
}

/// A xorshift generator from `seed`: the tests' random texts and blocks, the same every run.
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// What every level answers, with and without comparing blocks with zones whole or
/// telling their lanes; the last answer is the characters' one by one.
fn answers(text: &str, quiet: &Quiet) -> Vec<(usize, usize)> {
    let text = text.as_bytes();
    let mut answers = Vec::new();
    for (_, masks, zones, lanes) in levels() {
        answers.push(quiet_span_with(
            text,
            quiet,
            masks,
            Some(zones),
            Some(lanes),
        ));
        answers.push(quiet_span_with(
            text,
            quiet,
            masks,
            Some(zones),
            None::<LanesOf>,
        ));
        answers.push(quiet_span_with(
            text,
            quiet,
            masks,
            None::<Zones>,
            Some(lanes),
        ));
    }
    answers.push(quiet_span_with(
        text,
        quiet,
        swar_masks,
        None::<Zones>,
        None::<LanesOf>,
    ));
    answers
}

fn span_at(text: &str) -> (usize, usize) {
    let mut answers = answers(text, &QUIET).into_iter();
    let first = answers.next().expect("the portable level");
    assert!(answers.all(|a| a == first), "levels differ on {text:?}");
    first
}

#[test]
fn one_script_with_its_punctuation_is_quiet_to_the_last_space() {
    let text = "«Привет», мир; это тест: всё хорошо и ещё раз хорошо. ".repeat(3);
    let (safe, retry) = span_at(&text);
    // The whole blocks, each with the three bytes after it: up to the last break in them.
    let blocks_end = (text.len() - AHEAD) / BLOCK * BLOCK;
    let last_break = text.as_bytes()[..blocks_end]
        .iter()
        .rposition(|b| b.is_ascii() && !b.is_ascii_alphanumeric());
    assert_eq!((safe, retry), (last_break.unwrap() + 1, text.len()));
}

#[test]
fn a_block_stops_at_a_letter_of_another_script_or_an_ascii_letter_touching_the_home() {
    let base = "мир ".repeat(40);
    for odd in ["pаypal", "при1", "«Приветé»", "1мир", "мир\u{0301}", "日本"] {
        let text = format!("{base}{odd} {base}");
        let (safe, retry) = span_at(&text);
        let at = base.len();
        assert!(safe <= at, "{odd}: quiet up to {safe}, past {at}");
        assert!(
            retry > at && retry <= at + odd.len() + 64,
            "{odd}: ask again at {retry}"
        );
        assert_eq!(retry % 64, 0, "{odd}");
    }
}

#[test]
fn ascii_with_neutral_characters_alone_is_quiet_between_the_homes() {
    let text = format!(
        "{}{}{}",
        "мир ".repeat(20),
        "say «hi» ".repeat(20),
        "мир ".repeat(20)
    );
    let (safe, retry) = span_at(&text);
    assert_eq!(retry, text.len());
    assert!(safe + SPAN > text.len(), "quiet up to {safe}");
}

#[test]
fn latin_takes_ascii_letters_into_its_words() {
    let text = "café naïve übergroß ".repeat(10);
    let (safe, retry) = span_at(&text);
    assert_eq!(retry, text.len());
    assert!(safe + 64 + AHEAD > text.len(), "quiet up to {safe}");
}

#[test]
fn a_character_of_two_homes_takes_the_home_of_its_word() {
    // Han is Japanese and Korean; kana Japanese alone, Hangul Korean alone.
    const CJK: Quiet = Quiet::new(
        &[],
        &[
            CYRILLIC,
            Home {
                zones: &[Zone::leads(0xE4, 0xE9), Zone::after(0xE3, 0x81, 0x83)],
                takes_ascii: true,
            },
            Home {
                zones: &[Zone::leads(0xE4, 0xE9), Zone::leads(0xEA, 0xED)],
                takes_ascii: true,
            },
        ],
    );
    let spans = |text: &str| {
        let answers = answers(text, &CJK);
        assert!(answers.iter().all(|a| *a == answers[0]), "{text}");
        answers[0]
    };
    let base = "日本語のテキスト 한국어 漢字 文字 ".repeat(8);
    let (safe, retry) = spans(&base);
    assert_eq!(retry, base.len());
    assert!(safe + SPAN > base.len(), "quiet up to {safe}");
    // A word of kana and Hangul, or of Han and Cyrillic, shares no home.
    for odd in ["のは한국", "漢字мир", "OK한국の"] {
        let text = format!("{base}{odd} {base}");
        let (safe, retry) = spans(&text);
        let at = base.len();
        assert!(safe <= at, "{odd}: quiet up to {safe}, past {at}");
        assert!(retry > at && retry <= at + odd.len() + 64, "{odd}: {retry}");
    }
}

/// Chinese and Japanese, and a Korean that takes no ASCII letters (to try the rule for
/// homes that do not), their commonest characters lanes, and more lanes than a set holds.
const LANED: Quiet = Quiet::with_lanes(
    &[Zone::after(0xE2, 0x80, 0x80)],
    &[
        CYRILLIC,
        Home {
            zones: &[Zone::leads(0xE4, 0xE9), Zone::after(0xE3, 0x81, 0x83)],
            takes_ascii: true,
        },
        Home {
            zones: &[Zone::leads(0xE4, 0xE9), Zone::leads(0xEA, 0xED)],
            takes_ascii: false,
        },
    ],
    &[
        Zone::leads(0xE4, 0xE9),
        Zone::after(0xE3, 0x81, 0x83),
        Zone::leads(0xEB, 0xEC),
        Zone::after(0xEA, 0xB0, 0xBF),
        Zone::after(0xE2, 0x80, 0x80),
        Zone::after_two(0xED, 0x80, 0x80, 0x8F),
        Zone::after_two(0xED, 0x80, 0x90, 0x9F),
        Zone::after_two(0xED, 0x80, 0xA0, 0xAF),
        Zone::after_two(0xED, 0x80, 0xB1, 0xBE),
    ],
);

#[test]
fn lanes_judge_a_block_as_its_characters_one_by_one() {
    // Of lanes, of homes but no lane (Hangul from U+D040, some of U+D000..U+D03F, Yi),
    // neutral, of no home.
    let pool = [
        "日", "本", "の", "カ", "ー", "퀀", "퀰", "퀱", "퀿", "한", "국", "가", "퓿", "\u{A000}",
        "—", "“", "мир", "é", "a", "Z", "1", " ", ".", "%", "\n", "😀",
    ];
    let mut next = xorshift(0x0123_4567_89AB_CDEFu64);
    let mut quiet_blocks = 0;
    for round in 0..2000 {
        // Few kinds of characters in a text, so that whole blocks of lanes are common.
        let kinds: Vec<&str> = (0..2 + round % 5)
            .map(|_| pool[(next() % pool.len() as u64) as usize])
            .collect();
        let pieces: Vec<&str> = (0..100 + next() % 600)
            .map(|_| kinds[(next() % kinds.len() as u64) as usize])
            .collect();
        let text = pieces.concat();
        // From the start, and from places where a word may start in it (any character's),
        // so that each place of a block and each word the block ends in is tried.
        let mut starts = vec![0];
        starts.extend((0..8).map(|_| {
            let piece = (next() % pieces.len() as u64) as usize;
            pieces[..piece].iter().map(|p| p.len()).sum::<usize>()
        }));
        for start in starts {
            let answers = answers(&text[start..], &LANED);
            let want = *answers.last().expect("the characters one by one");
            for (k, got) in answers.iter().enumerate() {
                assert_eq!(*got, want, "answer {k} on {:?}", &text[start..]);
            }
            quiet_blocks += want.0 / BLOCK;
        }
    }
    assert!(quiet_blocks > 5_000, "{quiet_blocks} quiet blocks");
}

#[test]
fn lanes_carry_a_word_from_block_to_block() {
    // Every pair of kinds, the one running into the other at every place of a block.
    let pool = [
        "日", "の", "ー", "가", "퀀", "퓿", "\u{A000}", "—", "мир", "é", "a", "1", " ", "😀",
    ];
    for a in pool {
        for b in pool {
            for (at, between) in (0..BLOCK).flat_map(|at| ["", "x", "1x"].map(|b| (at, b))) {
                let text = format!(
                    "{}{}{between}{} {}",
                    " ".repeat(at),
                    a.repeat(12),
                    b.repeat(12),
                    "日本 ".repeat(40)
                );
                let answers = answers(&text, &LANED);
                let want = *answers.last().expect("the characters one by one");
                for (k, got) in answers.iter().enumerate() {
                    assert_eq!(*got, want, "answer {k} on {text:?}");
                }
            }
        }
    }
}

#[test]
fn the_nibble_tables_give_each_character_its_lanes() {
    let lanes = &LANED.lanes;
    assert_eq!(lanes.home_count, 2);
    let zones = [
        Zone::leads(0xE4, 0xE9),
        Zone::after(0xE3, 0x81, 0x83),
        Zone::leads(0xEB, 0xEC),
        Zone::after(0xEA, 0xB0, 0xBF),
        Zone::after(0xE2, 0x80, 0x80),
        Zone::after_two(0xED, 0x80, 0x80, 0xAF),
        Zone::after_two(0xED, 0x80, 0xB1, 0xBE),
    ];
    for lead in 0xE0..=0xEF {
        for next in 0x80..=0xBF {
            for third in 0x80..=0xBF {
                let bytes = [lead, next, third];
                let mut span = [b' '; SPAN];
                span[..3].copy_from_slice(&bytes);
                let m = portable_lanes(&span, lanes);
                let of_lane = zones.iter().any(|z| z.holds(bytes));
                let class = LANED.table.class(lead, next, third);
                assert_eq!(m.any & 1 == 1, of_lane, "{bytes:02X?}");
                assert_eq!(
                    m.neutral & 1 == 1,
                    of_lane && class == NEUTRAL,
                    "{bytes:02X?}"
                );
                for (h, &(bit, _)) in lanes.homes.iter().enumerate() {
                    let want = of_lane && class & bit != 0;
                    assert_eq!(m.has[h] & 1 == 1, want, "{bytes:02X?} home {h}");
                }
            }
        }
    }
}

#[test]
fn every_level_gives_the_portable_lanes_at_every_byte() {
    let pool: Vec<u8> = [
        0x00, b' ', b'a', 0x7F, 0x80, 0x81, 0x83, 0x8F, 0x90, 0xAF, 0xB0,
    ]
    .into_iter()
    .chain([
        0xBF, 0xC3, 0xE2, 0xE3, 0xE4, 0xE9, 0xEA, 0xEB, 0xEC, 0xED, 0xF0,
    ])
    .collect();
    let mut next = xorshift(0x5851_F42D_4C95_7F2Du64);
    for _ in 0..20_000 {
        let span: [u8; SPAN] = std::array::from_fn(|_| pool[(next() % pool.len() as u64) as usize]);
        let want = portable_lanes(&span, &LANED.lanes);
        for (name, _, _, lanes_of) in levels() {
            assert_eq!(lanes_of(&span, &LANED.lanes), want, "{name} on {span:02X?}");
        }
    }
}

#[test]
fn filling_carries_each_bit_up_to_the_next_stop() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
    for round in 0..20_000 {
        // Sparse and dense stops, and every bit of a run from the first.
        let stops = match round % 3 {
            0 => next() & next(),
            1 => next() | next(),
            _ => next(),
        };
        let from = next() & next() & !stops;
        let mut want = 0u64;
        let mut carrying = false;
        for i in 0..64 {
            carrying = stops >> i & 1 == 0 && (carrying || from >> i & 1 == 1);
            want |= u64::from(carrying) << i;
        }
        assert_eq!(fill_to_stops(from, stops), want, "{from:064b} {stops:064b}");
    }
    assert_eq!(fill_to_stops(1, 0), !0);
    assert_eq!(fill_to_stops(1 << 63, 0), 1 << 63);
    assert_eq!(fill_to_stops(0b1, 0b1000), 0b111);
}

#[test]
fn every_level_gives_the_portable_masks_at_every_byte() {
    let zones = [
        Zone::leads(0xD0, 0xD3),
        Zone::after(0xE2, 0x80, 0x81),
        Zone::after_two(0xE3, 0x80, 0x80, 0xA9),
    ];
    let pool: Vec<u8> = [
        0x00, b' ', b'0', b'9', b'a', b'Z', b'z', b'@', b'[', b'`', b'{',
    ]
    .into_iter()
    .chain([
        0x7F, 0x80, 0xA9, 0xAA, 0xBF, 0xC0, 0xC2, 0xCF, 0xD0, 0xD3, 0xD4, 0xDF,
    ])
    .chain([0xE0, 0xE2, 0xE3, 0xEF, 0xF0, 0xF4, 0xFF])
    .collect();
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
    for _ in 0..20_000 {
        let mut last = 0;
        let span: [u8; SPAN] = std::array::from_fn(|_| {
            last = next();
            pool[(last % pool.len() as u64) as usize]
        });
        let wanted = portable_masks(&span).lead_3 | last;
        let want = (portable_masks(&span), portable_zones(&span, &zones, wanted));
        for (name, masks, zones_of, _) in levels() {
            assert_eq!(
                (masks(&span), zones_of(&span, &zones, wanted)),
                want,
                "{name} on {span:02X?}"
            );
        }
    }
}

#[test]
fn the_table_gives_each_character_the_zones_that_hold_it() {
    const SPLIT: Quiet = Quiet::new(
        &[Zone {
            lead: (0xF0, 0xF0),
            next: (0x9F, 0x9F),
            third: (0x8C, 0xAB),
        }],
        &[
            CYRILLIC,
            LATIN,
            Home {
                zones: &[
                    Zone::leads(0xE4, 0xE9),
                    Zone::after_two(0xE3, 0x80, 0x80, 0xAD),
                ],
                takes_ascii: true,
            },
            Home {
                zones: &[Zone::leads(0xE5, 0xE5), Zone::after(0xE3, 0x80, 0x81)],
                takes_ascii: false,
            },
        ],
    );
    for quiet in [&QUIET, &SPLIT, &Quiet::NONE] {
        for lead in 0xC0..=0xFF {
            for next in 0x80..=0xBF {
                for third in (0x00..=0xFF).filter(|&b| lead >= 0xE0 || b % 7 == 0) {
                    let bytes = [lead, next, third];
                    let holds = |zones: &[Zone]| zones.iter().any(|z| z.holds(bytes));
                    let want = quiet
                        .homes
                        .iter()
                        .enumerate()
                        .fold(u32::from(holds(quiet.neutral)), |class, (k, home)| {
                            class | u32::from(holds(home.zones)) << (k + 1)
                        });
                    // A continuation byte third for a character of three bytes or more.
                    if lead < 0xE0 || (0x80..=0xBF).contains(&third) {
                        let got = quiet.table.class(lead, next, third);
                        assert_eq!(got, want, "{bytes:02X?}");
                    }
                }
            }
        }
    }
    assert_eq!(SPLIT.table.takes_ascii, 0b1100);
}
