//! Well-formed or not, in the standard library's words: for a caller who only needs the answer
//! and where it stops, not the diagnostic units of [`crate::scan_unit`] or the findings of
//! [`crate::Scanner`].

use std::fmt;

#[cfg(target_arch = "x86_64")]
mod avx512;
mod scalar;

/// Where a byte slice stops being well-formed UTF-8, as [`std::str::Utf8Error`] says it: the
/// length of the well-formed prefix, and the length of the maximal subpart that follows it
/// (`None` when the input ends in the middle of a character that more bytes could complete).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf8Error {
    valid_up_to: usize,
    error_len: Option<u8>,
}

impl Utf8Error {
    /// The number of bytes of well-formed UTF-8 before the error.
    pub fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// The length of the ill-formed sequence after [`Self::valid_up_to`] (1 to 3 bytes, one
    /// maximal subpart), or `None` when the input ends inside a character.
    pub fn error_len(&self) -> Option<usize> {
        self.error_len.map(usize::from)
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error_len {
            Some(len) => write!(
                f,
                "invalid utf-8 sequence of {len} bytes from index {}",
                self.valid_up_to
            ),
            None => write!(
                f,
                "incomplete utf-8 byte sequence from index {}",
                self.valid_up_to
            ),
        }
    }
}

impl std::error::Error for Utf8Error {}

/// Checks that `bytes` are well-formed UTF-8 (RFC 3629), with SIMD; the same answer as
/// [`std::str::from_utf8`], faster.
///
/// ```
/// use utf8kit_codec::validate;
/// assert!(validate("naïve €".as_bytes()).is_ok());
/// let error = validate(b"caf\xC3(").unwrap_err();
/// assert_eq!((error.valid_up_to(), error.error_len()), (3, Some(1)));
/// assert_eq!(validate(b"\xE2\x82").unwrap_err().error_len(), None);
/// ```
pub fn validate(bytes: &[u8]) -> Result<(), Utf8Error> {
    // Where the input is surely well-formed up to (a character boundary): simdutf8 finds the
    // exact error from there.
    let from = checked_prefix(bytes).unwrap_or(0);
    if from == bytes.len() {
        return Ok(());
    }
    let rest = &bytes[from..];
    let error = if crate::simd::allows(crate::simd::Level::Avx2) {
        simdutf8::compat::from_utf8(rest)
            .err()
            .map(|e| (e.valid_up_to(), e.error_len()))
    } else {
        std::str::from_utf8(rest)
            .err()
            .map(|e| (e.valid_up_to(), e.error_len()))
    };
    match error {
        None => Ok(()),
        Some((valid_up_to, error_len)) => Err(Utf8Error {
            valid_up_to: from + valid_up_to,
            error_len: error_len.map(|len| len as u8),
        }),
    }
}

/// The longest well-formed start of `bytes`, as text: all of it when [`validate`](fn@validate)
/// finds no error, else up to the error.
///
/// ```
/// use utf8kit_codec::well_formed_start;
/// assert_eq!(well_formed_start("naïve".as_bytes()), "naïve");
/// assert_eq!(well_formed_start(b"caf\xC3(\xC3\xA9"), "caf");
/// assert_eq!(well_formed_start(b"ab\xE2\x82"), "ab");
/// ```
pub fn well_formed_start(bytes: &[u8]) -> &str {
    let valid = validate(bytes).map_or_else(|error| error.valid_up_to(), |()| bytes.len());
    // SAFETY: `validate` found `bytes[..valid]` well-formed, as std would.
    unsafe { std::str::from_utf8_unchecked(&bytes[..valid]) }
}

/// Whether `bytes` are well-formed UTF-8: `validate(bytes).is_ok()`, for a caller who needs no
/// position (it stops at the first 64-byte block with an error, and does not look for it).
///
/// ```
/// use utf8kit_codec::is_well_formed;
/// assert!(is_well_formed("naïve €".as_bytes()));
/// assert!(!is_well_formed(b"caf\xC3("));
/// ```
pub fn is_well_formed(bytes: &[u8]) -> bool {
    match checked_prefix(bytes) {
        Some(prefix) => prefix == bytes.len(),
        None if crate::simd::allows(crate::simd::Level::Avx2) => {
            simdutf8::basic::from_utf8(bytes).is_ok()
        }
        None => std::str::from_utf8(bytes).is_ok(),
    }
}

/// With AVX-512, or at the portable level: a character boundary at or before the first error
/// of `bytes` up to which they are well-formed, `bytes.len()` exactly when they are
/// well-formed. `None` where simdutf8 answers alone (AVX2 on x86, NEON on ARM).
fn checked_prefix(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::has_avx512_vbmi() {
        // SAFETY: the processor has AVX-512 F, BW and VBMI, checked just above.
        return Some(unsafe { avx512::well_formed_prefix(bytes) });
    }
    if !crate::simd::allows(crate::simd::Level::Avx2) {
        return Some(scalar::well_formed_prefix(bytes));
    }
    None
}
