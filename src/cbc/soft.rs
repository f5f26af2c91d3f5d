//! Portable constant-time CBC over the portable AES block kernels.
//!
//! ```text
//! encrypt: c = iv; for each block P: c = E(P ^ c); store c        (one block at a time)
//! decrypt: for each batch of 32 blocks: T = D(batch)              (one batched call)
//!          P[i] = T[i] ^ C[i-1]
//! many:    per step, one block from each lane, XORed with its chain, in one batched call
//! ```
//! The block kernels are called with as many independent blocks as the mode allows, so a
//! bitsliced AES gets full batches when decrypting and when encrypting many streams.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use super::lanes::Lane;
use crate::aes::{Block, KeySchedule, soft};

fn xor(a: &Block, b: &Block) -> Block {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// CBC-encrypts `blocks` in place, chaining from `iv` (updated to the last ciphertext).
#[inline(never)]
pub(crate) fn encrypt(ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    let mut c = *iv;
    for b in blocks {
        *b = xor(b, &c);
        soft::encrypt_blocks(ks, core::slice::from_mut(b));
        c = *b;
    }
    *iv = c;
}

const BATCH: usize = 32;

/// CBC-decrypts `blocks` in place, chaining from `iv` (updated to the last ciphertext).
#[inline(never)]
pub(crate) fn decrypt(ks: &KeySchedule, iv: &mut Block, blocks: &mut [Block]) {
    let mut prev = *iv;
    let mut tmp = [[0u8; 16]; BATCH];
    for chunk in blocks.chunks_mut(BATCH) {
        let t = &mut tmp[..chunk.len()];
        t.copy_from_slice(chunk);
        soft::decrypt_blocks(ks, t);
        for (c, d) in chunk.iter_mut().zip(t.iter()) {
            let next = *c;
            *c = xor(d, &prev);
            prev = next;
        }
    }
    tmp.zeroize();
    *iv = prev;
}

/// Encrypts `steps` blocks of every lane (at most 8 lanes), one batched call per step.
#[inline(never)]
pub(crate) fn encrypt_lanes(ks: &KeySchedule, lanes: &mut [Lane<'_>], steps: usize) {
    let mut tmp = [[0u8; 16]; 8];
    for chunk in lanes.chunks_mut(8) {
        let t = &mut tmp[..chunk.len()];
        for j in 0..steps {
            for (x, l) in t.iter_mut().zip(chunk.iter()) {
                *x = xor(&l.data[j], &l.iv);
            }
            soft::encrypt_blocks(ks, t);
            for (x, l) in t.iter().zip(chunk.iter_mut()) {
                l.data[j] = *x;
                l.iv = *x;
            }
        }
    }
    tmp.zeroize();
}
