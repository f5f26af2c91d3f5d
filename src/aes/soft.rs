//! Portable constant-time AES (placeholder: byte-wise, S-box by constant-time GF(2^8)
//! inversion; to be replaced by a bitsliced kernel).
#![forbid(unsafe_code)]

use super::{Block, KeySchedule};

/// Multiplication by x in GF(2^8) mod x^8+x^4+x^3+x+1, without branches.
#[inline]
pub(crate) fn xtime(a: u8) -> u8 {
    (a << 1) ^ (0x1b & 0u8.wrapping_sub(a >> 7))
}

#[inline]
fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    for _ in 0..8 {
        r ^= a & 0u8.wrapping_sub(b & 1);
        a = xtime(a);
        b >>= 1;
    }
    r
}

/// a^254 = a^-1 (0 for 0), by a fixed addition chain.
fn ginv(x: u8) -> u8 {
    let x2 = gmul(x, x);
    let x3 = gmul(x2, x);
    let x6 = gmul(x3, x3);
    let x12 = gmul(x6, x6);
    let x15 = gmul(x12, x3);
    let x30 = gmul(x15, x15);
    let x60 = gmul(x30, x30);
    let x120 = gmul(x60, x60);
    let x240 = gmul(x120, x120);
    let x252 = gmul(x240, x12);
    gmul(x252, x2)
}

fn sbox(x: u8) -> u8 {
    let i = ginv(x);
    i ^ i.rotate_left(1) ^ i.rotate_left(2) ^ i.rotate_left(3) ^ i.rotate_left(4) ^ 0x63
}

fn inv_sbox(x: u8) -> u8 {
    ginv(x.rotate_left(1) ^ x.rotate_left(3) ^ x.rotate_left(6) ^ 0x05)
}

/// SubWord of the key expansion, in constant time.
pub(crate) fn sub_word(w: u32) -> u32 {
    u32::from_be_bytes(w.to_be_bytes().map(sbox))
}

fn mix_column(c: [u8; 4]) -> [u8; 4] {
    let t = c[0] ^ c[1] ^ c[2] ^ c[3];
    [
        c[0] ^ t ^ xtime(c[0] ^ c[1]),
        c[1] ^ t ^ xtime(c[1] ^ c[2]),
        c[2] ^ t ^ xtime(c[2] ^ c[3]),
        c[3] ^ t ^ xtime(c[3] ^ c[0]),
    ]
}

fn inv_mix_column(c: [u8; 4]) -> [u8; 4] {
    let m = |a: u8, b: u8, cc: u8, d: u8| gmul(a, 14) ^ gmul(b, 11) ^ gmul(cc, 13) ^ gmul(d, 9);
    [
        m(c[0], c[1], c[2], c[3]),
        m(c[1], c[2], c[3], c[0]),
        m(c[2], c[3], c[0], c[1]),
        m(c[3], c[0], c[1], c[2]),
    ]
}

/// InvMixColumns of a round key (for the equivalent inverse cipher's schedule).
pub(crate) fn inv_mix_columns(b: &Block) -> Block {
    let mut out = [0u8; 16];
    for c in 0..4 {
        let col = inv_mix_column([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]]);
        out[4 * c..4 * c + 4].copy_from_slice(&col);
    }
    out
}

fn add(s: &mut Block, k: &Block) {
    for (a, b) in s.iter_mut().zip(k) {
        *a ^= b;
    }
}

fn encrypt_one(ks: &KeySchedule, s: &mut Block) {
    add(s, &ks.enc[0]);
    for r in 1..=ks.rounds {
        let t = s.map(sbox);
        for c in 0..4 {
            for row in 0..4 {
                s[4 * c + row] = t[4 * ((c + row) % 4) + row];
            }
        }
        if r != ks.rounds {
            for c in 0..4 {
                let col = mix_column([s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]]);
                s[4 * c..4 * c + 4].copy_from_slice(&col);
            }
        }
        add(s, &ks.enc[r]);
    }
}

fn decrypt_one(ks: &KeySchedule, s: &mut Block) {
    add(s, &ks.dec[0]);
    for r in 1..=ks.rounds {
        let t = s.map(inv_sbox);
        for c in 0..4 {
            for row in 0..4 {
                s[4 * ((c + row) % 4) + row] = t[4 * c + row];
            }
        }
        if r != ks.rounds {
            *s = inv_mix_columns(s);
        }
        add(s, &ks.dec[r]);
    }
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    blocks.iter_mut().for_each(|b| encrypt_one(ks, b));
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    blocks.iter_mut().for_each(|b| decrypt_one(ks, b));
}
