//! The one table of encoding names, read by every program that takes one (SPEC 6).
//!
//! `utf8enc --from/--to` and `utf8fix --fallback` resolve their labels here, utf8check's hint
//! names its encodings from here, and `utf8enc -l/--list` prints the table. Every label of the
//! WHATWG Encoding Standard is in it (as encoding_rs knows them), except where the SPEC gives a
//! name a meaning of its own, which then wins:
//!
//! - `utf-16` and `utf-32` read a byte order mark and otherwise mean big-endian (RFC 2781);
//!   WHATWG reads `utf-16` as UTF-16LE.
//! - `ucs-2` is UTF-16 without surrogates; WHATWG reads it as UTF-16LE.
//! - The names people give ISO-8859-1 (`latin1`, `iso-8859-1`, `cp819` ...) mean ISO-8859-1
//!   exactly (byte n is U+00nn); WHATWG reads them as windows-1252.
//! - `ascii`, `us-ascii` and `ansi_x3.4-1968` mean 7-bit ASCII; WHATWG reads them as windows-1252.
//! - `unicode`, `csunicode`, `unicodefeff` and `iso-10646-ucs-2` are UTF-16 with a byte order
//!   mark, little-endian without one (iconv's `UNICODE`); `unicodefffe` is the big-endian twin.
//!
//! A few spellings iconv knows and WHATWG does not (`utf16le`, `cp932`, `euckr` ...) are added.

use std::fmt;
use std::sync::LazyLock;

use encoding_rs::Encoding;
use utf8kit_codec::transcode::Endian;

/// What a label names: an encoding the programs can decode, and most of them encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8.
    Utf8,
    /// UTF-16; `None`: a byte order mark decides, else big-endian (RFC 2781).
    Utf16(Option<Endian>),
    /// UTF-16 with a byte order mark, little-endian without one (iconv's `UNICODE`).
    Unicode,
    /// UTF-32; `None` as for UTF-16.
    Utf32(Option<Endian>),
    /// UCS-2 (UTF-16 without surrogates); `None` as for UTF-16.
    Ucs2(Option<Endian>),
    /// UTF-7 (RFC 2152).
    Utf7,
    /// ISO-8859-1 exactly: byte n is U+00nn.
    Latin1,
    /// 7-bit ASCII: a byte above 7F or a character above U+007F is malformed or unencodable.
    Ascii,
    /// An IBM PC code page (cp437, cp850): ASCII, then these characters for bytes 80..FF.
    CodePage(&'static [char; 128]),
    /// An encoding of the WHATWG Encoding Standard, as encoding_rs implements it.
    Whatwg(&'static Encoding),
}

impl Charset {
    /// Whether text can be written in it: every encoding but WHATWG's replacement encoding,
    /// which has no encoder (encoding_rs would write UTF-8 in its place).
    pub fn can_encode(self) -> bool {
        self != Charset::Whatwg(encoding_rs::REPLACEMENT)
    }

    /// Whether it gives each byte 80..FF one character: what `utf8fix --fallback` needs.
    pub fn is_single_byte(self) -> bool {
        match self {
            Charset::Latin1 | Charset::CodePage(_) => true,
            Charset::Whatwg(encoding) => encoding.is_single_byte(),
            _ => false,
        }
    }

    /// The character of each byte 80..FF, for a single-byte encoding.
    pub fn high_half(self) -> Option<[char; 128]> {
        match self {
            Charset::Latin1 => Some(*utf8kit_codec::repair::latin1_table()),
            Charset::CodePage(table) => Some(*table),
            Charset::Whatwg(encoding) if encoding.is_single_byte() => {
                Some(std::array::from_fn(|i| {
                    let byte = [0x80 + i as u8];
                    let (text, _) = encoding.decode_without_bom_handling(&byte);
                    text.chars().next().unwrap_or('\u{FFFD}')
                }))
            }
            _ => None,
        }
    }
}

/// One encoding: its name, what it is, and every label that names it.
#[derive(Debug)]
pub struct Entry {
    /// The canonical name (the WHATWG name where there is one).
    pub name: &'static str,
    /// What the labels resolve to.
    pub charset: Charset,
    /// Every label, lowercase, the canonical name's first.
    pub labels: Vec<&'static str>,
}

impl Entry {
    /// The programs and options that accept this encoding, for `utf8enc --list`.
    pub fn accepted_by(&self) -> Vec<&'static str> {
        let mut by = vec!["--from"];
        if self.charset.can_encode() {
            by.push("--to");
        }
        if self.charset.is_single_byte() {
            by.push("--fallback");
        }
        by
    }
}

/// A label as the user typed it, and the entry it resolved to.
#[derive(Clone, Debug)]
pub struct Named {
    /// The label as typed.
    pub typed: String,
    /// The encoding it names.
    pub entry: &'static Entry,
}

impl Named {
    /// What the label names.
    pub fn charset(&self) -> Charset {
        self.entry.charset
    }
}

/// The label as typed, and the canonical name after it when that is another spelling:
/// `cp1251 (windows-1251)`; the canonical name alone when the label is it in another case.
impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.typed.eq_ignore_ascii_case(self.entry.name) {
            f.write_str(self.entry.name)
        } else {
            write!(f, "{} ({})", self.typed, self.entry.name)
        }
    }
}

fn own(name: &'static str, charset: Charset, labels: &[&'static str]) -> Entry {
    Entry {
        name,
        charset,
        labels: labels.to_vec(),
    }
}

fn whatwg(encoding: &'static Encoding, labels: &[&'static str]) -> Entry {
    Entry {
        name: encoding.name(),
        charset: Charset::Whatwg(encoding),
        labels: labels.to_vec(),
    }
}

/// A clap value parser for an option that takes an encoding label: `parse` decides (with its
/// own messages), and the labels of the encodings `accepts` keeps are the option's possible
/// values, so that shell completions offer them (the option hides them from `--help`).
#[derive(Clone, Copy)]
pub struct LabelParser<T> {
    /// Resolves what was typed.
    pub parse: fn(&str) -> Result<T, String>,
    /// Which encodings the option takes.
    pub accepts: fn(&Entry) -> bool,
    /// A value the option takes besides the labels (`auto`).
    pub extra: Option<&'static str>,
}

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for LabelParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let labels = table()
            .iter()
            .filter(|entry| (self.accepts)(entry))
            .flat_map(|entry| entry.labels.iter().copied())
            .chain(self.extra);
        Some(Box::new(labels.map(clap::builder::PossibleValue::new)))
    }
}

/// Every encoding the programs know, in the order `utf8enc --list` prints them.
pub fn table() -> &'static [Entry] {
    static TABLE: LazyLock<Vec<Entry>> = LazyLock::new(build);
    &TABLE
}

fn build() -> Vec<Entry> {
    use Endian::{Big, Little};
    use encoding_rs::*;
    vec![
        own(
            "UTF-8",
            Charset::Utf8,
            &[
                "utf-8",
                "utf8",
                "unicode-1-1-utf-8",
                "unicode11utf8",
                "unicode20utf8",
                "x-unicode20utf8",
            ],
        ),
        own(
            "UTF-16",
            Charset::Utf16(None),
            &["utf-16", "utf16", "unicodefffe"],
        ),
        own(
            "UTF-16LE",
            Charset::Utf16(Some(Little)),
            &["utf-16le", "utf16le"],
        ),
        own(
            "UTF-16BE",
            Charset::Utf16(Some(Big)),
            &["utf-16be", "utf16be"],
        ),
        own(
            "UNICODE",
            Charset::Unicode,
            &["unicode", "csunicode", "unicodefeff", "iso-10646-ucs-2"],
        ),
        own("UTF-32", Charset::Utf32(None), &["utf-32", "utf32"]),
        own(
            "UTF-32LE",
            Charset::Utf32(Some(Little)),
            &["utf-32le", "utf32le"],
        ),
        own(
            "UTF-32BE",
            Charset::Utf32(Some(Big)),
            &["utf-32be", "utf32be"],
        ),
        own("UCS-2", Charset::Ucs2(None), &["ucs-2", "ucs2"]),
        own(
            "UCS-2LE",
            Charset::Ucs2(Some(Little)),
            &["ucs-2le", "ucs2le"],
        ),
        own("UCS-2BE", Charset::Ucs2(Some(Big)), &["ucs-2be", "ucs2be"]),
        own("UTF-7", Charset::Utf7, &["utf-7", "utf7"]),
        own(
            "US-ASCII",
            Charset::Ascii,
            &[
                "us-ascii",
                "ascii",
                "ansi_x3.4-1968",
                "iso646-us",
                "csascii",
            ],
        ),
        own(
            "IBM437",
            Charset::CodePage(&utf8kit_mojibake::codepages::CP437),
            &["ibm437", "cp437", "437", "cspc8codepage437"],
        ),
        own(
            "IBM850",
            Charset::CodePage(&utf8kit_mojibake::codepages::CP850),
            &["ibm850", "cp850", "850", "cspc850multilingual"],
        ),
        own(
            "IBM855",
            Charset::CodePage(&utf8kit_mojibake::codepages::CP855),
            &["ibm855", "cp855", "855", "csibm855"],
        ),
        own(
            "ISO-8859-1",
            Charset::Latin1,
            &[
                "iso-8859-1",
                "latin1",
                "latin-1",
                "iso_8859-1",
                "iso8859-1",
                "l1",
                "iso88591",
                "cp819",
                "ibm819",
                "csisolatin1",
                "iso-ir-100",
                "iso_8859-1:1987",
            ],
        ),
        whatwg(WINDOWS_1252, &["windows-1252", "cp1252", "x-cp1252"]),
        whatwg(WINDOWS_1250, &["windows-1250", "cp1250", "x-cp1250"]),
        whatwg(WINDOWS_1251, &["windows-1251", "cp1251", "x-cp1251"]),
        whatwg(WINDOWS_1253, &["windows-1253", "cp1253", "x-cp1253"]),
        whatwg(
            WINDOWS_1254,
            &[
                "windows-1254",
                "cp1254",
                "csisolatin5",
                "iso-8859-9",
                "iso-ir-148",
                "iso8859-9",
                "iso88599",
                "iso_8859-9",
                "iso_8859-9:1989",
                "l5",
                "latin5",
                "x-cp1254",
            ],
        ),
        whatwg(WINDOWS_1255, &["windows-1255", "cp1255", "x-cp1255"]),
        whatwg(WINDOWS_1256, &["windows-1256", "cp1256", "x-cp1256"]),
        whatwg(WINDOWS_1257, &["windows-1257", "cp1257", "x-cp1257"]),
        whatwg(WINDOWS_1258, &["windows-1258", "cp1258", "x-cp1258"]),
        whatwg(
            WINDOWS_874,
            &[
                "windows-874",
                "dos-874",
                "iso-8859-11",
                "iso8859-11",
                "iso885911",
                "tis-620",
            ],
        ),
        whatwg(
            ISO_8859_2,
            &[
                "iso-8859-2",
                "csisolatin2",
                "iso-ir-101",
                "iso8859-2",
                "iso88592",
                "iso_8859-2",
                "iso_8859-2:1987",
                "l2",
                "latin2",
            ],
        ),
        whatwg(
            ISO_8859_3,
            &[
                "iso-8859-3",
                "csisolatin3",
                "iso-ir-109",
                "iso8859-3",
                "iso88593",
                "iso_8859-3",
                "iso_8859-3:1988",
                "l3",
                "latin3",
            ],
        ),
        whatwg(
            ISO_8859_4,
            &[
                "iso-8859-4",
                "csisolatin4",
                "iso-ir-110",
                "iso8859-4",
                "iso88594",
                "iso_8859-4",
                "iso_8859-4:1988",
                "l4",
                "latin4",
            ],
        ),
        whatwg(
            ISO_8859_5,
            &[
                "iso-8859-5",
                "csisolatincyrillic",
                "cyrillic",
                "iso-ir-144",
                "iso8859-5",
                "iso88595",
                "iso_8859-5",
                "iso_8859-5:1988",
            ],
        ),
        whatwg(
            ISO_8859_6,
            &[
                "iso-8859-6",
                "arabic",
                "asmo-708",
                "csiso88596e",
                "csiso88596i",
                "csisolatinarabic",
                "ecma-114",
                "iso-8859-6-e",
                "iso-8859-6-i",
                "iso-ir-127",
                "iso8859-6",
                "iso88596",
                "iso_8859-6",
                "iso_8859-6:1987",
            ],
        ),
        whatwg(
            ISO_8859_7,
            &[
                "iso-8859-7",
                "csisolatingreek",
                "ecma-118",
                "elot_928",
                "greek",
                "greek8",
                "iso-ir-126",
                "iso8859-7",
                "iso88597",
                "iso_8859-7",
                "iso_8859-7:1987",
                "sun_eu_greek",
            ],
        ),
        whatwg(
            ISO_8859_8,
            &[
                "iso-8859-8",
                "csiso88598e",
                "csisolatinhebrew",
                "hebrew",
                "iso-8859-8-e",
                "iso-ir-138",
                "iso8859-8",
                "iso88598",
                "iso_8859-8",
                "iso_8859-8:1988",
                "visual",
            ],
        ),
        whatwg(ISO_8859_8_I, &["iso-8859-8-i", "csiso88598i", "logical"]),
        whatwg(
            ISO_8859_10,
            &[
                "iso-8859-10",
                "csisolatin6",
                "iso-ir-157",
                "iso8859-10",
                "iso885910",
                "l6",
                "latin6",
            ],
        ),
        whatwg(ISO_8859_13, &["iso-8859-13", "iso8859-13", "iso885913"]),
        whatwg(ISO_8859_14, &["iso-8859-14", "iso8859-14", "iso885914"]),
        whatwg(
            ISO_8859_15,
            &[
                "iso-8859-15",
                "csisolatin9",
                "iso8859-15",
                "iso885915",
                "iso_8859-15",
                "l9",
            ],
        ),
        whatwg(ISO_8859_16, &["iso-8859-16"]),
        whatwg(KOI8_R, &["koi8-r", "cskoi8r", "koi", "koi8", "koi8_r"]),
        whatwg(KOI8_U, &["koi8-u", "koi8-ru"]),
        whatwg(IBM866, &["ibm866", "866", "cp866", "csibm866"]),
        whatwg(
            MACINTOSH,
            &["macintosh", "csmacintosh", "mac", "x-mac-roman"],
        ),
        whatwg(X_MAC_CYRILLIC, &["x-mac-cyrillic", "x-mac-ukrainian"]),
        whatwg(X_USER_DEFINED, &["x-user-defined"]),
        whatwg(
            GBK,
            &[
                "gbk",
                "chinese",
                "csgb2312",
                "csiso58gb231280",
                "gb2312",
                "gb_2312",
                "gb_2312-80",
                "iso-ir-58",
                "x-gbk",
                "cp936",
            ],
        ),
        whatwg(GB18030, &["gb18030"]),
        whatwg(
            BIG5,
            &[
                "big5",
                "big5-hkscs",
                "cn-big5",
                "csbig5",
                "x-x-big5",
                "cp950",
            ],
        ),
        whatwg(
            EUC_JP,
            &["euc-jp", "cseucpkdfmtjapanese", "x-euc-jp", "eucjp"],
        ),
        whatwg(ISO_2022_JP, &["iso-2022-jp", "csiso2022jp"]),
        whatwg(
            SHIFT_JIS,
            &[
                "shift_jis",
                "csshiftjis",
                "ms932",
                "ms_kanji",
                "shift-jis",
                "sjis",
                "windows-31j",
                "x-sjis",
                "cp932",
            ],
        ),
        whatwg(
            EUC_KR,
            &[
                "euc-kr",
                "cseuckr",
                "csksc56011987",
                "iso-ir-149",
                "korean",
                "ks_c_5601-1987",
                "ks_c_5601-1989",
                "ksc5601",
                "ksc_5601",
                "windows-949",
                "euckr",
                "cp949",
            ],
        ),
        whatwg(
            REPLACEMENT,
            &[
                "replacement",
                "csiso2022kr",
                "hz-gb-2312",
                "iso-2022-cn",
                "iso-2022-cn-ext",
                "iso-2022-kr",
            ],
        ),
    ]
}

/// Finds the encoding a label names: ASCII whitespace around it is ignored and letter case does
/// not matter (as WHATWG says), and `_` may stand for `-` (`utf_8`, `iso_8859_2`).
pub fn lookup(label: &str) -> Option<&'static Entry> {
    let lower = label
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase();
    let find = |wanted: &str| table().iter().find(|entry| entry.labels.contains(&wanted));
    find(&lower).or_else(|| find(&lower.replace('_', "-")))
}

/// Resolves a label for an option, keeping what the user typed for messages.
///
/// # Errors
///
/// A label that names no encoding: the message says how to list them.
pub fn resolve(label: &str) -> Result<Named, String> {
    match lookup(label) {
        Some(entry) => Ok(Named {
            typed: label.trim().to_owned(),
            entry,
        }),
        None => Err(format!(
            "unknown encoding '{label}' (utf8enc --list shows every name)"
        )),
    }
}

/// The entry of a charset, for naming it (detection results, defaults).
pub fn entry_of(charset: Charset) -> &'static Entry {
    table()
        .iter()
        .find(|entry| entry.charset == charset)
        .expect("every charset has an entry")
}

/// The charset by its canonical name, as the user would see it.
pub fn named(charset: Charset) -> Named {
    let entry = entry_of(charset);
    Named {
        typed: entry.name.to_owned(),
        entry,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_whatwg_label_resolves_as_encoding_rs_does_unless_the_spec_says_otherwise() {
        let own = [
            "utf-16",
            "ucs-2",
            "unicode",
            "csunicode",
            "unicodefeff",
            "iso-10646-ucs-2",
            "unicodefffe",
            "utf-16le",
            "utf-16be",
        ];
        let mut count = 0;
        for entry in table() {
            for label in &entry.labels {
                let Some(whatwg) = Encoding::for_label(label.as_bytes()) else {
                    continue;
                };
                count += 1;
                match entry.charset {
                    Charset::Whatwg(encoding) => assert_eq!(encoding, whatwg, "{label}"),
                    Charset::Utf8 => assert_eq!(whatwg, encoding_rs::UTF_8, "{label}"),
                    Charset::Latin1 | Charset::Ascii => {
                        assert_eq!(whatwg, encoding_rs::WINDOWS_1252, "{label}");
                    }
                    _ => assert!(own.contains(label), "{label}"),
                }
            }
        }
        // encoding_rs 0.8 knows 228 labels; every one is in the table.
        assert_eq!(count, 228);
    }

    #[test]
    fn no_label_names_two_encodings() {
        let mut seen = std::collections::HashSet::new();
        for entry in table() {
            assert_eq!(
                entry.labels[0],
                entry.name.to_ascii_lowercase(),
                "{}",
                entry.name
            );
            for label in &entry.labels {
                assert!(seen.insert(*label), "{label} twice");
                assert_eq!(*label, label.to_ascii_lowercase());
            }
        }
    }

    #[test]
    fn the_spec_names_win_over_whatwg() {
        let charset = |label| lookup(label).unwrap().charset;
        for label in [
            "latin1",
            "latin-1",
            "iso-8859-1",
            "iso_8859-1",
            "iso8859-1",
            "l1",
            "iso88591",
            "cp819",
            "ibm819",
            "csisolatin1",
            "iso-ir-100",
            "ISO_8859-1",
            " Latin1 ",
        ] {
            assert_eq!(charset(label), Charset::Latin1, "{label}");
        }
        for label in ["ascii", "US-ASCII", "ansi_x3.4-1968"] {
            assert_eq!(charset(label), Charset::Ascii, "{label}");
        }
        assert_eq!(charset("utf-16"), Charset::Utf16(None));
        assert_eq!(charset("unicode"), Charset::Unicode);
        assert_eq!(charset("utf_8"), Charset::Utf8);
        assert_eq!(
            charset("cp1252"),
            Charset::Whatwg(encoding_rs::WINDOWS_1252)
        );
        assert!(lookup("klingon").is_none());
    }

    #[test]
    fn messages_name_the_label_typed() {
        assert_eq!(
            resolve("cp1251").unwrap().to_string(),
            "cp1251 (windows-1251)"
        );
        assert_eq!(resolve("windows-1251").unwrap().to_string(), "windows-1251");
        assert_eq!(resolve("utf-16le").unwrap().to_string(), "UTF-16LE");
        assert_eq!(
            resolve("hz-gb-2312").unwrap().to_string(),
            "hz-gb-2312 (replacement)"
        );
        assert!(resolve("klingon").unwrap_err().contains("utf8enc --list"));
    }
}
