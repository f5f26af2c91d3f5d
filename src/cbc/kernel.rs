//! CBC decryption, written once over [`AesVec`] (`L` blocks per register); the backend
//! files' `decrypt` entries run it.
//!
//! ```text
//! in place; for each group of 8 registers (8 L blocks), then a group of 4, then one of
//! 1 to 4 registers for the rest (the last one masked when it is not full):
//!     c[j]  = C[L j .. L j + L]                  // every load before any store
//!     s[j]  = c[j] ^ Kd[0]; R-1 rounds of aesdec over all registers
//!     pv[j] = C[L j - 1 .. L j + L - 1]          // reloaded one block earlier; for j = 0,
//!                                                // the previous group's last block first
//!     P[L j .. L j + L] = aesdeclast(s[j], Kd[R] ^ pv[j])
//! ```

use super::{Block, KeySchedule};
use crate::simd::aes::{AesVec, round_all};

/// CBC-decrypts one stream in place, chaining from `iv` (updated to the last ciphertext);
/// the round count is made a constant here.
#[inline(always)]
pub(crate) fn decrypt<V: AesVec>(tok: V::Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block]) {
    match ks.rounds {
        10 => dec::<V, 10>(tok, &ks.dec, iv, b),
        12 => dec::<V, 12>(tok, &ks.dec, iv, b),
        _ => dec::<V, 14>(tok, &ks.dec, iv, b),
    }
}

#[inline(always)]
fn dec<V: AesVec, const R: usize>(
    tok: V::Token,
    keys: &[Block; 15],
    iv: &mut Block,
    blocks: &mut [Block],
) {
    let Some(&next_iv) = blocks.last() else {
        return;
    };
    let rk = V::keys(tok, keys);
    let l = V::LANES;
    // The last lane of `prev` is the ciphertext block before the next register.
    let mut prev = V::splat(tok, iv);
    let mut chunks = blocks.chunks_exact_mut(8 * l);
    for c in &mut chunks {
        // SAFETY: eight full registers, exactly the chunk's blocks.
        prev = unsafe { dec_n::<V, R, 8>(tok, &rk, prev, c.as_mut_ptr().cast(), l) };
    }
    let mut rest = chunks.into_remainder();
    if rest.len() >= 4 * l {
        let (a, b) = rest.split_at_mut(4 * l);
        // SAFETY: four full registers, exactly `a`'s blocks.
        prev = unsafe { dec_n::<V, R, 4>(tok, &rk, prev, a.as_mut_ptr().cast(), l) };
        rest = b;
    }
    let (n, p) = (rest.len(), rest.as_mut_ptr().cast());
    let nv = n.div_ceil(l);
    let last = n.wrapping_sub(l * nv.saturating_sub(1));
    // SAFETY: `nv` registers, the last holding `last` (1 to L) blocks: exactly `rest`.
    unsafe {
        match nv {
            0 => {}
            1 => _ = dec_n::<V, R, 1>(tok, &rk, prev, p, last),
            2 => _ = dec_n::<V, R, 2>(tok, &rk, prev, p, last),
            3 => _ = dec_n::<V, R, 3>(tok, &rk, prev, p, last),
            _ => _ = dec_n::<V, R, 4>(tok, &rk, prev, p, last),
        }
    }
    *iv = next_iv;
}

/// Decrypts `NV` registers of blocks at `p`, all full but the last, which holds `last`
/// blocks (`1 <= last <= L`); `prev`'s last lane is the ciphertext block before them.
/// Returns the last register's ciphertext (read before anything is stored).
///
/// # Safety
/// `p` readable and writable for `16 (L (NV - 1) + last)` bytes.
#[inline(always)]
unsafe fn dec_n<V: AesVec, const R: usize, const NV: usize>(
    tok: V::Token,
    rk: &[V; 15],
    prev: V,
    p: *mut u8,
    last: usize,
) -> V {
    let step = 16 * V::LANES;
    let full = |j: usize| j + 1 < NV || last == V::LANES;
    let mut c = [prev; NV];
    for (j, x) in c.iter_mut().enumerate() {
        // SAFETY: register `j` is within the caller's range, masked to `last` blocks when
        // it is the last and not full.
        *x = unsafe {
            if full(j) {
                V::load(tok, p.add(step * j))
            } else {
                V::load_part(tok, p.add(step * j), last)
            }
        };
    }
    let mut s = c;
    for x in s.iter_mut() {
        *x = x.xor(rk[0]);
    }
    for k in &rk[1..R] {
        round_all::<V, true, NV>(&mut s, *k);
    }
    // Each lane's previous ciphertext block, all read before the first store.
    let mut pv = c;
    for j in 0..NV {
        pv[j] = if j == 0 {
            V::shift_in(prev, c[0])
        } else if full(j) {
            // SAFETY: the `L` blocks from one block before register `j` lie in the
            // registers `j - 1` and `j`, both full.
            unsafe { V::load(tok, p.add(step * j - 16)) }
        } else {
            V::shift_in(c[j - 1], c[j])
        };
    }
    for (j, x) in s.iter().enumerate() {
        let out = x.aesdeclast(rk[R].xor(pv[j]));
        // SAFETY: as for the loads; every load is done.
        unsafe {
            if full(j) {
                out.store(p.add(step * j))
            } else {
                out.store_part(p.add(step * j), last)
            }
        }
    }
    c[NV - 1]
}
