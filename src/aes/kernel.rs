//! The AES block kernel (ECB), written once over [`AesVec`] (`L` blocks per register);
//! the backend files (`aesni`, `vaes_avx2`, `vaes_avx512`) are its `#[target_feature]`
//! entries.
//!
//! ```text
//! for each group of 8 registers (8 L blocks), then a group of 4, then one of 1 to 4
//! registers for the rest, the last one masked when it is not full:
//!     s[i] = block[i] ^ rk[0]
//!     for r in 1..R: s[i] = aesenc(s[i], rk[r])     // independent chains
//!     block[i] = aesenclast(s[i], rk[R])
//! ```
//! `aesenc` has a latency of 4 cycles and a throughput of 2 per cycle, so 8 independent
//! registers keep the unit busy. Decryption is the same with `aesdec` and the
//! equivalent-inverse-cipher keys.

use super::{Block, KeySchedule};
use crate::simd::aes::{AesVec, round_all};

/// Encrypts (`DEC` false) or decrypts each block in place; the round count is made a
/// constant here.
#[inline(always)]
pub(crate) fn blocks<V: AesVec, const DEC: bool>(tok: V::Token, ks: &KeySchedule, b: &mut [Block]) {
    let keys = if DEC { &ks.dec } else { &ks.enc };
    match ks.rounds {
        10 => crypt::<V, DEC, 10>(tok, keys, b),
        12 => crypt::<V, DEC, 12>(tok, keys, b),
        _ => crypt::<V, DEC, 14>(tok, keys, b),
    }
}

#[inline(always)]
fn crypt<V: AesVec, const DEC: bool, const R: usize>(
    tok: V::Token,
    keys: &[Block; 15],
    blocks: &mut [Block],
) {
    let rk = V::keys(tok, keys);
    let l = V::LANES;
    let mut chunks = blocks.chunks_exact_mut(8 * l);
    for c in &mut chunks {
        // SAFETY: eight full registers, exactly the chunk's blocks.
        unsafe { crypt_n::<V, DEC, R, 8>(tok, &rk, c.as_mut_ptr().cast(), l) };
    }
    let mut rest = chunks.into_remainder();
    if rest.len() >= 4 * l {
        let (a, b) = rest.split_at_mut(4 * l);
        // SAFETY: four full registers, exactly `a`'s blocks.
        unsafe { crypt_n::<V, DEC, R, 4>(tok, &rk, a.as_mut_ptr().cast(), l) };
        rest = b;
    }
    // Fewer than 4 L blocks: 1 to 4 registers, the last masked when it is not full.
    let (n, p) = (rest.len(), rest.as_mut_ptr().cast());
    let nv = n.div_ceil(l);
    let last = n.wrapping_sub(l * nv.saturating_sub(1));
    // SAFETY: `nv` registers, the last holding `last` (1 to L) blocks: exactly `rest`.
    unsafe {
        match nv {
            0 => {}
            1 => crypt_n::<V, DEC, R, 1>(tok, &rk, p, last),
            2 => crypt_n::<V, DEC, R, 2>(tok, &rk, p, last),
            3 => crypt_n::<V, DEC, R, 3>(tok, &rk, p, last),
            _ => crypt_n::<V, DEC, R, 4>(tok, &rk, p, last),
        }
    }
}

/// One full cipher over `NV` registers of blocks at `p`: all full but the last, which
/// holds `last` blocks (`1 <= last <= L`; loaded and stored masked when fewer than `L`).
///
/// # Safety
/// `p` readable and writable for `16 (L (NV - 1) + last)` bytes.
#[inline(always)]
unsafe fn crypt_n<V: AesVec, const DEC: bool, const R: usize, const NV: usize>(
    tok: V::Token,
    rk: &[V; 15],
    p: *mut u8,
    last: usize,
) {
    let step = 16 * V::LANES;
    let full = |j: usize| j + 1 < NV || last == V::LANES;
    let mut s = [rk[0]; NV];
    for (j, x) in s.iter_mut().enumerate() {
        // SAFETY: register `j` is within the caller's range, masked to `last` blocks when
        // it is the last and not full.
        let d = unsafe {
            if full(j) {
                V::load(tok, p.add(step * j))
            } else {
                V::load_part(tok, p.add(step * j), last)
            }
        };
        *x = d.xor(rk[0]);
    }
    for k in &rk[1..R] {
        round_all::<V, DEC, NV>(&mut s, *k);
    }
    for (j, x) in s.iter().enumerate() {
        let c = x.last::<DEC>(rk[R]);
        // SAFETY: as for the loads.
        unsafe {
            if full(j) {
                c.store(p.add(step * j))
            } else {
                c.store_part(p.add(step * j), last)
            }
        }
    }
}
