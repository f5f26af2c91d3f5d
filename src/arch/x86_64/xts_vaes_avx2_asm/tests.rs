//! Unit tests of `src/arch/x86_64/xts_vaes_avx2_asm.rs` (left out of the package).

use super::*;
use crate::aes::{KeySchedule, Width};
use crate::cpu::AesNiToken;
use simdcrypt_testkit::{Rng, records, token_or_skip};
use std::vec::Vec;

/// The token, or `None` (with a note) where the CPU lacks VAES-AVX2; a hard failure if
/// `SIMDCRYPT_REQUIRE` asks for the VAES-AVX2 backends.
fn token() -> Option<VaesAvx2Token> {
    token_or_skip(
        VaesAvx2Token::get(),
        &["vaes-avx2", "vaes-avx2-asm"],
        "VAES-AVX2",
    )
}

/// The block cipher behind the reference XTS.
fn reference_impl() -> Width {
    AesNiToken::get().map_or(Width::Portable, Width::Xmm)
}

fn mul_x(t: &mut [u8; 16]) {
    let carry = t[15] >> 7;
    for i in (1..16).rev() {
        t[i] = (t[i] << 1) | (t[i - 1] >> 7);
    }
    t[0] = (t[0] << 1) ^ (0x87 * carry);
}

/// Textbook XTS, one block at a time (IEEE 1619 §5.3, §5.4).
fn reference(ks: &KeySchedule, t0: &[u8; 16], data: &[u8], enc: bool) -> Vec<u8> {
    let imp = reference_impl();
    let (m, r) = (data.len() / 16, data.len() % 16);
    let mut tweaks = Vec::with_capacity(m + 1);
    let mut t = *t0;
    for _ in 0..=m {
        tweaks.push(t);
        mul_x(&mut t);
    }
    let one = |b: &mut [u8; 16], tw: &[u8; 16]| {
        for (x, y) in b.iter_mut().zip(tw) {
            *x ^= y;
        }
        if enc {
            imp.blocks::<false>(ks, core::slice::from_mut(b));
        } else {
            imp.blocks::<true>(ks, core::slice::from_mut(b));
        }
        for (x, y) in b.iter_mut().zip(tw) {
            *x ^= y;
        }
    };
    let mut out = data.to_vec();
    let n = if r == 0 { m } else { m - 1 };
    for (j, c) in out[..16 * n].chunks_exact_mut(16).enumerate() {
        let mut b: [u8; 16] = c.try_into().unwrap();
        one(&mut b, &tweaks[j]);
        c.copy_from_slice(&b);
    }
    if r != 0 {
        let (a, b) = if enc {
            (tweaks[m - 1], tweaks[m])
        } else {
            (tweaks[m], tweaks[m - 1])
        };
        let mut x: [u8; 16] = data[16 * (m - 1)..16 * m].try_into().unwrap();
        one(&mut x, &a);
        let mut y = x;
        y[..r].copy_from_slice(&data[16 * m..]);
        out[16 * m..].copy_from_slice(&x[..r]);
        one(&mut y, &b);
        out[16 * (m - 1)..16 * m].copy_from_slice(&y);
    }
    out
}

/// The kernel out of place (at offsets `so`, `dof` into fresh buffers) and in place;
/// asserts the two agree and returns the result.
fn kernel(
    t: VaesAvx2Token,
    ks: &KeySchedule,
    t0: &[u8; 16],
    data: &[u8],
    enc: bool,
    so: usize,
    dof: usize,
) -> Vec<u8> {
    let len = data.len();
    let mut src = std::vec![0xa5u8; len + so];
    src[so..].copy_from_slice(data);
    let mut dst = std::vec![0x5au8; len + dof + 16];
    let mut inplace = data.to_vec();
    // SAFETY: `src[so..]` and `dst[dof..dof + len]` hold `len` bytes each and are
    // distinct allocations; `inplace` holds `len` bytes; 16 <= len <= 2^24 (callers).
    unsafe {
        let (s, d) = (src.as_ptr().add(so), dst.as_mut_ptr().add(dof));
        let p = inplace.as_mut_ptr();
        if enc {
            encrypt_unit(t, ks, t0, s, d, len);
            encrypt_unit(t, ks, t0, p, p, len);
        } else {
            decrypt_unit(t, ks, t0, s, d, len);
            decrypt_unit(t, ks, t0, p, p, len);
        }
    }
    assert!(dst[..dof].iter().all(|&b| b == 0x5a), "wrote before dst");
    assert!(
        dst[dof + len..].iter().all(|&b| b == 0x5a),
        "wrote past dst"
    );
    assert_eq!(&src[so..], data, "source modified");
    let out = dst[dof..dof + len].to_vec();
    assert_eq!(
        out, inplace,
        "in place differs from out of place, len {len}"
    );
    out
}

/// Kernel against the reference, both directions, and the round trip.
fn check(t: VaesAvx2Token, ks: &KeySchedule, t0: &[u8; 16], data: &[u8], so: usize) {
    let len = data.len();
    let want = reference(ks, t0, data, true);
    let got = kernel(t, ks, t0, data, true, so, (so * 7) % 16);
    assert_eq!(got, want, "encrypt, {} rounds, len {len}", ks.rounds);
    let back = kernel(t, ks, t0, &got, false, (so * 3) % 16, so);
    assert_eq!(back, data, "decrypt, {} rounds, len {len}", ks.rounds);
    let want_dec = reference(ks, t0, data, false);
    let got_dec = kernel(t, ks, t0, data, false, 0, 0);
    assert_eq!(
        got_dec, want_dec,
        "decrypt, {} rounds, len {len}",
        ks.rounds
    );
}

const SPECIAL_T0: [[u8; 16]; 4] = [
    [0xff; 16],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80],
    [0; 16],
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0],
];

/// For a random key of each AES size, and each length in `lens`, a random tweak and
/// unit through [`check`], with buffers `so(len)` bytes off alignment.
fn random_units(
    t: VaesAvx2Token,
    rng: &mut Rng,
    lens: impl Iterator<Item = usize> + Clone,
    so: impl Fn(usize) -> usize,
) {
    for klen in [16, 24, 32] {
        let ks = KeySchedule::new(&rng.bytes(klen)).unwrap();
        for len in lens.clone() {
            let mut t0 = [0u8; 16];
            rng.fill(&mut t0);
            let data = rng.bytes(len);
            check(t, &ks, &t0, &data, so(len));
        }
    }
}

#[test]
fn every_length_to_600() {
    let Some(t) = token() else { return };
    random_units(t, &mut Rng(0x9e37_79b9_7f4a_7c15), 16..=600, |len| len % 16);
}

#[test]
fn tweaks_that_carry_out_of_bit_127() {
    let Some(t) = token() else { return };
    let mut rng = Rng(42);
    for klen in [16, 32] {
        let ks = KeySchedule::new(&rng.bytes(klen)).unwrap();
        for t0 in &SPECIAL_T0 {
            for len in (16..=300).chain([511, 512, 513, 1024, 4095, 4096, 4097]) {
                let data = rng.bytes(len);
                check(t, &ks, t0, &data, 0);
            }
        }
    }
}

#[test]
fn long_units() {
    let Some(t) = token() else { return };
    let mut rng = Rng(7);
    let lens = [4095, 4096, 4097, 65535, 65536, 65537, 100_015];
    random_units(t, &mut rng, lens.into_iter(), |_| 3);
    // The largest data unit IEEE 1619 allows.
    let ks = KeySchedule::new(&rng.bytes(32)).unwrap();
    let data = rng.bytes(1 << 24);
    check(t, &ks, &[0xff; 16], &data, 0);
}

/// XTS with the full key `Key1 || Key2` and the raw tweak, through the kernel.
fn xts_full(t: VaesAvx2Token, key: &[u8], tweak: &[u8; 16], data: &[u8], enc: bool) -> Vec<u8> {
    let (k1, k2) = key.split_at(key.len() / 2);
    let (ks1, ks2) = (KeySchedule::new(k1).unwrap(), KeySchedule::new(k2).unwrap());
    let mut t0 = *tweak;
    reference_impl().blocks::<false>(&ks2, core::slice::from_mut(&mut t0));
    kernel(t, &ks1, &t0, data, enc, 0, 0)
}

#[test]
fn ieee1619_vectors() {
    let Some(t) = token() else { return };
    let mut count = [0usize; 2];
    for r in records("ieee1619/xts-aes.vec") {
        let (k, n, i, want) = (r.hex("Key"), r.hex("Nonce"), r.hex("In"), r.hex("Out"));
        let expect_klen = match r.section.as_str() {
            "AES-128/XTS" => 32,
            "AES-256/XTS" => 64,
            s => panic!("unexpected section {s}"),
        };
        assert_eq!(k.len(), expect_klen);
        // One Wycheproof record has an 8-byte nonce: the tweak is the nonce zero-padded
        // to 16 bytes (as Botan and OpenSSL read it).
        let mut tweak = [0u8; 16];
        tweak[..n.len()].copy_from_slice(&n);
        let out = r.get("Out");
        assert_eq!(
            xts_full(t, &k, &tweak, &i, true),
            want,
            "{} {out}",
            r.section
        );
        assert_eq!(xts_full(t, &k, &tweak, &want, false), i, "{}", r.section);
        count[usize::from(expect_klen == 64)] += 1;
    }
    assert!(count[0] >= 10 && count[1] >= 10, "parsed {count:?} vectors");
}

#[test]
fn against_xts_mode() {
    let Some(t) = token() else { return };
    let mut rng = Rng(2024);
    for len in (16..=300).chain([4095, 4096, 4097]) {
        let mut tweak = [0u8; 16];
        rng.fill(&mut tweak);
        let data = rng.bytes(len);
        for klen in [32, 64] {
            let key = rng.bytes(klen);
            let mut want = data.clone();
            simdcrypt_testkit::with_xts_mode!(&key, |x| {
                x.encrypt_sector(&mut want, tweak.into())
            });
            assert_eq!(xts_full(t, &key, &tweak, &data, true), want, "len {len}");
            assert_eq!(xts_full(t, &key, &tweak, &want, false), data, "len {len}");
        }
    }
}

/// Outside the contract, but the assembly checks it: shorter than a block does nothing.
#[test]
fn shorter_than_a_block_is_untouched() {
    let Some(_t) = token() else { return };
    let ks = KeySchedule::new(&[9u8; 32]).unwrap();
    for len in 0..16 {
        let mut buf = [0x3cu8; 32];
        let p = buf.as_mut_ptr();
        // SAFETY: the token proves the CPU features; `buf` holds 32 >= len bytes; the
        // assembly returns before reading or writing anything when len < 16.
        unsafe {
            simdcrypt_xts_vaes_avx2_encrypt(
                ks.enc.as_ptr().cast(),
                14,
                [1; 16].as_ptr(),
                p,
                p,
                len,
            );
            simdcrypt_xts_vaes_avx2_decrypt(
                ks.dec.as_ptr().cast(),
                14,
                [1; 16].as_ptr(),
                p,
                p,
                len,
            );
        }
        assert_eq!(buf, [0x3c; 32], "len {len}");
    }
}
