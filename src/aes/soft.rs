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
//!     X = S'(X)                              // 113-gate circuit, 0x63 left out
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
//! The S-boxes are the straight-line programs of Boyar, Peralta and Calik (the 113-gate
//! forward circuit `SLP_AES_113` and the 121-gate inverse `Sinv` of the Yale Circuit
//! Minimization Team; see also Boyar and Peralta, "A new combinational logic minimization
//! technique with applications to cryptology", 2010): only XOR and AND on whole planes, no
//! tables, no branches on data. Their affine constants (0x63) are folded into the bitsliced
//! round keys: the forward one passes through MixColumns unchanged since 2^3^1^1 = 1.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::block::{Block, KeySchedule};
use crate::vector::Site;

/// Multiplication by x in GF(2^8) mod x^8+x^4+x^3+x+1, without branches.
#[inline]
pub(crate) fn xtime(a: u8) -> u8 {
    (a << 1) ^ (0x1b & 0u8.wrapping_sub(a >> 7))
}

/// SubWord of the key expansion, in constant time: the bitsliced S-box circuit once for
/// all four bytes (plane `b` holds bit `b` of byte `i` at bit `i`).
pub(crate) fn sub_word(w: u32) -> u32 {
    let w = u64::from(w);
    // Bits 0, 8, 16, 24 times 2^24, 2^17, 2^10, 2^3: bits 24..28, on distinct bits, no carries.
    let mut x: State =
        core::array::from_fn(|b| (((w >> b) & 0x0101_0101).wrapping_mul(0x0102_0408) >> 24) & 0xf);
    sbox_fwd(&mut x);
    // Bits 0..4 times 1, 2^7, 2^14, 2^21: bit `i` lands on bit 8i, again without carries.
    let out = x.iter().enumerate().fold(0, |o, (b, p)| {
        o | ((p.wrapping_mul(0x0020_4081) & 0x0101_0101) << b)
    });
    x.zeroize();
    out as u32 ^ 0x6363_6363
}

/// Four GF(2^8) multiplications by x, one per byte.
#[inline]
fn xtime_word(x: u32) -> u32 {
    ((x & 0x7f7f_7f7f) << 1) ^ ((x >> 7) & 0x0101_0101).wrapping_mul(0x1b)
}

/// InvMixColumns of a round key (for the equivalent inverse cipher's schedule), a column
/// per little-endian word: MixColumns after multiplying each column by 4x^2 + 5 (as
/// `inv_mix_columns_bs` does on planes).
pub(crate) fn inv_mix_columns(b: &Block) -> Block {
    let mut out = [0u8; 16];
    for (o, c) in out
        .as_chunks_mut::<4>()
        .0
        .iter_mut()
        .zip(b.as_chunks::<4>().0)
    {
        let x = u32::from_le_bytes(*c);
        let x = x ^ xtime_word(xtime_word(x ^ x.rotate_right(16)));
        let r1 = x.rotate_right(8);
        *o = (xtime_word(x ^ r1) ^ r1 ^ x.rotate_right(16) ^ x.rotate_right(24)).to_le_bytes();
    }
    out
}

/// The key expansion of FIPS-197 §5.2 into `ks` (`ks.rounds` set to 10, 12 or 14 for a
/// 16-, 24- or 32-byte `key`), then the equivalent inverse cipher's keys (§5.3.5). Words
/// little-endian: RotWord is a rotation right by 8, Rcon the low byte.
pub(crate) fn expand(key: &[u8], ks: &mut KeySchedule) {
    let nk = key.len() / 4;
    let rounds = ks.rounds;
    let mut w = [0u32; 60];
    for (x, c) in w.iter_mut().zip(key.as_chunks::<4>().0) {
        *x = u32::from_le_bytes(*c);
    }
    let mut rcon: u8 = 1;
    for i in nk..4 * (rounds + 1) {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word(t.rotate_right(8)) ^ u32::from(rcon);
            rcon = xtime(rcon);
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    for (k, ws) in ks.enc.iter_mut().zip(w.as_chunks::<4>().0).take(rounds + 1) {
        for (b, x) in k.as_chunks_mut::<4>().0.iter_mut().zip(ws) {
            *b = x.to_le_bytes();
        }
    }
    crate::wipe::words(&mut w);
    ks.dec[0] = ks.enc[rounds];
    ks.dec[rounds] = ks.enc[0];
    for i in 1..rounds {
        ks.dec[i] = inv_mix_columns(&ks.enc[rounds - i]);
    }
}

/// Eight bit planes: four blocks.
type State = [u64; 8];

// ---------------------------------------------------------------------------------------
// S-box circuits. `x[b]` is bit b (LSB = 0) of every byte.

/// Forward S-box without its constant: `x <- S(x) ^ 0x63` on every byte (113 gates).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn sbox_fwd(s: &mut State) {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = *s;
    let y14 = x4 ^ x2;
    let y13 = x7 ^ x1;
    let y9 = x7 ^ x4;
    let y8 = x7 ^ x2;
    let t0 = x6 ^ x5;
    let y1 = t0 ^ x0;
    let y4 = y1 ^ x4;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ x7;
    let y5 = y1 ^ x1;
    let y3 = y5 ^ y8;
    let t1 = x3 ^ y12;
    let y15 = t1 ^ x2;
    let y20 = t1 ^ x6;
    let y6 = y15 ^ x0;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = x0 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = x7 ^ y16;
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & x0;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ y20;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ t14;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;
    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;
    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & x0;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;
    let tc1 = z15 ^ z16;
    let tc2 = z10 ^ tc1;
    let tc3 = z9 ^ tc2;
    let tc4 = z0 ^ z2;
    let tc5 = z1 ^ z0;
    let tc6 = z3 ^ z4;
    let tc7 = z12 ^ tc4;
    let tc8 = z7 ^ tc6;
    let tc9 = z8 ^ tc7;
    let tc10 = tc8 ^ tc9;
    let tc11 = tc6 ^ tc5;
    let tc12 = z3 ^ z5;
    let tc13 = z13 ^ tc1;
    let tc14 = tc4 ^ tc12;
    let o4 = tc3 ^ tc11;
    let tc16 = z6 ^ tc8;
    let tc17 = z14 ^ tc10;
    let tc18 = tc13 ^ tc14;
    let o0 = z12 ^ tc18;
    let tc20 = z15 ^ tc16;
    let tc21 = tc2 ^ z11;
    let o7 = tc3 ^ tc16;
    let o1 = tc10 ^ tc18;
    let o3 = tc14 ^ o4;
    let o6 = o4 ^ tc16;
    let tc26 = tc17 ^ tc20;
    let o5 = tc26 ^ z17;
    let o2 = tc21 ^ tc17;
    *s = [o0, o1, o2, o3, o4, o5, o6, o7];
}

/// Inverse S-box with its input constant left out: `x <- S^-1(x ^ 0x63)` (121 gates).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn sbox_inv(s: &mut State) {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = *s;
    let y0 = x7 ^ x4;
    let y2 = x6 ^ x4;
    let y4 = x7 ^ y2;
    let rtl0 = x1 ^ x0;
    let y1 = y2 ^ rtl0;
    let y7 = x5 ^ y1;
    let rtl1 = x4 ^ x3;
    let y6 = x0 ^ rtl1;
    let y3 = y1 ^ rtl1;
    let rtl2 = x7 ^ x5;
    let y5 = x2 ^ rtl2;
    let sa1 = y0 ^ y2;
    let sa0 = y1 ^ y3;
    let sb1 = y4 ^ y6;
    let sb0 = y5 ^ y7;
    let ah = y0 ^ y1;
    let al = y2 ^ y3;
    let aa = sa0 ^ sa1;
    let bh = y4 ^ y5;
    let bl = y6 ^ y7;
    let bb = sb0 ^ sb1;
    let ab20 = sa0 ^ sb0;
    let ab22 = al ^ bl;
    let ab23 = y3 ^ y7;
    let ab21 = sa1 ^ sb1;
    let abcd1 = ah & bh;
    let rr1 = y0 & y4;
    let ph11 = ab20 ^ abcd1;
    let t01 = y1 & y5;
    let ph01 = t01 ^ abcd1;
    let abcd2 = al & bl;
    let r1 = y2 & y6;
    let pl11 = ab22 ^ abcd2;
    let r2 = y3 & y7;
    let pl01 = r2 ^ abcd2;
    let r3 = sa0 & sb0;
    let vr1 = aa & bb;
    let pr1 = vr1 ^ r3;
    let wr1 = sa1 & sb1;
    let qr1 = wr1 ^ r3;
    let ab0 = ph11 ^ rr1;
    let ab1 = ph01 ^ ab21;
    let ab2 = pl11 ^ r1;
    let ab3 = pl01 ^ qr1;
    let cp1 = ab0 ^ pr1;
    let cp2 = ab1 ^ qr1;
    let cp3 = ab2 ^ pr1;
    let cp4 = ab3 ^ ab23;
    let tinv1 = cp3 ^ cp4;
    let tinv2 = cp3 & cp1;
    let tinv3 = cp2 ^ tinv2;
    let tinv4 = cp1 ^ cp2;
    let tinv5 = cp4 ^ tinv2;
    let tinv6 = tinv5 & tinv4;
    let tinv7 = tinv3 & tinv1;
    let d2 = cp4 ^ tinv7;
    let d0 = cp2 ^ tinv6;
    let tinv8 = cp1 & cp4;
    let tinv9 = tinv4 & tinv8;
    let tinv10 = tinv4 ^ tinv2;
    let d1 = tinv9 ^ tinv10;
    let tinv11 = cp2 & cp3;
    let tinv12 = tinv1 & tinv11;
    let tinv13 = tinv1 ^ tinv2;
    let d3 = tinv12 ^ tinv13;
    let sd1 = d1 ^ d3;
    let sd0 = d0 ^ d2;
    let dl = d0 ^ d1;
    let dh = d2 ^ d3;
    let dd = sd0 ^ sd1;
    let abcd3 = dh & bh;
    let rr2 = d3 & y4;
    let t02 = d2 & y5;
    let abcd4 = dl & bl;
    let r4 = d1 & y6;
    let r5 = d0 & y7;
    let r6 = sd0 & sb0;
    let vr2 = dd & bb;
    let wr2 = sd1 & sb1;
    let abcd5 = dh & ah;
    let r7 = d3 & y0;
    let r8 = d2 & y1;
    let abcd6 = dl & al;
    let r9 = d1 & y2;
    let r10 = d0 & y3;
    let r11 = sd0 & sa0;
    let vr3 = dd & aa;
    let wr3 = sd1 & sa1;
    let ph12 = rr2 ^ abcd3;
    let ph02 = t02 ^ abcd3;
    let pl12 = r4 ^ abcd4;
    let pl02 = r5 ^ abcd4;
    let pr2 = vr2 ^ r6;
    let qr2 = wr2 ^ r6;
    let p0 = ph12 ^ pr2;
    let p1 = ph02 ^ qr2;
    let p2 = pl12 ^ pr2;
    let p3 = pl02 ^ qr2;
    let ph13 = r7 ^ abcd5;
    let ph03 = r8 ^ abcd5;
    let pl13 = r9 ^ abcd6;
    let pl03 = r10 ^ abcd6;
    let pr3 = vr3 ^ r11;
    let qr3 = wr3 ^ r11;
    let p4 = ph13 ^ pr3;
    let o0 = ph03 ^ qr3;
    let p6 = pl13 ^ pr3;
    let p7 = pl03 ^ qr3;
    let o4 = p1 ^ p6;
    let o1 = p2 ^ p6;
    let o7 = p3 ^ p6;
    let x11 = p0 ^ p2;
    let o2 = o7 ^ x11;
    let x13 = p4 ^ p7;
    let x14 = x11 ^ x13;
    let o6 = o4 ^ x14;
    let x16 = p1 ^ o0;
    let o5 = x14 ^ x16;
    let x18 = p0 ^ p4;
    let x19 = o2 ^ x16;
    let o3 = x18 ^ x19;
    *s = [o0, o1, o2, o3, o4, o5, o6, o7];
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
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn rot<const J: u32, const S: u32>(x: u64) -> u64 {
    if S == 0 {
        x.rotate_right(16 * J)
    } else {
        let wrapped = x.rotate_right(16 * J + 4 * S - 16);
        wrapped ^ ((x.rotate_right(16 * J + 4 * S) ^ wrapped) & NO_WRAP[S as usize])
    }
}

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn swapmove(w: &mut [u64; 8], a: usize, b: usize, shift: u32, mask: u64) {
    let t = ((w[a] >> shift) ^ w[b]) & mask;
    w[b] ^= t;
    w[a] ^= t << shift;
}

const PLANE_WORD: [usize; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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

#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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
    let s = core::array::from_fn(|b| w[PLANE_WORD[b]]);
    w.zeroize();
    s
}

/// Inverse of `bitslice`, then undoes a final deficit of `k` (0 or 2).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
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

/// Bytes of row 0 in a block read as a little-endian `u128` (AES byte index 4*col + row).
const ROW0: u128 = 0x0000_00ff_0000_00ff_0000_00ff_0000_00ff;

/// The block with row r moved `k*r` columns forward (stored order for deficit `k`).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn shift_columns(x: u128, k: usize) -> u128 {
    let mut out = x & ROW0;
    for r in 1..4 {
        out |= x.rotate_left(32 * ((k * r) % 4) as u32) & (ROW0 << (8 * r));
    }
    out
}

/// Bitsliced round keys for one direction, replicated to all four lanes: `rk[i]` is key
/// `i` (`dec` keys when `decrypt`) in the order of the deficit after round `i` (`i` mod 4
/// encrypting, `-i` mod 4 decrypting), with 0x63 XORed into every byte of the keys that
/// precede an S-box (decrypting) or follow one (encrypting). Four keys per transposition;
/// lane `j` of group `g` is key `4g + j`, so its deficit depends on `j` alone.
fn bitslice_keys(ks: &KeySchedule, decrypt: bool) -> [State; 15] {
    let rounds = ks.rounds;
    let keys = if decrypt { &ks.dec } else { &ks.enc };
    let mut rk = [[0u64; 8]; 15];
    for g in 0..(rounds + 4) / 4 {
        let mut w = [0u64; 8];
        for lane in 0..4 {
            let i = 4 * g + lane;
            if i > rounds {
                break;
            }
            let mut x = u128::from_le_bytes(keys[i]);
            if (decrypt && i < rounds) || (!decrypt && i > 0) {
                x ^= 0x6363_6363_6363_6363_6363_6363_6363_6363;
            }
            x = shift_columns(x, if decrypt { (4 - lane) % 4 } else { lane });
            w[2 * lane] = x as u64;
            w[2 * lane + 1] = (x >> 64) as u64;
            x.zeroize();
        }
        transpose(&mut w, true);
        for lane in 0..4 {
            let i = 4 * g + lane;
            if i > rounds {
                break;
            }
            for (b, &j) in PLANE_WORD.iter().enumerate() {
                rk[i][b] = ((w[j] >> lane) & 0x1111_1111_1111_1111).wrapping_mul(0xf);
            }
        }
        w.zeroize();
    }
    rk
}

/// The S-box layer (inverse when decrypting).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn sub_bytes<const DECRYPT: bool>(x: &mut State) {
    if DECRYPT {
        sbox_inv(x);
    } else {
        sbox_fwd(x);
    }
}

/// The MixColumns layer (inverse when decrypting) of round `i`, whose deficit is `i` mod 4
/// encrypting, `-i` mod 4 decrypting.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn mix_round<const DECRYPT: bool>(x: &mut State, i: usize) {
    // Deficits 1 and 3 trade places decrypting.
    match i % 4 {
        0 => mix::<DECRYPT, 0>(x),
        1 if DECRYPT => mix::<DECRYPT, 3>(x),
        1 => mix::<DECRYPT, 1>(x),
        2 => mix::<DECRYPT, 2>(x),
        _ if DECRYPT => mix::<DECRYPT, 1>(x),
        _ => mix::<DECRYPT, 3>(x),
    }
}

/// MixColumns (InvMixColumns when decrypting) for deficit `K`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn mix<const DECRYPT: bool, const K: u32>(x: &mut State) {
    if DECRYPT {
        inv_mix_columns_bs::<K>(x);
    } else {
        mix_columns_impl::<K>(x);
    }
}

/// Four blocks through every round, with the keys of `bitslice_keys(_, DECRYPT)`.
fn crypt4<const DECRYPT: bool>(rk: &[State; 15], rounds: usize, blocks: &mut [Block; 4]) {
    let mut x = bitslice(blocks);
    add_round_key(&mut x, &rk[0]);
    for (i, k) in rk.iter().enumerate().take(rounds).skip(1) {
        sub_bytes::<DECRYPT>(&mut x);
        mix_round::<DECRYPT>(&mut x, i);
        add_round_key(&mut x, k);
    }
    sub_bytes::<DECRYPT>(&mut x);
    add_round_key(&mut x, &rk[rounds]);
    unbitslice(&x, rounds % 4, blocks);
    x.zeroize();
}

fn each_four(
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

/// Encrypts (decrypts with `DECRYPT`) each block in place.
fn crypt_blocks<const DECRYPT: bool>(ks: &KeySchedule, blocks: &mut [Block]) {
    if blocks.is_empty() {
        return;
    }
    let mut rk = bitslice_keys(ks, DECRYPT);
    each_four(&rk, ks.rounds, blocks, crypt4::<DECRYPT>);
    rk.zeroize();
}

/// Zeroes the stack a portable call of `site` left (in bytes, the deepest its code wrote
/// below the caller: docs/design.md, "Stack and register wipes"): the bitsliced state and
/// key copies.
#[inline(always)]
pub(crate) fn wipe(site: Site) {
    use crate::wipe::{depth, stack};
    match site {
        Site::Later => {}
        Site::Ecb => stack::<{ depth([1504, 1632, 1664, 1568, 1952, 3664]) }>(),
        Site::CbcEncrypt => stack::<{ depth([1568, 1712, 1744, 1648, 1904, 3648]) }>(),
        Site::CbcDecrypt => stack::<{ depth([2112, 2256, 2304, 2208, 2608, 4752]) }>(),
        Site::CbcMany => stack::<{ depth([1712, 2848, 2912, 2816, 3200, 6336]) }>(),
        Site::XtsOne | Site::XtsBlock | Site::XtsMany => {
            stack::<{ depth([3824, 3984, 4016, 4064, 4320, 7728]) }>()
        }
    }
}

/// Encrypts each block in place.
#[inline(never)]
pub(crate) fn encrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    crypt_blocks::<false>(ks, blocks);
}

/// Decrypts each block in place.
#[inline(never)]
pub(crate) fn decrypt_blocks(ks: &KeySchedule, blocks: &mut [Block]) {
    crypt_blocks::<true>(ks, blocks);
}

#[cfg(test)]
pub(crate) mod tests;
