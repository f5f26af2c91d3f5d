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
use crate::simd::aes::{AesVec, Group, Regs, each_group, round_all};

/// Encrypts (`DEC` false) or decrypts each block in place; the round count is made a
/// constant here.
#[inline(always)]
pub(crate) fn blocks<V: AesVec, const DEC: bool>(tok: V::Token, ks: &KeySchedule, b: &mut [Block]) {
    let rk = V::keys(tok, if DEC { &ks.dec } else { &ks.enc });
    match ks.rounds {
        10 => each_group(&Ecb::<V, DEC, 10>(tok, rk), b, rk[0]),
        12 => each_group(&Ecb::<V, DEC, 12>(tok, rk), b, rk[0]),
        _ => each_group(&Ecb::<V, DEC, 14>(tok, rk), b, rk[0]),
    }
}

/// The token and the round keys, each in every lane.
struct Ecb<V: AesVec, const DEC: bool, const R: usize>(V::Token, [V; 15]);

impl<V: AesVec, const DEC: bool, const R: usize> Group<V> for Ecb<V, DEC, R> {
    /// One full cipher over the registers; nothing carried.
    #[inline(always)]
    unsafe fn run<const NV: usize>(&self, r: Regs<NV>, carry: V) -> V {
        let (tok, rk) = (self.0, &self.1);
        let mut s = [rk[0]; NV];
        for (j, x) in s.iter_mut().enumerate() {
            // SAFETY: within `run` (the caller's contract).
            *x = unsafe { r.load::<V>(tok, j) }.xor(rk[0]);
        }
        for k in &rk[1..R] {
            round_all::<V, DEC, NV>(&mut s, *k);
        }
        for (j, x) in s.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { r.store(j, x.last::<DEC>(rk[R])) };
        }
        carry
    }
}
