//! Transcoders the WHATWG Encoding Standard leaves out (UTF-32, UCS-2, UTF-7 of RFC 2152,
//! exact Latin-1), and a faster UTF-16 decoder than a general library's.
//!
//! Decoders are streaming: they take chunks of any size, carry a partial unit to the next one,
//! and append UTF-8 to a buffer. In strict mode they stop at the first malformed input and say
//! where; in replacing mode they write U+FFFD for it and go on. Encoders take UTF-8 text.

mod decode;
mod encoders;
mod errors;
mod fixed;
mod latin1;
mod utf16;
mod utf7;

pub use decode::Decode;
pub use encoders::{Unencodable, encode_ucs2, encode_utf16, encode_utf32};
pub use errors::{Endian, Malformed, MalformedKind};
pub use fixed::{Ucs2Decoder, Utf32Decoder};
pub use latin1::latin1_to_utf8;
pub use utf7::{Utf7Decoder, Utf7Encoder};
pub use utf16::Utf16Decoder;

/// The mode and the [`Decode`] face of a decoder whose body is
/// `decode_in(src, last, dst, replace)`, with a `replace` field that is false when made: written
/// once for the four decoders.
macro_rules! decoder_mode {
    ($decoder:ident, $name:expr) => {
        impl $decoder {
            /// The same decoder, replacing each malformed sequence with one U+FFFD instead of
            /// failing at the first (strict, the default).
            pub fn replacing(mut self) -> $decoder {
                self.replace = true;
                self
            }

            /// Decodes the next chunk (`last` for the final one), appending UTF-8 to `dst`.
            ///
            /// # Errors
            ///
            /// In strict mode, the first malformed input (see the type's description).
            pub fn decode(
                &mut self,
                src: &[u8],
                last: bool,
                dst: &mut Vec<u8>,
            ) -> Result<(), Malformed> {
                let replace = self.replace;
                self.decode_in(src, last, dst, replace)
            }
        }

        impl Decode for $decoder {
            fn decode(
                &mut self,
                src: &[u8],
                last: bool,
                dst: &mut Vec<u8>,
            ) -> Result<(), Malformed> {
                $decoder::decode(self, src, last, dst)
            }

            fn replacing(self) -> $decoder {
                $decoder::replacing(self)
            }

            fn name(&self) -> &'static str {
                let name: fn(&$decoder) -> &'static str = $name;
                name(self)
            }
        }
    };
}

decoder_mode!(Utf32Decoder, |_| "UTF-32");
decoder_mode!(Ucs2Decoder, |_| "UCS-2");
decoder_mode!(Utf16Decoder, Utf16Decoder::name);
decoder_mode!(Utf7Decoder, |_| "UTF-7");

#[cfg(test)]
mod tests;
