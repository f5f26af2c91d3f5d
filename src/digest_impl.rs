//! RustCrypto [`digest`] 0.11 traits for [`Sha1`] (feature `digest`).
//!
//! [`Sha1`] itself implements the high-level traits (`Update`, `FixedOutput`,
//! `FixedOutputReset`, `Reset`, `HashMarker`, `Default`, so `digest::Digest` through the
//! blanket impl) and `digest::block_api::EagerHash`, whose block-level core is
//! [`Sha1Core`]. `EagerHash` is what `hmac::Hmac<D>` 0.13 and `pbkdf2::pbkdf2_hmac::<D>`
//! 0.13 require, so `hmac::Hmac<simdcrypt::Sha1>` works as is.
//!
//! Both run on the automatic backend (the one `Sha1::new()` picks) and wipe their chaining
//! state on drop, and the core wipes the stack and registers after each
//! compression, since inside HMAC the state is derived from the key.

use core::fmt;

use digest::{
    FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update,
    array::Array,
    block_api::{
        AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, EagerHash,
        FixedOutputCore, UpdateCore,
    },
    typenum::{U20, U64},
};

use crate::backend::Backend;
use crate::sha1::{IV, Kernel, Sha1, Site};

/// The block-level SHA-1 core behind [`Sha1`]'s `digest` traits: the chaining value and
/// a count of whole 64-byte blocks, with no buffer (RustCrypto's wrappers own the buffer).
///
/// It exists because `digest::block_api::EagerHash::Core`, which `hmac` 0.13 uses for
/// the inner and outer hashes, has to name a public type; most code never touches it.
/// It runs on the automatic backend and wipes its state on drop.
///
/// Through the traits on [`Sha1`] (`digest` as `hmac` re-exports it, so a crate that
/// depends on `hmac` alone compiles this):
///
/// ```
/// use hmac::digest::Digest;
/// use hmac::{KeyInit, Mac};
///
/// let h = <simdcrypt::Sha1 as Digest>::digest(b"abc");
/// assert_eq!(h[..4], [0xa9, 0x99, 0x3e, 0x36]);
///
/// let mut mac = hmac::Hmac::<simdcrypt::Sha1>::new_from_slice(b"Jefe").unwrap();
/// mac.update(b"what do ya want for nothing?");
/// assert_eq!(mac.finalize().into_bytes()[..4], [0xef, 0xfc, 0xdf, 0x6a]);
///
/// let mut key = [0u8; 20];
/// pbkdf2::pbkdf2_hmac::<simdcrypt::Sha1>(b"password", b"salt", 2, &mut key);
/// assert_eq!(key[..4], [0xea, 0x6c, 0x01, 0x4d]);
/// ```
#[derive(Clone)]
pub struct Sha1Core {
    state: [u32; 5],
    /// Whole blocks compressed so far, modulo 2^64.
    blocks: u64,
    kernel: Kernel,
    backend: Backend,
}

impl Sha1Core {
    /// The backend this core runs on: the automatic one (which kernel runs short work:
    /// [`Sha1::backend`]).
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A core on `backend`'s kernel resuming from `state` after `blocks` blocks: the leak
    /// tests drive the core on every backend, from an HMAC key's starting states.
    #[cfg(all(test, feature = "std"))]
    pub(crate) fn resume_on(backend: Backend, state: [u32; 5], blocks: u64) -> Sha1Core {
        let kernel = crate::sha1::impl_for(backend).expect("a backend this CPU runs");
        Sha1Core {
            state,
            blocks,
            kernel,
            backend,
        }
    }
}

impl Default for Sha1Core {
    fn default() -> Self {
        let (kernel, backend) = crate::dispatch::SHA1.auto_kernel();
        Sha1Core {
            state: IV,
            blocks: 0,
            kernel,
            backend,
        }
    }
}

impl BufferKindUser for Sha1Core {
    type BufferKind = Eager;
}

crate::debug_shows!(Sha1Core, backend);

/// What the core and the hash both are: SHA-1's block and output sizes and name.
macro_rules! sha1_traits {
    ($($t:ident),+) => {$(
        impl HashMarker for $t {}
        impl BlockSizeUser for $t {
            type BlockSize = U64;
        }
        impl OutputSizeUser for $t {
            type OutputSize = U20;
        }
        impl AlgorithmName for $t {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Sha1")
            }
        }
    )+};
}
sha1_traits!(Sha1Core, Sha1);

impl UpdateCore for Sha1Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        self.kernel
            .compress(&mut self.state, Array::cast_slice_to_core(blocks));
        // Inside HMAC (and so PBKDF2) the state is key-derived, and the core cannot tell
        // when: every compression's frames are wiped, as a keyed `Sha1`'s are (as deep as
        // the kernel that ran this many blocks).
        self.kernel.wipe(Site::Core, blocks.len());
    }
}

impl FixedOutputCore for Sha1Core {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        // The buffered tail and its padding in one call, as `Sha1::finalize` does (not the
        // block buffer's own padding: docs/design.md, "SHA-1 schedule forms"). Lengths are
        // public: the count only depends on how much was hashed.
        let mut digest = crate::sha1::digest_from(
            self.kernel,
            self.state,
            self.blocks.wrapping_mul(64),
            buffer.get_data(),
        );
        out.copy_from_slice(&digest);
        crate::wipe::bytes(&mut digest);
        buffer.reset();
        self.kernel.wipe(Site::Core, 0);
    }
}

impl Reset for Sha1Core {
    fn reset(&mut self) {
        self.state = IV;
        self.blocks = 0;
    }
}

impl Drop for Sha1Core {
    /// Inside HMAC the state is derived from the key: wiped (the block count is a length,
    /// public). Inlined: `hmac` and `pbkdf2` clone and drop an HMAC state, two cores, per
    /// message or iteration, and an out-of-line drop kept the compiler from inlining
    /// their own calls around it.
    #[inline(always)]
    fn drop(&mut self) {
        crate::wipe::words(&mut self.state);
    }
}

// High-level traits on `Sha1`, delegating to its inherent methods (which take precedence
// in method calls, so its own API is unchanged).

impl Update for Sha1 {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Sha1::update(self, data);
    }
}

impl FixedOutput for Sha1 {
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(&Sha1::finalize(self));
    }
}

impl Reset for Sha1 {
    #[inline]
    fn reset(&mut self) {
        Sha1::reset(self);
    }
}

impl FixedOutputReset for Sha1 {
    #[inline]
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        let mut digest = self.finish();
        out.copy_from_slice(&digest);
        crate::wipe::bytes(&mut digest);
        Sha1::reset(self);
    }
}

impl EagerHash for Sha1 {
    type Core = Sha1Core;
}
