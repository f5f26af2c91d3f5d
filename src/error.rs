//! The crate's one error type.

use core::fmt;

use crate::Backend;

/// Everything that can go wrong in a call to this crate.
///
/// Every failing call leaves the caller's buffers untouched, with one deliberate exception:
/// a [`TagMismatch`](Error::TagMismatch) from [`CbcHmacSha1`](crate::CbcHmacSha1)'s `open`
/// and `open_cts` overwrites the buffer with zeros, so that no unauthenticated plaintext is
/// left behind.
///
/// ```
/// use simdcrypt::{Error, Xts};
/// let xts = Xts::new(&[[1u8; 32], [2u8; 32]].concat())?;
/// let mut buf = [7u8; 10];
/// match xts.encrypt_sector(&mut buf, 0) {
///     Err(Error::DataTooShort { len, min }) => assert_eq!((len, min), (10, 16)),
///     other => panic!("unexpected {other:?}"),
/// }
/// assert_eq!(buf, [7u8; 10]); // untouched
/// assert_eq!(Error::BadPadding.to_string(), "bad padding");
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
    /// A message shorter than the mode can process (XTS and CBC-CS3 need 16 bytes).
    DataTooShort {
        /// The length given, in bytes.
        len: usize,
        /// The least length accepted.
        min: usize,
    },
    /// An XTS data unit longer than IEEE 1619 allows (2^24 bytes).
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
        /// The first length or count.
        left: usize,
        /// The second length or count.
        right: usize,
    },
    /// PKCS#7 padding that does not check out (one error whatever byte is wrong).
    BadPadding,
    /// A MAC tag that does not match.
    TagMismatch,
    /// A MAC tag of a length that may not be verified (HMAC-SHA1 accepts 10 to 20 bytes).
    InvalidTagLength {
        /// The length given, in bytes.
        len: usize,
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
    /// A backend this CPU (or this build) cannot run.
    BackendUnavailable(Backend),
    /// A backend that does not implement the algorithm asked for (SHA-NI for AES, say).
    BackendNotForAlgorithm {
        /// The backend asked for.
        backend: Backend,
        /// The algorithm.
        algorithm: &'static str,
    },
    /// A backend name that no backend has (from `FromStr` or `SIMDCRYPT_BACKEND`).
    UnknownBackendName,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidKeyLength { len, expected } => {
                write!(f, "invalid key length {len} bytes (expected {expected})")
            }
            Error::XtsDuplicateKeyHalves => {
                f.write_str("XTS key halves are equal (Key1 == Key2 is forbidden by SP 800-38E)")
            }
            Error::NotBlockMultiple { len } => {
                write!(f, "length {len} is not a multiple of the 16-byte block")
            }
            Error::DataTooShort { len, min } => {
                write!(
                    f,
                    "data of {len} bytes is too short (at least {min} needed)"
                )
            }
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
            Error::LengthMismatch { left, right } => {
                write!(f, "lengths or counts differ: {left} and {right}")
            }
            Error::BadPadding => f.write_str("bad padding"),
            Error::TagMismatch => f.write_str("authentication tag mismatch"),
            Error::InvalidTagLength { len } => {
                write!(
                    f,
                    "tag of {len} bytes cannot be verified (10 to 20 bytes accepted)"
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
            Error::BackendUnavailable(b) => {
                write!(
                    f,
                    "backend {b} is not available on this CPU or in this build"
                )
            }
            Error::BackendNotForAlgorithm { backend, algorithm } => {
                write!(f, "backend {backend} does not implement {algorithm}")
            }
            Error::UnknownBackendName => write!(
                f,
                "unknown backend name (known: {})",
                crate::backend::KNOWN_NAMES
            ),
        }
    }
}

/// `core::error::Error` (stable since Rust 1.81), so `no_std` users can box and chain it too.
impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Error;

    /// Without `std` too (`cargo test --no-default-features --lib`): usable as a
    /// `dyn core::error::Error` with its message.
    #[test]
    fn is_a_core_error() {
        let e = Error::NotBlockMultiple { len: 17 };
        let dyn_e: &dyn core::error::Error = &e;
        assert!(dyn_e.source().is_none());
        assert_eq!(
            std::format!("{dyn_e}"),
            "length 17 is not a multiple of the 16-byte block"
        );
    }
}
