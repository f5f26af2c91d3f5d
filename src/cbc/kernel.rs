//! CBC, written once over [`AesVec`] (`L` blocks per register): the jobs [`Stream`]
//! (one stream each way) and [`Lanes`] (a step of many streams), which the width handle (`crate::aes::Width::run_job`) runs.
//!
//! Encryption is one chain per stream, the next plaintext folded into the last round's key
//! off the chain (R AES instructions a block); decryption reads every block of a group
//! before its first store: docs/design.md, "CBC".

use core::ptr::null_mut;

use super::lanes::Lane;
use super::soft;
use crate::block::{Block, KeySchedule};
use crate::vector::{
    AesVec, AtUse, Group, Job, Keys, Regs, Site, each_group, each_group_rest, middle_rounds,
};

/// One CBC stream in place from `iv` (left at the last ciphertext block). Encryption
/// (`DEC` false) is a chain of single blocks, R AES instructions at the `aesenc` latency
/// whatever the register width, so it runs on the 128-bit registers everywhere.
/// Decryption has independent blocks, 8 registers in flight; a call under a group of
/// blocks runs the short form (no group loop, the keys read where used: [`AtUse`], no
/// frame of key copies).
pub(crate) struct Stream<'a, const DEC: bool>(
    pub(crate) &'a KeySchedule,
    pub(crate) &'a mut Block,
    pub(crate) &'a mut [Block],
);

impl<const DEC: bool> Job for Stream<'_, DEC> {
    const SITE: Site = if DEC {
        Site::CbcDecrypt
    } else {
        Site::CbcEncrypt
    };
    const MAX_LANES: usize = if DEC { 4 } else { 1 };
    const HANDS_OVER: bool = DEC;
    const HAS_SHORT: bool = DEC;

    fn blocks(&self) -> usize {
        self.2.len()
    }

    fn portable(&mut self) {
        if DEC {
            soft::decrypt(self.0, self.1, self.2);
        } else {
            soft::encrypt(self.0, self.1, self.2);
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, tok: V::Token) {
        if !DEC {
            encrypt::<V>(tok, self.0, self.1, self.2);
            return;
        }
        let (ks, iv, b) = (self.0, &mut *self.1, &mut *self.2);
        let Some(&next_iv) = b.last() else {
            return;
        };
        let prev = V::splat(tok, iv);
        let (keys, r) = (&ks.dec, ks.rounds);
        if SHORT {
            each_group_rest(&Dec::<V, _>(tok, AtUse(tok, keys), r), b, prev);
        } else if V::REGISTERS < 32 {
            // 16 registers: the keys read where used, not held ([`AtUse`] says why).
            each_group(&Dec::<V, _>(tok, AtUse(tok, keys), r), b, prev);
        } else {
            each_group(&Dec::<V, _>(tok, V::keys(tok, keys), r), b, prev);
        }
        *iv = next_iv;
    }
}

/// One step of CBC encryption of many streams (`Cbc::encrypt_many`'s driver,
/// `super::lanes::many`, runs it): `steps` blocks of each lane (each holds at least that
/// many), up to 8 registers of lanes interleaved, on at most the 256-bit registers (16
/// streams are already more than most callers pass).
pub(crate) struct Lanes<'a, 'b>(
    pub(crate) &'a KeySchedule,
    pub(crate) &'a mut [Lane<'b>],
    pub(crate) usize,
);

impl Job for Lanes<'_, '_> {
    const SITE: Site = Site::CbcMany;
    const MAX_LANES: usize = 2;
    const HAS_SHORT: bool = false;

    fn blocks(&self) -> usize {
        self.1.len() * self.2
    }

    fn portable(&mut self) {
        soft::encrypt_lanes(self.0, self.1, self.2);
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, t: V::Token) {
        encrypt_lanes::<V>(t, self.0, self.1, self.2);
    }
}

/// CBC-encrypts one stream in place, chaining from `iv` (updated to the last ciphertext).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn encrypt<V: AesVec>(tok: V::Token, ks: &KeySchedule, iv: &mut Block, b: &mut [Block]) {
    let steps = b.len();
    let mut one = [Lane { iv: *iv, data: b }];
    encrypt_lanes_in::<V, 1>(tok, ks, &mut one, steps);
    *iv = one[0].iv;
}

/// CBC-encrypts `steps` blocks of every lane (each holds at least that many), up to
/// `8 L` lanes at a time, each chaining from its `iv` (updated to its last ciphertext).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn encrypt_lanes<V: AesVec>(
    tok: V::Token,
    ks: &KeySchedule,
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    encrypt_lanes_in::<V, 8>(tok, ks, lanes, steps);
}

/// [`encrypt_lanes`] with at most `G` registers (`G L` lanes) at a time.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn encrypt_lanes_in<V: AesVec, const G: usize>(
    tok: V::Token,
    ks: &KeySchedule,
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    let (keys, r) = (&ks.enc, ks.rounds);
    // One stream (`G` 1): the keys where used, memory operands on the chain (as fast as
    // registers: the loads are off it), and no frame of key copies ([`AtUse`]).
    if G == 1 {
        enc_keys::<V, G, _>(tok, AtUse(tok, keys), r, lanes, steps);
    } else {
        enc_keys::<V, G, _>(tok, V::keys(tok, keys), r, lanes, steps);
    }
}

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn enc_keys<V: AesVec, const G: usize, K: Keys<V>>(
    tok: V::Token,
    rk: K,
    rounds: usize,
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    for g in lanes.chunks_mut(G * V::LANES) {
        // The callers guarantee it; checked so that a bug cannot run off a buffer.
        let ok = g.iter().all(|l| l.data.len() >= steps);
        debug_assert!(ok);
        if !ok {
            return;
        }
        // SAFETY: every lane of `g` holds `steps` blocks; `g` has 1 to `G L` lanes and
        // `min(G)` keeps the arms that cannot happen out of the code.
        unsafe {
            match g.len().div_ceil(V::LANES).min(G) {
                1 => enc_n::<V, 1>(tok, rk, rounds, g, steps),
                2 => enc_n::<V, 2>(tok, rk, rounds, g, steps),
                3 => enc_n::<V, 3>(tok, rk, rounds, g, steps),
                4 => enc_n::<V, 4>(tok, rk, rounds, g, steps),
                5 => enc_n::<V, 5>(tok, rk, rounds, g, steps),
                6 => enc_n::<V, 6>(tok, rk, rounds, g, steps),
                7 => enc_n::<V, 7>(tok, rk, rounds, g, steps),
                _ => enc_n::<V, 8>(tok, rk, rounds, g, steps),
            }
        }
    }
}

/// Encrypts `steps` blocks of each of the `L (NV - 1) < n <= L NV` lanes, lane `L k + l`
/// in slot `l` of register `k`.
///
/// # Safety
/// Every lane holds at least `steps` blocks.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
unsafe fn enc_n<V: AesVec, const NV: usize>(
    tok: V::Token,
    mut rk: impl Keys<V>,
    rounds: usize,
    lanes: &mut [Lane<'_>],
    steps: usize,
) {
    if steps == 0 || lanes.is_empty() {
        return;
    }
    // Each slot's chaining value and blocks; spare slots repeat the last lane. Raw
    // pointers, taken once per lane, since a repeated lane is written through two.
    let (mut iv, mut d) = ([[null_mut(); 4]; NV], [[null_mut(); 4]; NV]);
    let (mut it, mut q) = (lanes.iter_mut(), (null_mut(), null_mut()));
    for (ivk, dk) in iv.iter_mut().zip(d.iter_mut()) {
        for l in 0..V::LANES {
            if let Some(lane) = it.next() {
                q = ((&raw mut lane.iv).cast(), lane.data.as_mut_ptr().cast());
            }
            (ivk[l], dk[l]) = q;
        }
    }
    let k0 = rk.at(0);
    let mut s = [k0; NV];
    for (k, x) in s.iter_mut().enumerate() {
        // SAFETY: each slot's `iv` and first block (`steps >= 1`).
        *x = unsafe { V::gather(tok, &iv[k], 0).xor3(V::gather(tok, &d[k], 0), k0) };
    }
    for j in 0..steps {
        // (Read where used: kept out of registers across steps, where they would spill.)
        rk.fence();
        let (k0, kl) = (rk.at(0), rk.last(rounds));
        middle_rounds::<V, false, NV>(&mut s, &rk, rounds);
        for (k, x) in s.iter_mut().enumerate() {
            let c = if j + 1 < steps {
                // SAFETY: block `j + 1 < steps` of each slot's lane.
                let u = unsafe { V::gather(tok, &d[k], 16 * (j + 1)) }.xor(k0);
                *x = x.aesenclast(kl.xor(u));
                x.xor(u)
            } else {
                *x = x.aesenclast(kl);
                *x
            };
            // SAFETY: block `j < steps` of each slot's lane.
            unsafe { c.scatter(&d[k], 16 * j) };
        }
    }
    for (k, x) in s.iter().enumerate() {
        // SAFETY: each slot's `iv`; `x` is its last ciphertext block.
        unsafe { x.scatter(&iv[k], 0) };
    }
}

/// The token, the round keys and the round count.
struct Dec<V: AesVec, K>(V::Token, K, usize);

impl<V: AesVec, K: Keys<V> + Copy> Group<V> for Dec<V, K> {
    /// Decrypts the registers; every load is done before the first store. Carried: the
    /// ciphertext block before the registers, in the last lane.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn body<const NV: usize>(&self, r: Regs<NV>, prev: V) -> V {
        let (tok, mut rk, rounds) = (self.0, self.1, self.2);
        // (Keys read where used are read again in each group; held keys are left as they are.)
        rk.fence();
        let mut c = [prev; NV];
        for (j, x) in c.iter_mut().enumerate() {
            // SAFETY: within `run` (the caller's contract).
            *x = unsafe { r.load::<V>(tok, j) };
        }
        let mut s = c;
        let k0 = rk.at(0);
        for x in s.iter_mut() {
            *x = x.xor(k0);
        }
        V::rounds::<true, NV, 1>(&mut s, &rk, rounds);
        // Each lane's previous ciphertext block, all read before the first store.
        let mut pv = c;
        for j in 0..NV {
            pv[j] = if j == 0 {
                V::shift_in(prev, c[0])
            } else if r.full::<V>(j) {
                // SAFETY: the `L` blocks from one block before register `j` lie in the
                // registers `j - 1` and `j`, both full.
                unsafe { V::load(tok, r.p.add(16 * V::LANES * j - 16)) }
            } else {
                V::shift_in(c[j - 1], c[j])
            };
        }
        let kl = rk.last(rounds);
        for (j, x) in s.iter().enumerate() {
            // SAFETY: as for the loads; every load is done.
            unsafe { r.store(j, x.aesdeclast(kl.xor(pv[j]))) };
        }
        c[NV - 1]
    }
}
