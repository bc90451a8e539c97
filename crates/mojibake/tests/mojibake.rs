//! `fix_mojibake` on clean text: random sentences in many languages and scripts, built from real
//! words and real punctuation, must come out unchanged; mojibake made from them must come back.

use proptest::prelude::*;
use utf8kit_codec::{LintSet, RepairOptions};
use utf8kit_mojibake::{Helpers, MojibakeRepairer, Work, fix_mojibake};

/// Real words, including the legitimate uses of Â, Ã, Ð, Ñ, ¢, ©, € next to other letters.
const WORDS: &[&[&str]] = &[
    // French, German, Spanish, Portuguese
    &[
        "été", "à", "où", "garçon", "cœur", "Noël", "CAFÉ", "ÉCOLE", "déjà", "Île", "façade",
    ],
    &[
        "Grüße", "Straße", "ÄRGER", "Öl", "für", "HÄ", "NÖ", "Übermut", "Mädchen", "ß",
    ],
    &[
        "año",
        "AÑO",
        "niño",
        "ESPAÑA",
        "Ñandú",
        "¿qué?",
        "¡sí!",
        "pingüino",
        "acción",
        "«está»—dijo",
        "«mamá»…",
    ],
    &[
        "São",
        "SÃO",
        "Irmã",
        "IRMÃ",
        "coração",
        "ÂNGULO",
        "ÂMBITO",
        "órgão",
        "pão",
        "avó",
    ],
    // Polish, Czech, Turkish, Swedish, Icelandic
    &[
        "Zażółć",
        "gęślą",
        "jaźń",
        "są",
        "mają",
        "będą",
        "ŁÓDŹ",
        "źródło",
        "się",
    ],
    &[
        "příliš",
        "žluťoučký",
        "kůň",
        "úpěl",
        "ďábelské",
        "ódy",
        "ČESKO",
        "šťastný",
    ],
    &[
        "İstanbul",
        "ığdır",
        "çok",
        "güzel",
        "ŞİŞLİ",
        "öğrenci",
        "Türkçe",
    ],
    &[
        "Ångström",
        "Öresund",
        "Ærø",
        "fjärilar",
        "RÄKSMÖRGÅS",
        "ÐAÐ",
        "Þór",
        "Ðe",
    ],
    // Greek, Russian, Japanese, Chinese, Korean
    &["Ελληνικά", "καλημέρα", "ΑΘΗΝΑ", "ψυχή", "ωραία"],
    &[
        "Привет",
        "мир",
        "РОССИЯ",
        "съешь",
        "ещё",
        "этих",
        "щи",
        "Ёлка",
    ],
    &["日本語", "テキスト", "ひらがな", "東京", "カタカナ", "漢字"],
    &["中文", "汉字", "北京", "你好", "繁體字"],
    &["한국어", "텍스트", "서울", "안녕하세요"],
    // Ukrainian, Bulgarian, Serbian, Arabic, Hebrew, Thai, Vietnamese, Hindi
    &[
        "ВІКІ",
        "їжак",
        "Україна",
        "ґанок",
        "ще",
        "міст",
        "СЕЛО»",
        "Тёркс",
        "дії",
        "діє",
        "Від’ємне",
    ],
    &[
        "България",
        "съм",
        "ъгъл",
        "Сърбия",
        "љубав",
        "ћирилица",
        "ђак",
        "Џеп",
        "УПОЗОРЕЊЕ",
        "НИЈЕ",
        "Л’Акуила",
    ],
    &["مرحبا", "العربية", "كتاب", "٠١٢", "مدينة"],
    &["שלום", "עברית", "ספר", "ירושלים"],
    &["ภาษาไทย", "สวัสดี", "กรุงเทพ"],
    &["Tiếng", "Việt", "người", "Hà Nội", "được", "ĐẸP"],
    &["हिन्दी", "नमस्ते", "भारत"],
    // Czech, Slovak, Hungarian, Romanian, Lithuanian, Latvian, Croatian
    &[
        "zvlášť",
        "BĚŽÍ",
        "PŘEDVINUTÍ…",
        "Ťažký",
        "ľúbiť",
        "ÚŘAD",
        "ŠŤASTIE",
    ],
    &["Őrség", "árvíztűrő", "TÜKÖRFÚRÓGÉP", "ŐŰ", "hűtő"],
    &["țară", "ȘI", "până", "Învățământ", "ÎNCĂ"],
    &["įdomu", "Šiaip", "ŽĄSIS", "Visų", "ąžuolas"],
    &["Rīga", "ģimene", "ĶĒPA", "Latvijā", "ļoti"],
    &["Dobrodošli", "ĐAK", "čašćen", "ŽIVOT"],
    // The upper and lower case pairs where mojibake lives
    &["Ã’s", "Í…", "É…", "HÅØYA", "Ō¬o", "√π", "∆°", "[x]\u{A0}©"],
    // Symbols and prices
    &[
        "50¢",
        "©",
        "€5",
        "£3",
        "®",
        "™",
        "°C",
        "½",
        "±1",
        "§2",
        "µm",
        "×",
        "÷",
        "…",
        "§ 3",
        "±0,5 °C",
        "2×3",
        "«oui»",
        "„so“",
        "‹x›",
        "'€Æ¾÷ß'",
    ],
    // The alphabets of West and Central Africa, Azerbaijani; and the capitals, sharp s and
    // squares that read as their letters, or as Hebrew, Syriac or NKo, before a sign.
    &[
        "likrɛni",
        "Zapɔ",
        "Dentuɗi",
        "Barbuɖaa",
        "tabanɣaliyt",
        "imək",
        "ɔtb",
        "Mʉʉnchɨ",
        "Haɗaɗɗiyar",
        "ƙasar",
        "Gwichʼin",
        "Fuß",
        "MÜ",
        "ÞÓR",
        "m²",
        "CAFÉ",
        "ÉTÉ",
    ],
    // Pointed Hebrew and the geresh, Syriac, Thaana, NKo, Church Slavonic, Chakma.
    &[
        "אַזערביידזש",
        "אוביג׳ווה",
        "ܐܪܡܝܐ",
        "ܣܘܪܝܝܐ",
        "ދިވެހި",
        "ߒߞߏ",
        "ߞߊ߲ߓߊ߲",
        "а҆бха́зскїй",
        "𑄌𑄋𑄴𑄟𑄳𑄦",
    ],
];

const GLUE: &[&str] = &[
    " ", " ", " ", ", ", ". ", "… ", " — ", " – ", "’", "” ", " “", " «", "» ", "\u{A0}", "; ",
    ": ", " (", ") ", "/", "!",
];

fn sentence() -> impl Strategy<Value = String> {
    let word = (0..WORDS.len(), any::<prop::sample::Index>())
        .prop_map(|(lang, i)| WORDS[lang][i.index(WORDS[lang].len())]);
    let glue = any::<prop::sample::Index>().prop_map(|i| GLUE[i.index(GLUE.len())]);
    proptest::collection::vec((word, glue), 1..16).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(w, g)| format!("{w}{g}"))
            .collect::<String>()
    })
}

/// UTF-8 read as windows-1252, undefined bytes as Latin-1 C1 controls, written back as UTF-8.
fn mojibake(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            0x80 => '€',
            0x82 => '‚',
            0x83 => 'ƒ',
            0x84 => '„',
            0x85 => '…',
            0x86 => '†',
            0x87 => '‡',
            0x88 => 'ˆ',
            0x89 => '‰',
            0x8A => 'Š',
            0x8B => '‹',
            0x8C => 'Œ',
            0x8E => 'Ž',
            0x91 => '‘',
            0x92 => '’',
            0x93 => '“',
            0x94 => '”',
            0x95 => '•',
            0x96 => '–',
            0x97 => '—',
            0x98 => '˜',
            0x99 => '™',
            0x9A => 'š',
            0x9B => '›',
            0x9C => 'œ',
            0x9E => 'ž',
            0x9F => 'Ÿ',
            b => char::from(b),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn clean_text_is_left_alone(text in sentence()) {
        prop_assert_eq!(fix_mojibake(&text), None, "changed {:?}", text);
    }

    /// Mojibake of text with hidden characters in it (an RLO, a zero width space), repaired
    /// with `--strip bidi,invisible`: one run reaches the fixed point, and a second changes
    /// nothing, even where a hidden character, once decoded, stood between two layers.
    #[test]
    fn strip_after_mojibake_reaches_the_fixed_point(
        text in sentence(),
        hidden in proptest::collection::vec((any::<prop::sample::Index>(), 0..2usize), 0..4),
        layers in 1..4usize,
    ) {
        // The text takes one layer more than the hidden characters, which are put in after the
        // first: decoded, they stand between the layers of the rest ("â€®Ã„€").
        let mut with_hidden = mojibake(&text);
        for (at, which) in hidden {
            let boundaries: Vec<usize> =
                (0..=with_hidden.len()).filter(|&i| with_hidden.is_char_boundary(i)).collect();
            let at = boundaries[at.index(boundaries.len())];
            with_hidden.insert(at, ['\u{202E}', '\u{200B}'][which]);
        }
        let mut broken = with_hidden;
        for _ in 1..layers {
            broken = mojibake(&broken);
        }
        let run = |input: &str| {
            let mut repairer = MojibakeRepairer::new(RepairOptions {
                strip: LintSet::parse("bidi,invisible").unwrap(),
                ..RepairOptions::default()
            });
            repairer.feed(input.as_bytes(), true);
            String::from_utf8(std::mem::take(repairer.output())).unwrap()
        };
        let once = run(&broken);
        prop_assert_eq!(run(&once), once.clone(), "{:?}", broken);
    }

    #[test]
    fn output_is_idempotent(text in sentence(), layers in 0..3usize) {
        let mut broken = text.clone();
        for _ in 0..layers {
            broken = mojibake(&broken);
        }
        let once = fix_mojibake(&broken).map_or(broken, |(fixed, _)| fixed);
        prop_assert_eq!(fix_mojibake(&once), None);
    }
}

#[test]
fn every_word_survives_one_and_two_layers() {
    for word in WORDS.iter().flat_map(|w| w.iter()) {
        let text = format!("Le mot {word} ici.");
        for layers in 1..=2 {
            let mut broken = text.clone();
            for _ in 0..layers {
                broken = mojibake(&broken);
            }
            let fixed = fix_mojibake(&broken).map(|(t, _)| t);
            assert_eq!(
                fixed.as_deref(),
                Some(text.as_str()),
                "{word}, {layers} layers"
            );
        }
    }
}

/// Real sentences in the languages each legacy encoding serves, read through it (undefined
/// bytes kept as C1 controls) and written back as UTF-8: each comes back whole, and the clean
/// sentence is left alone.
#[test]
fn issue_14_each_legacy_encoding_is_undone() {
    let cases: &[(&str, &[&str])] = &[
        (
            "windows-1250",
            &[
                "Zażółć gęślą jaźń, mówię",
                "Příliš žluťoučký kůň úpěl ďábelské ódy",
                "Jüdisch",
                "Tiếng Acoli",
            ],
        ),
        (
            "iso-8859-2",
            &[
                "Mám dost třetího tisíciletí",
                "Árvíztűrő tükörfúrógép",
                "Güceratça, égyptien",
            ],
        ),
        (
            "windows-1251",
            &[
                "Съешь же ещё этих мягких французских булок",
                "Україна — це Європа",
                // Other scripts read through it: Vietnamese, Portuguese, Hausa, Persian.
                "Tiếng Acoli",
                "Emirados Árabes Unidos",
                "Haɗaɗɗiyar Daular",
                "توی\u{200C}یایی",
            ],
        ),
        (
            "windows-1253",
            &[
                "Γειά σου κόσμε, τι κάνεις;",
                "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία",
                "Lüksemburg",
            ],
        ),
        (
            "windows-1254",
            &[
                "Pijamalı hasta yağız şoföre çabucak güvendi",
                "İstanbul’da öğrenci",
            ],
        ),
        (
            "windows-1257",
            &[
                "Šiaip įdomu, kaip įsivaizduoji",
                "Latvijā ģimene ļoti",
                "Tiếng",
            ],
        ),
        (
            "macintosh",
            &[
                "Le Schtroumpf conseille gâteaux et baies",
                "Grüße aus Köln, señor",
                // Romanian, Latvian and Lithuanian: "ƒ" and "»" lead their letters.
                "abhază, aceh",
                "bașkiră",
                "afāru, aghem",
                "Armėnija",
            ],
        ),
    ];
    for (label, sentences) in cases {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a WHATWG label");
        for sentence in *sentences {
            assert_eq!(
                fix_mojibake(sentence),
                None,
                "{label}: clean {sentence:?} changed"
            );
            let (broken, _) = encoding.decode_without_bom_handling(sentence.as_bytes());
            let fixed = fix_mojibake(&broken).map(|(t, _)| t);
            assert_eq!(fixed.as_deref(), Some(*sentence), "{label}: {broken:?}");
        }
    }
}

/// Lines judged on several threads come out exactly as on one: the output and every repair
/// with its offset, whatever the chunks the text arrives in. The text holds hundreds of lines
/// to judge (clean, one and two layers of mojibake, a line longer than the repair holds whole,
/// ill-formed bytes, a byte order mark read as windows-1252 at the start).
#[test]
fn lines_are_judged_alike_on_any_number_of_threads() {
    use utf8kit_codec::RepairOptions;
    use utf8kit_mojibake::{LineRepair, MojibakeRepairer};
    let words: Vec<&str> = WORDS.iter().flat_map(|w| w.iter().copied()).collect();
    let mut text = mojibake("\u{FEFF}").into_bytes();
    for n in 0..900 {
        let line: String = (0..1 + n % 13)
            .map(|k| format!("{} ", words[(n * 7 + k * 31) % words.len()]))
            .collect();
        let line = match n % 3 {
            0 => line,
            1 => mojibake(&line),
            _ => mojibake(&mojibake(&line)),
        };
        text.extend_from_slice(line.as_bytes());
        if n % 97 == 5 {
            text.extend_from_slice(b"\xFF\xC3");
        }
        if n == 400 {
            text.extend_from_slice(mojibake(&"çà ".repeat(30_000)).as_bytes());
        }
        text.push(b'\n');
    }
    let run = |threads: usize, chunk: usize| {
        let options = RepairOptions {
            strip_bom: true,
            ..RepairOptions::default()
        };
        let mut repairer = MojibakeRepairer::new(options).with_log();
        if let Some(helpers) = lent(threads) {
            repairer = repairer.with_helpers(helpers);
        }
        let mut log = Vec::new();
        for piece in text.chunks(chunk) {
            repairer.feed(piece, false);
            log.extend(repairer.take_log());
        }
        repairer.feed(&[], true);
        log.extend(repairer.take_log());
        (std::mem::take(repairer.output()), log)
    };
    for chunk in [text.len(), 65_536, 4_099] {
        let (one, one_log) = run(1, chunk);
        // The test means something: lines were repaired, and the output is not the input.
        assert!(one_log.len() > 300, "{}", one_log.len());
        assert_ne!(one, text);
        for threads in [2, 5] {
            let (many, many_log) = run(threads, chunk);
            assert!(
                many == one,
                "{threads} threads, chunks of {chunk}: output differs"
            );
            let first = many_log.iter().zip(&one_log).position(|(a, b)| a != b);
            let around = |log: &[LineRepair]| {
                first.map(|k| log[k.saturating_sub(2)..(k + 3).min(log.len())].to_vec())
            };
            assert!(
                many_log == one_log,
                "{threads} threads, chunks of {chunk}: logs differ at {first:?}: {:?} against {:?}",
                around(&many_log),
                around(&one_log)
            );
        }
    }
}

/// The batch call answers each line as `undo_mojibake` does, in the order asked, on one thread
/// and on several; lines given out of order and twice are answered where they are asked.
#[test]
fn a_batch_of_lines_is_answered_as_each_line() {
    use utf8kit_mojibake::{undo_lines, undo_mojibake};
    let words: Vec<&str> = WORDS.iter().flat_map(|w| w.iter().copied()).collect();
    let mut text = String::new();
    let mut lines = Vec::new();
    for n in 0..400 {
        let line: String = (0..1 + n % 11)
            .map(|k| format!("{} ", words[(n * 5 + k * 29) % words.len()]))
            .collect();
        let line = match n % 3 {
            0 => line,
            1 => mojibake(&line),
            _ => mojibake(&mojibake(&line)),
        };
        let start = text.len();
        text.push_str(&line);
        lines.push(start..text.len());
        text.push('\n');
    }
    lines.reverse();
    lines.push(lines[7].clone());
    let expected: Vec<_> = lines
        .iter()
        .map(|r| undo_mojibake(&text[r.clone()]))
        .collect();
    let repaired = expected.iter().filter(|fix| fix.is_some()).count();
    assert!((200..=280).contains(&repaired), "{repaired} lines repaired");
    for threads in [1, 3] {
        assert_eq!(
            undo_lines(&text, &lines, lent(threads).as_ref()),
            expected,
            "{threads}"
        );
    }
    assert_eq!(undo_lines(&text, &[], None), []);
}

/// `input` repaired by a [`utf8kit_mojibake::MojibakeRepairer`] on `threads` threads, in chunks cut
/// at `cuts`, through `feed` or (`direct`) `feed_to`, reading ahead or not.
fn repair(
    input: &[u8],
    options: &utf8kit_codec::RepairOptions,
    threads: usize,
    cuts: &[usize],
    (direct, read_ahead): (bool, bool),
) -> Vec<u8> {
    let mut repairer = utf8kit_mojibake::MojibakeRepairer::new(options.clone());
    if let Some(helpers) = lent(threads) {
        repairer = repairer.with_helpers(helpers);
    }
    repairer.set_read_ahead(read_ahead);
    let mut out = Vec::new();
    let mut from = 0;
    let ends = cuts
        .iter()
        .map(|&cut| (cut.clamp(from, input.len()), false));
    for (cut, is_last) in ends
        .collect::<Vec<_>>()
        .into_iter()
        .chain([(input.len(), true)])
    {
        let cut = cut.max(from);
        let piece = &input[from..cut];
        if direct {
            let mut emit = |bytes: &[u8]| {
                assert!(!bytes.is_empty(), "nothing empty is emitted");
                out.extend_from_slice(bytes);
                std::ops::ControlFlow::Continue(())
            };
            let _ = repairer.feed_to(piece, is_last, &mut emit);
        } else {
            repairer.feed(piece, is_last);
        }
        out.append(repairer.output());
        from = cut;
    }
    out
}

/// Found by the fuzz target `repair` (issue 9): bytes decoded as Latin-1 by --fallback became
/// a chain of "Â" that --mojibake peeled a layer per pass beyond its last one.
#[test]
fn issue_9_fuzz_fallback_then_mojibake_is_idempotent() {
    let input = b"\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xba\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xc2\xc2\
                  \xbaz\xaa\xd4\xd4\xdb\xed\xed\xed\xed\xedm\xfd\xed\xed\x8f\x90";
    let options = utf8kit_codec::RepairOptions {
        replacement: utf8kit_codec::Replacement::Fallback(utf8kit_codec::repair::latin1_table()),
        ..utf8kit_codec::RepairOptions::default()
    };
    let once = repair(input, &options, 1, &[], (false, false));
    assert!(std::str::from_utf8(&once).is_ok());
    assert_ne!(once, input);
    assert_eq!(repair(&once, &options, 1, &[], (false, false)), once);
}

/// Text with mojibake, ill-formed bytes, marks and newlines, dense.
fn mojibake_ish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        any::<char>().prop_map(|c| c.to_string().into_bytes()),
        "[a-z\n ]{1,8}".prop_map(String::into_bytes),
        proptest::sample::select(vec![
            "Ã©",
            "â€™",
            "Ð¿Ñ€",
            "ï»¿",
            "Ã ",
            "Ã",
            "\u{FEFF}",
            "\n"
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        (0x80u8..=0xFF).prop_map(|b| vec![b]),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The output is one and the same however it is fed, emitted, read ahead and judged, and it
    /// is well-formed and needs no second pass.
    #[test]
    fn every_way_of_feeding_gives_one_output(
        input in mojibake_ish(),
        fallback in any::<bool>(),
        strip_bom in any::<bool>(),
        threads in 1..4usize,
        mut cuts in proptest::collection::vec(0..200usize, 0..6),
    ) {
        cuts.sort_unstable();
        let options = utf8kit_codec::RepairOptions {
            replacement: if fallback {
                utf8kit_codec::Replacement::Fallback(utf8kit_codec::repair::latin1_table())
            } else {
                utf8kit_codec::Replacement::default()
            },
            strip_bom,
            ..utf8kit_codec::RepairOptions::default()
        };
        let whole = repair(&input, &options, 1, &[], (false, false));
        prop_assert!(std::str::from_utf8(&whole).is_ok());
        prop_assert_eq!(&repair(&whole, &options, 1, &[], (false, false)), &whole);
        for how in [(false, false), (true, false), (false, true), (true, true)] {
            prop_assert_eq!(&repair(&input, &options, threads, &cuts, how), &whole);
        }
    }
}

/// Helpers for `threads` threads in all, the crate's own for its tests.
#[path = "../src/testing.rs"]
mod testing;

fn lent(threads: usize) -> Option<std::sync::Arc<dyn Helpers>> {
    testing::ThreadPerWork::lent(threads)
}

/// The line filter and the repair answer alike at every SIMD level this machine has (the
/// 64-byte, 32-byte and portable paths).
#[test]
fn every_simd_level_filters_and_repairs_alike() {
    use utf8kit_codec::simd::{self, Level};
    let words: Vec<&str> = WORDS.iter().flat_map(|w| w.iter().copied()).collect();
    let lines: Vec<String> = (0..300)
        .map(|n| {
            let line: String = (0..1 + n % 17)
                .map(|k| format!("{} ", words[(n * 7 + k * 31) % words.len()]))
                .collect();
            if n % 2 == 0 { mojibake(&line) } else { line }
        })
        .collect();
    /// Where the filter points, and what the repair makes of a line.
    type Answer = (Option<usize>, Option<(String, usize)>);
    let answers = |_: Level| -> Vec<Answer> {
        lines
            .iter()
            .map(|line| (utf8kit_mojibake::first_suspect(line), fix_mojibake(line)))
            .collect()
    };
    simd::cap(Level::Portable).unwrap();
    let portable = answers(Level::Portable);
    assert!(portable.iter().filter(|(_, fix)| fix.is_some()).count() > 100);
    for &level in Level::ALL
        .iter()
        .filter(|&&level| level <= simd::detected())
    {
        simd::cap(level).unwrap();
        assert!(answers(level) == portable, "{level}");
    }
    simd::cap(simd::detected()).unwrap();
}

/// A word's own letter before U+FFFD is not a lead whose bytes were lost: `café` followed by
/// two U+FFFD keeps its `é` (a three-byte lead after an ASCII letter, all its continuations
/// lost, says nothing). The leads mojibake is made of still are: `â` before two U+FFFD was a
/// quote, `Ä` before one a Slovak letter.
#[test]
fn a_letter_before_lost_bytes_survives() {
    for kept in [
        "café\u{FFFD}\u{FFFD}",
        "guaraní\u{FFFD}\u{FFFD}, gusii",
        "moç\u{FFFD}\u{FFFD}x",
    ] {
        assert_eq!(fix_mojibake(kept), None, "{kept}");
    }
    assert_eq!(
        fix_mojibake("itâ\u{FFFD}\u{FFFD}s fine").unwrap().0,
        "it\u{FFFD}s fine"
    );
    assert_eq!(
        fix_mojibake("SlovenÄ\u{FFFD}ina").unwrap().0,
        "Sloven\u{FFFD}ina"
    );
}
