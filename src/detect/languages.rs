//! The languages each single-byte encoding is read for, and their alphabets.

use super::*;

/// A candidate encoding, the languages written in it, and its twin group.
pub(super) struct Candidate {
    pub(super) charset: Charset,
    pub(super) languages: &'static [&'static str],
    /// Encodings with the same non-zero number hold the same alphabet: naming one for the
    /// other is the twin, not a wrong answer.
    pub(super) twin: u8,
    pub(super) single_byte: bool,
}

impl Candidate {
    /// The candidate's reading of `bytes`.
    pub(super) fn decode<'a>(&self, bytes: &'a [u8]) -> std::borrow::Cow<'a, str> {
        match self.charset {
            Charset::Whatwg(encoding) => encoding.decode_without_bom_handling(bytes).0,
            Charset::CodePage(table) => utf8kit_mojibake::codepages::chars(table, bytes)
                .collect::<String>()
                .into(),
            _ => unreachable!("every candidate is a WHATWG encoding or a code page"),
        }
    }

    /// Whether the candidate is this WHATWG encoding (chardetng's guesses are).
    pub(super) fn is(&self, encoding: &'static Encoding) -> bool {
        self.charset == Charset::Whatwg(encoding)
    }

    /// The candidate's canonical name.
    #[cfg(test)]
    pub(super) fn name(&self) -> &'static str {
        crate::encodings::entry_of(self.charset).name
    }
}

pub(super) const WESTERN: &[&str] = &[
    "de", "fr", "es", "pt", "it", "nl", "sv", "da", "no", "fi", "is", "fo", "ca", "gl", "eu", "ga",
    "af", "sq", "et",
];
pub(super) const CENTRAL: &[&str] = &["cs", "sk", "pl", "hu", "hr", "sl", "ro", "de"];
pub(super) const CYRILLIC: &[&str] = &["ru", "uk", "be", "bg", "sr", "mk"];
pub(super) const BALTIC: &[&str] = &["lt", "lv", "et"];

macro_rules! candidate {
    ($encoding:ident, $languages:expr, $twin:expr) => {
        Candidate {
            charset: Charset::Whatwg(encoding_rs::$encoding),
            languages: $languages,
            twin: $twin,
            single_byte: true,
        }
    };
    ($encoding:ident, $languages:expr) => {
        Candidate {
            charset: Charset::Whatwg(encoding_rs::$encoding),
            languages: $languages,
            twin: 0,
            single_byte: false,
        }
    };
}

/// The candidates, commonest first: ties go to the earlier.
pub(super) static CANDIDATES: &[Candidate] = &[
    candidate!(WINDOWS_1252, WESTERN, 1),
    candidate!(WINDOWS_1250, CENTRAL, 2),
    candidate!(ISO_8859_2, CENTRAL, 2),
    candidate!(WINDOWS_1251, CYRILLIC, 3),
    candidate!(KOI8_R, &["ru", "bg"], 4),
    candidate!(KOI8_U, &["uk", "ru", "be"], 4),
    candidate!(ISO_8859_5, &["ru", "bg", "sr", "mk", "be"], 5),
    candidate!(IBM866, &["ru", "bg", "be", "uk"], 6),
    candidate!(X_MAC_CYRILLIC, CYRILLIC, 7),
    Candidate {
        charset: Charset::CodePage(&utf8kit_mojibake::codepages::CP855),
        languages: &["ru", "bg", "sr", "mk", "be"],
        twin: 15,
        single_byte: true,
    },
    candidate!(WINDOWS_1253, &["el"], 8),
    candidate!(ISO_8859_7, &["el"], 8),
    candidate!(WINDOWS_1254, &["tr"], 9),
    candidate!(WINDOWS_1257, BALTIC, 10),
    candidate!(ISO_8859_13, BALTIC, 10),
    candidate!(ISO_8859_4, BALTIC, 10),
    candidate!(WINDOWS_1255, &["he"], 11),
    candidate!(ISO_8859_8, &["he"], 11),
    candidate!(WINDOWS_1256, &["ar", "fa", "ur"], 12),
    candidate!(ISO_8859_6, &["ar"], 12),
    candidate!(ISO_8859_3, &["eo", "mt"], 13),
    candidate!(ISO_8859_15, WESTERN, 1),
    candidate!(WINDOWS_874, &["th"], 14),
    candidate!(SHIFT_JIS, &["ja"]),
    candidate!(EUC_JP, &["ja"]),
    candidate!(GBK, &["zh"]),
    candidate!(BIG5, &["zh"]),
    candidate!(EUC_KR, &["ko"]),
];

/// The non-ASCII letters of each language's alphabet (CLDR's main exemplar characters,
/// lowercase; Romanian with both the comma and the cedilla forms that code pages hold).
pub(super) fn alphabet(language: &str) -> &'static str {
    match language {
        "cs" => "áčďéěíňóřšťúůýž",
        "sk" => "áäčďéíĺľňóôŕšťúýž",
        "pl" => "ąćęłńóśźż",
        "hu" => "áéíóöőúüű",
        "hr" => "čćđšž",
        "sl" => "čšž",
        "ro" => "ăâîșțşţ",
        "de" => "äöüß",
        "fr" => "àâæçéèêëîïôœùûüÿ",
        "es" => "áéíñóúü",
        "pt" => "áàâãçéêíóôõú",
        "it" => "àèéìíîòóùú",
        "nl" => "áäéëíïóöúü",
        "sv" => "åäöé",
        "da" | "no" => "åæøé",
        "fi" => "åäöšž",
        "is" => "áæðéíóöúýþ",
        "fo" => "áæðíóøúý",
        "ca" => "àçèéíïòóúü",
        "gl" => "áéíñóúü",
        "eu" => "ñ",
        "ga" => "áéíóú",
        "af" => "éèêëîïôûŉ",
        "sq" => "çë",
        "et" => "äõöüšž",
        "tr" => "âçğıîöşûü",
        "lt" => "ąčęėįšųūž",
        "lv" => "āčēģīķļņšūž",
        "eo" => "ĉĝĥĵŝŭ",
        "mt" => "àċèġħìòùż",
        "ru" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "uk" => "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
        "be" => "абвгдеёжзійклмнопрстуўфхцчшыьэюя",
        "bg" => "абвгдежзийклмнопрстуфхцчшщъьюя",
        "sr" => "абвгдђежзијклљмнњопрстћуфхцчџш",
        "mk" => "абвгдѓежзѕијклљмнњопрстќуфхцчџш",
        "el" => "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
        "he" => "אבגדהוזחטיךכלםמןנסעףפץצקרשת",
        "ar" => "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي",
        "fa" => "آأئابپتثجچحخدذرزژسشصضطظعغفقکگلمنهوی",
        "ur" => "آابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیے",
        "th" => "กขฃคฅฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรฤลฦวศษสหฬอฮะัาำิีึืฺุูเแโใไๅๆ็่้๊๋์",
        _ => "",
    }
}
