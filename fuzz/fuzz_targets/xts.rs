//! XTS: the chosen backend against the portable one and RustCrypto `xts-mode`; single and
//! multi-sector, in place and out of place, encrypt and decrypt; rejected inputs leave the
//! buffer untouched. Multi-sector inputs also run under a `Tweaks` convention (chosen by the
//! otherwise unused `tweak` bytes) against a loop of single units, and as an area whose last
//! unit is shorter against `xts-mode`'s `encrypt_area`.
//! Multi-sector runs go up to 128 sectors (past the 64-tweak batch), in place, out of place over
//! a garbage `dst`, and through `par_*`; encrypt and decrypt; every misuse (bad key
//! lengths, sector sizes under 16 or over 2^24, units over 2^24, `_to` length mismatches,
//! ragged sector runs, short units) refused with the exact error and every buffer
//! untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::xts::{MAX_UNIT, Tweaks};
use simdcrypt::{Backend, Error, Xts};
use simdcrypt_fuzz::xts::{BAD_KEY_LENS, Input};
use simdcrypt_testkit::with_xts_mode;

fn rustcrypto(key: &[u8], buf: &mut [u8], tweak: &[u8; 16], decrypt: bool) {
    let tweak = (*tweak).into();
    with_xts_mode!(key, |x| if decrypt {
        x.decrypt_sector(buf, tweak)
    } else {
        x.encrypt_sector(buf, tweak)
    })
}

/// `xts-mode`'s `encrypt_area` / `decrypt_area`, unit `i`'s raw tweak from `tweak(i)`.
fn rustcrypto_area(
    key: &[u8],
    buf: &mut [u8],
    size: usize,
    tweak: impl Fn(u128) -> [u8; 16],
    decrypt: bool,
) {
    let f = |i: u128| tweak(i).into();
    with_xts_mode!(key, |x| if decrypt {
        x.decrypt_area(buf, size, 0, f)
    } else {
        x.encrypt_area(buf, size, 0, f)
    })
}

/// The multi-sector input under a `Tweaks` convention picked by `inp.tweak`: byte 0 the
/// width (32, 64, 128, or byte 3 as a width, mostly invalid), byte 1 the byte order, byte 2
/// the step (1, 8, the sector size, or all 16 bytes as a number); the first counter is
/// `inp.sector`. Then an area of those sectors and `unit_len % size` more bytes.
fn tweaks_and_area(x: &Xts, p: &Xts, key: &[u8], inp: &Input, size: usize, n: usize) {
    let t = &inp.tweak;
    let bits = [32, 64, 128, u32::from(t[3])][usize::from(t[0] % 4)];
    let be = t[1] & 1 == 1;
    let step = match t[2] % 4 {
        0 => 1,
        1 => 8,
        2 => size as u128,
        _ => u128::from_le_bytes(*t),
    };
    let mut tw = Tweaks::new(inp.sector).step(step).wrap_bits(bits);
    if be {
        tw = tw.big_endian();
    }
    // Unit i's raw tweak, spelled out here.
    let raw = |i: u128| -> [u8; 16] {
        let c = inp.sector.wrapping_add(step.wrapping_mul(i));
        let c = if bits == 128 {
            c
        } else {
            c & ((1u128 << bits) - 1)
        };
        if be { c.to_be_bytes() } else { c.to_le_bytes() }
    };
    let width_ok = matches!(bits, 32 | 64 | 128);
    // A step of 0 modulo 2^bits would give every unit the same tweak: refused.
    let step_zero = width_ok && (bits == 128 && step == 0 || bits < 128 && step % (1u128 << bits) == 0);
    let valid = width_ok && !step_zero;
    let src = &inp.data[..n * size];
    let mut got = src.to_vec();
    let r = match (inp.out_of_place, inp.decrypt) {
        (true, false) => x.encrypt_sectors_with_to(src, &mut got, size, tw),
        (true, true) => x.decrypt_sectors_with_to(src, &mut got, size, tw),
        (false, false) => x.encrypt_sectors_with(&mut got, size, tw),
        (false, true) => x.decrypt_sectors_with(&mut got, size, tw),
    };
    if !valid {
        let want = if width_ok {
            Error::ZeroTweakStep { bits }
        } else {
            Error::InvalidWrapBits { bits }
        };
        assert_eq!(r, Err(want));
        assert_eq!(got, src, "refused call wrote");
        let mut area = inp.data.clone();
        assert!(x.encrypt_area(&mut area, size, tw).is_err());
        assert_eq!(area, inp.data);
        return;
    }
    r.unwrap();
    for (i, (g, s)) in got.chunks(size).zip(src.chunks(size)).enumerate() {
        let mut one = s.to_vec();
        if inp.decrypt {
            p.decrypt_with_tweak(&mut one, &raw(i as u128)).unwrap();
        } else {
            p.encrypt_with_tweak(&mut one, &raw(i as u128)).unwrap();
        }
        assert_eq!(g, &one[..], "{tw:?} sector {i} of {n}, size {size}");
    }
    // An area: the same sectors and a shorter last unit.
    let len = (n * size + usize::from(inp.unit_len) % size).min(inp.data.len());
    let tail = len - n * size;
    let mut area = inp.data[..len].to_vec();
    let r = if inp.decrypt {
        x.decrypt_area(&mut area, size, tw)
    } else {
        x.encrypt_area(&mut area, size, tw)
    };
    if tail != 0 && tail < 16 {
        assert_eq!(r, Err(Error::DataTooShort { len: tail, min: 16 }));
        assert_eq!(area, &inp.data[..len], "refused area written");
        return;
    }
    r.unwrap();
    assert_eq!(&area[..n * size], &got[..], "area vs sectors, {tw:?}");
    let mut want = inp.data[..len].to_vec();
    rustcrypto_area(key, &mut want, size, raw, inp.decrypt);
    assert_eq!(
        area, want,
        "area vs xts-mode, {tw:?}, {n} x {size} + {tail}"
    );
}

/// Garbage for `dst` before an out-of-place call: nothing of `src` in it.
fn garbage(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(167).wrapping_add(seed) ^ 0x3c)
        .collect()
}

/// The misuse `inp.misuse` names (see `Input`): refused, with every buffer untouched.
fn misuse(x: &Xts, inp: &Input, b: Backend) {
    let arg = usize::from(inp.misuse / 8);
    let src = inp.data.clone();
    let mut buf = inp.data.clone();
    let mut dst = garbage(inp.data.len(), inp.garbage);
    let dst0 = dst.clone();
    match inp.misuse % 8 {
        1 => {
            let len = BAD_KEY_LENS[arg % 8];
            let key: Vec<u8> = inp.key.iter().cycle().take(len).copied().collect();
            let want = Err(Error::InvalidKeyLength { len, expected: "32 or 64 bytes" });
            assert_eq!(Xts::with_backend(&key, b).map(|_| ()), want, "key of {len}");
            assert_eq!(Xts::new(&key).map(|_| ()), want, "key of {len}");
        }
        2 => {
            let sector_size = arg % 16;
            let want = Err(Error::InvalidSectorSize { sector_size, min: 16, max: MAX_UNIT });
            assert_eq!(x.encrypt_sectors(&mut buf, sector_size, inp.sector), want);
            assert_eq!(x.decrypt_sectors(&mut buf, sector_size, inp.sector), want);
            assert_eq!(x.par_encrypt_sectors(&mut buf, sector_size, inp.sector), want);
            assert_eq!(x.encrypt_sectors_to(&src, &mut dst, sector_size, inp.sector), want);
        }
        3 => {
            let sector_size = MAX_UNIT + 1 + arg;
            let want = Err(Error::InvalidSectorSize { sector_size, min: 16, max: MAX_UNIT });
            assert_eq!(x.encrypt_sectors(&mut buf, sector_size, inp.sector), want);
            assert_eq!(x.par_decrypt_sectors(&mut buf, sector_size, inp.sector), want);
            if arg == 0 {
                // One unit over the maximum: a large buffer, so only for this one value.
                let mut big = vec![0x11u8; MAX_UNIT + 16];
                let want = Err(Error::DataUnitTooLong { len: MAX_UNIT + 16, max: MAX_UNIT });
                assert_eq!(x.encrypt_sector(&mut big, inp.sector), want);
                assert_eq!(x.decrypt_with_tweak(&mut big, &inp.tweak), want);
                assert!(big.iter().all(|&v| v == 0x11), "{b}: refused unit touched");
            }
        }
        4 => {
            let mut longer = garbage(src.len() + 1 + arg, inp.garbage);
            let longer0 = longer.clone();
            let want = Err(Error::LengthMismatch {
                what: "src and dst lengths",
                left: src.len(),
                right: longer.len(),
            });
            assert_eq!(x.encrypt_sector_to(&src, &mut longer, inp.sector), want);
            assert_eq!(x.decrypt_sectors_to(&src, &mut longer, 16, inp.sector), want);
            assert_eq!(longer, longer0, "{b}: refused _to touched dst");
            if src.len() > arg {
                let mut shorter = garbage(src.len() - 1 - arg, inp.garbage);
                let shorter0 = shorter.clone();
                assert_eq!(
                    x.encrypt_sectors_to(&src, &mut shorter, 16, inp.sector),
                    Err(Error::LengthMismatch {
                        what: "src and dst lengths",
                        left: src.len(),
                        right: src.len() - 1 - arg,
                    })
                );
                assert_eq!(shorter, shorter0, "{b}: refused _to touched dst");
            }
        }
        _ => {}
    }
    assert_eq!(buf, inp.data, "{b}: refused call touched the buffer");
    assert_eq!(dst, dst0, "{b}: refused call touched dst");
}

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = Xts::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];
    let key = &inp.key[..if inp.wide_key { 64 } else { 32 }];
    let Ok(x) = Xts::with_backend(key, b) else {
        let (k1, k2) = key.split_at(key.len() / 2);
        assert_eq!(k1, k2, "a valid key was rejected");
        assert_eq!(Xts::with_backend(key, b).err(), Some(Error::XtsDuplicateKeyHalves));
        return;
    };
    let p = Xts::with_backend(key, Backend::Portable).unwrap();
    misuse(&x, &inp, b);

    if !inp.multi {
        // One data unit of 16..=8192 bytes with the raw tweak.
        let len = 16 + usize::from(inp.unit_len) % (8192 - 15);
        let mut src = inp.data.clone();
        src.resize(len, 0xa5);
        let mut got = src.clone();
        let mut want = src.clone();
        if inp.decrypt {
            x.decrypt_with_tweak(&mut got, &inp.tweak).unwrap();
            p.decrypt_with_tweak(&mut want, &inp.tweak).unwrap();
        } else {
            x.encrypt_with_tweak(&mut got, &inp.tweak).unwrap();
            p.encrypt_with_tweak(&mut want, &inp.tweak).unwrap();
        }
        assert_eq!(got, want, "{b} vs portable, len {len}");
        // xts-mode handles ciphertext stealing but panics on tails it does not support;
        // compare where it accepts the length.
        let mut rc = src.clone();
        rustcrypto(key, &mut rc, &inp.tweak, inp.decrypt);
        assert_eq!(got, rc, "{b} vs xts-mode, len {len}");
        // Round trip.
        if inp.decrypt {
            x.encrypt_with_tweak(&mut got, &inp.tweak).unwrap();
        } else {
            x.decrypt_with_tweak(&mut got, &inp.tweak).unwrap();
        }
        assert_eq!(got, src, "{b} round trip");
        // Out of place over garbage, by sector number: equal to the in-place portable call.
        if inp.out_of_place {
            let mut dst = garbage(len, inp.garbage);
            let mut one = src.clone();
            if inp.decrypt {
                x.decrypt_sector_to(&src, &mut dst, inp.sector).unwrap();
                p.decrypt_sector(&mut one, inp.sector).unwrap();
            } else {
                x.encrypt_sector_to(&src, &mut dst, inp.sector).unwrap();
                p.encrypt_sector(&mut one, inp.sector).unwrap();
            }
            assert_eq!(dst, one, "{b} out of place, len {len}");
        }
    } else {
        // Several sectors, numbered from `sector`, in place, out of place over garbage, or
        // through `par_*`; the given sectors run `1 + repeat % 8` times over, so up to 128
        // sectors (past the 64-tweak batch).
        let size = 16 + usize::from(inp.sector_size) % 1024;
        let n = (inp.data.len() / size).min(16);
        let src: Vec<u8> = inp.data[..n * size].repeat(1 + usize::from(inp.repeat) % 8);
        let total = src.len() / size;
        let mut got = src.clone();
        if inp.out_of_place {
            got = garbage(src.len(), inp.garbage);
            let r = if inp.decrypt {
                x.decrypt_sectors_to(&src, &mut got, size, inp.sector)
            } else {
                x.encrypt_sectors_to(&src, &mut got, size, inp.sector)
            };
            r.unwrap();
        } else if inp.par {
            if inp.decrypt {
                x.par_decrypt_sectors(&mut got, size, inp.sector).unwrap();
            } else {
                x.par_encrypt_sectors(&mut got, size, inp.sector).unwrap();
            }
        } else if inp.decrypt {
            x.decrypt_sectors(&mut got, size, inp.sector).unwrap();
        } else {
            x.encrypt_sectors(&mut got, size, inp.sector).unwrap();
        }
        for (i, (g, s)) in got.chunks(size).zip(src.chunks(size)).enumerate() {
            let mut one = s.to_vec();
            let num = inp.sector.wrapping_add(i as u128);
            if inp.decrypt {
                p.decrypt_sector(&mut one, num).unwrap();
            } else {
                p.encrypt_sector(&mut one, num).unwrap();
            }
            assert_eq!(g, &one[..], "{b} sector {i} of {total}, size {size}");
        }
        tweaks_and_area(&x, &p, key, &inp, size, n);
        // A buffer that is not whole sectors is refused and left untouched.
        if !inp.data.len().is_multiple_of(size) {
            let mut whole = inp.data.clone();
            let want = Err(Error::NotWholeSectors { len: whole.len(), sector_size: size });
            assert_eq!(x.encrypt_sectors(&mut whole, size, 0), want);
            assert_eq!(x.par_decrypt_sectors(&mut whole, size, 0), want);
            let mut dst = garbage(whole.len(), inp.garbage);
            let dst0 = dst.clone();
            assert_eq!(x.encrypt_sectors_to(&inp.data, &mut dst, size, 0), want);
            assert_eq!((whole, dst), (inp.data.clone(), dst0));
        }
    }
    // Too short a unit is refused, untouched.
    if inp.data.len() < 16 {
        let mut short = inp.data.clone();
        let want = Err(Error::DataUnitTooShort { len: short.len(), min: 16 });
        assert_eq!(x.encrypt_sector(&mut short, inp.sector), want);
        assert_eq!(x.decrypt_with_tweak(&mut short, &inp.tweak), want);
        assert_eq!(short, inp.data);
    }
});
