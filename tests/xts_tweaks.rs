//! XTS tweak conventions (`Tweaks`), areas with a short last unit, and decrypt-only keys
//! with equal halves, on every available backend: multi-unit calls against a loop of
//! single-unit calls on tweaks written from the formats' definitions
//! (`simdcrypt_testkit::xts`), `encrypt_area` against RustCrypto `xts-mode`, and error
//! cases. The comparisons with OpenSSL per unit are in `oracle/tests/xts_tweaks.rs`.
#![cfg(feature = "xts")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::xts_helpers!();

use TweaksForm::Area;
use proptest::prelude::*;
use simdcrypt::xts::Tweaks;
use simdcrypt::{Error, Xts};
use simdcrypt_testkit::strategies::xts_key_and_seed;
use simdcrypt_testkit::xts::{Conv, SHAPES, conventions};
use simdcrypt_testkit::{bytes, records};

/// The formats' tweaks, written as their reference code lays them out.
#[test]
fn presets_lay_out_the_formats_ivs() {
    // dm-crypt plain: le32 in the first 4 bytes (crypt_iv_plain_gen).
    for (first, i) in [(0u32, 0u128), (u32::MAX - 1, 1), (u32::MAX - 1, 2), (5, 3)] {
        let mut want = [0u8; 16];
        want[..4].copy_from_slice(&first.wrapping_add(i as u32).to_le_bytes());
        assert_eq!(Tweaks::plain(first).tweak(i).unwrap(), want);
    }
    // plain64: le64 in the first 8 bytes; plain64be: be64 in the last 8.
    for (first, i) in [
        (0u64, 0u128),
        (u64::MAX, 1),
        (u64::MAX - 3, 7),
        (1 << 40, 9),
    ] {
        let s = first.wrapping_add(i as u64);
        let mut le = [0u8; 16];
        le[..8].copy_from_slice(&s.to_le_bytes());
        assert_eq!(Tweaks::plain64(first).tweak(i).unwrap(), le);
        let mut be = [0u8; 16];
        be[8..].copy_from_slice(&s.to_be_bytes());
        assert_eq!(Tweaks::plain64be(first).tweak(i).unwrap(), be);
    }
    // GELI: le64 byte offset (g_eli_crypto_ivgen), step = sector size.
    let off = (1u64 << 33) + 4096 * 3;
    let mut want = [0u8; 16];
    want[..8].copy_from_slice(&(off + 5 * 4096).to_le_bytes());
    assert_eq!(Tweaks::plain64(off).step(4096).tweak(5).unwrap(), want);
    // Tweaks::new is encrypt_sectors' convention: 128-bit little-endian, wrapping.
    assert_eq!(
        Tweaks::new(u128::MAX).tweak(2).unwrap(),
        1u128.to_le_bytes()
    );
}

#[test]
fn multi_unit_calls_equal_a_loop_of_single_units() {
    let convs = conventions();
    for key_len in [32, 64] {
        let k = bytes(40 + key_len as u64, key_len);
        for (b, xts) in each_xts(&k) {
            for (ci, c) in convs.iter().enumerate() {
                // Every shape for a few conventions, one shape each for the rest.
                let shapes: Vec<(usize, usize)> = if ci % 7 == 0 {
                    SHAPES.to_vec()
                } else {
                    vec![SHAPES[ci % SHAPES.len()]]
                };
                for (size, count) in shapes {
                    let pt = bytes((ci * 131 + size) as u64, size * count);
                    let mut want = pt.clone();
                    for (i, unit) in want.chunks_mut(size).enumerate() {
                        xts.encrypt_with_tweak(unit, &c.tweak(i as u128)).unwrap();
                    }
                    let what = format!("{b} key {key_len} {c:?} {size} x {count}");
                    let n = Numbering::With(c.tweaks());
                    assert_sector_forms(&xts, n, size, &pt, &want, &what);
                    // Whole units through the area form: the same.
                    let mut a = pt.clone();
                    xts.encrypt_area(&mut a, size, c.tweaks()).unwrap();
                    assert_eq!(a, want, "area {what}");
                }
            }
        }
    }
}

#[test]
fn new_is_encrypt_sectors_and_plain64_is_its_low_half() {
    for (b, xts) in each_xts(&bytes(3, 64)) {
        let pt = bytes(4, 70 * 512);
        // `pt` through encrypt_sectors from `first`, and through encrypt_sectors_with `t`.
        let both = |first: u128, t: Tweaks| {
            let mut a = pt.clone();
            xts.encrypt_sectors(&mut a, 512, first).unwrap();
            let mut w = pt.clone();
            xts.encrypt_sectors_with(&mut w, 512, t).unwrap();
            (a, w)
        };
        for first in [0u128, 1 << 70, u128::MAX - 10] {
            let (a, w) = both(first, Tweaks::new(first));
            assert_eq!(a, w, "{b} {first}");
        }
        // Below 2^64 with no wrap, plain64 is the 128-bit counter.
        let (a, w) = both(1 << 40, Tweaks::plain64(1 << 40));
        assert_eq!(a, w, "{b}");
    }
}

/// A call in which the counter wraps in the middle equals two calls split at the wrap.
#[test]
fn counter_wraps_in_the_middle_of_a_call() {
    for (b, xts) in each_xts(&bytes(8, 32)) {
        let pt = bytes(9, 100 * 512);
        // plain: u32::MAX - 29 .. wraps to 0 at unit 30.
        let mut all = pt.clone();
        xts.encrypt_sectors_with(&mut all, 512, Tweaks::plain(u32::MAX - 29))
            .unwrap();
        let mut parts = pt.clone();
        let (head, tail) = parts.split_at_mut(30 * 512);
        xts.encrypt_sectors(head, 512, u128::from(u32::MAX) - 29)
            .unwrap();
        xts.encrypt_sectors(tail, 512, 0).unwrap();
        assert_eq!(all, parts, "{b} plain");
        // plain64 with step 8: wraps at unit 40 to 0 (u64::MAX + 1 - 320 + 320).
        let first = (u64::MAX - 319) as u128;
        let mut all = pt.clone();
        xts.encrypt_sectors_with(&mut all, 512, Tweaks::plain64(u64::MAX - 319).step(8))
            .unwrap();
        let mut parts = pt.clone();
        for (i, unit) in parts.chunks_mut(512).enumerate() {
            let s = (first + 8 * i as u128) % (1 << 64);
            xts.encrypt_sector(unit, s).unwrap();
        }
        assert_eq!(all, parts, "{b} plain64 step 8");
        // plain64be: the wrap carries nothing into the first 8 bytes.
        let mut all = pt.clone();
        xts.encrypt_sectors_with(&mut all, 512, Tweaks::plain64be(u64::MAX - 2))
            .unwrap();
        let plain64be = |i: usize| {
            let mut t = [0u8; 16];
            t[8..].copy_from_slice(&(u64::MAX - 2).wrapping_add(i as u64).to_be_bytes());
            t
        };
        assert_units_alone(&xts, &pt, &all, 512, plain64be, &format!("{b} plain64be"));
    }
}

/// RustCrypto `xts-mode`'s `encrypt_area` / `decrypt_area`, with the tweak function of
/// convention `c` (its own index starts at 0).
fn xts_mode_area(key: &[u8], buf: &mut [u8], size: usize, c: Conv, dec: bool) {
    let tweak = |i: u128| c.tweak(i).into();
    simdcrypt_testkit::with_xts_mode!(key, |x| if dec {
        x.decrypt_area(buf, size, 0, tweak)
    } else {
        x.encrypt_area(buf, size, 0, tweak)
    })
}

#[test]
fn area_agrees_with_xts_mode() {
    let convs = [
        Conv {
            first: 7,
            step: 1,
            bits: 128,
            be: false,
        },
        Conv {
            first: u64::MAX as u128 - 1,
            step: 8,
            bits: 64,
            be: false,
        },
        Conv {
            first: u32::MAX as u128,
            step: 4096,
            bits: 32,
            be: true,
        },
    ];
    for key_len in [32, 64] {
        let k = bytes(90 + key_len as u64, key_len);
        let xs: Vec<Xts> = each_xts(&k).map(|(_, x)| x).collect();
        for (size, counts) in [
            (16usize, &[0usize, 1, 65][..]),
            (100, &[0, 2][..]),
            (512, &[0, 1, 3, 64][..]),
            (4096, &[0, 2][..]),
        ] {
            for &count in counts {
                for rest in [0usize, 16, 17, 31, 32, 100, 511, 4095] {
                    if rest >= size || (rest != 0 && rest < 16) {
                        continue;
                    }
                    for (ci, &c) in convs.iter().enumerate() {
                        let len = size * count + rest;
                        let pt = bytes((len * 3 + ci) as u64, len);
                        let mut want = pt.clone();
                        xts_mode_area(&k, &mut want, size, c, false);
                        let mut back = want.clone();
                        xts_mode_area(&k, &mut back, size, c, true);
                        assert_eq!(back, pt);
                        let what = format!("key {key_len} {c:?} {size} x {count} + {rest}");
                        assert_round_trips(&xs, (Area, size, c.tweaks()), &pt, &want, &what);
                    }
                }
            }
        }
    }
}

/// Every rejected call leaves every buffer untouched.
#[test]
fn errors_leave_buffers_untouched() {
    for (b, xts) in each_xts(&bytes(12, 64)) {
        let pt = bytes(13, 3 * 512);
        let mut buf = pt.clone();
        let mut dst = vec![0u8; pt.len()];
        // A width other than 32, 64 or 128; a step of 0 modulo the width (every unit would
        // get the same tweak).
        let bad_widths = [0u32, 16, 48, 96, 127, 129, 256].map(|bits| {
            (
                Tweaks::new(0).wrap_bits(bits),
                Error::InvalidWrapBits { bits },
            )
        });
        let zero_steps =
            [(0u128, 128u32), (0, 64), (1 << 64, 64), (5 << 32, 32)].map(|(step, bits)| {
                let t = Tweaks::plain64(7).wrap_bits(bits).step(step);
                (t, Error::ZeroTweakStep { bits })
            });
        for (t, err) in bad_widths.into_iter().chain(zero_steps) {
            let e = Err(err);
            assert_eq!(xts.encrypt_sectors_with(&mut buf, 512, t), e);
            assert_eq!(xts.decrypt_sectors_with(&mut buf, 512, t), e);
            assert_eq!(xts.encrypt_sectors_with_to(&pt, &mut dst, 512, t), e);
            assert_eq!(xts.decrypt_sectors_with_to(&pt, &mut dst, 512, t), e);
            assert_eq!(xts.encrypt_area(&mut buf, 512, t), e);
            assert_eq!(xts.decrypt_area(&mut buf, 512, t), e);
            #[cfg(feature = "rayon")]
            {
                assert_eq!(xts.par_encrypt_sectors_with(&mut buf, 512, t), e);
                assert_eq!(xts.par_decrypt_sectors_with(&mut buf, 512, t), e);
            }
            assert_eq!(t.tweak(0), Err(err));
        }
        let t = Tweaks::plain64(0);
        assert_eq!(
            xts.encrypt_sectors_with(&mut buf[..1000], 512, t),
            Err(Error::NotWholeSectors {
                len: 1000,
                sector_size: 512
            })
        );
        assert_eq!(
            xts.decrypt_sectors_with_to(&pt, &mut dst[..1], 512, t),
            Err(Error::LengthMismatch {
                what: "src and dst lengths",
                left: 1536,
                right: 1
            })
        );
        // Areas: the short last unit must have 16 bytes; the unit size is checked too.
        for (len, size, want) in [
            (512 + 15, 512, Error::DataTooShort { len: 15, min: 16 }),
            (1, 512, Error::DataTooShort { len: 1, min: 16 }),
            (
                1000,
                15,
                Error::InvalidSectorSize {
                    sector_size: 15,
                    min: 16,
                    max: 1 << 24,
                },
            ),
            (
                1000,
                0,
                Error::InvalidSectorSize {
                    sector_size: 0,
                    min: 16,
                    max: 1 << 24,
                },
            ),
            (
                (1 << 24) + 32,
                (1 << 24) + 16,
                Error::InvalidSectorSize {
                    sector_size: (1 << 24) + 16,
                    min: 16,
                    max: 1 << 24,
                },
            ),
        ] {
            let orig = bytes(len as u64, len);
            let mut a = orig.clone();
            assert_eq!(xts.encrypt_area(&mut a, size, t), Err(want), "{len} {size}");
            assert_eq!(xts.decrypt_area(&mut a, size, t), Err(want), "{len} {size}");
            assert!(a == orig, "{b} area {len} {size} touched");
        }
        assert_eq!(buf, pt, "{b}");
        assert!(dst.iter().all(|&x| x == 0), "{b}");
        // Nothing to do: an empty area or buffer.
        assert_eq!(xts.encrypt_area(&mut [], 512, t), Ok(()));
        assert_eq!(xts.decrypt_sectors_with(&mut [], 512, t), Ok(()));
    }
}

/// A step with `z` trailing zero bits (modulo 2^bits) repeats its tweaks after 2^(bits - z)
/// units: a call of exactly that many units is accepted and gives each unit its own
/// tweak; one unit more is refused, through every entry point, with the buffers untouched.
#[test]
fn step_period_bounds_a_call() {
    // (tweaks, bits, period_bits): steps with 31, 30 and 28 trailing zeros at 32 bits
    // (the last one above 2^32, which only its low 32 bits count for), 62 and 60 at 64,
    // 125 at 128; starts that are not 0, both byte orders.
    let cases = [
        (Tweaks::plain(0).step(1 << 31), 32, 1),
        (Tweaks::plain(u32::MAX).step(3 << 30), 32, 2),
        (Tweaks::plain(9).step((1 << 33) | (1 << 28)), 32, 4),
        (Tweaks::plain64(5).step(1 << 62), 64, 2),
        (Tweaks::plain64be(u64::MAX).step(5 << 60), 64, 4),
        (Tweaks::new(1).step(1 << 125), 128, 3),
    ];
    let size = 32;
    for (b, xts) in each_xts(&bytes(20, 32)) {
        for (t, bits, period_bits) in cases {
            let period = 1usize << period_bits;
            // Exactly the period: accepted, and no two units alike (equal plaintext units).
            let mut ok = vec![0x5a; period * size];
            xts.encrypt_sectors_with(&mut ok, size, t).unwrap();
            for (i, x) in ok.chunks(size).enumerate() {
                for y in ok.chunks(size).skip(i + 1) {
                    assert_ne!(x, y, "{b} {t:?}: two units of one call alike");
                }
            }
            xts.decrypt_sectors_with(&mut ok, size, t).unwrap();
            assert!(ok.iter().all(|&x| x == 0x5a), "{b} {t:?}");
            // An area of period - 1 whole units and a shorter last one: the period too.
            let mut area = vec![0x5a; period * size - 7];
            xts.encrypt_area(&mut area, size, t).unwrap();
            xts.decrypt_area(&mut area, size, t).unwrap();
            assert!(area.iter().all(|&x| x == 0x5a), "{b} {t:?}");
            // One unit more: refused, nothing written.
            let units = period + 1;
            let e = Err(Error::TweakStepRepeats {
                bits,
                period_bits,
                units,
            });
            let pt = bytes(21, units * size);
            let mut buf = pt.clone();
            let mut dst = vec![0u8; pt.len()];
            assert_eq!(xts.encrypt_sectors_with(&mut buf, size, t), e, "{b} {t:?}");
            assert_eq!(xts.decrypt_sectors_with(&mut buf, size, t), e, "{b} {t:?}");
            assert_eq!(xts.encrypt_sectors_with_to(&pt, &mut dst, size, t), e);
            assert_eq!(xts.decrypt_sectors_with_to(&pt, &mut dst, size, t), e);
            assert_eq!(xts.encrypt_area(&mut buf, size, t), e, "{b} {t:?}");
            assert_eq!(xts.decrypt_area(&mut buf, size, t), e, "{b} {t:?}");
            #[cfg(feature = "rayon")]
            {
                assert_eq!(xts.par_encrypt_sectors_with(&mut buf, size, t), e);
                assert_eq!(xts.par_decrypt_sectors_with(&mut buf, size, t), e);
            }
            // An area of `period` whole units and a shorter last one: one unit more too.
            let mut ragged = pt[..period * size + 20].to_vec();
            assert_eq!(xts.encrypt_area(&mut ragged, size, t), e, "{b} {t:?}");
            assert_eq!(xts.decrypt_area(&mut ragged, size, t), e, "{b} {t:?}");
            assert!(ragged == pt[..period * size + 20], "{b} {t:?} area touched");
            assert!(buf == pt, "{b} {t:?} touched");
            assert!(dst.iter().all(|&x| x == 0), "{b} {t:?} dst touched");
        }
    }
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_with_tweaks_equals_serial() {
    for (b, xts) in each_xts(&bytes(14, 32)) {
        let size = 2 * Xts::PAR_THRESHOLD + 3 * 4096;
        let pt = bytes(15, size);
        for t in [
            Tweaks::plain64(u64::MAX - 300).step(8),
            Tweaks::plain(u32::MAX - 100),
            Tweaks::plain64be(1 << 40).step(4096),
        ] {
            let mut want = pt.clone();
            xts.encrypt_sectors_with(&mut want, 4096, t).unwrap();
            let mut x = pt.clone();
            xts.par_encrypt_sectors_with(&mut x, 4096, t).unwrap();
            assert!(x == want, "{b} {t:?}");
            xts.par_decrypt_sectors_with(&mut x, 4096, t).unwrap();
            assert!(x == pt, "{b} {t:?}");
        }
    }
}

#[test]
fn equal_halves_decrypt_only_on_every_backend() {
    // IEEE 1619 vectors with Key1 == Key2 decrypt to their plaintext.
    let recs = records("ieee1619/xts-aes.vec");
    let mut checked = 0;
    for b in backends::<Xts>() {
        for r in &recs {
            let key = r.hex("Key");
            if key[..key.len() / 2] != key[key.len() / 2..] {
                continue;
            }
            let nonce = r.hex("Nonce");
            let mut tweak = [0u8; 16];
            tweak[..nonce.len()].copy_from_slice(&nonce);
            let (pt, ct) = (r.hex("In"), r.hex("Out"));
            assert_eq!(
                Xts::with_backend(&key, b).unwrap_err(),
                Error::XtsDuplicateKeyHalves
            );
            let xts = Xts::with_backend_allow_equal_halves(&key, b).unwrap();
            assert!(xts.decrypt_only());
            let mut x = ct.clone();
            xts.decrypt_with_tweak(&mut x, &tweak).unwrap();
            assert_eq!(x, pt, "{b} {:?}", r.fields);
            checked += 1;
        }
    }
    assert!(checked >= backends::<Xts>().len(), "no equal-halves vector");

    // Random data under equal halves: xts-mode (which does not check) encrypts, every
    // backend decrypts; every encryption form is refused and touches nothing.
    for key_len in [32, 64] {
        let half = bytes(16 + key_len as u64, key_len / 2);
        let k = [half.clone(), half].concat();
        for b in backends::<Xts>() {
            let xts = Xts::with_backend_allow_equal_halves(&k, b).unwrap();
            assert!(xts.decrypt_only());
            for len in [16usize, 17, 100, 512, 4096 + 5] {
                let pt = bytes(len as u64, len);
                let c = Conv {
                    first: 99,
                    step: 1,
                    bits: 128,
                    be: false,
                };
                let mut ct = pt.clone();
                xts_mode_area(&k, &mut ct, len, c, false);
                let mut x = ct.clone();
                xts.decrypt_sector(&mut x, 99).unwrap();
                assert_eq!(x, pt, "{b} key {key_len} len {len}");
                let mut x = ct.clone();
                xts.decrypt_area(&mut x, len, Tweaks::new(99)).unwrap();
                assert_eq!(x, pt, "{b} key {key_len} len {len} area");
            }
            let orig = bytes(1, 2 * 512);
            let mut buf = orig.clone();
            let mut dst = vec![0u8; orig.len()];
            let e = Err(Error::XtsDuplicateKeyHalves);
            let t = Tweaks::plain64(0);
            assert_eq!(xts.encrypt_sector(&mut buf, 0), e);
            assert_eq!(xts.encrypt_sector_to(&orig, &mut dst, 0), e);
            assert_eq!(xts.encrypt_with_tweak(&mut buf, &[0; 16]), e);
            assert_eq!(xts.encrypt_sectors(&mut buf, 512, 0), e);
            assert_eq!(xts.encrypt_sectors_to(&orig, &mut dst, 512, 0), e);
            assert_eq!(xts.encrypt_sectors_with(&mut buf, 512, t), e);
            assert_eq!(xts.encrypt_sectors_with_to(&orig, &mut dst, 512, t), e);
            assert_eq!(xts.encrypt_area(&mut buf, 512, t), e);
            #[cfg(feature = "rayon")]
            {
                assert_eq!(xts.par_encrypt_sectors(&mut buf, 512, 0), e);
                assert_eq!(xts.par_encrypt_sectors_with(&mut buf, 512, t), e);
            }
            // Refused even when the arguments are bad otherwise.
            assert_eq!(xts.encrypt_sector(&mut buf[..3], 0), e);
            assert_eq!(buf, orig, "{b}");
            assert!(dst.iter().all(|&x| x == 0), "{b}");
        }
    }
    // Distinct halves through the permissive constructor: an ordinary Xts.
    let k = bytes(17, 32);
    for b in backends::<Xts>() {
        let a = Xts::with_backend_allow_equal_halves(&k, b).unwrap();
        assert!(!a.decrypt_only());
        let mut x = bytes(2, 64);
        let mut y = x.clone();
        a.encrypt_sector(&mut x, 5).unwrap();
        Xts::with_backend(&k, b)
            .unwrap()
            .encrypt_sector(&mut y, 5)
            .unwrap();
        assert_eq!(x, y, "{b}");
    }
    assert!(
        Xts::new_allow_equal_halves(&[9u8; 64])
            .unwrap()
            .decrypt_only()
    );
    assert_eq!(
        Xts::new_allow_equal_halves(&[9u8; 48]).unwrap_err(),
        Error::InvalidKeyLength {
            len: 48,
            expected: "32 or 64 bytes"
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn any_convention_equals_a_loop(
        (k, seed) in xts_key_and_seed(),
        size in prop_oneof![16usize..=80, prop::sample::select(vec![512usize, 4096])],
        count in 0usize..=5,
        first in any::<u128>(),
        step in prop_oneof![Just(1u128), Just(8), Just(4096), any::<u128>()],
        bits in prop::sample::select(vec![32u32, 64, 128]),
        be in any::<bool>(),
        rest in 0usize..80,
    ) {
        let c = Conv { first, step, bits, be };
        let pt = bytes(seed ^ 5, size * count);
        for b in Xts::available_backends() {
            let xts = Xts::with_backend(&k, b).unwrap();
            let mut want = pt.clone();
            for (i, unit) in want.chunks_mut(size).enumerate() {
                xts.encrypt_with_tweak(unit, &c.tweak(i as u128)).unwrap();
            }
            let mut x = pt.clone();
            xts.encrypt_sectors_with(&mut x, size, c.tweaks()).unwrap();
            prop_assert_eq!(&x, &want, "{} {:?}", b, c);
            // An area of these units and a short last one (if it is long enough).
            let rest = rest % size;
            let mut area = pt.clone();
            area.extend_from_slice(&bytes(seed ^ 6, rest));
            let orig = area.clone();
            let r = xts.encrypt_area(&mut area, size, c.tweaks());
            if rest != 0 && rest < 16 {
                prop_assert_eq!(r, Err(Error::DataTooShort { len: rest, min: 16 }));
                prop_assert_eq!(&area, &orig);
            } else {
                r.unwrap();
                prop_assert_eq!(&area[..x.len()], &x[..]);
                let mut last = orig[x.len()..].to_vec();
                if rest != 0 {
                    xts.encrypt_with_tweak(&mut last, &c.tweak(count as u128)).unwrap();
                }
                prop_assert_eq!(&area[x.len()..], &last[..]);
                xts.decrypt_area(&mut area, size, c.tweaks()).unwrap();
                prop_assert_eq!(&area, &orig);
            }
        }
    }
}
