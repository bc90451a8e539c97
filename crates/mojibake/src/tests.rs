use super::*;
use crate::automaton::*;
use crate::bytes::*;
use crate::candidates::*;
use crate::found::*;
use crate::judge::*;
use crate::languages::*;
use crate::layer::*;
use crate::letters::*;
use crate::line::*;
use crate::plans::*;
use crate::reencode::windows_1252_bytes;
use crate::scripts::*;
use crate::shortcut::*;
use crate::tables::*;
use crate::verdict::*;
use utf8kit_codec::unit::declared_len;

/// (input, expected output), where `None` means unchanged.
const PATTERNS: &[(&str, Option<&str>)] = &[
    ("cafÃ©", Some("café")),
    // The IPA letters of African orthographies, after a lowercase letter, starting a word
    // before one, or after a title-case capital.
    ("likrÉ›ni, ZapÉ”", Some("likrɛni, Zapɔ")),
    ("DentuÉ—i Amerik", Some("Dentuɗi Amerik")),
    ("É”tb, nvb", Some("ɔtb, nvb")),
    ("DÉ”mimiki, MÉ›sik", Some("Dɔmimiki, Mɛsik")),
    // Pointed Hebrew and the geresh; Syriac; NKo and its marks; Chakma in plane 1; Church
    // Slavonic's breathing.
    ("×\u{90}Ö·×–×¢×¨×‘×™×™×“×–×©", Some("אַזערביידזש")),
    ("×\u{90}×•×‘×™×’×³×•×•×”", Some("אוביג׳ווה")),
    ("Ü“Ü˜ÜªÜ“Ü\u{9D}Ü\u{90}Ü\u{9D}Ü¬", Some("ܓܘܪܓܝܐܝܬ")),
    ("ßžßŠßžß\u{8F}ßžßŠß²", Some("ߞߊߞߏߞߊ߲")),
    ("ð‘„ƒð‘„‹ð‘„³ð‘„‰ð‘„¨ð‘„‡", Some("𑄃𑄋𑄳𑄉𑄨𑄇")),
    ("Ð°Ò†Ð±Ñ…Ð°Ì\u{81}Ð·Ñ\u{81}ÐºÑ—Ð¹", Some("а҆бха́зскїй")),
    // Latin and Cyrillic letters of the extended blocks are of their script: "ꞌ" between
    // Latin letters, "е" after Church Slavonic's combining "ⷣ".
    ("NdaêžŒa", Some("Ndaꞌa")),
    ("Ð½Ð´â·§Ò‡Ñ§, Ð¿Ð½â·£Ðµ, Ð²Ñ‚Ð¾â·¬Ò‡", Some("ндⷧ҇ѧ, пнⷣе, втоⷬ҇")),
    // A capital inside a lowercase word is a lead, in any encoding: windows-1250, -1257.
    ("azerbejdĹľanski, aÄŤinski", Some("azerbejdžanski, ačinski")),
    ("jĆødisk-arabisk", Some("jødisk-arabisk")),
    // Windows-1250 explains these bytes as well as windows-1257 does, with letters of Latin
    // Extended-B and capitals inside words ("LƤƤne", "vokieĨių"): the plainer reading wins.
    ("LĆ¤Ć¤ne-Virumaa, grĆ¶Ć¶ni", Some("Lääne-Virumaa, grööni")),
    ("trijos vokieÄ¨iÅ³", Some("trijos vokiečių")),
    (
        "Rwanda, RĆ©union, CuraĆ§ao",
        Some("Rwanda, Réunion, Curaçao"),
    ),
    // Windows-1250 and ISO-8859-2 read these alike but for a letter: the commoner one wins
    // ("š" over "ť", "á" over "å").
    ("akanĹĄtina, abchĂĄzĹĄtina", Some("akanština, abcházština")),
    // Through windows-1257 and windows-1250 alike; the ideograph is the commoner reading.
    ("2ę\u{9C}\u{88}, 3ę\u{9C}\u{88}", Some("2月, 3月")),
    // Three Latin letters are no word: CJK through MacRoman ("2月, 3月").
    ("2Êúà, 3Êúà", Some("2月, 3月")),
    // Chuvash typed with the Latin ă, ĕ, ç among Cyrillic letters, through windows-1251.
    (
        "РІДѓС‚Р°Г§Д•СЂ, РІДѓСЂДѓРјДѓС€, С‚Д•СЂД•СЃР»РµРІ",
        Some("вăтаçĕр, вăрăмăш, тĕрĕслев"),
    ),
    // Box characters against a word are a letter through IBM437; between single letters and
    // beside other box characters they are drawing.
    (
        "j├╕disk-arabisk, merkist├╢",
        Some("jødisk-arabisk, merkistö"),
    ),
    ("├┤a┼┐a┼┐a┼┐a", None),
    ("│ab├┤cd│", None),
    ("word ab├┤─cd", None),
    ("┌──┐ab├┤─", None),
    // MacRoman signs starting a lowercase word are its first letter; in a formula they stay.
    (
        "zuni, √∏stfrisisk, √∂sterrikisk",
        Some("zuni, østfrisisk, österrikisk"),
    ),
    ("2√πr, x √πr² y", None),
    // ... but not a capital before a sign where text puts one, nor German "ß", "Ö", "Ü" and
    // Italian "Ò" before quotes, dashes, ellipses, no-break spaces and middle dots, nor a
    // times sign before a no-break space.
    ("CAFÉ–BAR, CAFÉ–bar, CAFÉ”, «É»", None),
    ("CAFÉ\u{A0}É… CAFÉ’É…", None),
    ("Fuß“ und Straß… sind da, Maß²", None),
    ("ß\u{A0}ß\u{A0}où, ß’ß’, ß”ß—", None),
    ("„MÜ“ und „Ü“, Ü™", None),
    ("PERCHÒ… non so", None),
    ("ÖL·, Ö·", None),
    ("×\u{A0}×\u{A0}où", None),
    // A list of symbols: a capital before a fraction is no rare letter of Latin Extended-B,
    // whose clear mojibake stands among letters ("Hausa Æ™" is "ƙ").
    ("b='€Æ¾÷ß', Æ¾", None),
    // Spanish quotes: a word-final letter, a closing guillemet and punctuation.
    ("«mamá»… «está»—dijo", None),
    ("maÆ™i, Æ™arfe", Some("maƙi, ƙarfe")),
    // The letters of real orthographies are not rare, standing alone too: Hausa "ƙ".
    ("(Æ™)", Some("(ƙ)")),
    // Translated user interfaces: Ukrainian, Czech, Serbian, German, Italian names in
    // Cyrillic, Bulgarian. Each has groups in some legacy encoding, none is mojibake.
    ("Підпис діє до %s; строк дії ключа", None),
    ("Від’ємне вирівнювання, теґів", None),
    ("BĚŽÍ, ZASTAVENO", None),
    ("*** УПОЗОРЕЊЕ *** [НИЈЕ конвертовано]", None),
    ("Kyrillisch, »З« und »Ж« vertauscht", None),
    ("Л’Акуила", None),
    ("ТриГ РДФ документ", None),
    ("сръбска — кирилица", None),
    // Garble left by a MacRoman layer over Arabic: "ßŸ" against "Ü" is no NKo letter.
    ("سىر ßŸÜÿßŸÜ-ÿ وڭوچە", None),
    // Damage alone is no evidence: a byte lost to `?` ("😀"), an A0 turned into a space ("Р").
    // Beside clear mojibake both are repaired.
    ("x ð?Ÿ˜ y", None),
    ("x ð?Ÿ˜ y cafÃ©", Some("x \u{FFFD} y café")),
    ("Ð  and", None),
    ("Ð  and Ã©", Some("Р and é")),
    // Through ISO-8859-2, whose C1 controls make the dash clear mojibake: the letters beside it
    // go too, though each alone reads as Latin text.
    (
        "KongĂł â\u{80}\u{93} Brazzaville, KoszovĂł",
        Some("Kongó – Brazzaville, Koszovó"),
    ),
    // Latvian with a closing quote and a no-break space turned into a space: the quote is no
    // group that lost its A0, and cannot vouch for "É…" beside it.
    ("Latvijā” É… ", None),
    // A modifier letter of no script, vouched for by the line's clear mojibake.
    (
        "gwichĘźin, gĂłrnoĹ\u{82}uĹźycki",
        Some("gwichʼin, górnołużycki"),
    ),
    ("itâ€™s", Some("it’s")),
    ("â€œquotedâ€\u{9D}", Some("“quoted”")),
    ("â€œquotedâ€", Some("“quoted\u{FFFD}")),
    ("naÃ¯ve rÃ©sumÃ©", Some("naïve résumé")),
    ("GrÃ¼ÃŸe", Some("Grüße")),
    ("ZaÅ¼Ã³Å‚Ä‡ gÄ™Å›lÄ… jaÅºÅ„", Some("Zażółć gęślą jaźń")),
    ("Ã‰COLE", Some("ÉCOLE")),
    ("ÐŸÑ€Ð¸Ð²ÐµÑ‚", Some("Привет")),
    ("Î“ÎµÎ¹Î¬", Some("Γειά")),
    ("æ—¥æœ¬èªž", Some("日本語")),
    ("í•œêµ\u{AD}ì–´", Some("한국어")),
    ("ðŸ˜€", Some("😀")),
    ("Ã¡rbol", Some("árbol")),
    ("cafÃƒÂ©", Some("café")),
    ("cafÃƒÆ’Ã‚Â©", Some("café")),
    ("Â£5 Â© 2024", Some("£5 © 2024")),
    ("ÃŽle", Some("Île")),
    ("caf\u{C3}\u{A9}", Some("café")),
    ("â\u{80}\u{99}", Some("’")),
    ("Ã\u{FFFD} la", Some("\u{FFFD} la")),
    ("voilÃ  la rÃ©ponse", Some("voilà la réponse")),
    ("ï¿½", Some("\u{FFFD}")),
    ("gwichÊ¼in, vÃƒÂµro", Some("gwichʼin, võro")),
    ("KÃ¢â‚¬â„¢icheÃ¢â‚¬â„¢", Some("K’iche’")),
    ("MÃ„Â\u{81}ori", Some("Māori")),
    ("ÐŸÑ\u{FFFD}Ð¸", Some("П\u{FFFD}и")),
    ("MÄ\u{FFFD}ori", Some("M\u{FFFD}ori")),
    ("Î“Ï\u{81}Î±Î¼Î¼Î¹ÎºÏŒ Î’", Some("Γραμμικό Β")),
    ("ç·šæ–‡å\u{AD}—A, RINETåŸºé‡‘", Some("線文字A, RINET基金")),
    ("åŒ—, å\u{FFFD}—ã‚¢", Some("北, \u{FFFD}ア")),
    ("Ã£Æ’Â\u{90}", Some("バ")),
    (
        "An DÃ\u{A0} Aimeireaga, voilÃ\u{A0}",
        Some("An Dà Aimeireaga, voilà"),
    ),
    ("Ú†Ú¾Ý¨", Some("چھݨ")),
    ("NÖ\u{A0}×’", None),
    ("Õ¡Õ¢", Some("աբ")),
    (
        "ä»®å\u{FFFD}\u{FFFD}, ã\u{FFFD}\u{FFFD}å‡º",
        Some("仮\u{FFFD}, \u{FFFD}出"),
    ),
    ("Ð¸Ñ\u{FFFD}", Some("и\u{FFFD}")),
    ("CAFÉ… Î’", None),
    ("été\u{A0}© ", None),
    ("à\u{A0}© ", None),
    ("avó’®’", None),
    ("×’µm", None),
    ("Ð² Ð¼Ð¸Ñ€Ðµ", Some("в мире")),
    ("ì\u{A0}€ëŠ” í•™ìƒ\u{9D}", Some("저는 학생")),
    ("NÃ– NÃ¼", Some("NÖ Nü")),
    ("IRMÃ’été IRMÃ… “IRMÃ” «IRMÃ» ", None),
    ("nÃ… Ã…rhus", Some("nÅ Århus")),
    ("HÄ’été HÄ\u{A0}été", None),
    ("IRMÃ\u{A0}été", None),
    ("TÃ\u{A0}idh", Some("Tàidh")),
    // A lone pair on a line whose other non-ASCII text is correct UTF-8 is left as written.
    ("IRMÃ\u{A0}été TÃ\u{A0}idh", None),
    ("Bremer/Mccoy – DrÃ¥ber", None),
    (
        "Å\u{A0}panÄ›lsko, Ã’gmhios, MÃ\u{A0}rt, Ä\u{A0}ermaniÅ¼",
        Some("Španělsko, Ògmhios, Màrt, Ġermaniż"),
    ),
    ("È™i È›arÄƒ", Some("și țară")),
    ("Ãˆâ„¢i Ãˆâ€ºarÃ„Æ’", Some("și țară")),
    ("Ã\u{90}Å¸Ã‘â‚¬Ã\u{90}Â¸", Some("При")),
    // Correct text stays as it is.
    ("café", None),
    ("SÃO PAULO", None),
    ("AÑO’S", None),
    ("ESPAÑA…", None),
    ("HÄ… und NÖ”", None),
    ("Ã‰…", Some("É…")),
    ("MogÄ… byÄ‡, sÄ… tam.", Some("Mogą być, są tam.")),
    ("É… et À bientôt", None),
    ("PIÙ…", None),
    ("CAFÉ…", None),
    ("CAFÉ\u{A0}!", None),
    ("Ð is an Icelandic letter; Ñandú", None),
    ("50¢ © 2024 €5 Â", None),
    ("Ã la carte", None),
    ("café”… done", None),
    ("Привет, мир", None),
    ("日本語のテキスト", None),
    ("한국어 텍스트", None),
    ("Ελληνικά", None),
    ("Zażółć gęślą jaźń", None),
    ("Çok güzel, İstanbul’da", None),
    ("Ångström, Øresund, Ærø", None),
    ("naïve façade — “quotes” ‘single’ … • ™", None),
    // Translated messages (gettext catalogs) through each encoding: a no-break space before a
    // colon, Korean and Japanese against placeholders, Italian "è" alone and after an elision,
    // a title-case word, box characters inside a word, Spanish "¿", guillemets and quotes,
    // CJK punctuation, and pairs of letters no one language writes.
    (
        "Erreur %PÂ\u{A0}: ne peut",
        Some("Erreur %P\u{A0}: ne peut"),
    ),
    (
        "Erreur %PВ\u{A0}: ne peut",
        Some("Erreur %P\u{A0}: ne peut"),
    ),
    (
        "ê¼´ì\u{9D}„ ì°¾ì\u{9D}„ ìˆ˜ ì—†ì–´ì„œ GUIë¥¼ ì‹¤í–‰í•\u{A0} ìˆ˜ ì—†ìŠµë‹ˆë‹¤",
        Some("꼴을 찾을 수 없어서 GUI를 실행할 수 없습니다"),
    ),
    (
        "%sã\u{81}¨%sã\u{81}®ä¸¡æ–¹ã‚’å\u{90}Œæ™‚ã\u{81}«",
        Some("%sと%sの両方を同時に"),
    ),
    ("%s ГЁ una funzione", Some("%s è una funzione")),
    ("non c'ĆØ la stringa", Some("non c'è la stringa")),
    ("Klarte ikke ГҐ laste", Some("Klarte ikke å laste")),
    ("an `diff` Ăźbergeben", Some("an `diff` übergeben")),
    ("FĆølgende", Some("Følgende")),
    ("ignoriert f├╝r %s", Some("ignoriert für %s")),
    ("ÂżEstĂˇ seguro?", Some("¿Está seguro?")),
    ("Verzeichnis Âť%sÂŤ nicht", Some("Verzeichnis »%s« nicht")),
    ("oДЌekГЎvГЎna вЂћ)вЂњ", Some("očekávána „)“")),
    ("éťžäż®č¨‚ç‰\u{88}ďĽšă€Ś%să€Ť", Some("非修訂版：「%s」")),
    ("ÄŚAS", Some("ČAS")),
    ("DISP_FĂŤSICO", Some("DISP_FÍSICO")),
    // Vietnamese syllables that "à" carries, its A0 turned into a space: through windows-1250
    // and windows-1252; French "à y" keeps its space.
    (
        "Xem clip hĂ i, phim hĂ i má»›i hay nháşĄt",
        Some("Xem clip hài, phim hài mới hay nhất"),
    ),
    ("phim hÃ i hay, lÃ m viá»‡c", Some("phim hài hay, làm việc")),
    ("prÃªt Ã  y aller", Some("prêt à y aller")),
    // A byte an encoder could not write, as `?`, after any lead inside a word or after a
    // group; A0 turned into a space inside CJK and Hangul groups, beside clear mojibake of
    // their script. A `?` that ends a question, and a space between "è" and a dash, stay.
    (
        "Ð°Ð±Ñ…Ð°Ð·Ñ?ÐºÐ¸Ð¹, Ð±Ð°Ñ„Ð¸Ñ?, Î‘Ï†Ï?Î¹ÎºÎ®",
        Some("абхаз\u{FFFD}кий, бафи\u{FFFD}, Αφ\u{FFFD}ική"),
    ),
    ("¿Y la Ñ? cafÃ© crÃ¨me", Some("¿Y la Ñ? café crème")),
    ("ë ˆì¦ˆê¸°ì•ˆì–´", Some("레즈기안어")),
    (
        "cafÃ© trÃ¨s – bien, très – bien",
        Some("café très – bien, très – bien"),
    ),
    // French spacing before punctuation after a word in capitals; romaji in capitals keeps
    // its "Â" (one of ftfy's negative cases).
    (
        "que celui d'IDÂ\u{A0}; ou Ã©cho",
        Some("que celui d'ID\u{A0}; ou écho"),
    ),
    ("MISUTÂ\u{A0}AJIKKO", None),
    // A space stands for A0 only where A0 is the no-break space: not in IBM437 ("á") or
    // MacRoman ("†"), where "µ│ " is no "泠".
    (
        "µ»öσê⌐µù╢µ│  âÄ, µ»öσê⌐µù╢",
        Some("µ»öσê⌐µù╢µ│  âÄ, 比利时"),
    ),
    // ... but a lone cedilla from two letters of no one language stays (one of ftfy's negative
    // cases).
    ("Connect with Āø on Facebook", None),
    // Common signs from two letters of no one language, through ISO-8859-2; "¡" keeps its
    // reading where windows-1250 makes "¥" of the same letters.
    (
        "This file is Copyright ÂŠ 2004-2009 the authors",
        Some("This file is Copyright © 2004-2009 the authors"),
    ),
    (
        "title=\"Permalink to this heading\">Âś</a>",
        Some("title=\"Permalink to this heading\">¶</a>"),
    ),
    (
        "ÂĄLos hunks seleccionados!",
        Some("¡Los hunks seleccionados!"),
    ),
    // Ties of ISO-8859-2 and windows-1250: "ß" after a consonant, a capital second in a word,
    // "Ê" or "Î" beginning a word after a lowercase one are the wrong reading. Names that
    // begin with a capital mid-sentence, and German nouns, keep theirs.
    ("Wird ignoriert fĂźr %s", Some("Wird ignoriert für %s")),
    (
        "les triggers sur ĂŠvĂ¨nement",
        Some("les triggers sur évènement"),
    ),
    (
        "terminator lipsÄ\u{83} ĂŽn numele",
        Some("terminator lipsă în numele"),
    ),
    ("DĂŠanta (%d)", Some("Déanta (%d)")),
    (
        "Demirgazyk Ăťewropa, GĂĽnorta Sudan",
        Some("Demirgazyk Ýewropa, Günorta Sudan"),
    ),
    ("Zeigt die Ăśbersicht an", Some("Zeigt die Übersicht an")),
    (
        "Insulele Ć…land, Insulele ĆˇndepÄ\u{83}rtate ale S.U.A.",
        Some("Insulele Åland, Insulele Îndepărtate ale S.U.A."),
    ),
];

#[test]
fn patterns() {
    let failures: Vec<String> = PATTERNS
        .iter()
        .filter_map(|(input, expected)| {
            let got = fix_mojibake(input).map(|(text, _)| text);
            (got.as_deref() != *expected)
                .then(|| format!("{input:?}: got {got:?}, want {expected:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixing_is_idempotent() {
    for (input, _) in PATTERNS {
        let once = fix_mojibake(input).map_or_else(|| input.to_string(), |(t, _)| t);
        assert_eq!(fix_mojibake(&once), None, "input {input:?} gave {once:?}");
    }
}

/// Found by the fuzz target `mojibake` (issue 9): chains of "Â" deeper than any real text
/// kept changing after the last pass, so a second repair changed the output again.
#[test]
fn issue_9_fuzz_deep_chains_stay_idempotent() {
    let input = "~Êªª,Ê\u{8a}ª{{Â\u{a0}Â\u{a0}Âª\0\0\0uÂÃÂÂÂÂÂÂÂÂÂÂ£çÂÂÂ£çãã\u{a0}Âªª,Ê\u{8a}ª{{\
                 Â\u{a0}Âª\0\0";
    let once = fix_mojibake(input).map_or_else(|| input.to_owned(), |(fixed, _)| fixed);
    assert_eq!(fix_mojibake(&once), None);
}

#[test]
fn text_that_peels_forever_is_left_alone() {
    let deep = format!("{}£", "Â".repeat(12));
    assert_eq!(fix_mojibake(&deep), None);
    assert_eq!(fix_mojibake("ÂÂ£").unwrap().0, "£", "two layers are fine");
}

#[test]
fn layers_are_counted() {
    assert_eq!(fix_mojibake("cafÃƒÂ©").unwrap().1, 3);
}

#[test]
fn long_text_is_cut_between_groups_never_inside_one() {
    // "Ã©" is one group (é read as windows-1252): the cut must fall before an "Ã".
    let text = "Ã©".repeat(100);
    let cut = cut_between_groups(text.as_bytes(), 64).unwrap();
    assert!(
        text[cut..].starts_with('Ã') && text[..cut].ends_with('©'),
        "{cut}"
    );
    assert!(text.len() - cut <= 64);
    // Cyrillic mojibake through windows-1251 ("РґРѕ" for "до"): before an "Р".
    let text = "РґРѕ".repeat(50);
    let cut = cut_between_groups(text.as_bytes(), 64).unwrap();
    assert!(text[cut..].starts_with('Р'), "{cut}");
    // Characters no table holds (CJK) may be cut anywhere.
    let text = "漢字".repeat(50);
    assert_eq!(
        cut_between_groups(text.as_bytes(), 64),
        Some(text.len() - 3)
    );
    // Continuation characters only: no place to cut.
    let text = "©".repeat(50);
    assert_eq!(cut_between_groups(text.as_bytes(), 64), None);
}

#[test]
fn greek_with_quotes_is_not_cuneiform() {
    // Found by the clean-text property test: "π’®’" read as windows-1253 is the 4-byte form of
    // U+12B92, a cuneiform sign.
    assert_eq!(undo_mojibake("√π’®’"), None);
    assert_eq!(undo_mojibake("τιμή: π’®’ 5"), None);
}

#[test]
fn a_no_break_space_before_a_sign_is_not_a_modifier_letter() {
    // Found by the clean-text property test: "\u{a0}±" read as MacRoman is CA B1, the 2-byte
    // form of U+02B1, a modifier letter of phonetics.
    assert_eq!(undo_mojibake("Tiếng\u{a0}±1"), None);
    assert_eq!(undo_mojibake("x\u{a0}±2 y"), None);
}

#[test]
fn the_byte_index_agrees_with_the_table_for_every_character() {
    for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
        let listed = OTHER_BYTES
            .iter()
            .find(|(k, _)| *k == c)
            .map(|(_, bytes)| bytes)
            .or_else(|| LATIN1_BYTES.get((u32::from(c) - 0x80) as usize));
        assert_eq!(bytes_of(c), listed, "{c:?}");
    }
}

/// The table of masks holds, for every character it covers, what `masks` computes, and
/// U+FFFD as a continuation byte lost in windows-1252; characters outside it have none.
#[test]
fn the_mask_table_agrees_with_masks() {
    let table = MaskTable::get();
    for c in ('\u{80}'..='\u{10FFFF}').filter(|c| c.len_utf8() > 1) {
        let mut bytes = [0; 4];
        let encoded = c.encode_utf8(&mut bytes);
        let (got, len) = table.of(encoded.as_bytes());
        assert_eq!(len, c.len_utf8(), "{c:?}");
        let expected = match c {
            '\u{FFFD}' => LOST_BYTE,
            _ => masks(c),
        };
        assert_eq!(got, expected, "{c:?}");
    }
}

proptest::proptest! {
    /// The encodings that `possible_encodings` passes over would change nothing: each one's
    /// plan accepts no candidate, so judging only the possible ones gives the same repair, and
    /// a line with none possible (the line filter's answer) is left as it is. Lines are drawn
    /// thick with stand-ins for lost bytes, which alone are never evidence.
    #[test]
    fn encodings_passed_over_accept_nothing(
        picks in proptest::collection::vec(0usize..5000, 0..40)
    ) {
        let mut alphabet: Vec<char> = ('\u{80}'..='\u{FF}').collect();
        alphabet.extend(OTHER_BYTES.iter().map(|(c, _)| *c));
        let text: String = picks
            .iter()
            .map(|&k| match k % 3 {
                0 => [' ', '?', 'k', '\u{FFFD}', 'A'][k / 3 % 5],
                _ => alphabet[k / 3 % alphabet.len()],
            })
            .collect();
        let possible = possible_encodings(text.chars());
        let line = Line::new(&text);
        // The pass that makes the line gives the same encodings, and counts what each reads.
        proptest::prop_assert_eq!(line.possible, possible, "{:?}", text);
        for (e, (&counted, name)) in line.readable.iter().zip(NAMES).enumerate() {
            let readable = text.chars().filter(|&c| byte_in(c, e) >= 0x80).count();
            proptest::prop_assert_eq!(counted, readable, "{:?} in {}", text, name);
        }
        proptest::prop_assert_eq!(line.has_c1, text.chars().any(is_c1_control));
        for e in (0..COUNT).filter(|e| possible & 1 << e == 0) {
            let plan = plan_for(&line, e, find_candidates(&line, e));
            proptest::prop_assert_eq!(plan.weight, 0, "{:?} in {}", text, NAMES[e]);
        }
        // The single-byte judging finds nothing where no encoding is possible.
        if possible == 0 {
            proptest::prop_assert!(judge_layer(&text).is_none(), "{:?}", text);
        }
    }
}

/// Every lead C2..F4 followed by every run of continuation bytes it declares decodes as
/// `std::str::from_utf8` says: overlongs, surrogates and values past U+10FFFF refused.
#[test]
fn groups_decode_as_std_decodes_them() {
    let mut checked = 0;
    let mut refused = 0;
    for lead in 0xC2..=0xF4u8 {
        let len = declared_len(lead).expect("a lead byte");
        let runs = 64u32.pow(u32::try_from(len - 1).expect("at most 3"));
        for run in 0..runs {
            let mut bytes = [lead, 0x80, 0x80, 0x80];
            for (k, b) in bytes[1..len].iter_mut().enumerate() {
                *b = 0x80 | u8::try_from(run >> (6 * k) & 0x3F).expect("six bits");
            }
            let bytes = &bytes[..len];
            let expected = std::str::from_utf8(bytes)
                .ok()
                .map(|s| s.chars().next().expect("one character"));
            assert_eq!(decode_group(bytes), expected, "{bytes:02X?}");
            checked += 1;
            refused += usize::from(expected.is_none());
        }
    }
    // 30 2-byte leads, 16 3-byte leads, 5 4-byte leads with every continuation.
    assert_eq!(checked, 30 * 64 + 16 * 64 * 64 + 5 * 64 * 64 * 64);
    assert!(refused > 0);
}

/// The lowercase that `languages` and `rarity` read is the standard library's wherever either
/// lands among the letters they name (Latin-1 and Latin Extended-A).
#[test]
fn latin_lowercase_is_the_standard_lowercase_where_it_matters() {
    let mut lowered = 0;
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let std = c.to_lowercase().next().unwrap_or(c);
        let ours = latin_lowercase(c);
        let matters = |x: char| ('\u{C0}'..='\u{17F}').contains(&x);
        if matters(std) || matters(ours) {
            assert_eq!(ours, std, "{c:?}");
            lowered += usize::from(ours != c);
        }
    }
    // The capitals of Latin-1 and Latin Extended-A, "ẞ" and the Ångström sign.
    assert!(lowered > 90, "{lowered}");
}

/// A group of two letters of an encoding's script that what follows shows to be a word (a
/// letter of the script that begins no whole group) is never clear mojibake, so a line whose
/// only groups are such is judged to need nothing in that encoding, as `possible_encodings`
/// passes over it: whatever stands before the group (ASCII, a letter, a decoded group) and
/// after it (a whole group, one broken off, a stand-in, the end).
#[test]
fn script_words_held_back_are_never_accepted() {
    let mut alphabet: Vec<char> = ('\u{80}'..='\u{FF}').collect();
    alphabet.extend(OTHER_BYTES.iter().map(|(c, _)| *c));
    let [leads, conts, letters] = script_letters(&alphabet);
    let mut checked = 0;
    for &a in &leads {
        for &b in &conts {
            for &c in &letters {
                for d in ["", "Ђ", "і", "x", "?", "\u{FFFD}", "в", "Пх"] {
                    for text in [
                        format!("{a}{b}{c}{d}"),
                        format!("x {a}{b}{c}{d} y"),
                        format!("x{a}{b}{c}{d}"),
                        format!("ж x{a}{b}{c}{d}"),
                        format!("ж, {a}{b}{c}{d}x"),
                        format!("{a}{b}{c}{d}é"),
                        format!("Рё{a}{b}{c}{d}"),
                    ] {
                        let possible = possible_encodings(text.chars());
                        checked += assert_passed_over_accept_nothing(&text, 0..COUNT);
                        // The single-byte judging; a whole-line reading of Cyrillic code
                        // pages has tests of its own (`cyrillic::tests`).
                        if possible == 0 {
                            assert!(judge_layer(&text).is_none(), "{text:?}");
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// Two letters that windows-1252 has where they begin no group ("À", "à") are text in any other
/// encoding, never clear mojibake ("Ààrin" in Yoruba is no "ˈrin" through MacRoman): the
/// encodings that only such pairs explain are passed over, and judging them accepts nothing.
#[test]
fn pairs_of_western_letters_are_never_clear_elsewhere() {
    let western: Vec<char> = ('\u{C0}'..='\u{FF}')
        .filter(|&c| is_alphabetic(c))
        .collect();
    let mut passed_over = 0;
    for &a in &western {
        for &b in &western {
            for text in [
                format!("{a}{b}"),
                format!("x{a}{b}rin"),
                format!("Ð¿{a}{b}"),
            ] {
                assert_passed_over_accept_nothing(&text, 1..COUNT);
            }
            let pair = format!("{a}{b}");
            assert_eq!(possible_encodings(pair.chars()) & !1, 0, "{pair}");
            let line = Line::new(&pair);
            passed_over += usize::from((1..COUNT).any(|e| !find_candidates(&line, e).is_empty()));
        }
    }
    // Such pairs make groups in some encoding (MacRoman's "À", windows-1250's "Ă"...).
    assert!(passed_over > 33, "{passed_over}");
}

/// Each encoding of `encodings` that `possible_encodings` passes over in `text` accepts nothing
/// when judged; how many were judged.
fn assert_passed_over_accept_nothing(text: &str, encodings: std::ops::Range<usize>) -> usize {
    let possible = possible_encodings(text.chars());
    let line = Line::new(text);
    let mut judged = 0;
    for e in encodings.filter(|e| possible & 1 << e == 0) {
        let plan = plan_for(&line, e, find_candidates(&line, e));
        assert_eq!(plan.weight, 0, "{text:?} in {}", NAMES[e]);
        judged += 1;
    }
    judged
}

/// From `alphabet`, a sample of the letters of an encoding's script that lead a 2- or 3-byte
/// group and of those that continue one, with the commonest added ("вЂЂ", U+2000, is a sign
/// made of three letters); and every such letter.
pub(super) fn script_letters(alphabet: &[char]) -> [Vec<char>; 3] {
    let table = MaskTable::get();
    let with = |pick: fn(&Masks) -> u16| -> Vec<char> {
        alphabet
            .iter()
            .copied()
            .filter(|&c| !c.is_ascii() && pick(&table.of_char(c)) != 0)
            .collect()
    };
    let mut leads: Vec<char> = with(|m| m.letter & (m.lead[0] | m.lead[1]))
        .into_iter()
        .step_by(3)
        .collect();
    let mut conts: Vec<char> = with(|m| m.letter & m.cont).into_iter().step_by(2).collect();
    leads.extend(['в', 'П', 'г']);
    conts.extend(['Ђ', 'і', 'ё', 'ѓ']);
    [leads, conts, with(|m| m.letter)]
}

/// What stands beside a group as `judge` hands it to `is_plausible`: nothing, original text
/// (ASCII, letters of several scripts, signs), and decoded letters and signs, sure or not.
fn neighbours() -> Vec<Option<Neighbour>> {
    let mut all = vec![None];
    let original = [' ', ',', 'a', 'Z', 's', 'é', 'а', 'α', '’', '\u{A0}', '中'];
    all.extend(original.map(|c| {
        Some(Neighbour {
            c,
            is_decoded: false,
            is_sure: false,
        })
    }));
    let decoded = ['а', 'Я', 'α', 'ب', 'ա', 'é', 'ह', '中', '€', '\u{FFFD}'];
    all.extend(decoded.map(|c| {
        Some(Neighbour {
            c,
            is_decoded: true,
            is_sure: true,
        })
    }));
    all.extend(['а', 'Я', 'é'].map(|c| {
        Some(Neighbour {
            c,
            is_decoded: true,
            is_sure: false,
        })
    }));
    all
}

/// `is_surely_clear` says yes only where `is_plausible` does, for windows-1252: every 2-byte
/// group, every 3-byte group with a sample of last bytes, and 4-byte groups of each lead, each
/// beside every pair of neighbours of `neighbours` and four kinds of farther ones.
#[test]
fn groups_surely_clear_are_plausible() {
    let near = neighbours();
    let letter = |c: char, is_decoded: bool| {
        Some(Neighbour {
            c,
            is_decoded,
            is_sure: is_decoded,
        })
    };
    let far = [
        (None, None),
        (letter('a', false), letter('Z', false)),
        (letter('Z', false), letter('s', false)),
        (letter('а', true), letter('α', true)),
    ];
    let mut groups: Vec<Vec<u8>> = Vec::new();
    for lead in 0xC2..=0xF4u8 {
        let len = declared_len(lead).expect("a lead byte");
        for second in 0x80..=0xBFu8 {
            let rest: Vec<Vec<u8>> = match len {
                2 => vec![vec![]],
                3 => (0x80..=0xBFu8).step_by(9).map(|b| vec![b]).collect(),
                _ => (0x80..=0xBFu8)
                    .step_by(21)
                    .flat_map(|b| [vec![b, 0x80], vec![b, 0xA9]])
                    .collect(),
            };
            for tail in rest {
                let mut group = vec![lead, second];
                group.extend(tail);
                groups.push(group);
            }
        }
    }
    let (mut clear, mut kinds) = (0, Vec::new());
    for bytes in &groups {
        let Some(decoded) = decode_group(bytes) else {
            continue;
        };
        let group: Vec<char> = bytes
            .iter()
            .map(|&b| windows_1252_char(char::from(b)))
            .collect();
        for &prev in &near {
            for &next in &near {
                for &(before_prev, after_next) in &far {
                    for holds_back in [false, true] {
                        let context = Context {
                            holds_back,
                            before_prev,
                            prev,
                            next,
                            after_next,
                        };
                        if !is_surely_clear(decoded, &group, &context) {
                            continue;
                        }
                        let verdict = is_plausible(decoded, bytes.len(), &group, 0, context);
                        assert_eq!(
                            verdict,
                            Verdict::Yes,
                            "{group:?} as {decoded:?} in {context:?}"
                        );
                        clear += 1;
                        if !kinds.contains(&(bytes.len(), judged_script(decoded))) {
                            kinds.push((bytes.len(), judged_script(decoded)));
                        }
                    }
                }
            }
        }
    }
    // Each kind of group the shortcut answers was met, many times over.
    assert!(clear > 1_000_000, "{clear}");
    for kind in [
        (2, Script::Greek),
        (2, Script::Cyrillic),
        (2, Script::Armenian),
        (2, Script::Arabic),
        (2, Script::Latin),
        (3, Script::Other),
        (4, Script::Other),
    ] {
        assert!(kinds.contains(&kind), "{kind:?} never answered: {kinds:?}");
    }
}

/// Words of many scripts, and the signs between them, for lines judged both ways below.
const SCRIPT_WORDS: &[&str] = &[
    "café",
    "Grüße",
    "ÉCOLE",
    "AÑO",
    "Île",
    "Øresund",
    "Ærø",
    "straße",
    "HÄ",
    "Ã’s",
    "Òs",
    "łódź",
    "Škoda",
    "ačiū",
    "Türkçe",
    "Ελληνικά",
    "ΑΘΗΝΑ",
    "русский",
    "МОСКВА",
    "Південна",
    "ОГРАНИЧЕЊЕ",
    "Հայերեն",
    "עברית",
    "אַ",
    "العربية",
    "فارسی",
    "ܐܪܡܝܐ",
    "हिन्दी",
    "বাংলা",
    "ไทย",
    "中文",
    "日本語",
    "한국어",
    "Tiếng",
    "ქართული",
    "አማርኛ",
    "😀",
    "𑄌𑄋",
    "a",
    "Z",
    "s",
    "1,50 €",
    "§",
    "°",
    "±",
    "×",
    "÷",
    "…",
    "—",
    "–",
    "“",
    "”",
    "’",
    "«",
    "»",
    "©",
    "®",
    "™",
    "\u{A0}",
    "¿",
    "¡",
    "µ",
    "ß",
    "├┤",
];

/// `text` as UTF-8 read as windows-1252 (C1 controls for its undefined bytes).
fn through_windows_1252(text: &str) -> String {
    text.bytes().map(windows_1252_original).collect()
}

/// Whether the general judging, through windows-1252, accepts a whole group at every character
/// that is not ASCII, with no odd decoding and no C1 control read as Latin-1: the lines the
/// whole-line shortcut is for.
fn is_whole_line_through_windows_1252(text: &str) -> bool {
    let line = Line::new(text);
    if line.possible & 1 == 0 {
        return false;
    }
    let plan = plan_for(&line, 0, find_candidates(&line, 0));
    let covered = covering(line.chars.len(), &plan.found);
    plan.weight > 0
        && plan.oddities == 0
        && plan
            .found
            .iter()
            .all(|f| f.accepted && !f.uses_c1 && matches!(f.candidate, Candidate::Group { .. }))
        && (0..line.chars.len()).all(|i| line.chars[i].is_ascii() || covered[i] != usize::MAX)
}

/// The whole-line shortcut answers exactly the lines it is for, and gives them the answer of
/// the general judging.
fn assert_judged_alike(text: &str) -> bool {
    let mut bytes = Vec::new();
    if windows_1252_bytes(text, &mut bytes).is_some()
        && let Some(quick) = count_surely_clear_groups(&bytes)
    {
        assert_eq!(Some(quick), count_clear_groups(&bytes), "{text:?}");
        QUICK.with(|quick| quick.set(quick.get() + 1));
    }
    let mut out = Vec::new();
    let answer = whole_line_through_windows_1252(text, &mut out).map(|(count, layer)| {
        let text = String::from_utf8(out.clone()).expect("the shortcut's answer is UTF-8");
        (text, count, layer)
    });
    assert_eq!(
        answer.is_some(),
        is_whole_line_through_windows_1252(text),
        "{text:?}"
    );
    match answer {
        Some(answer) => {
            assert_eq!(Some(&answer), judge_layer(text).as_ref(), "{text:?}");
            true
        }
        None => false,
    }
}

thread_local! {
    /// How many lines the quick count has answered on this thread.
    static QUICK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The shortcut on every pattern of this module, its repair, and each again through
/// windows-1252: where it answers, the general judging gives the same line, count and layer.
#[test]
fn whole_lines_through_windows_1252_are_judged_alike() {
    let mut answered = 0;
    for &(input, expected) in PATTERNS {
        for text in [input, expected.unwrap_or(input)] {
            answered += usize::from(assert_judged_alike(text));
            answered += usize::from(assert_judged_alike(&through_windows_1252(text)));
        }
    }
    for word in SCRIPT_WORDS {
        answered += usize::from(assert_judged_alike(&through_windows_1252(word)));
    }
    // Groups that need more on the line: a modifier letter and an IPA letter beside one clear
    // group or more, touching one or not; a lone Hebrew letter before Hebrew words.
    for line in [
        "ˈkæt",
        "ˈkæt café",
        "café ˈkæt été",
        "ˈæ",
        "ɛ, café",
        "ɛ, café, été",
        "ɛé",
        "ג שלום",
        "ג",
        "ג, café",
        // A letter of the text against a 3-byte group; a word in capitals ending in "é";
        // "ą" ending a word after a capital, or standing alone.
        "를GUI",
        "한국어GUI",
        "NOMé",
        "NOMé, été",
        "Hą",
        "ą",
        "Hą, łódź",
    ] {
        answered += usize::from(assert_judged_alike(&through_windows_1252(line)));
    }
    assert!(answered > 60, "{answered}");
    // The quick count answered most of them (on this test's thread).
    let quick = QUICK.with(std::cell::Cell::get);
    assert!(quick > 40, "{quick} of {answered}");
}

proptest::proptest! {
    /// Random lines of words of many scripts, some through windows-1252 (the whole line or
    /// single words, once or twice), with stray characters of the tables: where the shortcut
    /// answers, the general judging gives the same.
    #[test]
    fn random_lines_are_judged_alike(
        picks in proptest::collection::vec((0usize..SCRIPT_WORDS.len(), 0usize..8, 0usize..400), 1..14),
        whole in 0usize..3,
    ) {
        let glue = [" ", ", ", "", "-", "’", "\u{A0}", ". ", "/"];
        let mut alphabet: Vec<char> = ('\u{80}'..='\u{FF}').collect();
        alphabet.extend(OTHER_BYTES.iter().map(|(c, _)| *c));
        let mut text = String::new();
        for &(w, g, k) in &picks {
            let word = SCRIPT_WORDS[w];
            match k % 8 {
                0 => text.push(alphabet[k / 8 % alphabet.len()]),
                1 => text.push_str(&through_windows_1252(word)),
                _ => text.push_str(word),
            }
            text.push_str(glue[g]);
        }
        for _ in 0..whole {
            text = through_windows_1252(&text);
        }
        assert_judged_alike(&text);
    }
}

/// `windows_1252_bytes` reads every character as `byte_in` does for windows-1252 (ASCII as
/// itself), and refuses the characters it has none for and the C1 controls that stand for a
/// byte it defines.
#[test]
fn windows_1252_bytes_are_byte_in_for_every_character() {
    let mut bytes = Vec::new();
    let mut read = 0;
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let text = format!("a{c}b");
        let got = windows_1252_bytes(&text, &mut bytes).map(|()| bytes.clone());
        // ASCII is itself, NUL too.
        let byte = if c.is_ascii() { c as u8 } else { byte_in(c, 0) };
        let is_latin1_control = is_c1_control(c) && windows_1252_char(c) != c;
        let expected =
            (c.is_ascii() || byte != 0 && !is_latin1_control).then(|| vec![b'a', byte, b'b']);
        assert_eq!(got, expected, "{c:?}");
        read += usize::from(expected.is_some());
    }
    // ASCII, the 27 characters of 80..9F, the 96 of A0..FF, and the 5 C1 controls.
    assert_eq!(read, 128 + 27 + 96 + 5);
}

/// The quick count's table of 2-byte characters answers for each what it is made from, at the
/// right place, and `letter_script` answers for every other character from the functions.
#[test]
fn pair_classes_answer_for_every_character() {
    let pairs = PairClass::table();
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        assert_eq!(
            pairs.letter_script(c),
            (is_alphabetic(c), judged_script(c)),
            "{c:?}"
        );
        if ('\u{80}'..'\u{800}').contains(&c) {
            let class = pairs.of(c);
            assert_eq!(class, PairClass::of_char(c), "{c:?}");
            assert_eq!(class.has(PairClass::UPPER), is_uppercase(c), "{c:?}");
            assert_eq!(class.has(PairClass::SHARP_S), c == 'ß', "{c:?}");
        }
    }
    // "Ð¶" is "ж": both letters, Cyrillic, a letter of a script of pairs.
    let zhe = pairs.of('ж');
    assert!(zhe.has(PairClass::LETTERS) && zhe.has(PairClass::PAIR_SCRIPT_LETTER));
    assert_eq!(zhe.script, Script::Cyrillic);
    // "Â°" is "°": no letter, and its lead "Â" is one.
    assert!(!pairs.of('°').has(PairClass::LETTERS));
    // "Æ¡" is "ơ", a letter of Latin Extended-B that is no oddity (Vietnamese); "ƀ" is one.
    assert!(!pairs.of('ơ').has(PairClass::ODD) && pairs.of('ƀ').has(PairClass::ODD));
}

/// Every character of two bytes, through windows-1252 in a dozen places (alone, inside and at
/// the ends of words of Latin letters and capitals, beside itself, beside letters of other
/// scripts, beside clear mojibake): where the shortcut answers, the general judging gives the
/// same, and the quick count the careful count's.
#[test]
fn every_pair_in_context_is_judged_alike() {
    let places = [
        "{}", "a{}b", "A{}", "{}a", "ab{}", "AB{}", "{}{}", "ж{}", "{}ж", "α{}", "{}é", "中{}",
        "{} café", "x{}’s",
    ];
    let mut answered = 0;
    for c in ('\u{80}'..'\u{800}').filter(|c| !is_c1_control(*c)) {
        for place in places {
            let text = place.replace("{}", &c.to_string());
            answered += usize::from(assert_judged_alike(&through_windows_1252(&text)));
        }
    }
    assert!(answered > 10_000, "{answered}");
}
