//! XTS on single blocks with AES-NI: a one-block data unit, the tweak's encryption, and
//! ciphertext stealing, on xmm registers (the shortest latency) whatever the width of the
//! unit kernel ([`crate::xts::kernel`]) around them.

use core::arch::x86_64::*;

use crate::aes::{Block, KeySchedule};
use crate::arch::x86_64::aes_ni::load;
use crate::arch::x86_64::simd::aes::Xmm;
use crate::arch::x86_64::simd::aes::load_halves;
use crate::block::InOut;
use crate::cpu::AesNiToken;
use crate::vector::{AesOne, AesVec, cipher};

/// The raw tweak `t` encrypted with `k2`: `T_0`.
///
/// # Safety
/// None beyond the token's proof of AES-NI.
#[inline]
#[target_feature(enable = "aes")]
unsafe fn encrypt_tweak(tok: AesNiToken, k2: &KeySchedule, t: &Block) -> __m128i {
    // SAFETY: the token.
    unsafe { aes_block::<false>(tok, k2, load_tweak(t)) }
}

/// A raw tweak, as two 8-byte loads ([`load_halves`]): `Xts` makes a sector's tweak block
/// with `u128` arithmetic and stores it as two 8-byte halves, which one 16-byte load
/// could not forward from (docs/design.md, "XTS kernel shape").
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn load_tweak(t: &Block) -> __m128i {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { load_halves(t.as_ptr()) }
}

/// One block through `ks` on AES-NI, encrypting or (`DEC`, with the
/// equivalent-inverse-cipher keys) decrypting: the latency-bound single blocks of the
/// tweak and of ciphertext stealing ([`cipher`] on [`Xmm`]).
///
/// # Safety
/// None beyond the token's proof of AES-NI.
#[inline]
#[target_feature(enable = "aes")]
unsafe fn aes_block<const DEC: bool>(tok: AesNiToken, ks: &KeySchedule, x: __m128i) -> __m128i {
    cipher::<Xmm, DEC>(tok, ks, Xmm::splat_reg(tok, x)).reg()
}

/// `STEAL_SHUFFLES[16 - rem..][..16]` moves bytes `16 - rem..16` down to `0..rem` (zero
/// above); `STEAL_SHUFFLES[32 + rem..][..16]` moves bytes `0..rem` up to `16 - rem..16`.
const STEAL_SHUFFLES: [u8; 64] = {
    let mut u = [0x80u8; 64];
    let mut i = 0;
    while i < 16 {
        u[i] = i as u8;
        u[48 + i] = i as u8;
        i += 1;
    }
    u
};

/// Ciphertext stealing at the end of a unit: the last full block and the `rem` bytes
/// after it (`1 <= rem <= 15`), `t` the full block's tweak. Two dependent single blocks on
/// xmm registers (the shortest latency here): the first here, the second and the moves in
/// [`steal_one`].
///
/// ```text
/// encrypt: CC = E(P_{m-1} ⊕ t) ⊕ t;  C_m = CC[..rem];  C_{m-1} = E((P_m ‖ CC[rem..]) ⊕ t·x) ⊕ t·x
/// decrypt: PP = D(C_{m-1} ⊕ t·x) ⊕ t·x;  P_m = PP[..rem];  P_{m-1} = D((C_m ‖ PP[rem..]) ⊕ t) ⊕ t
/// ```
///
/// # Safety
/// `src` readable and `dst` writable for `16 + rem` bytes, equal or disjoint.
#[inline(never)]
#[target_feature(enable = "aes,ssse3,sse4.1")]
unsafe fn steal<const DEC: bool>(
    tok: AesNiToken,
    keys: &KeySchedule,
    t: &Block,
    src: *const u8,
    dst: *mut u8,
    rem: usize,
) {
    let ta = u128::from_le_bytes(*t);
    let (ta, tb) = (
        load(&ta.to_le_bytes()),
        load(&crate::block::mul_x(ta).to_le_bytes()),
    );
    let (first, second) = if DEC { (tb, ta) } else { (ta, tb) };
    // The full block first (`src` may be `dst`: [`steal_one`] reads the partial block
    // before it writes anything).
    // SAFETY: the 16-byte window lies within the `16 + rem` readable bytes.
    let full = unsafe { _mm_loadu_si128(src.cast()) };
    // SAFETY: the token (AES-NI).
    let cc = _mm_xor_si128(
        unsafe { aes_block::<DEC>(tok, keys, _mm_xor_si128(full, first)) },
        first,
    );
    // SAFETY: the caller's contract, which is `steal_one`'s; the token.
    unsafe { steal_one::<DEC>(tok, keys, second, cc, src, dst, rem) }
}

/// The end of ciphertext stealing: `cc` is the last full block's output (CC encrypting,
/// PP decrypting), `t` the tweak of the merged block; one single block on xmm. The second
/// of [`steal`]'s two blocks, and all of stealing when the last full block ran with the
/// others (the tail group wrote `cc` to `dst[..16]`; decrypting, under the partial
/// block's tweak, so `t` is the last full block's). The partial block is moved with
/// 16-byte loads and stores that end at the unit's end, byte shuffles and a blend
/// (indexes from `rem`, which is public), so nothing goes through memory byte by byte.
///
/// ```text
/// encrypt: C_m = CC[..rem];  C_{m-1} = E((P_m ‖ CC[rem..]) ⊕ t) ⊕ t
/// decrypt: P_m = PP[..rem];  P_{m-1} = D((C_m ‖ PP[rem..]) ⊕ t) ⊕ t
/// ```
///
/// # Safety
/// `src` readable and `dst` writable for `16 + rem` bytes, equal or disjoint.
#[inline(never)]
#[target_feature(enable = "aes,ssse3,sse4.1")]
unsafe fn steal_one<const DEC: bool>(
    tok: AesNiToken,
    keys: &KeySchedule,
    t: __m128i,
    cc: __m128i,
    src: *const u8,
    dst: *mut u8,
    rem: usize,
) {
    debug_assert!((1..16).contains(&rem));
    // SAFETY: the windows are within the constant's 64 bytes (`rem < 16`).
    let (up, down) = unsafe {
        (
            _mm_loadu_si128(STEAL_SHUFFLES.as_ptr().add(16 - rem).cast()),
            _mm_loadu_si128(STEAL_SHUFFLES.as_ptr().add(32 + rem).cast()),
        )
    };
    // The 16 bytes that end at the unit's end: their top `rem` are the partial block (not
    // yet written, even in place: at most the 16 bytes before it were).
    // SAFETY: the window lies within the `16 + rem` readable bytes.
    let end = unsafe { _mm_loadu_si128(src.add(rem).cast()) };
    // The partial block's bytes, then CC's (or PP's) after them: `up` is 0x80 exactly
    // where CC's bytes are kept.
    let part = _mm_blendv_epi8(_mm_shuffle_epi8(end, up), cc, up);
    // SAFETY: the token (AES-NI).
    let last = _mm_xor_si128(
        unsafe { aes_block::<DEC>(tok, keys, _mm_xor_si128(part, t)) },
        t,
    );
    // SAFETY: both windows lie within the `16 + rem` writable bytes; the read is done.
    // The first store puts CC's first `rem` bytes at the end; the second, of the merged
    // block, overwrites the rest of the first.
    unsafe {
        _mm_storeu_si128(dst.add(rem).cast(), _mm_shuffle_epi8(cc, down));
        _mm_storeu_si128(dst.cast(), last);
    }
}

/// AES-NI is the x86-64 single-block work of every width.
impl AesOne for AesNiToken {
    type Reg = __m128i;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero(self) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_setzero_si128() }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load(self, b: &Block) -> __m128i {
        load(b)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load_halves(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's contract.
        unsafe { load_halves(p) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn encrypt_tweak(self, k2: &KeySchedule, t: &Block) -> __m128i {
        // SAFETY: the token (AES-NI).
        unsafe { encrypt_tweak(self, k2, t) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn steal<const DEC: bool>(self, k: &KeySchedule, t: &Block, io: InOut, rem: usize) {
        // SAFETY: the caller's contract; the token (AES-NI, SSSE3, SSE4.1).
        unsafe { steal::<DEC>(self, k, t, io.src, io.dst, rem) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn steal_one<const DEC: bool>(
        self,
        k: &KeySchedule,
        t: __m128i,
        cc: __m128i,
        io: InOut,
        rem: usize,
    ) {
        // SAFETY: the caller's contract; the token (AES-NI, SSSE3, SSE4.1).
        unsafe { steal_one::<DEC>(self, k, t, cc, io.src, io.dst, rem) }
    }
}
