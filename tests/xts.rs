//! XTS-AES on every available backend: NIST XTSGenAES and IEEE 1619 vectors, every
//! data-unit length against the portable backend and RustCrypto `xts-mode` (OpenSSL: oracle/tests),
//! controlled tweaks that carry out of bit 127, error cases, and property tests.
#![cfg(feature = "xts")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::xts_helpers!();

use aes::cipher::{BlockCipherDecrypt, KeyInit};
use proptest::prelude::*;
use simdcrypt::{Backend, Error, Xts};
use simdcrypt_testkit::strategies::xts_key_and_seed;
use simdcrypt_testkit::{bytes, hex, records};

fn key(seed: u64, len: usize) -> Vec<u8> {
    bytes(seed, len)
}

#[test]
fn nist_xtsgen_vectors() {
    let mut checked = 0;
    let mut skipped = 0;
    for form in ["tweak-128hexstr", "tweak-dataunitseqno"] {
        for bits in [128, 256] {
            let recs = records(&format!("nist-cavp/xts/{form}/XTSGenAES{bits}.rsp"));
            assert_eq!(recs.len(), 1000);
            for b in backends::<Xts>() {
                for r in &recs {
                    let unit_bits: usize = r.get("DataUnitLen").parse().unwrap();
                    if !unit_bits.is_multiple_of(8) {
                        skipped += 1;
                        continue;
                    }
                    let key = r.hex("Key");
                    assert_eq!(key.len(), bits / 4);
                    let (pt, ct) = (r.hex("PT"), r.hex("CT"));
                    assert_eq!(pt.len(), unit_bits / 8);
                    let xts = Xts::with_backend(&key, b).unwrap();
                    let (mut e, mut d) = (pt.clone(), ct.clone());
                    if form == "tweak-128hexstr" {
                        let tweak: [u8; 16] = r.hex("i").try_into().unwrap();
                        xts.encrypt_with_tweak(&mut e, &tweak).unwrap();
                        xts.decrypt_with_tweak(&mut d, &tweak).unwrap();
                    } else {
                        let sector: u128 = r.get("DataUnitSeqNumber").parse().unwrap();
                        xts.encrypt_sector(&mut e, sector).unwrap();
                        xts.decrypt_sector(&mut d, sector).unwrap();
                    }
                    assert_eq!(e, ct, "{b} {form} {bits} {} {:?}", r.section, r.fields);
                    assert_eq!(d, pt, "{b} {form} {bits} {} {:?}", r.section, r.fields);
                    checked += 1;
                }
            }
        }
    }
    // 4 files of 1000 records, of which 1200 per file-set have a bit-length unit.
    assert!(
        checked >= 2800,
        "only {checked} records checked ({skipped} skipped)"
    );
}

#[test]
fn ieee1619_vectors() {
    let recs = records("ieee1619/xts-aes.vec");
    assert!(recs.len() >= 20, "{}", recs.len());
    let mut partial = 0;
    let mut duplicate = 0;
    for b in backends::<Xts>() {
        for r in &recs {
            let key = r.hex("Key");
            // Botan writes some tweaks short; the rest is zero.
            let nonce = r.hex("Nonce");
            assert!(nonce.len() <= 16);
            let mut tweak = [0u8; 16];
            tweak[..nonce.len()].copy_from_slice(&nonce);
            let (pt, ct) = (r.hex("In"), r.hex("Out"));
            partial += usize::from(!pt.len().is_multiple_of(16));
            if key[..key.len() / 2] == key[key.len() / 2..] {
                // IEEE 1619 vector 1 has Key1 == Key2, which SP 800-38E forbids: rejected,
                // and checked against the reference instead.
                assert_eq!(
                    Xts::with_backend(&key, b).unwrap_err(),
                    Error::XtsDuplicateKeyHalves
                );
                let mut x = pt.clone();
                reference(&key, encrypted_tweak(&key, tweak), &mut x, false);
                assert_eq!(x, ct, "reference {:?}", r.fields);
                duplicate += 1;
                continue;
            }
            let xts = Xts::with_backend(&key, b).unwrap();
            let mut x = pt.clone();
            xts.encrypt_with_tweak(&mut x, &tweak).unwrap();
            assert_eq!(x, ct, "{b} {:?}", r.fields);
            xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
            assert_eq!(x, pt, "{b} {:?}", r.fields);
        }
    }
    assert!(partial > 0, "no ciphertext-stealing vector");
    assert!(
        duplicate <= 2 * backends::<Xts>().len(),
        "{duplicate} vectors with equal halves"
    );
}

/// RustCrypto `xts-mode` on one data unit (it supports any length >= 16).
fn xts_mode(key: &[u8], buf: &mut [u8], sector: u128, dec: bool) {
    let tweak = xts_mode::get_tweak_default(sector);
    simdcrypt_testkit::with_xts_mode!(key, |x| if dec {
        x.decrypt_sector(buf, tweak)
    } else {
        x.encrypt_sector(buf, tweak)
    })
}

fn lengths() -> impl Iterator<Item = usize> {
    // 511-513: a zmm group exactly (the short entry's last case) and either side of it;
    // 301-510: the zmm short entry's tail of 5 to 8 registers, with and without stealing.
    (16..=300)
        .chain((301..=510).step_by(13))
        .chain([511, 512, 513, 4095, 4096, 4097, 65535, 65536, 65537])
}

#[test]
fn every_length_agrees_with_portable_and_xts_mode() {
    for key_len in [32, 64] {
        let k = key(key_len as u64, key_len);
        let portable = Xts::with_backend(&k, Backend::Portable).unwrap();
        for len in lengths() {
            let pt = bytes(len as u64, len);
            let sector = 0x0123_4567_89ab_cdef_u128 + len as u128;
            let mut want = pt.clone();
            xts_mode(&k, &mut want, sector, false);
            let mut p = pt.clone();
            portable.encrypt_sector(&mut p, sector).unwrap();
            assert_eq!(p, want, "portable vs xts-mode, key {key_len} len {len}");
            let mut back = want.clone();
            xts_mode(&k, &mut back, sector, true);
            assert_eq!(back, pt);
            for (b, xts) in each_xts(&k) {
                let mut x = pt.clone();
                xts.encrypt_sector(&mut x, sector).unwrap();
                assert_eq!(x, want, "{b} encrypt key {key_len} len {len}");
                xts.decrypt_sector(&mut x, sector).unwrap();
                assert_eq!(x, pt, "{b} decrypt key {key_len} len {len}");
                // Out of place, into a buffer of garbage.
                let mut out = vec![0xa5u8; len];
                xts.encrypt_sector_to(&pt, &mut out, sector).unwrap();
                assert_eq!(out, want, "{b} encrypt_to key {key_len} len {len}");
                let mut back = vec![0x5au8; len];
                xts.decrypt_sector_to(&out, &mut back, sector).unwrap();
                assert_eq!(back, pt, "{b} decrypt_to key {key_len} len {len}");
            }
        }
    }
}

/// An independent reference on RustCrypto AES, for the controlled-tweak tests.
fn reference(key: &[u8], t0: u128, data: &mut [u8], dec: bool) {
    use aes::cipher::BlockCipherEncrypt;
    let half = key.len() / 2;
    let mul_x = |t: u128| (t << 1) ^ if t >> 127 == 1 { 0x87 } else { 0 };
    macro_rules! run {
        ($t:ty) => {{
            let c = <$t>::new_from_slice(&key[..half]).unwrap();
            let blk = |x: [u8; 16], t: u128, dec: bool| -> [u8; 16] {
                let mut b = (u128::from_le_bytes(x) ^ t).to_le_bytes();
                let a: &mut aes::Block = (&mut b).into();
                if dec {
                    c.decrypt_block(a)
                } else {
                    c.encrypt_block(a)
                }
                (u128::from_le_bytes(b) ^ t).to_le_bytes()
            };
            let rem = data.len() % 16;
            let m = data.len() / 16;
            let bulk = if rem == 0 { m } else { m - 1 };
            let mut t = t0;
            for i in 0..bulk {
                let x: [u8; 16] = data[16 * i..16 * i + 16].try_into().unwrap();
                data[16 * i..16 * i + 16].copy_from_slice(&blk(x, t, dec));
                t = mul_x(t);
            }
            if rem != 0 {
                let (t1, t2) = if dec { (mul_x(t), t) } else { (t, mul_x(t)) };
                let o = 16 * bulk;
                let x: [u8; 16] = data[o..o + 16].try_into().unwrap();
                let cc = blk(x, t1, dec);
                let mut pp = cc;
                pp[..rem].copy_from_slice(&data[o + 16..]);
                data[o + 16..].copy_from_slice(&cc[..rem]);
                data[o..o + 16].copy_from_slice(&blk(pp, t2, dec));
            }
        }};
    }
    if key.len() == 32 {
        run!(aes::Aes128)
    } else {
        run!(aes::Aes256)
    }
}

/// One AES block through Key2 (the second half of `key`), encrypted or decrypted.
fn key2_block(key: &[u8], mut b: [u8; 16], dec: bool) -> [u8; 16] {
    use aes::cipher::BlockCipherEncrypt;
    let k2 = &key[key.len() / 2..];
    let a: &mut aes::Block = (&mut b).into();
    macro_rules! run {
        ($t:ty) => {{
            let c = <$t>::new_from_slice(k2).unwrap();
            if dec {
                c.decrypt_block(a)
            } else {
                c.encrypt_block(a)
            }
        }};
    }
    if key.len() == 32 {
        run!(aes::Aes128)
    } else {
        run!(aes::Aes256)
    }
    b
}

/// E_K2(tweak), as a little-endian integer.
fn encrypted_tweak(key: &[u8], tweak: [u8; 16]) -> u128 {
    u128::from_le_bytes(key2_block(key, tweak, false))
}

/// The raw tweak whose encryption under Key2 is `t0`.
fn tweak_for(key: &[u8], t0: u128) -> [u8; 16] {
    key2_block(key, t0.to_le_bytes(), true)
}

#[test]
fn tweaks_that_carry_out_of_bit_127() {
    let t0s = [
        u128::MAX,
        1 << 127,
        (1 << 127) | (1 << 63),
        u128::MAX << 100,
        u128::MAX << 64 | 1 << 63,
        0x8000_ffff_0000_ffff_8000_0000_ffff_0000,
        1,
    ];
    for key_len in [32, 64] {
        let k = key(99 + key_len as u64, key_len);
        for &t0 in &t0s {
            let tweak = tweak_for(&k, t0);
            for len in (16..=600).step_by(7).chain([1024, 4096, 4097]) {
                let pt = bytes(len as u64 ^ 0x55, len);
                let mut want = pt.clone();
                reference(&k, t0, &mut want, false);
                let mut back = want.clone();
                reference(&k, t0, &mut back, true);
                assert_eq!(back, pt, "reference round trip");
                for (b, xts) in each_xts(&k) {
                    let mut x = pt.clone();
                    xts.encrypt_with_tweak(&mut x, &tweak).unwrap();
                    assert_eq!(x, want, "{b} t0 {t0:x} len {len}");
                    xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
                    assert_eq!(x, pt, "{b} t0 {t0:x} len {len}");
                }
            }
        }
    }
}

#[test]
fn key_errors() {
    for len in [0, 16, 31, 33, 48, 63, 65, 128] {
        assert_eq!(
            Xts::new(&vec![1u8; len]).unwrap_err(),
            Error::InvalidKeyLength {
                len,
                expected: "32 or 64 bytes"
            }
        );
    }
    for len in [32, 64] {
        let mut k = vec![0x5au8; len];
        assert_eq!(Xts::new(&k).unwrap_err(), Error::XtsDuplicateKeyHalves);
        for b in backends::<Xts>() {
            assert_eq!(
                Xts::with_backend(&k, b).unwrap_err(),
                Error::XtsDuplicateKeyHalves
            );
        }
        k[len - 1] ^= 1;
        assert_eq!(Xts::new(&k).unwrap().key_len(), len);
    }
}

#[test]
fn unavailable_or_foreign_backend_is_an_error() {
    let k = key(3, 32);
    assert_unavailable_or_foreign_backend_errors::<Xts>(|b| {
        Xts::with_backend(&k, b).map(|x| x.backend())
    });
}

#[test]
fn length_errors_leave_buffers_untouched() {
    for (_, xts) in each_xts(&key(5, 64)) {
        for len in [0, 1, 15] {
            let mut buf = bytes(1, len);
            let orig = buf.clone();
            let want = Error::DataUnitTooShort { len, min: 16 };
            assert_eq!(xts.encrypt_sector(&mut buf, 0), Err(want));
            assert_eq!(xts.decrypt_sector(&mut buf, 0), Err(want));
            assert_eq!(xts.encrypt_with_tweak(&mut buf, &[0; 16]), Err(want));
            assert_eq!(xts.decrypt_with_tweak(&mut buf, &[0; 16]), Err(want));
            assert_eq!(buf, orig);
        }
        let mut big = vec![7u8; (1 << 24) + 16];
        let want = Error::DataUnitTooLong {
            len: (1 << 24) + 16,
            max: 1 << 24,
        };
        assert_eq!(xts.encrypt_sector(&mut big, 0), Err(want));
        assert_eq!(xts.decrypt_with_tweak(&mut big, &[1; 16]), Err(want));
        assert!(big.iter().all(|&x| x == 7));
        // The largest unit is accepted, on every backend (round trip).
        xts.encrypt_sector(&mut big[..1 << 24], 0).unwrap();
        assert!(big[..1 << 24].iter().any(|&x| x != 7));
        xts.decrypt_sector(&mut big[..1 << 24], 0).unwrap();
        assert!(big.iter().all(|&x| x == 7));

        let mut buf = bytes(2, 1000);
        let orig = buf.clone();
        assert_eq!(
            xts.encrypt_sectors(&mut buf, 512, 0),
            Err(Error::NotWholeSectors {
                len: 1000,
                sector_size: 512
            })
        );
        // A bad sector_size is a sector-size error, whatever the buffer.
        for (sector_size, len) in [(15, 1000), (0, 1000), (8, 1000), (0, 0), (8, 16)] {
            let mut buf = bytes(2, len);
            let orig = buf.clone();
            let want = Err(Error::InvalidSectorSize {
                sector_size,
                min: 16,
                max: 1 << 24,
            });
            assert_eq!(xts.decrypt_sectors(&mut buf, sector_size, 0), want);
            assert_eq!(xts.encrypt_sectors(&mut buf, sector_size, 0), want);
            let mut dst = vec![3u8; len];
            assert_eq!(xts.encrypt_sectors_to(&buf, &mut dst, sector_size, 0), want);
            assert_eq!((buf, dst), (orig, vec![3u8; len]));
        }
        assert_eq!(
            xts.encrypt_sectors(&mut [], (1 << 24) + 1, 0),
            Err(Error::InvalidSectorSize {
                sector_size: (1 << 24) + 1,
                min: 16,
                max: 1 << 24
            })
        );
        let mut dst = vec![0u8; 999];
        assert_eq!(
            xts.encrypt_sectors_to(&buf, &mut dst, 100, 0),
            Err(Error::LengthMismatch {
                what: "src and dst lengths",
                left: 1000,
                right: 999
            })
        );
        assert_eq!(
            xts.decrypt_sector_to(&buf, &mut dst, 0),
            Err(Error::LengthMismatch {
                what: "src and dst lengths",
                left: 1000,
                right: 999
            })
        );
        assert!(dst.iter().all(|&x| x == 0));
        assert_eq!(buf, orig);
        // Zero sectors is nothing to do.
        assert_eq!(xts.encrypt_sectors(&mut [], 512, 0), Ok(()));
    }
}

#[test]
fn multi_sector_agrees_with_portable_across_batches() {
    // Unit sizes that are and are not whole kernel groups (128, 256, 512 bytes), counts
    // that cross the 64-sector tweak batch; units shorter than a group, with and without
    // a partial block (the masked tail groups and the stealing path).
    for key_len in [32, 64] {
        let k = key(21 + key_len as u64, key_len);
        for (sector, count) in [
            (16, 130),
            (17, 40),
            (100, 33),
            (128, 65),
            (240, 7),
            (256, 64),
            (271, 9),
            (496, 5),
            (512, 129),
            (520, 66),
            (4096, 3),
            (4097, 2),
        ] {
            let pt = bytes((sector * count) as u64, sector * count);
            let what = format!("key {key_len} sector {sector} x {count}");
            sectors_agree_with_portable(&k, sector, &pt, u128::MAX - 70, &what);
        }
    }
}

/// `pt` in units of `sector` numbered from `first`, under XTS key `k`: every multi-sector
/// form on every backend under test gives the portable backend's `encrypt_sectors`.
fn sectors_agree_with_portable(k: &[u8], sector: usize, pt: &[u8], first: u128, what: &str) {
    let portable = Xts::with_backend(k, Backend::Portable).unwrap();
    let mut want = pt.to_vec();
    portable.encrypt_sectors(&mut want, sector, first).unwrap();
    for (b, xts) in each_xts(k) {
        let what = format!("{b} {what}");
        assert_sector_forms(&xts, Numbering::From(first), sector, pt, &want, &what);
    }
}

#[test]
fn every_sector_count_to_a_hundred_agrees_with_portable() {
    // Every count of units a call's tweak batches can split into (64 and up to 36 more,
    // and every fill of the tweak kernel's registers: up to 31 after whole groups of 32
    // on zmm, 15 of 16 on ymm, 7 of 8 on xmm), in one-block and 48-byte units.
    let k = key(77, 64);
    for sector in [16, 48] {
        for count in 1..=100 {
            let pt = bytes((sector * count) as u64 + 5, sector * count);
            let what = format!("sector {sector} x {count}");
            sectors_agree_with_portable(&k, sector, &pt, u128::from(u64::MAX) - 40, &what);
        }
    }
}

#[test]
fn sector_numbers_are_little_endian_and_wrap() {
    for (b, xts) in each_xts(&key(11, 32)) {
        let pt = bytes(3, 3 * 48);
        let mut all = pt.clone();
        xts.encrypt_sectors(&mut all, 48, u128::MAX - 1).unwrap();
        let sectors = [u128::MAX - 1, u128::MAX, 0];
        assert_units_alone(
            &xts,
            &pt,
            &all,
            48,
            |i| sectors[i].to_le_bytes(),
            &b.to_string(),
        );
    }
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_equals_serial() {
    for (b, xts) in each_xts(&key(13, 64)) {
        for (size, sector) in [(4096usize, 512usize), (1 << 20, 4096), (2017 * 520, 520)] {
            let pt = bytes(size as u64, size);
            let mut want = pt.clone();
            xts.encrypt_sectors(&mut want, sector, 77).unwrap();
            let mut x = pt.clone();
            xts.par_encrypt_sectors(&mut x, sector, 77).unwrap();
            assert_eq!(x, want, "{b} {size} {sector}");
            xts.par_decrypt_sectors(&mut x, sector, 77).unwrap();
            assert_eq!(x, pt, "{b} {size} {sector}");
        }
        let mut buf = bytes(1, 1 << 20);
        let orig = buf.clone();
        assert_eq!(
            xts.par_encrypt_sectors(&mut buf, 1000, 0),
            Err(Error::NotWholeSectors {
                len: 1 << 20,
                sector_size: 1000
            })
        );
        assert_eq!(buf, orig);
    }
}

fn sector_size() -> impl Strategy<Value = usize> {
    prop_oneof![
        16usize..=80,
        prop::sample::select(vec![512usize, 520, 4096])
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn round_trip_and_in_place_equals_out_of_place(
        (k, seed) in xts_key_and_seed(),
        sector_size in sector_size(),
        count in 0usize..=5,
        first in any::<u128>(),
        offset in 0usize..16,
    ) {
        let len = sector_size * count;
        let pt = bytes(seed ^ 1, len);
        for b in Xts::available_backends() {
            let xts = Xts::with_backend(&k, b).unwrap();
            // In place, at a misalignment of `offset` into a larger buffer.
            let mut store = vec![0xeeu8; len + 32];
            store[offset..offset + len].copy_from_slice(&pt);
            xts.encrypt_sectors(&mut store[offset..offset + len], sector_size, first).unwrap();
            let ct = store[offset..offset + len].to_vec();
            prop_assert!(store[..offset].iter().chain(&store[offset + len..]).all(|&x| x == 0xee));
            // Out of place, source and destination at other misalignments.
            let mut src = vec![0u8; len + 16];
            let so = (offset + 5) % 16;
            src[so..so + len].copy_from_slice(&pt);
            let mut dst = vec![0u8; len + 16];
            let d = &mut dst[15 - offset..15 - offset + len];
            xts.encrypt_sectors_to(&src[so..so + len], d, sector_size, first).unwrap();
            prop_assert_eq!(&d[..], &ct[..], "{} out of place", b);
            prop_assert_eq!(&src[so..so + len], &pt[..]);
            // One call per sector.
            for i in 0..count {
                let mut one = pt[i * sector_size..(i + 1) * sector_size].to_vec();
                xts.encrypt_sector(&mut one, first.wrapping_add(i as u128)).unwrap();
                prop_assert_eq!(&one[..], &ct[i * sector_size..(i + 1) * sector_size], "{} sector {}", b, i);
                let mut back = vec![0u8; sector_size];
                xts.decrypt_sector_to(&one, &mut back, first.wrapping_add(i as u128)).unwrap();
                prop_assert_eq!(&back[..], &pt[i * sector_size..(i + 1) * sector_size]);
            }
            // Decrypt, in place and out of place.
            let mut back = vec![0u8; len];
            xts.decrypt_sectors_to(&ct, &mut back, sector_size, first).unwrap();
            prop_assert_eq!(&back[..], &pt[..], "{} decrypt out of place", b);
            xts.decrypt_sectors(&mut store[offset..offset + len], sector_size, first).unwrap();
            prop_assert_eq!(&store[offset..offset + len], &pt[..], "{} round trip", b);
        }
    }

    #[test]
    fn all_backends_agree_on_one_unit(
        (k, seed) in xts_key_and_seed(),
        len in 16usize..=1100,
        tweak in prop::array::uniform16(any::<u8>()),
    ) {
        let pt = bytes(seed ^ 2, len);
        let mut want = pt.clone();
        Xts::with_backend(&k, Backend::Portable).unwrap().encrypt_with_tweak(&mut want, &tweak).unwrap();
        for b in Xts::available_backends() {
            let xts = Xts::with_backend(&k, b).unwrap();
            let mut x = pt.clone();
            xts.encrypt_with_tweak(&mut x, &tweak).unwrap();
            prop_assert_eq!(&x, &want, "{}", b);
            xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
            prop_assert_eq!(&x, &pt, "{}", b);
        }
    }

    #[test]
    fn errors_leave_buffers_untouched(
        seed in any::<u64>(),
        len in 0usize..600,
        sector_size in 0usize..300,
    ) {
        let k = key(seed, 32);
        prop_assume!(k[..16] != k[16..]);
        let pt = bytes(seed, len);
        let ok = sector_size >= 16 && len % sector_size == 0;
        for b in Xts::available_backends() {
            let xts = Xts::with_backend(&k, b).unwrap();
            let mut x = pt.clone();
            let r = xts.encrypt_sectors(&mut x, sector_size, 9);
            prop_assert_eq!(r.is_ok(), ok, "{} {} {}", b, len, sector_size);
            if !ok {
                prop_assert_eq!(&x, &pt);
            }
            let mut x = pt.clone();
            let r = xts.decrypt_sector(&mut x, 9);
            prop_assert_eq!(r.is_ok(), len >= 16);
            if len < 16 {
                prop_assert_eq!(&x, &pt);
            }
            let mut dst = vec![0u8; len + 1];
            prop_assert!(xts.encrypt_sectors_to(&pt, &mut dst, 16, 0).is_err());
            prop_assert!(dst.iter().all(|&x| x == 0));
        }
    }
}

#[test]
fn hex_helper_is_used() {
    assert_eq!(hex("0a"), [10]);
}
