//! The crate's one error type.

use core::fmt;

use crate::Backend;

/// Everything that can go wrong in a call to this crate.
///
/// Every failing call leaves the caller's buffers untouched, with one deliberate exception:
/// a [`TagMismatch`](Error::TagMismatch) from [`CbcHmacSha1`](crate::CbcHmacSha1)'s `open`
/// and `open_cts` (and their `_truncated` forms) overwrites the buffer with zeros, so that
/// no unauthenticated plaintext is left behind.
///
/// ```
/// use simdcrypt::{Aes, Error};
/// match Aes::new(&[7u8; 20]) {
///     Err(Error::InvalidKeyLength { len, .. }) => assert_eq!(len, 20),
///     other => panic!("unexpected {other:?}"),
/// }
/// assert_eq!(Error::BadPadding.to_string(), "bad padding");
/// assert_eq!(
///     Aes::new(&[7u8; 20]).unwrap_err().to_string(),
///     "key of 20 bytes has an invalid length (expected 16, 24 or 32 bytes)"
/// );
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A key of a length the algorithm does not take.
    InvalidKeyLength {
        /// The length given, in bytes.
        len: usize,
        /// The lengths accepted, in words.
        expected: &'static str,
    },
    /// An XTS key whose two halves are equal (SP 800-38E forbids it).
    XtsDuplicateKeyHalves,
    /// A buffer whose length is not a multiple of the 16-byte block.
    NotBlockMultiple {
        /// The length given, in bytes.
        len: usize,
    },
    /// A message shorter than the mode can process (CBC-CS3 and PKCS#7 decryption need
    /// 16 bytes).
    DataTooShort {
        /// The length given, in bytes.
        len: usize,
        /// The least length accepted.
        min: usize,
    },
    /// An XTS data unit (the whole buffer of a one-unit call) shorter than a block.
    DataUnitTooShort {
        /// The length given, in bytes.
        len: usize,
        /// The least length accepted.
        min: usize,
    },
    /// The `sector_size` of a multi-sector XTS call outside `16..=2^24`.
    InvalidSectorSize {
        /// The sector size given, in bytes.
        sector_size: usize,
        /// The least sector size accepted.
        min: usize,
        /// The greatest sector size accepted.
        max: usize,
    },
    /// An XTS data unit (the whole buffer of a one-unit call) longer than IEEE 1619
    /// allows (2^24 bytes).
    DataUnitTooLong {
        /// The length given, in bytes.
        len: usize,
        /// The greatest length accepted.
        max: usize,
    },
    /// A multi-sector buffer that is not a whole number of sectors.
    NotWholeSectors {
        /// The buffer length, in bytes.
        len: usize,
        /// The sector size, in bytes.
        sector_size: usize,
    },
    /// Two lengths or counts that must agree do not (source and destination, IVs and
    /// buffers, inputs and outputs).
    LengthMismatch {
        /// What is compared, naming the arguments (`"src and dst lengths"`).
        what: &'static str,
        /// The first length or count.
        left: usize,
        /// The second length or count.
        right: usize,
    },
    /// PKCS#7 padding that does not check out (one error whatever byte is wrong).
    BadPadding,
    /// A MAC tag that does not match.
    TagMismatch,
    /// A MAC tag (the `tag` argument) of a length other than the one expected: 20 bytes
    /// for `verify` and `open`, `tag_len` for their `_truncated` forms.
    InvalidTagLength {
        /// The length given, in bytes.
        len: usize,
        /// The length expected, in bytes.
        expected: usize,
    },
    /// A truncated tag length (the `tag_len` argument) outside 10 to 20 bytes: HMAC-SHA1
    /// tags are checked on at least 80 bits (RFC 2104 section 5) and have 20 bytes.
    InvalidTruncatedTagLength {
        /// The length given, in bytes.
        tag_len: usize,
    },
    /// A PBKDF2 iteration count that is not accepted (0: RFC 3962 reads it as 2^32).
    InvalidIterationCount {
        /// The count given.
        iterations: u32,
    },
    /// An XTS tweak counter width ([`Tweaks::wrap_bits`](crate::xts::Tweaks::wrap_bits))
    /// other than 32, 64 or 128 bits.
    InvalidWrapBits {
        /// The width given, in bits.
        bits: u32,
    },
    /// An XTS tweak step ([`Tweaks::step`](crate::xts::Tweaks::step)) that is 0 modulo
    /// 2^bits (the counter's width): every data unit would get the same tweak, and equal
    /// plaintext units would give equal ciphertext.
    ZeroTweakStep {
        /// The counter's width, in bits ([`Tweaks::wrap_bits`](crate::xts::Tweaks::wrap_bits)).
        bits: u32,
    },
    /// An XTS tweak step ([`Tweaks::step`](crate::xts::Tweaks::step)) whose counter
    /// repeats inside the call: a step with `z` trailing zero bits (modulo 2^bits) comes
    /// back to the first tweak after 2^(bits - z) units, and the call has more units than
    /// that, so two of its units would get one tweak.
    TweakStepRepeats {
        /// The counter's width, in bits ([`Tweaks::wrap_bits`](crate::xts::Tweaks::wrap_bits)).
        bits: u32,
        /// The step's period is 2^`period_bits` units (`bits` less its trailing zero bits).
        period_bits: u32,
        /// The data units in the call.
        units: usize,
    },
    /// A backend this CPU (or this build) cannot run.
    BackendUnavailable(Backend),
    /// A backend that does not implement the algorithm asked for (SHA-NI for AES, say).
    BackendNotForAlgorithm {
        /// The backend asked for.
        backend: Backend,
        /// The algorithm.
        algorithm: &'static str,
    },
    /// A backend name that no backend has (from `FromStr`).
    UnknownBackendName {
        /// The name given (its first [`BackendName::CAPACITY`] bytes).
        name: BackendName,
    },
}

/// A copy of a backend name that was not recognised, for [`Error::UnknownBackendName`].
///
/// The crate is `no_std` and [`Error`] is `Copy`, so the name is kept inline: its first
/// [`BackendName::CAPACITY`] bytes, cut at a character boundary, with a flag saying
/// whether anything was cut (shown as `…`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackendName {
    bytes: [u8; BackendName::CAPACITY],
    len: u8,
    truncated: bool,
}

impl BackendName {
    /// The most bytes of a name kept.
    pub const CAPACITY: usize = 32;

    /// The first [`BackendName::CAPACITY`] bytes of `name` (cut at a character boundary).
    #[must_use]
    pub fn new(name: &str) -> BackendName {
        let mut len = name.len().min(Self::CAPACITY);
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0u8; Self::CAPACITY];
        bytes[..len].copy_from_slice(&name.as_bytes()[..len]);
        BackendName {
            bytes,
            // `len <= 32`.
            len: len as u8,
            truncated: len < name.len(),
        }
    }

    /// The name kept.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Cut at a character boundary of a `str`: valid UTF-8.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether the name given was longer than what is kept.
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Debug for BackendName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for BackendName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())?;
        if self.truncated {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidKeyLength { len, expected } => {
                write!(
                    f,
                    "key of {len} bytes has an invalid length (expected {expected})"
                )
            }
            Error::XtsDuplicateKeyHalves => {
                f.write_str("XTS key halves are equal (Key1 == Key2 is forbidden by SP 800-38E)")
            }
            Error::NotBlockMultiple { len } => {
                write!(
                    f,
                    "data of {len} bytes is not a whole number of 16-byte blocks"
                )
            }
            Error::DataTooShort { len, min } => {
                write!(
                    f,
                    "data of {len} bytes is too short (at least {min} needed)"
                )
            }
            Error::DataUnitTooShort { len, min } => {
                write!(
                    f,
                    "data unit of {len} bytes is too short (at least {min} needed)"
                )
            }
            Error::InvalidSectorSize {
                sector_size,
                min,
                max,
            } => write!(
                f,
                "sector_size of {sector_size} bytes is out of range ({min} to {max} accepted)"
            ),
            Error::DataUnitTooLong { len, max } => {
                write!(
                    f,
                    "data unit of {len} bytes is too long (at most {max} allowed)"
                )
            }
            Error::NotWholeSectors { len, sector_size } => write!(
                f,
                "buffer of {len} bytes is not a whole number of {sector_size}-byte sectors"
            ),
            Error::LengthMismatch { what, left, right } => {
                write!(f, "{what} differ: {left} and {right}")
            }
            Error::BadPadding => f.write_str("bad padding"),
            Error::TagMismatch => f.write_str("authentication tag mismatch"),
            Error::InvalidTagLength { len, expected } => {
                write!(
                    f,
                    "tag of {len} bytes has an invalid length (expected {expected} bytes)"
                )
            }
            Error::InvalidTruncatedTagLength { tag_len } => {
                write!(
                    f,
                    "tag_len of {tag_len} bytes is out of range (10 to 20 accepted)"
                )
            }
            Error::InvalidIterationCount { iterations } => {
                write!(
                    f,
                    "PBKDF2 iteration count {iterations} is not accepted (at least 1)"
                )
            }
            Error::InvalidWrapBits { bits } => write!(
                f,
                "wrap_bits {bits} is not a tweak counter width (32, 64 or 128 accepted)"
            ),
            Error::ZeroTweakStep { bits } => write!(
                f,
                "tweak step is 0 modulo 2^{bits} (the counter's width): every data unit would \
                 get the same tweak"
            ),
            Error::TweakStepRepeats {
                bits,
                period_bits,
                units,
            } => write!(
                f,
                "tweak step repeats after 2^{period_bits} data units of a {bits}-bit counter: a \
                 call of {units} units would give two units the same tweak"
            ),
            Error::BackendUnavailable(b) => {
                write!(
                    f,
                    "backend {b} is not available on this CPU or in this build"
                )
            }
            Error::BackendNotForAlgorithm { backend, algorithm } => {
                write!(f, "backend {backend} does not implement {algorithm}")
            }
            Error::UnknownBackendName { name } => write!(
                f,
                "unknown backend name {name} (known: {})",
                crate::backend::KNOWN_NAMES
            ),
        }
    }
}

/// `core::error::Error` (stable since Rust 1.81), so `no_std` users can box and chain it too.
impl core::error::Error for Error {}

#[cfg(test)]
mod tests;
