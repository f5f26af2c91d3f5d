//! Portable constant-time AES: bitsliced, four blocks at a time in eight `u64` bit planes,
//! "fixsliced" so that ShiftRows is never computed on the state.
//!
//! ```text
//! layout:   plane[b] bit (16*row + 4*col + lane) = bit b of byte (row, col) of block `lane`
//!           (row, col of the FIPS-197 state; AES byte index = 4*col + row)
//! deficit k = ShiftRows applications skipped so far (mod 4): logical (r, c) lives at
//!           stored (r, c + k*r); round keys are stored in the same permuted order.
//! rot(j, s)(x): stored (r, c) <- (r + j, c + s)  = rotate_right(x, 16j + 4s), with the
//!           columns that wrap taken from rotate_right(x, 16j + 4s - 16) (mask)
//!
//! encrypt 4 blocks:
//!   X = bitslice(blocks); X ^= RK[0]
//!   for i in 1..=Nr:
//!     X = S'(X)                              // Boyar-Peralta circuit, 0x63 left out
//!     k = i mod 4                            // ShiftRows skipped
//!     if i < Nr: A = rot(1, k)(X); T = X ^ A  // MixColumns with rotations for deficit k:
//!                X = xtime(T) ^ A ^ rot(2, 2k)(T)
//!     X ^= RK[i]                             // RK[i] = permute_k(enc[i] ^ 0x63...)
//!   blocks = unpermute_{Nr mod 4}(unbitslice(X))
//! decrypt (equivalent inverse cipher, keys `dec`): the same with InvS' (inverse circuit,
//!   input 0x63 folded into RK[0..Nr]), k = -i mod 4, and
//!   InvMixColumns(X) = MixColumns(X ^ xtime(xtime(X ^ rot(2, 2k)(X))))
//! ```
//!
//! The S-box is GF(2^8) inversion sandwiched between linear layers (the depth-16 structure
//! of Boyar and Peralta, "A Small Depth-16 Circuit for the AES S-Box", 2012): a top layer
//! (8 -> 21 signals, one for the S-box and one for its inverse), a shared nonlinear middle
//! (21 -> 18), and a bottom layer (18 -> 8). Only XOR and AND on whole planes: no tables, no
//! branches on data. The affine constants are folded into the bitsliced round keys (the
//! forward 0x63 passes through MixColumns unchanged since 2^3^1^1 = 1).
#![forbid(unsafe_code)]

use zeroize::Zeroize;

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

/// SubWord of the key expansion, in constant time (the bitsliced S-box on one word).
pub(crate) fn sub_word(w: u32) -> u32 {
    let bytes = w.to_be_bytes();
    let mut x = [0u64; 8];
    for (b, plane) in x.iter_mut().enumerate() {
        for (i, byte) in bytes.iter().enumerate() {
            *plane |= u64::from((byte >> b) & 1) << i;
        }
    }
    sbox_fwd(&mut x);
    let mut out = [0u8; 4];
    for (i, o) in out.iter_mut().enumerate() {
        for (b, plane) in x.iter().enumerate() {
            *o |= (((plane >> i) & 1) as u8) << b;
        }
        *o ^= 0x63;
    }
    x.zeroize();
    u32::from_be_bytes(out)
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

/// Eight bit planes: four blocks.
type State = [u64; 8];

// ---------------------------------------------------------------------------------------
// S-box circuits. `x[b]` is bit b (LSB = 0) of every byte.

/// The nonlinear middle shared by both directions: inversion in GF(2^8) expressed on the
/// 21 linear signals of the top layer, giving 18 products for the bottom layer.
#[inline(always)]
fn sbox_middle(x: &[u64; 21]) -> [u64; 18] {
    let m0 = x[3] ^ x[12];
    let m1 = x[9] & x[5];
    let m2 = x[17] & x[6];
    let m3 = x[10] ^ m1;
    let m4 = x[14] & x[0];
    let m5 = m4 ^ m1;
    let m6 = x[3] & x[12];
    let m7 = x[16] & x[7];
    let m8 = m0 ^ m6;
    let m9 = x[15] & x[13];
    let m10 = m9 ^ m6;
    let m11 = x[1] & x[11];
    let m12 = x[4] & x[20];
    let m13 = m12 ^ m11;
    let m14 = x[2] & x[8];
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ x[18];
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    // The four coordinates of a GF(2^4) element, then its inverse.
    let a0 = m16 ^ m13;
    let a1 = m17 ^ m15;
    let a2 = m18 ^ m13;
    let a3 = m19 ^ x[19];
    let n24 = a2 ^ a3;
    let n25 = a2 & a0;
    let n26 = a1 ^ n25;
    let n27 = a0 ^ a1;
    let n28 = a3 ^ n25;
    let n29 = n28 & n27;
    let n30 = n26 & n24;
    let n31 = a0 & a3;
    let n32 = n27 & n31;
    let n33 = n27 ^ n25;
    let n34 = a1 & a2;
    let n35 = n24 & n34;
    let n36 = n24 ^ n25;
    let i0 = a1 ^ n29;
    let i1 = n32 ^ n33;
    let i2 = a3 ^ n30;
    let i3 = n35 ^ n36;
    let i4 = i1 ^ i3;
    let i5 = i0 ^ i2;
    let i6 = i0 ^ i1;
    let i7 = i2 ^ i3;
    let i8 = i5 ^ i4;
    [
        i1 & x[7],
        i0 & x[13],
        i5 & x[11],
        i8 & x[20],
        i4 & x[8],
        i7 & x[9],
        i3 & x[17],
        i2 & x[14],
        i6 & x[3],
        i1 & x[16],
        i0 & x[15],
        i5 & x[1],
        i8 & x[4],
        i4 & x[2],
        i7 & x[5],
        i3 & x[6],
        i2 & x[0],
        i6 & x[12],
    ]
}

/// Forward S-box without its constant: `x <- S(x) ^ 0x63` on every byte.
#[inline(always)]
fn sbox_fwd(s: &mut State) {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = *s;
    let u1 = x7 ^ x4;
    let u2 = x7 ^ x2;
    let u3 = x7 ^ x1;
    let u4 = x4 ^ x2;
    let v0 = x3 ^ x1;
    let u5 = u1 ^ v0;
    let v1 = x6 ^ x5;
    let u6 = x0 ^ u5;
    let u7 = x0 ^ v1;
    let u8 = u5 ^ v1;
    let v2 = x6 ^ x2;
    let v3 = x5 ^ x2;
    let u9 = u3 ^ u4;
    let u10 = u5 ^ v2;
    let u11 = v0 ^ v2;
    let u12 = v0 ^ v3;
    let u13 = u7 ^ u12;
    let v4 = x4 ^ x0;
    let u14 = v1 ^ v4;
    let u15 = u1 ^ u14;
    let v5 = x1 ^ x0;
    let u16 = v1 ^ v5;
    let u17 = u2 ^ u16;
    let u18 = u2 ^ u8;
    let u19 = u15 ^ u13;
    let u20 = u1 ^ v3;
    let p = sbox_middle(&[
        x0, u1, u2, u3, u4, u5, u6, u7, u8, u9, u10, u11, u12, u13, u14, u15, u16, u17, u18, u19,
        u20,
    ]);
    let w0 = p[11] ^ p[12];
    let w1 = p[0] ^ p[6];
    let w2 = p[14] ^ p[16];
    let w3 = p[15] ^ p[5];
    let w4 = p[4] ^ p[8];
    let w5 = p[17] ^ p[11];
    let w6 = p[12] ^ w5;
    let w7 = p[14] ^ w3;
    let w8 = p[1] ^ p[9];
    let w9 = p[2] ^ p[3];
    let w10 = p[3] ^ w4;
    let w11 = p[10] ^ w2;
    let w12 = p[16] ^ p[1];
    let w13 = p[0] ^ w0;
    let w14 = p[2] ^ p[11];
    let w15 = p[5] ^ w1;
    let w16 = p[6] ^ w0;
    let w17 = p[7] ^ w1;
    let w18 = p[8] ^ w8;
    let w19 = p[13] ^ w4;
    let w20 = w0 ^ w1;
    let w21 = w1 ^ w7;
    let w22 = w3 ^ w12;
    let w23 = w18 ^ w2;
    let w24 = w15 ^ w9;
    let w25 = w6 ^ w10;
    let w26 = w7 ^ w9;
    let w27 = w8 ^ w10;
    let w28 = w11 ^ w14;
    let w29 = w11 ^ w17;
    *s = [
        w6 ^ w23,
        w13 ^ w27,
        w25 ^ w29,
        w20 ^ w22,
        w6 ^ w21,
        w19 ^ w28,
        w16 ^ w26,
        w6 ^ w24,
    ];
}

/// Inverse S-box with its input constant left out: `x <- S^-1(x ^ 0x63)` on every byte.
#[inline(always)]
fn sbox_inv(s: &mut State) {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = *s;
    let u17 = x7 ^ x4;
    let u16 = x6 ^ x4;
    let u2 = x7 ^ x6;
    let u1 = x4 ^ x3;
    let u18 = x3 ^ x0;
    let v0 = x1 ^ x0;
    let u6 = x6 ^ u17;
    let u14 = u16 ^ v0;
    let u7 = x0 ^ u1;
    let u8 = u2 ^ u18;
    let u9 = u2 ^ v0;
    let u3 = u1 ^ v0;
    let u19 = x5 ^ u1;
    let v1 = x6 ^ x1;
    let u13 = x5 ^ u14;
    let u15 = u18 ^ v1;
    let u4 = x3 ^ u6;
    let v2 = x5 ^ x2;
    let v3 = x2 ^ x1;
    let v4 = x5 ^ x3;
    let u5 = u16 ^ v2;
    let u12 = v1 ^ v4;
    let u20 = u1 ^ v3;
    let u11 = u8 ^ u20;
    let u10 = u8 ^ v3;
    let u0 = x7 ^ v2;
    let p = sbox_middle(&[
        u0, u1, u2, u3, u4, u5, u6, u7, u8, u9, u10, u11, u12, u13, u14, u15, u16, u17, u18, u19,
        u20,
    ]);
    let w0 = p[2] ^ p[11];
    let w1 = p[8] ^ p[9];
    let w2 = p[4] ^ p[12];
    let w3 = p[15] ^ p[0];
    let w4 = p[16] ^ p[6];
    let w5 = p[14] ^ p[1];
    let w6 = p[17] ^ p[10];
    let w7 = w0 ^ w1;
    let w8 = p[0] ^ p[3];
    let w9 = p[5] ^ p[13];
    let w10 = p[7] ^ w4;
    let w11 = w0 ^ w3;
    let w12 = p[14] ^ p[16];
    let w13 = p[17] ^ p[1];
    let w14 = p[17] ^ p[12];
    let w15 = p[4] ^ p[9];
    let w16 = p[7] ^ p[11];
    let w17 = p[8] ^ w2;
    let w18 = p[13] ^ w5;
    let w19 = w2 ^ w3;
    let w20 = w4 ^ w6;
    let w22 = w2 ^ w7;
    let w23 = w7 ^ w8;
    let w24 = w5 ^ w7;
    let w25 = w6 ^ w10;
    let w26 = w9 ^ w11;
    let w27 = w10 ^ w18;
    let w28 = w11 ^ w25;
    let w29 = w15 ^ w20;
    *s = [
        w9 ^ w16,
        w14 ^ w23,
        w19 ^ w24,
        w23 ^ w27,
        w12 ^ w22,
        w17 ^ w28,
        w26 ^ w29,
        w13 ^ w22,
    ];
}

// ---------------------------------------------------------------------------------------
// Linear layer.

/// Columns that do not wrap when shifted by `s` columns (per 16-bit row).
const NO_WRAP: [u64; 4] = [
    u64::MAX,
    0x0fff_0fff_0fff_0fff,
    0x00ff_00ff_00ff_00ff,
    0x000f_000f_000f_000f,
];

/// Stored (r, c) <- (r + J, c + S) for every lane.
#[inline(always)]
fn rot<const J: u32, const S: u32>(x: u64) -> u64 {
    if S == 0 {
        x.rotate_right(16 * J)
    } else {
        let m = NO_WRAP[S as usize];
        (x.rotate_right(16 * J + 4 * S) & m) | (x.rotate_right(16 * J + 4 * S - 16) & !m)
    }
}

#[inline(always)]
fn xtime_planes(t: &State) -> State {
    [
        t[7],
        t[0] ^ t[7],
        t[1],
        t[2] ^ t[7],
        t[3] ^ t[7],
        t[4],
        t[5],
        t[6],
    ]
}

/// MixColumns on a state whose deficit is `K` (ShiftRows skipped K times, mod 4).
#[inline(always)]
fn mix_columns_impl<const K: u32>(x: &mut State) {
    let a: State = core::array::from_fn(|b| match K {
        0 => rot::<1, 0>(x[b]),
        1 => rot::<1, 1>(x[b]),
        2 => rot::<1, 2>(x[b]),
        _ => rot::<1, 3>(x[b]),
    });
    let t: State = core::array::from_fn(|b| x[b] ^ a[b]);
    let d = xtime_planes(&t);
    for b in 0..8 {
        let r2 = match K {
            0 | 2 => rot::<2, 0>(t[b]),
            _ => rot::<2, 2>(t[b]),
        };
        x[b] = d[b] ^ a[b] ^ r2;
    }
}

/// InvMixColumns = MixColumns after multiplying each column by 4x^2 + 5.
#[inline(always)]
fn inv_mix_columns_bs<const K: u32>(x: &mut State) {
    let t: State = core::array::from_fn(|b| {
        x[b] ^ match K {
            0 | 2 => rot::<2, 0>(x[b]),
            _ => rot::<2, 2>(x[b]),
        }
    });
    let t4 = xtime_planes(&xtime_planes(&t));
    for b in 0..8 {
        x[b] ^= t4[b];
    }
    mix_columns_impl::<K>(x);
}

#[inline(always)]
fn add_round_key(x: &mut State, k: &State) {
    for (a, b) in x.iter_mut().zip(k) {
        *a ^= b;
    }
}

// ---------------------------------------------------------------------------------------
// Bitslicing. Loaded words: w[2*lane + h] = bytes 8h..8h+8 of block `lane`, little-endian;
// address of a bit: word (lane1 lane0 col1), position (col0 row1 row0 b2 b1 b0). Six
// swaps of one word-address bit with one position bit reach word (b1 b0 b2), position
// (row1 row0 col1 col0 lane1 lane0).

#[inline(always)]
fn swapmove(w: &mut [u64; 8], a: usize, b: usize, shift: u32, mask: u64) {
    let t = ((w[a] >> shift) ^ w[b]) & mask;
    w[b] ^= t;
    w[a] ^= t << shift;
}

const PLANE_WORD: [usize; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

#[inline(always)]
fn transpose(w: &mut [u64; 8], forward: bool) {
    // (word bit, position shift, mask of positions with that bit clear), in order.
    const STEPS: [(usize, u32, u64); 6] = [
        (1, 8, 0x00ff_00ff_00ff_00ff),
        (1, 16, 0x0000_ffff_0000_ffff),
        (1, 32, 0x0000_0000_ffff_ffff),
        (1, 4, 0x0f0f_0f0f_0f0f_0f0f),
        (4, 2, 0x3333_3333_3333_3333),
        (2, 1, 0x5555_5555_5555_5555),
    ];
    for i in 0..6 {
        let (bit, shift, mask) = STEPS[if forward { i } else { 5 - i }];
        for a in 0..8 {
            if a & bit == 0 {
                swapmove(w, a, a | bit, shift, mask);
            }
        }
    }
}

#[inline(always)]
fn bitslice(blocks: &[Block; 4]) -> State {
    let mut w = [0u64; 8];
    for (lane, blk) in blocks.iter().enumerate() {
        for h in 0..2 {
            let mut b = [0u8; 8];
            b.copy_from_slice(&blk[8 * h..8 * h + 8]);
            w[2 * lane + h] = u64::from_le_bytes(b);
        }
    }
    transpose(&mut w, true);
    let s = PLANE_WORD.map(|i| w[i]);
    w.zeroize();
    s
}

/// Inverse of `bitslice`, then undoes a final deficit of `k` (0 or 2).
#[inline(always)]
fn unbitslice(s: &State, k: usize, blocks: &mut [Block; 4]) {
    let mut w = [0u64; 8];
    for (b, &i) in PLANE_WORD.iter().enumerate() {
        w[i] = s[b];
    }
    transpose(&mut w, false);
    for (lane, blk) in blocks.iter_mut().enumerate() {
        if k == 2 {
            // Odd rows were left two columns off: swap the block's halves on them.
            let t = (w[2 * lane] ^ w[2 * lane + 1]) & 0xff00_ff00_ff00_ff00;
            w[2 * lane] ^= t;
            w[2 * lane + 1] ^= t;
        }
        blk[..8].copy_from_slice(&w[2 * lane].to_le_bytes());
        blk[8..].copy_from_slice(&w[2 * lane + 1].to_le_bytes());
    }
    w.zeroize();
}

/// Bitsliced round keys for one direction: `rk[i]` is key `i` in the order of deficit
/// `k(i)`, with `c` XORed into every byte where `fold(i)`, replicated to all four lanes.
fn bitslice_keys(
    keys: &[Block; 15],
    rounds: usize,
    k: impl Fn(usize) -> usize,
    fold: impl Fn(usize) -> bool,
) -> [State; 15] {
    let mut rk = [[0u64; 8]; 15];
    let mut tmp = [[0u8; 16]; 4];
    for g in 0..(rounds + 4) / 4 {
        for (lane, t) in tmp.iter_mut().enumerate() {
            let i = 4 * g + lane;
            if i > rounds {
                *t = [0; 16];
                continue;
            }
            let kk = k(i);
            let c = if fold(i) { 0x63 } else { 0 };
            for col in 0..4 {
                for row in 0..4 {
                    t[4 * ((col + kk * row) % 4) + row] = keys[i][4 * col + row] ^ c;
                }
            }
        }
        let mut s = bitslice(&tmp);
        for lane in 0..4 {
            let i = 4 * g + lane;
            if i <= rounds {
                for b in 0..8 {
                    rk[i][b] = ((s[b] >> lane) & 0x1111_1111_1111_1111) * 0xf;
                }
            }
        }
        s.zeroize();
    }
    tmp.zeroize();
    rk
}

fn encrypt4(rk: &[State; 15], rounds: usize, blocks: &mut [Block; 4]) {
    let mut x = bitslice(blocks);
    add_round_key(&mut x, &rk[0]);
    for (i, k) in rk.iter().enumerate().take(rounds).skip(1) {
        sbox_fwd(&mut x);
        match i % 4 {
            0 => mix_columns_impl::<0>(&mut x),
            1 => mix_columns_impl::<1>(&mut x),
            2 => mix_columns_impl::<2>(&mut x),
            _ => mix_columns_impl::<3>(&mut x),
        }
        add_round_key(&mut x, k);
    }
    sbox_fwd(&mut x);
    add_round_key(&mut x, &rk[rounds]);
    unbitslice(&x, rounds % 4, blocks);
    x.zeroize();
}

fn decrypt4(rk: &[State; 15], rounds: usize, blocks: &mut [Block; 4]) {
    let mut x = bitslice(blocks);
    add_round_key(&mut x, &rk[0]);
    for (i, k) in rk.iter().enumerate().take(rounds).skip(1) {
        sbox_inv(&mut x);
        // Deficit -i mod 4.
        match i % 4 {
            0 => inv_mix_columns_bs::<0>(&mut x),
            1 => inv_mix_columns_bs::<3>(&mut x),
            2 => inv_mix_columns_bs::<2>(&mut x),
            _ => inv_mix_columns_bs::<1>(&mut x),
        }
        add_round_key(&mut x, k);
    }
    sbox_inv(&mut x);
    add_round_key(&mut x, &rk[rounds]);
    unbitslice(&x, rounds % 4, blocks);
    x.zeroize();
}

fn run(
    rk: &[State; 15],
    rounds: usize,
    blocks: &mut [Block],
    f: fn(&[State; 15], usize, &mut [Block; 4]),
) {
    let mut chunks = blocks.chunks_exact_mut(4);
    for c in &mut chunks {
        let c: &mut [Block; 4] = c.try_into().expect("chunk of 4");
        f(rk, rounds, c);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut buf = [[0u8; 16]; 4];
        buf[..rest.len()].copy_from_slice(rest);
        f(rk, rounds, &mut buf);
        rest.copy_from_slice(&buf[..rest.len()]);
        buf.zeroize();
    }
}

/// Encrypts each block in place.
pub(crate) fn encrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    if blocks.is_empty() {
        return;
    }
    let rounds = ks.rounds;
    let mut rk = bitslice_keys(&ks.enc, rounds, |i| i % 4, |i| i > 0);
    run(&rk, rounds, blocks, encrypt4);
    rk.zeroize();
}

/// Decrypts each block in place.
pub(crate) fn decrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    if blocks.is_empty() {
        return;
    }
    let rounds = ks.rounds;
    let mut rk = bitslice_keys(&ks.dec, rounds, |i| (4 - i % 4) % 4, |i| i < rounds);
    run(&rk, rounds, blocks, decrypt4);
    rk.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn ref_sbox(x: u8) -> u8 {
        let i = ginv(x);
        i ^ i.rotate_left(1) ^ i.rotate_left(2) ^ i.rotate_left(3) ^ i.rotate_left(4) ^ 0x63
    }

    fn ref_inv_sbox(x: u8) -> u8 {
        ginv(x.rotate_left(1) ^ x.rotate_left(3) ^ x.rotate_left(6) ^ 0x05)
    }

    /// Planes holding byte values 0..=255 at bit positions 0..=255 over four words each.
    fn all_bytes(f: fn(&mut State)) -> [u8; 256] {
        let mut out = [0u8; 256];
        for chunk in 0..4 {
            let mut s = [0u64; 8];
            for i in 0..64 {
                let v = (chunk * 64 + i) as u8;
                for (b, p) in s.iter_mut().enumerate() {
                    *p |= u64::from((v >> b) & 1) << i;
                }
            }
            f(&mut s);
            for i in 0..64 {
                out[chunk * 64 + i] = (0..8).map(|b| (((s[b] >> i) & 1) as u8) << b).sum();
            }
        }
        out
    }

    #[test]
    fn sbox_circuits_match_gf_inversion() {
        let fwd = all_bytes(sbox_fwd);
        let inv = all_bytes(sbox_inv);
        for x in 0..=255u8 {
            assert_eq!(fwd[x as usize] ^ 0x63, ref_sbox(x), "S({x:#x})");
            assert_eq!(inv[(x ^ 0x63) as usize], ref_inv_sbox(x), "InvS({x:#x})");
            assert_eq!(ref_inv_sbox(ref_sbox(x)), x);
        }
        // Spot values from FIPS-197 figure 7.
        assert_eq!(ref_sbox(0x53), 0xed);
        assert_eq!(ref_sbox(0x00), 0x63);
    }

    #[test]
    fn sub_word_matches_reference() {
        for w in [0u32, 0x0102_0304, 0xcf4f_3c09, 0xffff_ffff, 0x53ab_ed10] {
            let want = u32::from_be_bytes(w.to_be_bytes().map(ref_sbox));
            assert_eq!(sub_word(w), want, "{w:#x}");
        }
        for x in 0..=255u32 {
            assert_eq!(
                sub_word(x * 0x0101_0101),
                u32::from(ref_sbox(x as u8)) * 0x0101_0101
            );
        }
    }

    fn sample_blocks() -> [Block; 4] {
        core::array::from_fn(|l| core::array::from_fn(|i| (l * 16 + i) as u8 ^ 0xa5))
    }

    #[test]
    fn bitslice_layout_and_round_trip() {
        let blocks = sample_blocks();
        let s = bitslice(&blocks);
        for (lane, blk) in blocks.iter().enumerate() {
            for row in 0..4 {
                for col in 0..4 {
                    for (b, plane) in s.iter().enumerate() {
                        let bit = (plane >> (16 * row + 4 * col + lane)) & 1;
                        assert_eq!(bit as u8, (blk[4 * col + row] >> b) & 1);
                    }
                }
            }
        }
        let mut back = [[0u8; 16]; 4];
        unbitslice(&s, 0, &mut back);
        assert_eq!(back, blocks);
    }

    /// MixColumns and InvMixColumns on a state with deficit k agree with the byte-wise
    /// definitions applied to the logical state.
    #[test]
    fn mix_columns_for_every_deficit() {
        fn mix_ref(b: &Block) -> Block {
            let mut out = [0u8; 16];
            for c in 0..4 {
                let a = &b[4 * c..4 * c + 4];
                for r in 0..4 {
                    out[4 * c + r] = xtime(a[r])
                        ^ xtime(a[(r + 1) % 4])
                        ^ a[(r + 1) % 4]
                        ^ a[(r + 2) % 4]
                        ^ a[(r + 3) % 4];
                }
            }
            out
        }
        fn stored(b: &Block, k: usize) -> Block {
            let mut t = [0u8; 16];
            for col in 0..4 {
                for row in 0..4 {
                    t[4 * ((col + k * row) % 4) + row] = b[4 * col + row];
                }
            }
            t
        }
        fn logical(t: &Block, k: usize) -> Block {
            let mut b = [0u8; 16];
            for col in 0..4 {
                for row in 0..4 {
                    b[4 * col + row] = t[4 * ((col + k * row) % 4) + row];
                }
            }
            b
        }
        let blocks = sample_blocks();
        for k in 0..4 {
            for inverse in [false, true] {
                let st = blocks.map(|b| stored(&b, k));
                let mut s = bitslice(&st);
                match (inverse, k) {
                    (false, 0) => mix_columns_impl::<0>(&mut s),
                    (false, 1) => mix_columns_impl::<1>(&mut s),
                    (false, 2) => mix_columns_impl::<2>(&mut s),
                    (false, _) => mix_columns_impl::<3>(&mut s),
                    (true, 0) => inv_mix_columns_bs::<0>(&mut s),
                    (true, 1) => inv_mix_columns_bs::<1>(&mut s),
                    (true, 2) => inv_mix_columns_bs::<2>(&mut s),
                    (true, _) => inv_mix_columns_bs::<3>(&mut s),
                }
                let mut out = [[0u8; 16]; 4];
                unbitslice(&s, 0, &mut out);
                for (o, b) in out.iter().zip(&blocks) {
                    let want = if inverse {
                        inv_mix_columns(b)
                    } else {
                        mix_ref(b)
                    };
                    assert_eq!(logical(o, k), want, "k={k} inverse={inverse}");
                }
            }
        }
    }

    #[test]
    fn partial_batches_match_single_blocks() {
        let ks = KeySchedule::new(&[7u8; 32]).unwrap();
        let mut all: [Block; 9] = core::array::from_fn(|i| [i as u8 * 3; 16]);
        let orig = all;
        let mut single = all;
        for b in single.iter_mut() {
            encrypt_blocks(&ks, core::slice::from_mut(b));
        }
        for n in 0..=9 {
            let mut part = orig;
            encrypt_blocks(&ks, &mut part[..n]);
            assert_eq!(part[..n], single[..n]);
            assert_eq!(part[n..], orig[n..]);
            decrypt_blocks(&ks, &mut part[..n]);
            assert_eq!(part, orig);
        }
        encrypt_blocks(&ks, &mut all);
        assert_eq!(all, single);
        // FIPS-197 C.1 through both directions.
        let ks = KeySchedule::new(&core::array::from_fn::<u8, 16, _>(|i| i as u8)).unwrap();
        let mut b = [core::array::from_fn(|i| (i as u8) * 0x11)];
        encrypt_blocks(&ks, &mut b);
        assert_eq!(
            b[0],
            [
                0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
                0xc5, 0x5a
            ]
        );
        decrypt_blocks(&ks, &mut b);
        assert_eq!(b[0], core::array::from_fn(|i| (i as u8) * 0x11));
    }
}
