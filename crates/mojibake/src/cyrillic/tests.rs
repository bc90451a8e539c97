//! Tests of the Cyrillic readings.

use super::*;
use crate::undo_mojibake;
use proptest::prelude::*;

const LINE: &str = "Привет, мир! Как дела у тебя сегодня?";

/// `text` written in code page `w` and read as `r` (both indices into [`CODE_PAGES`]).
fn mangle(text: &str, w: usize, r: usize) -> String {
    let tables = Tables::get();
    let mut bytes = Vec::new();
    assert!(encode(text, w, tables, &mut bytes), "{text:?} in {w}");
    let mut out = String::new();
    assert!(decode(&bytes, r, tables, &mut out), "{text:?} as {r}");
    out
}

/// UTF-8 `text` read as code page `r`.
fn as_code_page(text: &str, r: usize) -> String {
    let mut out = String::new();
    assert!(decode(text.as_bytes(), r, Tables::get(), &mut out));
    out
}

#[test]
fn every_code_page_writes_back_what_it_reads() {
    let tables = Tables::get();
    let mut bytes = Vec::new();
    for (r, high) in tables.high.iter().enumerate() {
        for b in 0x80..=0xFFu8 {
            let c = high[usize::from(b - 0x80)];
            if c == '\0' {
                continue;
            }
            assert!(encode(&c.to_string(), r, tables, &mut bytes));
            assert_eq!(bytes, [b], "{c:?} in {}", CODE_PAGES[r].name());
        }
    }
    // The tables are encoding_rs's: IBM866 reads 8F as `П`, x-mac-cyrillic reads FF as `€`.
    assert_eq!(tables.high[3][0x0F], 'П');
    assert_eq!(tables.high[5][0x7F], '€');
}

#[test]
fn utf8_read_as_each_new_code_page_comes_back_with_its_name() {
    for (r, name, shown) in [
        (3, "ibm866", "╨Я╤А╨╕╨▓╨╡╤В, ╨╝╨╕╤А!"),
        (4, "iso-8859-5", "а\u{9f}б\u{80}аИаВаЕб\u{82}, аМаИб\u{80}!"),
        (5, "x-mac-cyrillic", "–Я—А–Є–≤–µ—В, –Љ–Є—А!"),
    ] {
        let mangled = as_code_page(LINE, r);
        assert!(mangled.starts_with(shown), "{mangled}");
        let fix = undo_mojibake(&mangled).expect(name);
        assert_eq!(fix.text, LINE);
        assert_eq!(fix.chain.to_string(), name);
    }
}

#[test]
fn an_answer_of_utf8_may_put_a_printf_directive_against_a_word() {
    // encoding_rs's KOI8-U reads BE (the second byte of `о`) as `Ў`, which the single-byte
    // tables' KOI8-U does not: the whole-line reading answers.
    let line = "%sПереместите эти файлы или удалите их перед переключением веток.";
    let mangled = as_code_page(line, 2);
    assert!(
        mangled.contains("п╣я┌п╬п╨") || mangled.contains("пЎ"),
        "{mangled}"
    );
    assert_eq!(undo_mojibake(&mangled).expect("koi8-u").text, line);
    // So may an answer of one code page read as another, but not a letter alone against a
    // directive, on either side of it.
    assert_eq!(flaws_past("%sФайл".chars(), u32::MAX, true).0, 0);
    assert_eq!(flaws_past("З%sИ".chars(), u32::MAX, true).0, 2);
    assert_eq!(flaws_past("З%sИ".chars(), u32::MAX, false).0, 0);
}

#[test]
fn each_code_page_read_as_another_comes_back_with_both_names() {
    let names = [
        "windows-1251",
        "koi8-r",
        "koi8-u",
        "ibm866",
        "iso-8859-5",
        "x-mac-cyrillic",
    ];
    // Every pair but x-mac-cyrillic and windows-1251, which differ in capitals and `я` only
    // (`Џривет` for `Привет`): a line says too little (see the next test).
    for w in 0..N {
        for r in (0..N).filter(|&r| r != w && !both_koi8(w, r)) {
            if matches!((w, r), (0, 5) | (5, 0)) {
                continue;
            }
            let mangled = mangle(LINE, w, r);
            let fix = undo_mojibake(&mangled).unwrap_or_else(|| panic!("{w} as {r}: {mangled}"));
            assert_eq!(fix.text, LINE, "{w} as {r}: {mangled}");
            // KOI8-R and KOI8-U read Russian alike: either name is right.
            let chain = fix.chain.to_string();
            let read = format!("read as {}", names[r]);
            assert!(chain.ends_with(&read) || r == 2 || r == 1, "{chain}");
            assert!(chain.starts_with(&names[w][..4]), "{chain} for {w} as {r}");
        }
    }
    // The issue's own example, in a sentence.
    let fix = undo_mojibake("рТЙЧЕФ, НЙТ! лБЛ ДЕМБ Х ФЕВС УЕЗПДОС?").expect("koi8-r as 1251");
    assert_eq!(fix.text, LINE);
    assert_eq!(fix.chain.to_string(), "koi8-r read as windows-1251");
}

#[test]
fn x_mac_cyrillic_and_windows_1251_read_as_each_other_when_the_line_tells() {
    // `я` is a capital `Я` in the other, and `К` a no-break space: flaws.
    let fix = undo_mojibake("Џривет, мир! Љак дела у тебЯ сегоднЯ?").expect("mac as 1251");
    assert_eq!(fix.text, LINE);
    assert_eq!(fix.chain.to_string(), "x-mac-cyrillic read as windows-1251");
    // One capital that is a Serbian letter in the other says nothing: Serbian has `Џ`.
    assert!(undo_cyrillic("Џорџ и Ђорђе").undone().is_none());
    assert!(undo_cyrillic("Џривет").undone().is_none());
}

#[test]
fn x_mac_cyrillic_and_windows_1251_read_as_each_other_from_one_letter() {
    // `я` is `€` in x-mac-cyrillic: a sign no text puts against a letter.
    for (line, want, chain) in [
        (
            "ожидаетс€ константное выражение",
            "ожидается константное выражение",
            "windows-1251 read as x-mac-cyrillic",
        ),
        // `≥` for the Ukrainian `і`.
        (
            "помилка п≥д час спроби",
            "помилка під час спроби",
            "windows-1251 read as x-mac-cyrillic",
        ),
        // Guillemets that are Serbian and Ukrainian letters, against a printf directive.
        (
            "%H: перемещение %s дл€ Ђ%sї: ошибка %d",
            "%H: перемещение %s для «%s»: ошибка %d",
            "windows-1251 read as x-mac-cyrillic",
        ),
        // A capital `Я` inside a word: the same pairs of letters, one more flaw.
        (
            "неверный номер полЯ: %s",
            "неверный номер поля: %s",
            "x-mac-cyrillic read as windows-1251",
        ),
        // A line of no flaw but one letter of Macedonian's alone among Russian words.
        (
            "Ќе удалось создать сокет",
            "Не удалось создать сокет",
            "x-mac-cyrillic read as windows-1251",
        ),
    ] {
        let fix = undo_mojibake(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(fix.text, want);
        assert_eq!(fix.chain.to_string(), chain, "{line}");
    }
    // The same letter in text of its own language stays.
    for line in ["Ќе дојдам утре", "Ѓорѓи и Ќирил", "цена 100€ за ноќ"]
    {
        assert!(undo_cyrillic(line).undone().is_none(), "{line}");
    }
}

#[test]
fn x_mac_cyrillic_read_as_koi8_is_capitals_and_a_small_hard_sign() {
    // x-mac-cyrillic's small letters are KOI8's capitals, but its `я` is KOI8's small `ъ`.
    let line = "показать прогресс выполнения";
    let mangled = mangle(line, 5, 1);
    assert_eq!(mangled, "ОНЙЮГЮРЭ ОПНЦПЕЯЯ БШОНКМЕМХъ");
    assert!(all_capitals(mangled.as_bytes()));
    let fix = undo_mojibake(&mangled).expect("x-mac-cyrillic as koi8-r");
    assert_eq!(fix.text, line);
    assert_eq!(fix.chain.to_string(), "x-mac-cyrillic read as koi8-r");
    // A word of capitals with a small letter of another kind is no such word.
    assert!(!all_capitals("ВУЗы и СМИшники".as_bytes()));
}

#[test]
fn a_letter_alone_beats_a_sign_of_the_code_pages() {
    // windows-1251 read as KOI8-R: `і` is `Ё`, which x-mac-cyrillic read as KOI8-R gives as `≥`.
    let line = "-a, --text                те саме, що і --binary-files=text";
    let mangled = mangle(line, 0, 1);
    assert_eq!(
        mangled,
        "-a, --text                РЕ ЯЮЛЕ, ЫН Ё --binary-files=text"
    );
    let fix = undo_mojibake(&mangled).expect("1251 as koi8-r");
    assert_eq!(fix.text, line);
    assert!(odd_signs_cost("що ≥") > 0 && odd_signs_cost("що і") == 0);
}

#[test]
fn a_capital_beats_a_sign_against_a_word_of_small_letters() {
    // windows-1251 read as IBM866: `С` is `╤`, which x-mac-cyrillic's `—` writes as well.
    let fix = undo_mojibake("╤рыхЁэю").expect("1251 as 866");
    assert_eq!(fix.text, "Салерно");
    assert_eq!(fix.chain.to_string(), "windows-1251 read as ibm866");
    assert_eq!(signs_before_words("—алерно «слово» 10\u{a0}км"), 1);
    assert_eq!(signs_before_words("Салерно"), 0);
}

#[test]
fn a_line_of_c1_controls_that_readings_explain_unclearly_is_left() {
    // `Пбит` in x-mac-cyrillic read as ISO-8859-5: its capital is a C1 control there, which
    // windows-1251 reads as `Џ`. Readings make flawless text of the line, none clearly: left,
    // where the single-byte judging would take the control for windows-1252's sign.
    let line = "\u{8f}сшђ";
    assert!(matches!(undo_cyrillic(line), CyrillicReading::Undecided));
    assert_eq!(undo_mojibake(line), None);
    // `Удалить` the same way: windows-1251 reads its control as `“`, a quote that opens a word
    // and that nothing closes, which the other reading does not have.
    let fix = undo_mojibake("_\u{93}фрышђќ").expect("x-mac-cyrillic as iso-8859-5");
    assert_eq!(fix.text, "_Удалить");
    // `Аргау` the same way: its `ѓ` against a letter and the control weigh enough for one.
    let fix = undo_mojibake("\u{80}№урѓ").expect("x-mac-cyrillic as iso-8859-5");
    assert_eq!(fix.text, "Аргау");
    assert_eq!(fix.chain.to_string(), "x-mac-cyrillic read as iso-8859-5");
    // A line of no C1 control that readings explain unclearly is no business of this reading.
    assert!(matches!(undo_cyrillic("Џривет"), CyrillicReading::Not));
}

#[test]
fn clean_cyrillic_lines_are_left() {
    for line in [
        LINE,
        "ВНИМАНИЕ: ОШИБКА ЗАПИСИ",
        "Поиск ШАБЛОНОВ в каждом ФАЙЛЕ.",
        "СССР, США и ООН",
        "МегаФон и ВКонтакте",
        "ПДФ",
        "Не вдалося відкрити файл «%s»: м’ята, їжак, ґанок",
        "Џорџ Вашингтон је био први председник.",
        "Ѕвездата и ѓаволот",
        "Беларуская мова: ўсё добра",
        "Файл „%s“ не е намерен — опитайте пак…",
        "│ Имя │ Размер │",
        "абвгде АБВГДЕ abcde ABCDE",
        "-s, --suffix=СУФФИКС удалить завершающий СУФФИКС; подразумевает -a",
    ] {
        assert!(undo_cyrillic(line).undone().is_none(), "{line}");
        assert_eq!(undo_mojibake(line), None, "{line}");
    }
}

#[test]
fn utf8_mojibake_of_other_scripts_is_left_to_the_single_byte_judging() {
    // `ラバト` read as windows-1251: IBM866 and others find flawless Cyrillic in it, but the line
    // is UTF-8 through windows-1251.
    let mangled = as_code_page("ラバト", 0);
    assert!(undo_cyrillic(&mangled).undone().is_none(), "{mangled}");
    assert_eq!(undo_mojibake(&mangled).expect("1251").text, "ラバト");
}

#[test]
fn flaws_count_each_kind() {
    assert_eq!(flaws(LINE), (0, 28));
    // Two small letters before capitals.
    assert_eq!(flaws("рТЙЧЕФ лБЛ").0, 2);
    // Box drawing against letters: two each.
    assert_eq!(flaws("╨Я╤А").0, 4);
    // A C1 control anywhere.
    assert_eq!(flaws("a\u{85}b").0, 1);
    // A sign against a letter; a dash only between two; a sign of the code pages that no
    // text puts against a letter (`€`, `≥`), or a Serbian capital inside a word, two.
    assert_eq!(flaws("ки¬о").0, 1);
    assert_eq!(flaws("ки «о»").0, 0);
    assert_eq!(flaws("дл€ • это").0, 2);
    assert_eq!(flaws("ус≥").0, 2);
    assert_eq!(flaws("спојку споЉку").0, 2);
    assert_eq!(flaws("слово — слово").0, 0);
    assert_eq!(flaws("слово—слово").0, 1);
    // A Cyrillic letter against a Latin one, of ASCII or not (x-mac-cyrillic's `ƒ`).
    assert_eq!(flaws("Зcommand").0, 1);
    assert_eq!(flaws("ƒокумент").0, 1);
    assert_eq!(flaws("Müller, Иванов").0, 0);
    // A quote left open.
    assert_eq!(flaws("«слово").0, 1);
    assert_eq!(flaws("«слово»").0, 0);
    // Letters of no one language: `ы` is Russian and Belarusian, `ї` and `є` Ukrainian; one
    // is a word of the other language, two a flaw.
    assert_eq!(flaws("ы ї").0, 0);
    assert_eq!(flaws("ы э ї є").0, 1);
}

#[test]
fn capital_words_count_words_of_two_capitals_or_more() {
    assert_eq!(capital_words("СССР и ООН, Я".as_bytes()), (2, 0));
    assert_eq!(capital_words("ВКонтакте".as_bytes()), (0, 1));
    assert_eq!(capital_words("ПДФ".as_bytes()), (1, 0));
    assert!(all_capitals("ОЕ ЙУРПМШЪХЕФ ОПНЕТ".as_bytes()));
    assert!(all_capitals(".begin ЙЗОПТЙТХЕФУС".as_bytes()));
    assert!(!all_capitals("ПДФ".as_bytes()));
    assert!(!all_capitals("Употреба: %s [ОПЦИЯ]… ФАЙЛ_1".as_bytes()));
}

#[test]
fn keeps_words_allows_a_lone_letter_to_become_a_sign() {
    assert!(keeps_words("слово я слово", "слово — слово"));
    assert!(!keeps_words("СУФФИКС", "—”‘‘»\u{a0}—"));
    // A word's last letter may close it, its first open it; not the other way round.
    assert!(keeps_words("шаблонИ", "шаблон»"));
    assert!(keeps_words("Зслово", "«слово"));
    assert!(!keeps_words("шаблонИ", "шаблон«"));
    assert!(!keeps_words("слоИво", "сло»во"));
}

#[test]
fn rarity_prefers_text_to_its_readings() {
    assert!(rarity(LINE) < rarity(&mangle(LINE, 0, 1).to_lowercase()));
    assert!(rarity("превышено время ожидания") < rarity("опебшьемн бпелъ нфхдюмхъ"));
}

/// Words of real Russian, Ukrainian and Bulgarian text, in any order.
fn clean_lines() -> impl Strategy<Value = String> {
    let words: Vec<&str> = "файл не найден ошибка при чтении каталога время ожидания истекло \
         сохранить изменения перед выходом вдалося відкрити пристрій помилка запису \
         файлът не може да бъде отворен настройки на програмата"
        .split(' ')
        .collect();
    let word = (proptest::sample::select(words), any::<bool>()).prop_map(|(w, capital)| {
        let mut chars = w.chars();
        match chars.next() {
            Some(first) if capital => first.to_uppercase().chain(chars).collect(),
            _ => w.to_string(),
        }
    });
    proptest::collection::vec(word, 1..12).prop_map(|words| words.join(" "))
}

proptest! {
    /// Clean text, however its words fall, is never read again.
    #[test]
    fn clean_words_in_any_order_are_left(line in clean_lines()) {
        prop_assert!(undo_cyrillic(&line).undone().is_none(), "{}", line);
    }

    /// Every line of those words written in KOI8-U and read as windows-1251 comes back, or is
    /// left: never another text.
    #[test]
    fn koi8_u_read_as_windows_1251_comes_back_or_is_left(line in clean_lines()) {
        let mangled = mangle(&line, 2, 0);
        if let Some(undone) = undo_cyrillic(&mangled).undone() {
            prop_assert_eq!(undone.text, line);
        }
    }
}

/// KOI8-R and windows-1251 read as each other swap the case of every letter: a word that began
/// with a capital begins small and goes on in capitals, which weighs a flaw more when an answer
/// turns it, so that a short line of such words comes back.
#[test]
fn words_that_begin_small_and_go_on_in_capitals_weigh_more() {
    for line in ["(Индекс WAIS)", "Ханой", "Резюме", "Охрид"] {
        // KOI8-R (code page 1) read as windows-1251 (0).
        let mangled = mangle(line, 1, 0);
        assert!(
            mangled
                .chars()
                .nth(usize::from(line.starts_with('(')))
                .is_some_and(is_lowercase),
            "{mangled}"
        );
        let fix = undo_mojibake(&mangled).expect("koi8-r as windows-1251");
        assert_eq!(fix.text, line);
        assert_eq!(fix.chain.to_string(), "koi8-r read as windows-1251");
    }
    // The answer must turn the word: one that leaves it as it is counts no more.
    assert_eq!(inverted_words_made_small("иБОПК", "Ханой"), 1);
    assert_eq!(inverted_words_made_small("иБОПК", "ИБОПК"), 0);
    // Two letters (`кБ`, kilobytes) are no such word, nor a capital inside one.
    assert_eq!(inverted_words_made_small("кБ", "Ка"), 0);
    assert_eq!(inverted_words_made_small("ааБВ", "ааба"), 0);
    assert!(
        undo_cyrillic("XMEGA, > 8 кБ, < 64 кБ FLASH")
            .undone()
            .is_none()
    );
}

/// windows-1251's small letters read as KOI8-R are capitals: a line of five of them is words
/// of capitals enough to be judged; an abbreviation of four (`СССР`) is not.
#[test]
fn five_capitals_are_a_line_of_capitals() {
    for word in ["папка", "время", "ключи"] {
        let mangled = mangle(word, 0, 1);
        assert!(all_capitals(mangled.as_bytes()), "{mangled}");
        let fix = undo_mojibake(&mangled).expect("windows-1251 as koi8-r");
        assert_eq!(fix.text, word);
        assert_eq!(fix.chain.to_string(), "windows-1251 read as koi8-r");
    }
    assert!(!all_capitals("СССР".as_bytes()));
    for line in ["СССР", "ФАЙЛ", "КЛЮЧ ФАЙЛ", "ОШИБКА"] {
        assert!(undo_cyrillic(line).undone().is_none(), "{line}");
    }
}

/// Ukrainian writes an apostrophe inside words, which IBM866 and x-mac-cyrillic read as a
/// letter (`пам’яті` in windows-1251 read as IBM866 is `ярьТ\u{a0}Є│`): a reading that makes
/// the letter an apostrophe again keeps the word.
#[test]
fn an_apostrophe_inside_a_word_comes_back() {
    let line = "avr5  - покращене ядро AVR з обсягом пам’яті для програм";
    // windows-1251 (code page 0) read as IBM866 (3) and as x-mac-cyrillic (5).
    for read_as in [3, 5] {
        let mangled = mangle(line, 0, read_as);
        assert!(!mangled.contains('’'), "{mangled}");
        let fix = undo_mojibake(&mangled).expect("windows-1251 read as another");
        assert_eq!(fix.text, line, "{mangled}");
    }
    assert!(keeps_words("пам’яті", "памТяті"));
    assert!(keeps_words("памТяті", "пам’яті"));
    assert!(!keeps_words("памТяті", "пам—яті"));
}

/// A line of capitals that a reading makes small needs less of its letters than a line of no
/// flaw: language names of the Ukrainian catalogs written in windows-1251 and read as KOI8-R
/// come back, 12 to 16 bits likelier; one of five letters, which too many readings explain,
/// and clean lines of capitals, whose readings are 6 bits likelier at most, stay.
#[test]
fn a_line_of_capitals_made_small_needs_less_evidence() {
    for word in ["гурманчема", "сегеджу"] {
        let mangled = mangle(word, 0, 1);
        assert!(all_capitals(mangled.as_bytes()), "{mangled}");
        let fix = undo_mojibake(&mangled).expect("windows-1251 as koi8-r");
        assert_eq!(fix.text, word);
        assert_eq!(fix.chain.to_string(), "windows-1251 read as koi8-r");
    }
    let short = mangle("кулон", 0, 1);
    for line in [
        short.as_str(),
        "ЦИКЪЛ: psi (%d)",
        "МРЕЖЕ",
        "[МСК_ОП [МСК_ТИПА [МСК_ТИПА]]]",
        "[ -r [ СВЕ ] ]",
    ] {
        assert!(undo_mojibake(line).is_none(), "{line}");
    }
}

/// IBM866's small `а` and `н` are windows-1251's no-break space and soft hyphen, which break a
/// word's letters apart: a sign of Latin-1 right before a Cyrillic letter (`¦Ґ`) sends the line
/// to the judging too. Clean text that puts such a sign before a word stays.
#[test]
fn a_sign_before_a_letter_sends_the_line_to_the_judging() {
    let line = "Изображение TIFF";
    // IBM866 (code page 3) read as windows-1251 (0).
    let mangled = mangle(line, 3, 0);
    assert_eq!(mangled, "€§®Ўа\u{a0}¦Ґ\u{ad}ЁҐ TIFF");
    let fix = undo_mojibake(&mangled).expect("ibm866 as windows-1251");
    assert_eq!(fix.text, line);
    assert_eq!(fix.chain.to_string(), "ibm866 read as windows-1251");
    for line in ["25°С и 30°С", "©Яндекс", "§Глава 5"] {
        assert!(undo_mojibake(line).is_none(), "{line}");
    }
}

/// A line of no flaw goes by its letters alone: windows-1251 read as ISO-8859-5 makes words of
/// small letters whose pairs no language writes, which come back, where a clean Serbian line of
/// rare words stays.
#[test]
fn a_line_of_no_flaw_goes_by_its_letters_alone() {
    // windows-1251 (code page 0) read as ISO-8859-5 (4).
    let line = "Республика Нигер";
    let mangled = mangle(line, 0, 4);
    assert_eq!(mangled, "ахёяѓсышър Эшух№");
    let fix = undo_mojibake(&mangled).expect("windows-1251 as iso-8859-5");
    assert_eq!(fix.text, line);
    assert_eq!(fix.chain.to_string(), "windows-1251 read as iso-8859-5");
    assert!(undo_mojibake("шкотски галски, шона, шпански, ђу, ђула").is_none());
}

/// x-mac-cyrillic and windows-1251 read as each other show most capitals as signs and Serbian
/// letters, and the guillemets as letters: a word that begins with a sign against its small
/// letters, a quote that nothing closes, a capital after a small letter, a closing quote that
/// was a word's last letter, one Serbian letter in a long Russian line.
#[test]
fn capitals_shown_as_signs_come_back() {
    for (line, want, chain) in [
        (
            "“становите, чтобы включить нажатиЯ кнопок мыши с помощью сенсорной панели.",
            "Установите, чтобы включить нажатия кнопок мыши с помощью сенсорной панели.",
            "x-mac-cyrillic read as windows-1251",
        ),
        (
            "‘охранЯемые курсоры должны быть READ ONLY.",
            "Сохраняемые курсоры должны быть READ ONLY.",
            "x-mac-cyrillic read as windows-1251",
        ),
        (
            "Ђбсолютное значение в коде ослаблениЯ. Ћшибка ассемблированиЯЙ",
            "Абсолютное значение в коде ослабления. Ошибка ассемблирования…",
            "x-mac-cyrillic read as windows-1251",
        ),
        (
            "Џредупреждение: вход в систему снова возможен.",
            "Предупреждение: вход в систему снова возможен.",
            "x-mac-cyrillic read as windows-1251",
        ),
        (
            "ђазмера значка установлен",
            "Размера значка установлен",
            "x-mac-cyrillic read as windows-1251",
        ),
        (
            "¬ключить звуки событий",
            "Включить звуки событий",
            "windows-1251 read as x-mac-cyrillic",
        ),
        (
            "не удалось прочитать символьную ссылку Ђ%.255sї",
            "не удалось прочитать символьную ссылку «%.255s»",
            "windows-1251 read as x-mac-cyrillic",
        ),
    ] {
        let fix = undo_mojibake(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(fix.text, want);
        assert_eq!(fix.chain.to_string(), chain, "{line}");
    }
    // Text that has these signs and letters of its own stays: a quote closed, an abbreviation
    // written against a word, a Serbian line with one Serbian letter, a dialogue's dash.
    for line in [
        "“слово” в кавычках и прочее",
        "подтипЦП:   %08lx",
        "Ђаци су добили нове свеске данас у школи",
        "— Привет, — сказал он.",
        "(ПРОПУЩЕНО)",
    ] {
        assert_eq!(undo_mojibake(line), None, "{line}");
    }
}

#[test]
fn signs_and_quotes_that_begin_words_are_counted() {
    assert_eq!(unclosed_quotes("“становить и ‘так’"), 1);
    assert_eq!(unclosed_quotes("“слово” и ‘так’"), 0);
    assert_eq!(unclosed_quotes("‘охранить"), 1);
    assert_eq!(unclosed_quotes("„слово“"), 0);
    assert_eq!(capitals_after_small("длЯ требуетсЯ типЦП ВКонтакте"), 2);
    assert_eq!(serbian_letters("Џорџ и Ђорђе"), 4);
    assert!(lone_serbian_initial(
        "Џредупреждение: вход в систему снова возможен."
    ));
    assert!(!lone_serbian_initial("Џредупреждение"));
    assert!(!lone_serbian_initial(
        "Предупреждение: вход в систему снова џ возможен."
    ));
    // A word whose letters no one alphabet holds is a flaw.
    assert_eq!(flaws("выџсните").0, 1);
    assert_eq!(flaws("выясните џак").0, 0);
}

#[test]
fn a_sign_that_begins_a_word_of_small_letters_is_suspect() {
    for line in ["—тобы", "“становить", "x \u{a0}онтрольные", "ссылку Ђ%sї"]
    {
        assert!(first_cyrillic_suspect(line.as_bytes()).is_some(), "{line}");
    }
    for line in ["слово — слово", "1–2 раза", "10\u{a0}км", "Ђ. Б."] {
        assert!(first_cyrillic_suspect(line.as_bytes()).is_none(), "{line}");
    }
}

#[test]
fn a_line_mostly_of_capitals_is_read_as_small_letters() {
    // KOI8-R read as windows-1251: the placeholder written in capitals became small letters,
    // the rest capitals.
    let line = "ИМЯ не задано, то по текущему процессу (может различаться, если база данных";
    let mangled = mangle(line, 1, 0);
    assert_eq!(
        mangled,
        "йнс ОЕ ЪБДБОП, ФП РП ФЕЛХЭЕНХ РТПГЕУУХ (НПЦЕФ ТБЪМЙЮБФШУС, ЕУМЙ ВБЪБ ДБООЩИ"
    );
    assert!(all_capitals(mangled.as_bytes()));
    let fix = undo_mojibake(&mangled).expect("koi8-r as windows-1251");
    assert_eq!(fix.text, line);
    assert_eq!(fix.chain.to_string(), "koi8-r read as windows-1251");
    // A placeholder written again is one word.
    let line = "stop СИМВОЛ     СИМВОЛ будет останавливать вывод";
    let mangled = mangle(line, 1, 0);
    assert_eq!(mangled, "stop уйнчпм     уйнчпм ВХДЕФ ПУФБОБЧМЙЧБФШ ЧЩЧПД");
    assert!(all_capitals(mangled.as_bytes()));
    assert_eq!(
        undo_mojibake(&mangled)
            .expect("koi8-r as windows-1251")
            .text,
        line
    );
    assert!(!all_capitals(
        "уйнчпм ВХДЕФ ПУФБОБЧМЙЧБФШ ЧЩЧПД уйнчпн".as_bytes()
    ));
    // Three words of capitals for each other word at least.
    assert!(!all_capitals(
        "ИСПОЛЬЗОВАНИЕ: команда [ПАРАМЕТРЫ]".as_bytes()
    ));
    assert!(all_capitals(
        "ИСПОЛЬЗОВАНИЕ: команда [ПАРАМЕТРЫ] ФАЙЛ".as_bytes()
    ));
    for line in [
        "ИСПОЛЬЗОВАНИЕ: команда [ПАРАМЕТРЫ] ФАЙЛ",
        "ВНИМАНИЕ: ОШИБКА ЗАПИСИ НА ДИСК, см. журнал",
    ] {
        assert_eq!(undo_mojibake(line), None, "{line}");
    }
}

#[test]
fn printf_directives_and_units_are_no_flaws() {
    // A directive that runs into a word is no Latin letter against it; a letter alone between
    // directives still is (x-mac-cyrillic's guillemets read as windows-1251).
    assert_eq!(flaws("%sФайл").0, 0);
    assert_eq!(flaws("%-10luФайл").0, 0);
    // Formatted twice: `%%s` becomes the directive.
    assert_eq!(flaws("%%sФайл").0, 0);
    assert_eq!(flaws("%%  Файл").0, 0);
    assert_eq!(flaws("З%sИ").0, 2);
    assert_eq!(flaws("З %sИ").0, 1);
    assert_eq!(flaws("Порт З%*sОстанній").0, 1);
    assert_eq!(flaws("%d об'єкт у%s").0, 0);
    // x-mac-cyrillic's guillemets read as windows-1251 around a directive: the line filter
    // stops at a letter alone before one, and the answer wins by the two flaws.
    come_back(
        &[
            "%F%P: неверный стиль хэша «%s»",
            "Не удалось открыть «%s»: %s",
        ],
        (5, 0),
        "З%sИ",
        "x-mac-cyrillic read as windows-1251",
    );
    // A unit of a capital, a small letter and a capital.
    assert_eq!(flaws("10 КиБ, 5 МіБ").0, 0);
    assert_eq!(flaws("КиБа").0, 1);
    // windows-1251 (code page 0) read as KOI8-R (1).
    come_back(
        &[
            "%s%s%s:%u: %s%sНе пройдено перевірку «%s».",
            "RES на основі файлів (КіБ)",
            "%%sПереместите эти файлы или удалите их перед %s.",
        ],
        (0, 1),
        "",
        "windows-1251 read as koi8-r",
    );
}

/// Each of `lines`, written in code page `pages.0` and read as `pages.1` (showing `shows`),
/// comes back whole, the chain named `chain`.
fn come_back(lines: &[&str], pages: (usize, usize), shows: &str, chain: &str) {
    for &line in lines {
        let mangled = mangle(line, pages.0, pages.1);
        assert!(mangled.contains(shows), "{mangled}");
        let fix = undo_mojibake(&mangled).unwrap_or_else(|| panic!("{mangled}"));
        assert_eq!(fix.text, line);
        assert_eq!(fix.chain.to_string(), chain);
    }
}

#[test]
fn a_dash_read_as_a_letter_alone_between_words_is_two_flaws() {
    // windows-1251's `—` read as x-mac-cyrillic is `Ч`, x-mac-cyrillic's `–` read as
    // windows-1251 `Р`; `С` and `Ц`, the other dashes, are the C language in catalogs.
    assert_eq!(flaws("о Ч файл").0, 2);
    assert_eq!(flaws("о Р файл").0, 2);
    assert_eq!(flaws("Ч файл, о Ч, ЧАС Ч ЧАС").0, 0);
    assert_eq!(flaws("файлы С сервера, скрипта Ц шкољке").0, 0);
    come_back(
        &[
            "\"%s\" — зарезервированный префикс.",
            "%s — не обычный файл",
        ],
        (0, 5),
        " Ч ",
        "windows-1251 read as x-mac-cyrillic",
    );
}

#[test]
fn a_hard_g_where_ukrainian_writes_none_is_a_flaw_of_the_line() {
    // x-mac-cyrillic's `і` is windows-1251's `ґ`: a Ukrainian line read so has `ґ` after its
    // consonants, at the start of words before consonants and alone, where Ukrainian writes it
    // after vowels and `н` and begins words with it before vowels, `р`, `л` and `в`.
    assert_eq!(hard_gs("помилка пґд час обробки: символґв"), 2);
    assert_eq!(hard_gs("ґндекс, те саме, що ґ --binary, -ґн"), 2);
    assert_eq!(
        hard_gs("теґ, аґрус, Вашинґтон, ґанок, ґрунт, ґвалт, Ґуна-Яла, п’ґ"),
        0
    );
    come_back(
        &[
            "помилка під час обробки: %s",
            "архів StuffIt",
            "індекс \"%s\" не є припустимим",
        ],
        (5, 0),
        "ґ",
        "x-mac-cyrillic read as windows-1251",
    );
    // Correct Ukrainian with `ґ` after a consonant stays.
    for line in ["Образи на підґрунті дискримінації", "Парґауйський край"]
    {
        assert!(undo_mojibake(line).is_none(), "{line}");
    }
}

#[test]
fn a_number_sign_after_a_letter_is_a_flaw() {
    // x-mac-cyrillic's `є` is windows-1251's `№`: text writes `№` before a number.
    assert_eq!(flaws("нема№ символґв").0, 1);
    assert_eq!(flaws("рядок № 5, №п/п").0, 0);
}

#[test]
fn a_word_that_begins_with_a_sign_weighs_two_flaws_on_a_long_line() {
    // A capital that x-mac-cyrillic and windows-1251 show as a sign in each other: on a line
    // of ten Cyrillic letters or more, the word weighs two flaws.
    come_back(
        &["Слишком много символов GOT: %lu", "_Додати до закладок"],
        (5, 0),
        "",
        "x-mac-cyrillic read as windows-1251",
    );
    // A short line says too little: `“иган` is `Уиган` read one way and `Тиган` the other.
    assert!(undo_mojibake("“иган").is_none());
}

#[test]
fn a_word_of_one_letter_beats_a_sign_alone() {
    // windows-1251's `В` is KOI8-R's `б`; another reading makes it `¬`, a sign no text writes
    // alone, and the pairs of letters of the rest cannot tell the two apart.
    assert_eq!(lone_signs("¬ строке, ‚ x"), 2);
    assert_eq!(lone_signs("В строке — «%s» № 5 …"), 0);
    come_back(
        &["В строке не закрыты кавычки."],
        (0, 1),
        "б ЯРПНЙЕ",
        "windows-1251 read as koi8-r",
    );
}

#[test]
fn a_word_of_one_letter_beats_a_quote_between_spaces() {
    // windows-1251's `У` is KOI8-R's `с`; another reading makes it `”`, a quote that closes
    // nothing at the start of the line. Quotes between spaces elsewhere are text's (`„ _ “`).
    assert_eq!(lone_signs("” вас, он « да » “x” «%s» !” ,”"), 1);
    assert_eq!(lone_signs("» вас"), 1);
    assert_eq!(lone_signs("„ _ “ префиксе"), 0);
    assert_eq!(lone_signs("”вас"), 0);
    // A quote alone between spaces, the line's only quote, opens or closes nothing either:
    // `С` is x-mac-cyrillic's `—` read as windows-1251, `“` another reading's.
    assert_eq!(lone_signs("Да, 42 “ это"), 1);
    assert_eq!(lone_signs("Да, 42 — это"), 0);
    come_back(
        &["У вас еще нет начального коммита"],
        (0, 1),
        "с БЮЯ",
        "windows-1251 read as koi8-r",
    );
    come_back(
        &["Да, 42 — это смысл жизни"],
        (5, 0),
        " С ",
        "x-mac-cyrillic read as windows-1251",
    );
}

#[test]
fn capitals_of_windows_1251_that_x_mac_cyrillic_shows_as_signs_come_back() {
    // `„ “` are `Д У`, `И` is `»`, `Д` is `ƒ`: the line filter stops at each.
    come_back(
        &[
            "псевдоними на „--continue“",
            "неправилна стойност за променливата „%s“",
            "Извеждане на опциите на GStreamer",
            "Дали да се показва предупреждение към полето за парола",
        ],
        (0, 5),
        "",
        "windows-1251 read as x-mac-cyrillic",
    );
}

#[test]
fn a_placeholder_in_small_letters_is_no_word_of_the_line() {
    // Placeholders are written in capitals (`--file=ФАЙЛ`, `ИМЯ_ФАЙЛА`): KOI8-R and
    // windows-1251 read as each other make them small, the words around them capitals.
    come_back(
        &[
            "-f,  --file=ФАЙЛ          как --date для каждой строки из ФАЙЛА",
            "--config-file=ИМЯ_ФАЙЛА    использовать указанный основной файл",
        ],
        (1, 0),
        "жбкм",
        "koi8-r read as windows-1251",
    );
    assert!(all_capitals(
        "ЛБЛ ДМС ЛБЦДПК --file=жбкм <жбкм> [жбкм] йнс_жбкмб".as_bytes()
    ));
    assert!(!all_capitals("ЛБЛ ДМС ЛБЦДПК жбкм сЗБ жбкмб".as_bytes()));
    // A word with capitals after `_` is no placeholder made small.
    assert!(!all_capitals("ЭРЧТР_ЪРЭРЫг".as_bytes()));
}
