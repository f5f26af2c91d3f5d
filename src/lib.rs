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

pub use aes::{Aes, Block};
#[cfg(feature = "std")]
pub use backend::backend_env_problem;
pub use backend::{Backend, automatic_features};
pub use error::Error;

/// Backend names accepted in `SIMDCRYPT_REQUIRE`-style lists, for tests and tools.
#[doc(hidden)]
pub fn all_backends() -> &'static [Backend] {
    backend::ALL
}
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[path = "sha1/avx2_asm.rs"]
mod sha1_avx2_asm;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[path = "sha1/shani_asm.rs"]
mod sha1_shani_asm;
