//! The AES block kernel (ECB), written once over [`AesVec`] (`L` blocks per register):
//! the width handle (`crate::aes::Width::run_job`) runs it in each width's
//! `#[target_feature]` entry ([`AesVec::enter`]).
//!
//! Groups of 8 registers (8 L blocks), then of 4, then of 1 to 4
//! (`crate::vector::each_group`), each register an independent chain of rounds: 8 chains
//! cover `aesenc`'s latency (4 cycles) times its throughput (2 a cycle). Decryption is the
//! same with `aesdec` and the equivalent-inverse-cipher keys.

use crate::block::{Block, KeySchedule};
use crate::vector::{AesVec, AtUse, Group, Keys, Regs, each_group, each_group_rest, middle_rounds};

/// Encrypts (`DEC` false) or decrypts each block in place. `SHORT`: fewer than `8 L`
/// blocks, which run with no group loop and the keys read where used ([`AtUse`]: no frame
/// of key copies); an entry of its own, so that the looping kernel's code is what it was.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn blocks<V: AesVec, const DEC: bool, const SHORT: bool>(
    tok: V::Token,
    ks: &KeySchedule,
    b: &mut [Block],
) {
    let keys = if DEC { &ks.dec } else { &ks.enc };
    let (z, r) = (V::zero(tok), ks.rounds);
    if SHORT {
        each_group_rest(&Ecb::<V, DEC, _>(tok, AtUse(tok, keys), r), b, z);
    } else if V::REGISTERS < 32 {
        // 16 registers: the keys read where used, not held ([`AtUse`] says why).
        each_group(&Ecb::<V, DEC, _>(tok, AtUse(tok, keys), r), b, z);
    } else {
        each_group(&Ecb::<V, DEC, _>(tok, V::keys(tok, keys), r), b, z);
    }
}

/// Encrypts each block in place (`ks`, its keys read where used), each read as two
/// 8-byte loads ([`crate::arch::x86_64::simd::aes::load_halves`]): blocks just stored as 8-byte halves
/// (XTS's raw tweaks), which a whole-register load could not forward.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn encrypt_halves<V: AesVec>(tok: V::Token, ks: &KeySchedule, b: &mut [Block]) {
    each_group(
        &Ecb::<V, false, _, true>(tok, AtUse(tok, &ks.enc), ks.rounds),
        b,
        V::zero(tok),
    );
}

/// The token, the round keys and the round count; `HALVES`: each block loaded as two
/// 8-byte halves ([`Regs::load_halves`]).
struct Ecb<V: AesVec, const DEC: bool, K, const HALVES: bool = false>(V::Token, K, usize);

impl<V: AesVec, const DEC: bool, K: Keys<V> + Copy, const HALVES: bool> Group<V>
    for Ecb<V, DEC, K, HALVES>
{
    /// One full cipher over the registers; nothing carried.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn body<const NV: usize>(&self, r: Regs<NV>, carry: V) -> V {
        let (tok, mut rk, rounds) = (self.0, self.1, self.2);
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
        middle_rounds::<V, DEC, NV>(&mut s, &rk, rounds);
        let kl = rk.last(rounds);
        for (j, x) in s.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { r.store(j, x.last::<DEC>(kl)) };
        }
        carry
    }
}
