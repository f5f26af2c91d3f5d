//! Hand-written SIMD AES-XTS, AES-CBC and SHA-1 for x86-64, chosen at run time, with
//! constant-time portable fallbacks.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod aes;
mod backend;
pub mod cpu;
mod error;
#[cfg(feature = "openssl")]
#[doc(hidden)]
pub mod ossl;
pub mod sha1;

pub use aes::{Aes, Block};
#[cfg(feature = "std")]
pub use backend::backend_env_problem;
pub use backend::{Backend, automatic_features};
pub use error::Error;
pub use sha1::{HmacSha1, Sha1, sha1, sha1_many};

/// Backend names accepted in `SIMDCRYPT_REQUIRE`-style lists, for tests and tools.
#[doc(hidden)]
pub fn all_backends() -> &'static [Backend] {
    backend::ALL
}
