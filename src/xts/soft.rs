//! Portable XTS unit kernel (constant time).
//!
//! ```text
//! t = T_0 (already E_K2(tweak)); bulk = all full blocks, less the last one if a partial
//! block follows
//! for each batch of up to 64 bulk blocks:
//!     for i in batch: tw[i] = t; t = t · x; b[i] = P[i] ⊕ tw[i]
//!     b = AES-ECB(Key1, b)                       // one call on 64 blocks: bitsliced core
//!     for i in batch: C[i] = b[i] ⊕ tw[i]
//! if a partial block follows: ciphertext stealing, as in `super`'s notes
//! ```
//! Tweak doubling is a shift and a masked XOR (no branch on the tweak).
#![forbid(unsafe_code)]

use crate::aes::{Block, KeySchedule, soft};
use crate::block::mul_x;
use crate::wipe::blocks as wipe;

/// Blocks per call into the bitsliced core, which bitslices the round keys on every call:
/// 64 blocks keep that to a few percent (docs/design.md, "Key setup and constants").
const PORTABLE_BATCH: usize = 64;

/// Encrypts one data unit (16..=2^24 bytes) in place; `t0` is E_K2(tweak).
#[inline(never)]
pub(crate) fn encrypt_unit(k1: &KeySchedule, t0: &Block, buf: &mut [u8]) {
    unit::<false>(k1, t0, buf);
}

/// Decrypts one data unit in place; `t0` is E_K2(tweak).
#[inline(never)]
pub(crate) fn decrypt_unit(k1: &KeySchedule, t0: &Block, buf: &mut [u8]) {
    unit::<true>(k1, t0, buf);
}

#[inline]
fn crypt<const DEC: bool>(ks: &KeySchedule, blocks: &mut [Block]) {
    if DEC {
        soft::decrypt_blocks(ks, blocks);
    } else {
        soft::encrypt_blocks(ks, blocks);
    }
}

#[inline]
fn xor(a: &mut Block, b: &Block) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// One data unit, `PORTABLE_BATCH` blocks per call into the AES core; a copy per
/// direction, so that a program that only encrypts links no decryption.
fn unit<const DEC: bool>(ks: &KeySchedule, t0: &Block, buf: &mut [u8]) {
    let mut t = u128::from_le_bytes(*t0);
    let rem = buf.len() % 16;
    let bulk = if rem == 0 {
        buf.len()
    } else {
        buf.len() - 16 - rem
    };
    let (head, last) = buf.split_at_mut(bulk);
    let mut tw = [[0u8; 16]; PORTABLE_BATCH];
    let mut b = [[0u8; 16]; PORTABLE_BATCH];
    for chunk in head.chunks_mut(16 * PORTABLE_BATCH) {
        let n = chunk.len() / 16;
        for (i, p) in chunk.chunks_exact(16).enumerate() {
            tw[i] = t.to_le_bytes();
            t = mul_x(t);
            b[i].copy_from_slice(p);
            xor(&mut b[i], &tw[i]);
        }
        crypt::<DEC>(ks, &mut b[..n]);
        for (i, c) in chunk.chunks_exact_mut(16).enumerate() {
            xor(&mut b[i], &tw[i]);
            c.copy_from_slice(&b[i]);
        }
    }
    if rem != 0 {
        let (ta, tb) = (t.to_le_bytes(), mul_x(t).to_le_bytes());
        // First the block at m-1 with its own tweak (encrypt) or T_m (decrypt).
        let (first, second) = if DEC { (tb, ta) } else { (ta, tb) };
        let (full, part) = last.split_at_mut(16);
        let mut x = [0u8; 16];
        x.copy_from_slice(full);
        xor(&mut x, &first);
        crypt::<DEC>(ks, core::slice::from_mut(&mut x));
        xor(&mut x, &first);
        // x = CC (encrypt) or PP (decrypt); steal its tail.
        let mut y = x;
        y[..rem].copy_from_slice(part);
        part.copy_from_slice(&x[..rem]);
        xor(&mut y, &second);
        crypt::<DEC>(ks, core::slice::from_mut(&mut y));
        xor(&mut y, &second);
        full.copy_from_slice(&y);
        wipe(core::slice::from_mut(&mut x));
        wipe(core::slice::from_mut(&mut y));
    }
    wipe(&mut tw);
    wipe(&mut b);
}
