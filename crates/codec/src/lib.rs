//! The UTF-8 codec of utf8kit: exact diagnostics, lossless repair and streaming, over bytes only.
//!
//! This crate does no I/O and knows nothing of terminals or command lines: slices go in, values
//! come out. The four utf8kit programs are thin layers over it.
//!
//! # Well-formed UTF-8
//!
//! Exactly RFC 3629 section 4: 1 to 4 bytes, no overlong forms, no surrogates (U+D800..U+DFFF),
//! nothing above U+10FFFF. Noncharacters and U+0000 are well-formed.
//!
//! # Quick start
//!
//! Whether bytes are UTF-8, in the standard library's terms ([`validate`](fn@validate), with SIMD):
//!
//! ```
//! let error = utf8kit_codec::validate(b"caf\xE9 au lait").unwrap_err();
//! assert_eq!((error.valid_up_to(), error.error_len()), (3, Some(1)));
//! ```
//!
//! Every ill-formed sequence with its kind ([`scan_unit`], [`Scanner`]), or a repaired copy
//! ([`repair::decode_lossy`], [`Repairer`]):
//!
//! ```
//! use utf8kit_codec::{scan_unit, UnitKind, repair::decode_lossy};
//! assert_eq!(scan_unit(b"\xC0\xAF", true).unwrap().kind, UnitKind::Overlong);
//! let mut out = Vec::new();
//! decode_lossy(b"caf\xE9", &mut out);
//! assert_eq!(out, "caf\u{FFFD}".as_bytes());
//! ```
//!
//! # Two views of one scan
//!
//! **The diagnostic view** splits input into [`Unit`]s, left to right, with [`scan_unit`]. A
//! well-formed sequence is one `char` unit; anything else is one ill-formed unit whose
//! [`UnitKind`] and length follow the lead byte's declared length (the RFC 2279 forms of up to six
//! bytes included), so that one mistake is one finding:
//!
//! | bytes | unit |
//! |---|---|
//! | `C0 AF` | one `overlong`, U+002F |
//! | `ED A0 80` | one `surrogate`, U+D800 |
//! | `ED A0 BD ED B8 80` | one `surrogate-pair` (CESU-8), U+1F600 |
//! | `F4 90 80 80` | one `out-of-range`, U+110000 |
//! | `F0 8D A0 80` | one `overlong` of U+D800 (overlong is tested first) |
//! | `E2 82` at the end | one `truncated` of length 2 |
//! | `E9 20` | a `truncated` of length 1, then a space |
//!
//! **The repair view** splits each ill-formed unit into *maximal subparts* ([`unit::subparts`]), as the
//! Unicode Standard (chapter 3), the WHATWG Encoding Standard, Python's `errors="replace"` and
//! `String::from_utf8_lossy` do: `C0 AF` is two subparts, `ED A0 80` three, `E2 82` at the end one.
//! [`Repairer`] and [`repair::decode_lossy`] write one U+FFFD per subpart by default; [`RepairOptions`]
//! choose other replacements and the repairs of `utf8fix`.
//!
//! ```
//! use utf8kit_codec::{scan_unit, UnitKind, unit::subparts};
//! let unit = scan_unit(b"\xED\xA0\x80", true).unwrap();
//! assert_eq!((unit.kind, unit.len, unit.codepoint), (UnitKind::Surrogate, 3, Some(0xD800)));
//! assert_eq!(subparts(b"\xED\xA0\x80").count(), 3);
//! ```
//!
//! # Positions
//!
//! A [`Position`] is a 0-based byte offset, a line (1 + the LF bytes before) and a column (1 + the
//! units since the last LF; an ill-formed unit counts as one).
//!
//! # Streaming
//!
//! [`Scanner`] takes input in chunks of any size and reports text runs and [`Finding`]s to a
//! [`Sink`]. The results never depend on where chunks split; it carries at most five bytes from
//! one chunk to the next, so memory does not grow with input size or line length. Well-formed runs
//! are skipped with SIMD (AVX-512 where the processor has it, simdutf8 otherwise); only the unit
//! where a run ends is classified byte by byte.
//!
//! # Policies and lints
//!
//! A [`Policy`] accepts some ill-formed units (`surrogates`, `cesu8`, `modified`); a [`LintSet`]
//! reports some well-formed characters (`bom`, `nul`, `control`, `noncharacter`, `bidi`,
//! `private-use`, `replacement`), each as its own [`Lint`] kind.
//!
//! # Modules
//!
//! The crate root holds what every caller needs: validation ([`validate`](fn@validate), and
//! [`is_well_formed`] for a yes or no without a position; AVX-512 where the processor has it,
//! simdutf8 otherwise), units
//! ([`scan_unit`], [`UnitKind`]), the streaming scanner ([`Scanner`], [`Finding`], lints and
//! policies), positions and repair ([`Repairer`]): about twenty names. The rest lives in modules
//! by job:
//!
//! - [`unit`](mod@unit): one unit's anatomy (declared lengths, continuation bytes, maximal subparts).
//! - [`repair`]: the repairs and their replacements ([`repair::decode_lossy`] for a whole
//!   buffer, [`repair::escape_byte`], the Latin-1 fallback table).
//! - [`finding`], [`rules`], [`context`], [`bom`], [`position`]: what the scanner reports, the
//!   lints and policies by name, the lints' context rules (emoji flags, runs), byte order
//!   marks, and counting lines and characters.
//! - [`simd`]: the instruction-set level the kernels may use, capped for tests and benchmarks.
//! - [`transcode`]: streaming decoders into UTF-8 for what `utf8enc` reads and the WHATWG
//!   libraries do not cover or cover slowly: UTF-16, UTF-32, UCS-2 and UTF-7 (each a
//!   [`transcode::Decode`], strict or made `replacing()`; a strict one fails with a
//!   [`transcode::Malformed`] whose [`transcode::MalformedKind`] says what) and Latin-1;
//!   encoders out of UTF-8 for UTF-32, UCS-2 and UTF-7. UTF-16 and Latin-1 widen 8 to 16 code
//!   units at a time with SSSE3 or AVX2, chosen when the program runs, and fall back to scalar
//!   code elsewhere; these kernels, the AVX-512 validator, the SSE2 counting and searching, and
//!   the text runs [`Repairer::feed_pieces`] hands on as `&str` without a second check (a strict
//!   scanner's runs are well-formed) are the crate's only `unsafe`.
//! - [`encode`]: one code point into bytes, in UTF-8 and its variants (CESU-8, Modified UTF-8,
//!   WTF-8, the legacy 6-byte form).
//! - [`notation`]: bytes and code points in the notations people write them in (`U+20AC`,
//!   `\xE2`, `%E2`, `&#8364;`...), both ways.
//!
//! # Panics
//!
//! Nothing here panics on any input. [`scan_unit`], [`unit::maximal_subpart_len`] and
//! [`Position::advance_over`] document their preconditions (a non-empty slice).

#![deny(missing_docs)]

pub mod bom;
pub mod context;
pub mod encode;
pub mod finding;
pub mod notation;
pub mod position;
pub mod quiet;
pub mod repair;
pub mod rules;
mod scanner;
pub mod simd;
mod starts;
pub mod transcode;
pub mod unit;
mod validate;
mod widen;
pub mod words;

pub use finding::{Finding, FindingKind, Sink};
pub use position::Position;
pub use repair::{RepairOptions, Repairer, Replacement};
pub use rules::{Lint, LintSet, Policy};
pub use scanner::{Config, Scanner, scan};
pub use unit::{Unit, UnitKind, Units, scan_unit, units};
pub use validate::{Utf8Error, is_well_formed, validate, well_formed_start};
