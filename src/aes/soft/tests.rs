use super::*;

/// `a * b` in GF(2^8) (the AES polynomial), bit by bit.
fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    for _ in 0..8 {
        r ^= a & 0u8.wrapping_sub(b & 1);
        a = xtime(a);
        b >>= 1;
    }
    r
}

/// a^254 = a^-1 (0 for 0), by square-and-multiply.
fn ginv(x: u8) -> u8 {
    (0..8).rev().fold(1, |r, bit| {
        let r = gmul(r, r);
        if (254 >> bit) & 1 == 1 { gmul(r, x) } else { r }
    })
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

/// InvMixColumns by the matrix of FIPS-197 §5.3.3 (0e 0b 0d 09), byte by byte.
pub(crate) fn inv_mix_columns_ref(b: &Block) -> Block {
    let m = |a: u8, b: u8, c: u8, d: u8| gmul(a, 14) ^ gmul(b, 11) ^ gmul(c, 13) ^ gmul(d, 9);
    let mut out = [0u8; 16];
    for c in 0..4 {
        let a = &b[4 * c..4 * c + 4];
        for r in 0..4 {
            out[4 * c + r] = m(a[r], a[(r + 1) % 4], a[(r + 2) % 4], a[(r + 3) % 4]);
        }
    }
    out
}

#[test]
fn inv_mix_columns_matches_the_matrix() {
    let mut rng = simdcrypt_testkit::Rng(41);
    for _ in 0..2000 {
        let b: Block = rng.bytes(16).try_into().unwrap();
        assert_eq!(inv_mix_columns(&b), inv_mix_columns_ref(&b), "{b:02x?}");
    }
    // FIPS-197 appendix B (round 1): MixColumns of 0xd4bf5d30 is 0x046681e5, so
    // InvMixColumns takes it back.
    let mut col = [0u8; 16];
    col[..4].copy_from_slice(&[0x04, 0x66, 0x81, 0xe5]);
    assert_eq!(inv_mix_columns(&col)[..4], [0xd4, 0xbf, 0x5d, 0x30]);
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
                    inv_mix_columns_ref(b)
                } else {
                    mix_ref(b)
                };
                assert_eq!(logical(o, k), want, "k={k} inverse={inverse}");
            }
        }
    }
}

#[test]
fn key_permutation_matches_byte_order() {
    let key: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
    for k in 0..4 {
        let mut want = [0u8; 16];
        for col in 0..4 {
            for row in 0..4 {
                want[4 * ((col + k * row) % 4) + row] = key[4 * col + row];
            }
        }
        let got = shift_columns(u128::from_le_bytes(key), k).to_le_bytes();
        assert_eq!(got, want, "k={k}");
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
