//! The AES block kernel ([`super::kernel`]) on 128-bit registers with AES-NI: 8 blocks in
//! flight. Also the single-block load and store helpers of the xmm kernels.

use core::arch::x86_64::*;

use super::{Block, KeySchedule, kernel};
use crate::cpu::AesNiToken;
use crate::simd::aes::{Xmm, entries};

/// Loads a block (unaligned).
#[inline(always)]
pub(crate) fn load(b: &Block) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is
    // part of x86-64.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Stores a block (unaligned).
#[inline(always)]
pub(crate) fn store(b: &mut Block, v: __m128i) {
    // SAFETY: `b` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) }
}

/// The 15 round-key slots as registers (unused slots are zero).
#[inline(always)]
pub(crate) fn load_keys(keys: &[Block; 15]) -> [__m128i; 15] {
    let mut k = [load(&keys[0]); 15];
    for (x, b) in k.iter_mut().zip(keys) {
        *x = load(b);
    }
    k
}

entries! { "aes";
    /// Encrypts each block in place.
    fn encrypt_blocks(t: AesNiToken, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Xmm, false, false>;
    /// Decrypts each block in place.
    fn decrypt_blocks(t: AesNiToken, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Xmm, true, false>;
    /// [`encrypt_blocks`] for fewer than 8 registers of blocks.
    fn encrypt_short(t: AesNiToken, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Xmm, false, true>;
    /// [`decrypt_blocks`] for fewer than 8 registers of blocks.
    fn decrypt_short(t: AesNiToken, ks: &KeySchedule, b: &mut [Block])
        => kernel::blocks<Xmm, true, true>;
}
