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
use crate::vector::{AesVec, AtUse, Group, Keys, Regs, each_group, each_group_rest, round_all};

/// Encrypts (`DEC` false) or decrypts each block in place; the round count is made a
/// constant here. `SHORT`: fewer than `8 L` blocks, which run with no group loop and the
/// keys read where used ([`AtUse`]: no frame of key copies); an entry of its own, so
/// that the looping kernel's code is what it was.
#[inline(always)]
pub(crate) fn blocks<V: AesVec, const DEC: bool, const SHORT: bool>(
    tok: V::Token,
    ks: &KeySchedule,
    b: &mut [Block],
) {
    let keys = if DEC { &ks.dec } else { &ks.enc };
    crate::aes::with_rounds!(ks.rounds, |R| run::<V, DEC, SHORT, R>(tok, keys, b))
}

#[inline(always)]
fn run<V: AesVec, const DEC: bool, const SHORT: bool, const R: usize>(
    tok: V::Token,
    keys: &[Block; 15],
    b: &mut [Block],
) {
    let z = V::zero(tok);
    if SHORT {
        each_group_rest(&Ecb::<V, DEC, R, _>(tok, AtUse(tok, keys)), b, z);
    } else if V::REGISTERS < 32 {
        // 16 registers: the keys read where used, not held ([`AtUse`] says why).
        each_group(&Ecb::<V, DEC, R, _>(tok, AtUse(tok, keys)), b, z);
    } else {
        each_group(&Ecb::<V, DEC, R, _>(tok, V::keys(tok, keys)), b, z);
    }
}

/// Encrypts each block in place (`R` rounds of `keys`, read where used), each read as two
/// 8-byte loads ([`crate::simd::aes::load_halves`]): blocks just stored as 8-byte halves
/// (XTS's raw tweaks), which a whole-register load could not forward.
#[inline(always)]
pub(crate) fn encrypt_halves<V: AesVec, const R: usize>(
    tok: V::Token,
    keys: &[Block; 15],
    b: &mut [Block],
) {
    each_group(
        &Ecb::<V, false, R, _, true>(tok, AtUse(tok, keys)),
        b,
        V::zero(tok),
    );
}

/// The token and the round keys; `HALVES`: each block loaded as two 8-byte halves
/// ([`Regs::load_halves`]).
struct Ecb<V: AesVec, const DEC: bool, const R: usize, K, const HALVES: bool = false>(V::Token, K);

impl<V: AesVec, const DEC: bool, const R: usize, K: Keys<V> + Copy, const HALVES: bool> Group<V>
    for Ecb<V, DEC, R, K, HALVES>
{
    /// One full cipher over the registers; nothing carried.
    #[inline(always)]
    unsafe fn run<const NV: usize>(&self, r: Regs<NV>, carry: V) -> V {
        let (tok, mut rk) = (self.0, self.1);
        // (Keys read where used are read again in each group; held keys are left as they are.)
        rk.fence();
        let k0 = rk.at(0);
        let mut s = [k0; NV];
        for (j, x) in s.iter_mut().enumerate() {
            // SAFETY: within `run` (the caller's contract).
            let v = unsafe {
                if HALVES {
                    r.load_halves::<V>(tok, j)
                } else {
                    r.load::<V>(tok, j)
                }
            };
            *x = v.xor(k0);
        }
        for i in 1..R {
            round_all::<V, DEC, NV>(&mut s, rk.at(i));
        }
        let kl = rk.at(R);
        for (j, x) in s.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { r.store(j, x.last::<DEC>(kl)) };
        }
        carry
    }
}
