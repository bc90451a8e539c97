//! What undoing mojibake answers: the repaired text, and the chain of encodings undone.

use crate::tables::NAMES;

/// The most passes over one line: each undoes one layer of encoding.
pub(crate) const MAX_LAYERS: usize = 8;

/// What [`undo_mojibake`](crate::undo_mojibake) did to a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MojibakeFix {
    /// The repaired text.
    pub text: String,
    /// How many groups were decoded, over all layers.
    pub groups: usize,
    /// The encoding undone at each layer.
    pub chain: MojibakeChain,
}

/// The encodings undone, one per layer, outermost first; shown as people say it:
/// `windows-1252 x2`, `windows-1251`, `windows-1252, macintosh`, `gbk read as windows-1252`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MojibakeChain {
    layers: [u8; MAX_LAYERS],
    len: u8,
}

/// An encoding whose mojibake is undone: a layer of a [`MojibakeChain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// windows-1252, the commonest.
    Windows1252,
    /// windows-1250, Central European.
    Windows1250,
    /// ISO-8859-2, Central European.
    Iso8859_2,
    /// windows-1251, Cyrillic.
    Windows1251,
    /// windows-1253, Greek.
    Windows1253,
    /// windows-1254, Turkish.
    Windows1254,
    /// windows-1257, Baltic.
    Windows1257,
    /// MacRoman.
    Macintosh,
    /// IBM437, the PC's code page.
    Ibm437,
    /// KOI8-R, Russian on Unix.
    Koi8R,
    /// KOI8-U, Ukrainian on Unix.
    Koi8U,
    /// ISO-8859-1 read where windows-1252 was meant: stray C1 controls.
    Iso8859_1,
    /// GBK (and GB18030's two-byte part), Simplified Chinese.
    Gbk,
    /// Shift_JIS (Windows' cp932), Japanese.
    ShiftJis,
    /// Big5, Traditional Chinese.
    Big5,
    /// EUC-KR (Windows' cp949, unified hangul), Korean.
    EucKr,
    /// EUC-JP, Japanese on Unix.
    EucJp,
    /// IBM866, Russian in DOS and the Windows console.
    Ibm866,
    /// ISO-8859-5, Cyrillic.
    Iso8859_5,
    /// x-mac-cyrillic, Cyrillic on the classic Mac OS.
    XMacCyrillic,
}

impl Encoding {
    /// Its name, as the WHATWG Encoding Standard (or IANA, for ibm437) spells it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Iso8859_1 => "iso-8859-1",
            Encoding::Gbk => "gbk",
            Encoding::ShiftJis => "shift_jis",
            Encoding::Big5 => "big5",
            Encoding::EucKr => "euc-kr",
            Encoding::EucJp => "euc-jp",
            Encoding::Ibm866 => "ibm866",
            Encoding::Iso8859_5 => "iso-8859-5",
            Encoding::XMacCyrillic => "x-mac-cyrillic",
            single => NAMES[single as usize],
        }
    }
}

/// One layer of mojibake: text in one encoding read as another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layer {
    /// The encoding the text was written in: `None` for UTF-8.
    pub written: Option<Encoding>,
    /// The encoding it was read as.
    pub read_as: Encoding,
}

impl Layer {
    /// The layer of index `i`: UTF-8 read as the tables' encodings, as Latin-1 where
    /// windows-1252 was meant, as the double-byte readings ([`DOUBLE_BYTE`]); then text in a
    /// double-byte encoding read as windows-1252 and as Latin-1 ([`legacy_layer`]).
    fn of(i: u8) -> Layer {
        let i = usize::from(i);
        let utf8 = |read_as| Layer {
            written: None,
            read_as,
        };
        if let Some(&encoding) = ENCODINGS.get(i) {
            return utf8(encoding);
        }
        let Some(double) = i.checked_sub(ENCODINGS.len() + 1) else {
            return utf8(Encoding::Iso8859_1);
        };
        if let Some(&encoding) = DOUBLE_BYTE.get(double) {
            return utf8(encoding);
        }
        let legacy = double - DOUBLE_BYTE.len();
        if let Some(&written) = DOUBLE_BYTE.get(legacy / 2) {
            return Layer {
                written: Some(written),
                read_as: if legacy.is_multiple_of(2) {
                    Encoding::Windows1252
                } else {
                    Encoding::Iso8859_1
                },
            };
        }
        let cyrillic = legacy - 2 * DOUBLE_BYTE.len();
        let n = CYRILLIC.len();
        Layer {
            written: (cyrillic / n).checked_sub(1).map(|w| CYRILLIC[w]),
            read_as: CYRILLIC[cyrillic % n],
        }
    }
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.written {
            None => f.write_str(self.read_as.name()),
            Some(written) => write!(f, "{written} read as {}", self.read_as),
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The encodings whose mojibake is undone, in the order ties are broken (as the tables hold
/// them). Latin-1 read as windows-1252 ([`Encoding::Iso8859_1`]) is undone as a layer of its
/// own, after them.
pub const ENCODINGS: &[Encoding] = &[
    Encoding::Windows1252,
    Encoding::Windows1250,
    Encoding::Iso8859_2,
    Encoding::Windows1251,
    Encoding::Windows1253,
    Encoding::Windows1254,
    Encoding::Windows1257,
    Encoding::Macintosh,
    Encoding::Ibm437,
    Encoding::Koi8R,
    Encoding::Koi8U,
];

const _: () = assert!(ENCODINGS.len() == crate::tables::COUNT);

/// The double-byte encodings whose reading of UTF-8 is undone, in the order ties are broken (as
/// `double::READINGS` holds them).
pub const DOUBLE_BYTE: &[Encoding] = &[
    Encoding::Gbk,
    Encoding::ShiftJis,
    Encoding::Big5,
    Encoding::EucKr,
    Encoding::EucJp,
];

/// The layer index of the double-byte reading `r` (an index into [`DOUBLE_BYTE`]).
pub(crate) fn double_byte_layer(r: usize) -> u8 {
    (ENCODINGS.len() + 1 + r) as u8
}

/// The layer index of text in the double-byte encoding `r` (an index into [`DOUBLE_BYTE`])
/// read as windows-1252, or as Latin-1 when `latin1`.
pub(crate) fn legacy_layer(r: usize, latin1: bool) -> u8 {
    (ENCODINGS.len() + 1 + DOUBLE_BYTE.len() + 2 * r + usize::from(latin1)) as u8
}

/// The Cyrillic code pages of the readings that take a whole line (`crate::cyrillic`), in the
/// order ties go.
pub const CYRILLIC: &[Encoding] = &[
    Encoding::Windows1251,
    Encoding::Koi8R,
    Encoding::Koi8U,
    Encoding::Ibm866,
    Encoding::Iso8859_5,
    Encoding::XMacCyrillic,
];

/// The layer index of text in the Cyrillic code page `written` (an index into [`CYRILLIC`]; `None`
/// for UTF-8) read as the one of index `read_as`.
pub(crate) fn cyrillic_layer(written: Option<usize>, read_as: usize) -> u8 {
    let written = written.map_or(0, |w| w + 1);
    (ENCODINGS.len() + 1 + 3 * DOUBLE_BYTE.len() + written * CYRILLIC.len() + read_as) as u8
}

/// The bits of KOI8-R and KOI8-U in the masks over [`ENCODINGS`].
pub(crate) const KOI8: u16 = {
    let mut bits = 0;
    let mut e = 0;
    while e < ENCODINGS.len() {
        if matches!(ENCODINGS[e], Encoding::Koi8R | Encoding::Koi8U) {
            bits |= 1 << e;
        }
        e += 1;
    }
    bits
};

impl MojibakeChain {
    /// The layers undone, outermost first.
    pub fn layers(&self) -> impl Iterator<Item = Layer> + '_ {
        self.layers[..usize::from(self.len)]
            .iter()
            .map(|&i| Layer::of(i))
    }

    pub(crate) fn push(&mut self, layer: u8) {
        self.layers[usize::from(self.len)] = layer;
        self.len += 1;
    }

    /// This chain, then the layers of `later` (as many as fit).
    pub(crate) fn then(mut self, later: MojibakeChain) -> MojibakeChain {
        for &layer in &later.layers[..usize::from(later.len)] {
            if usize::from(self.len) < MAX_LAYERS {
                self.push(layer);
            }
        }
        self
    }
}

impl std::fmt::Display for MojibakeChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let layers = &self.layers[..usize::from(self.len)];
        let mut i = 0;
        while i < layers.len() {
            let run = layers[i..].iter().take_while(|&&l| l == layers[i]).count();
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", Layer::of(layers[i]))?;
            if run > 1 {
                write!(f, " x{run}")?;
            }
            i += run;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_are_the_tables_in_their_order() {
        let utf8 = |read_as| Layer {
            written: None,
            read_as,
        };
        for (i, (&encoding, name)) in ENCODINGS.iter().zip(NAMES).enumerate() {
            assert_eq!(encoding.name(), name);
            assert_eq!(Layer::of(i as u8), utf8(encoding));
        }
        assert_eq!(Layer::of(NAMES.len() as u8), utf8(Encoding::Iso8859_1));
        for (r, &encoding) in DOUBLE_BYTE.iter().enumerate() {
            assert_eq!(Layer::of(double_byte_layer(r)), utf8(encoding));
            for (latin1, read_as) in [(false, Encoding::Windows1252), (true, Encoding::Iso8859_1)] {
                let layer = Layer::of(legacy_layer(r, latin1));
                assert_eq!(layer.written, Some(encoding));
                assert_eq!(layer.read_as, read_as);
            }
        }
        for (r, &read_as) in CYRILLIC.iter().enumerate() {
            assert_eq!(Layer::of(cyrillic_layer(None, r)), utf8(read_as));
            for (w, &written) in CYRILLIC.iter().enumerate() {
                let layer = Layer::of(cyrillic_layer(Some(w), r));
                assert_eq!((layer.written, layer.read_as), (Some(written), read_as));
            }
        }
        let last = cyrillic_layer(Some(CYRILLIC.len() - 1), CYRILLIC.len() - 1);
        assert!(usize::from(last) < 256);
        assert_eq!(
            Layer::of(cyrillic_layer(Some(1), 0)).to_string(),
            "koi8-r read as windows-1251"
        );
        assert_eq!(Encoding::Iso8859_1.to_string(), "iso-8859-1");
        let mut chain = MojibakeChain::default();
        for layer in [0, 0, 7, NAMES.len() as u8, legacy_layer(2, false)] {
            chain.push(layer);
        }
        assert_eq!(
            chain.to_string(),
            "windows-1252 x2, macintosh, iso-8859-1, big5 read as windows-1252"
        );
        let layers: Vec<_> = chain.layers().collect();
        assert_eq!(
            layers[..4],
            [
                utf8(Encoding::Windows1252),
                utf8(Encoding::Windows1252),
                utf8(Encoding::Macintosh),
                utf8(Encoding::Iso8859_1)
            ]
        );
    }
}
