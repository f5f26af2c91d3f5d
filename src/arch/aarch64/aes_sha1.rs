//! The stitched kernel on AArch64: CBC with the ARMv8 AES instructions and SHA-1 with its
//! SHA-1 instructions over the same 64-byte groups, in one loop. The cores run the two in
//! separate pipelines side by side, so each chain fills the other's latency gaps.
//!
//! ```text
//! K[0..=R] the round keys (loaded once); y the CBC chain's register, C[-1] ^ K[R] on entry
//! seal, per 64-byte group:
//!     W = rev32(P0..P3)                                   the SHA-1 message words
//!     for g in 0..20:
//!         SHA-1 group g (four rounds, the schedule, W+K, SHA1H)   -- chain 1
//!         the next 4R/20 AES rounds of the CBC chain             -- chain 2
//!     the rounds of block b (2R - 1 instructions on the chain, no EOR):
//!         y = AESMC(AESE(y, P[b] ^ K[R] ^ K[0]))     = round 1 of P[b] ^ C[b-1]
//!         y = AESMC(AESE(y, K[r]))                   r = 1..R-2
//!         y = AESE(y, K[R-1]);  C[b] = y ^ K[R]      (the EOR off the chain)
//! open: the four blocks of group g+1 decrypted side by side (AESD, AESIMC with the
//! equivalent inverse cipher's keys D) while the plaintext of group g is hashed; the
//! first group decrypted alone, the last one hashed alone:
//!     P[b] = AESD(AESIMC(AESD(..AESIMC(AESD(C[b], D[0]))..)), D[R-1]) ^ (D[R] ^ C[b-1])
//! ```
//!
//! Sealing is latency bound: the CBC chain is `4 (2R - 1)` dependent AES instructions a
//! group, the SHA-1 chain 20 dependent `SHA1C`/`SHA1P`/`SHA1M`; the other's work goes in
//! their gaps. Opening's four decryptions are independent, so there the two units'
//! throughput binds.
//!
//! Registers: the round keys stay in NEON registers for the whole call. To leave them
//! room, SHA-1's round constant is made where its five groups start (`fresh_k!`, one
//! `DUP`), not held, and the plaintext (ciphertext) blocks that the AES rounds need later
//! in a group are loaded again when needed (`reload`) rather than held from the group's
//! start. Empty `asm!` ordering points (`pin!`) keep the compiler from gathering either
//! chain's instructions in one place: each group's AES rounds sit between its SHA-1
//! instructions, for cores that issue in order.

use core::arch::aarch64::*;

use super::sha1::{block, k_vectors, load_state, rev32, store_state, stream, twenty};
use crate::Backend;
use crate::aes::{Block, KeySchedule};
use crate::cpu::{Armv8AesToken, Armv8Sha1Token};
use crate::wipe::{depth, stack};

/// The stitched kernel as `crate::cbc_hmac` holds it (`crate::arch::Stitched`): the AES and
/// SHA-1 tokens.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stitched(Armv8AesToken, Armv8Sha1Token);

impl Stitched {
    /// From the row's tokens.
    #[inline]
    pub(crate) fn new((a, s): (Armv8AesToken, Armv8Sha1Token)) -> Stitched {
        Stitched(a, s)
    }

    /// The CBC backend and the SHA-1 kernel (with its backend) of the keyed value: what
    /// the parts of a message outside whole 64-byte groups run on.
    #[inline]
    pub(crate) fn parts(self) -> (Backend, (crate::sha1::Kernel, Backend)) {
        (
            Backend::Armv8Aes,
            (crate::sha1::Kernel::Armv8(self.1), Backend::Armv8Sha1),
        )
    }

    /// Whether the stitch runs this key: every key size (a copy per round count).
    #[inline]
    pub(crate) fn stitches(ks: &KeySchedule) -> bool {
        matches!(ks.rounds, 10 | 12 | 14)
    }

    /// [`run`] on these tokens.
    #[inline]
    pub(crate) fn run(
        self,
        seal: bool,
        ks: &KeySchedule,
        chain: &mut Block,
        state: &mut [u32; 5],
        groups: &mut [[u8; 64]],
    ) {
        run(self.0, self.1, seal, ks, chain, state, groups);
    }

    /// Zeroes the stack the stitched kernel used and the registers, where round keys and
    /// chaining values stay: in bytes, the deepest it wrote below the caller over the
    /// builds optimised for speed (docs/design.md, "Stack and register wipes").
    #[inline(always)]
    pub(crate) fn burn() {
        stack::<{ depth([240, 864, 864, 880, 2464, 26704]) }>();
    }
}

/// Loads block `i` of a 64-byte group.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn load_g(g: &[u8; 64], i: usize) -> uint8x16_t {
    let b: &Block = g[16 * i..16 * i + 16].try_into().expect("16 bytes");
    // SAFETY: `b` is 16 readable bytes; `LD1` has no alignment requirement.
    unsafe { vld1q_u8(b.as_ptr()) }
}

/// Stores `v` as block `i` of a 64-byte group.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn store_g(g: &mut [u8; 64], i: usize, v: uint8x16_t) {
    let b: &mut Block = (&mut g[16 * i..16 * i + 16]).try_into().expect("16 bytes");
    // SAFETY: `b` is 16 writable bytes.
    unsafe { vst1q_u8(b.as_mut_ptr(), v) }
}

/// The four blocks of a 64-byte group.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn load_group(g: &[u8; 64]) -> [uint8x16_t; 4] {
    [load_g(g, 0), load_g(g, 1), load_g(g, 2), load_g(g, 3)]
}

/// The round keys `0..=R` in registers (the slots past `R` are zero).
#[inline]
#[target_feature(enable = "aes,sha2")]
fn load_keys<const R: usize>(keys: &[Block; 15]) -> [uint8x16_t; 15] {
    core::array::from_fn(|i| {
        if i <= R {
            // SAFETY: a key is 16 readable bytes.
            unsafe { vld1q_u8(keys[i].as_ptr()) }
        } else {
            vdupq_n_u8(0)
        }
    })
}

/// The AES rounds spread over SHA-1 group `g` (of 20): `[lo, hi)` of the group's `4R`.
const fn ops(g: usize, r: usize) -> (usize, usize) {
    (g * 4 * r / 20, (g + 1) * 4 * r / 20)
}

/// A compiler-only ordering point: the registers named pass through an empty `asm!`, so
/// everything that uses them afterwards is ordered after everything that produced them
/// before. It emits no instruction (the CPU sees no dependency); it keeps the compiler's
/// scheduler from gathering one chain's instructions in one place, which undoes the
/// interleaving an in-order core needs.
macro_rules! pin {
    ($($r:ident),+) => {
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no
        // flags.
        unsafe {
            core::arch::asm!(
                concat!($("/* {", stringify!($r), ":v} */"),+),
                $($r = inout(vreg) $r,)+
                options(pure, nomem, nostack, preserves_flags)
            )
        }
    };
}

/// SHA-1's round constant `K[$i]` in every lane, made where it is used: a `DUP` from a
/// general-purpose register whose value the compiler cannot see (an empty `asm!` that it
/// may not move or merge), so it does not keep the four constants in NEON registers from
/// block to block, which the round keys need.
macro_rules! fresh_k {
    ($i:expr) => {{
        let mut k: u32 = $crate::arch::aarch64::sha1::K[$i];
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no
        // flags.
        unsafe {
            core::arch::asm!("/* {0:w} */", inout(reg) k, options(nomem, nostack, preserves_flags))
        };
        vdupq_n_u32(k)
    }};
}

/// Refreshes the constant the `W + K` add of group `$g + 1` needs ([`fresh_k!`]) before
/// group `$g` makes it: only the constant of the current five groups is live.
macro_rules! next_k {
    ($kc:ident, $g:literal) => {
        if $g % 5 == 4 && $g < 19 {
            $kc[($g / 5 + 1) % 4] = fresh_k!(($g / 5 + 1) % 4);
        }
    };
}

/// Block `i` of the 64-byte group at `g`, loaded again: the offset passes through an
/// empty `asm!`, so the compiler neither reuses an earlier load of the same bytes (which
/// would keep it in a register all along) nor moves this one above the stores before it.
///
/// # Safety
/// `g` points to 64 readable bytes, and `i < 4`.
#[inline]
#[target_feature(enable = "aes,sha2")]
unsafe fn reload(g: *const u8, i: usize) -> uint8x16_t {
    let mut off = 16 * i;
    // SAFETY: a template of comments only: no instructions, no memory, no stack, no flags.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) off, options(pure, nomem, nostack, preserves_flags))
    };
    // SAFETY: the caller's contract: 16 readable bytes at `16 i` (which `off` is).
    unsafe { vld1q_u8(g.add(off)) }
}

/// The SHA-1 state: ABCD and E (e in lane 0).
struct Sha {
    abcd: uint32x4_t,
    e: uint32x2_t,
}

/// The seal's loop: encrypts `groups` in place from the chain register `y`
/// (`C[-1] ^ K[R]`, updated) and hashes their plaintext into `h`.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn seal_groups<const R: usize>(
    k: &[uint8x16_t; 15],
    h: &mut Sha,
    y: &mut uint8x16_t,
    groups: &mut [[u8; 64]],
) {
    let mut kc = [vdupq_n_u32(0); 4];
    // Round 1's key for every block: the plaintext, the previous block's last key (the
    // EOR the chain skips) and the first key.
    let k_r0 = veorq_u8(k[R], k[0]);
    let (mut abcd, mut e) = (h.abcd, h.e);
    let mut st = *y;
    for g in groups.iter_mut() {
        let p = load_group(g);
        kc[0] = fresh_k!(0);
        stream!(start kc, abcd, e, p.map(|v| rev32(v)) => s);
        macro_rules! aes_ops {
            ($g:literal) => {
                let (lo, hi) = const { ops($g, R) };
                for t in lo..hi {
                    let (b, r) = (t / R, t % R);
                    if r == 0 {
                        // Blocks 1..3 loaded again, after the block before is stored: not
                        // held in registers from the group's start.
                        // SAFETY: `g` is 64 readable bytes.
                        let pb = if b == 0 {
                            p[0]
                        } else {
                            unsafe { reload(g.as_ptr(), b) }
                        };
                        st = vaesmcq_u8(vaeseq_u8(st, veorq_u8(pb, k_r0)));
                    } else if r < R - 1 {
                        st = vaesmcq_u8(vaeseq_u8(st, k[r]));
                    } else {
                        st = vaeseq_u8(st, k[R - 1]);
                        store_g(g, b, veorq_u8(st, k[R]));
                    }
                }
            };
        }
        macro_rules! step {
            ($g:literal, $op:ident) => {
                next_k!(kc, $g);
                stream!(step $g, $op, kc, abcd, s);
                aes_ops!($g);
                pin!(st, abcd);
            };
        }
        twenty!(step);
        stream!(end abcd, e, s);
    }
    (h.abcd, h.e) = (abcd, e);
    *y = st;
}

/// Decrypts the four blocks at `g` (whose predecessor ciphertext is `prev`) while hashing
/// the plaintext `hp` of the group before (with `HASH`); returns the plaintext (for the
/// caller to store over `g`) and the last ciphertext block.
///
/// # Safety
/// `g` points to 64 readable bytes.
#[inline]
#[target_feature(enable = "aes,sha2")]
unsafe fn open_step<const R: usize, const HASH: bool>(
    k: &[uint8x16_t; 15],
    h: &mut Sha,
    prev: uint8x16_t,
    g: *const u8,
    hp: [uint8x16_t; 4],
) -> ([uint8x16_t; 4], uint8x16_t) {
    // SAFETY: the caller's contract: 64 readable bytes at `g` (the group's ciphertext,
    // which the caller overwrites only after this returns); `b < 4`.
    let [mut s0, mut s1, mut s2, mut s3] = core::array::from_fn(|b| unsafe { reload(g, b) });
    macro_rules! aes_ops {
        ($g:literal) => {
            let (lo, hi) = const { ops($g, R) };
            let mut st = [s0, s1, s2, s3];
            for t in lo..hi {
                let (r, b) = (t / 4, t % 4);
                if r < R - 1 {
                    st[b] = vaesimcq_u8(vaesdq_u8(st[b], k[r]));
                } else {
                    // The ciphertext block before, loaded again (not held in a register
                    // since the step's start).
                    let before = if b == 0 {
                        prev
                    } else {
                        // SAFETY: as for the first loads; `b - 1 < 4`.
                        unsafe { reload(g, b - 1) }
                    };
                    st[b] = veorq_u8(vaesdq_u8(st[b], k[R - 1]), veorq_u8(k[R], before));
                }
            }
            [s0, s1, s2, s3] = st;
        };
    }
    if HASH {
        let mut kc = [vdupq_n_u32(0); 4];
        kc[0] = fresh_k!(0);
        let (mut abcd, mut e) = (h.abcd, h.e);
        stream!(start kc, abcd, e, hp.map(|v| rev32(v)) => s);
        macro_rules! step {
            ($g:literal, $op:ident) => {
                next_k!(kc, $g);
                aes_ops!($g);
                stream!(step $g, $op, kc, abcd, s);
                pin!(s0, s1, s2, s3, abcd);
            };
        }
        twenty!(step);
        stream!(end abcd, e, s);
        (h.abcd, h.e) = (abcd, e);
    } else {
        macro_rules! step {
            ($g:literal, $op:ident) => {
                aes_ops!($g);
            };
        }
        twenty!(step);
    }
    // SAFETY: as for the first loads.
    let last = unsafe { reload(g, 3) };
    ([s0, s1, s2, s3], last)
}

/// The open's loop: decrypts `groups` in place from the chaining block `prev` (updated
/// to the last ciphertext block) and hashes the plaintext into `h`.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn open_groups<const R: usize>(
    k: &[uint8x16_t; 15],
    h: &mut Sha,
    prev: &mut uint8x16_t,
    groups: &mut [[u8; 64]],
) {
    let Some((g0, rest)) = groups.split_first_mut() else {
        return;
    };
    let zero = [vdupq_n_u8(0); 4];
    // All four ciphertext blocks are read before the plaintext overwrites them.
    // SAFETY: `g0` is 64 readable bytes.
    let (mut p, mut c) = unsafe { open_step::<R, false>(k, h, *prev, g0.as_ptr(), zero) };
    for (i, v) in p.iter().enumerate() {
        store_g(g0, i, *v);
    }
    for g in rest.iter_mut() {
        // SAFETY: `g` is 64 readable bytes.
        (p, c) = unsafe { open_step::<R, true>(k, h, c, g.as_ptr(), p) };
        for (i, v) in p.iter().enumerate() {
            store_g(g, i, *v);
        }
    }
    *prev = c;
    // The last group's plaintext, hashed alone.
    let kc = k_vectors();
    let (mut abcd, mut e) = (h.abcd, h.e);
    block!(kc, abcd, e, p.map(|v| rev32(v)));
    (h.abcd, h.e) = (abcd, e);
}

/// Seals (`seal`) or opens whole 64-byte groups in place: loads the round keys, the chain
/// and the state, runs the direction's loop, and stores the chain and the state back.
/// One entry per round count.
#[inline(never)]
#[target_feature(enable = "aes,sha2")]
fn groups_ce<const R: usize>(
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    let (abcd, e) = load_state(state);
    let mut h = Sha { abcd, e };
    // SAFETY: `chain` is 16 readable bytes.
    let c = unsafe { vld1q_u8(chain.as_ptr()) };
    let out = if seal {
        let k = load_keys::<R>(&ks.enc);
        let mut y = veorq_u8(c, k[R]);
        seal_groups::<R>(&k, &mut h, &mut y, groups);
        veorq_u8(y, k[R])
    } else {
        let k = load_keys::<R>(&ks.dec);
        let mut prev = c;
        open_groups::<R>(&k, &mut h, &mut prev, groups);
        prev
    };
    // SAFETY: `chain` is 16 writable bytes.
    unsafe { vst1q_u8(chain.as_mut_ptr(), out) };
    store_state(state, h.abcd, h.e);
}

/// CBC-encrypts (`seal`) or CBC-decrypts whole 64-byte groups in place from `chain`
/// (updated to the last ciphertext block) and compresses their plaintext (the recovered
/// plaintext when opening) into `state`.
pub(crate) fn run(
    _: Armv8AesToken,
    _: Armv8Sha1Token,
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    match ks.rounds {
        // SAFETY: the tokens prove the CPU has the AES and the SHA-1 instructions.
        10 => unsafe { groups_ce::<10>(seal, ks, chain, state, groups) },
        // SAFETY: as above.
        12 => unsafe { groups_ce::<12>(seal, ks, chain, state, groups) },
        // SAFETY: as above.
        _ => unsafe { groups_ce::<14>(seal, ks, chain, state, groups) },
    }
}

#[cfg(test)]
mod tests;
