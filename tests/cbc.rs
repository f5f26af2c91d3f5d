//! AES-CBC on every available backend: NIST CAVP known answers (KAT and MMT), RFC 3962
//! ciphertext stealing, and property tests against the portable backend, RustCrypto `cbc`
//! and `cts` (OpenSSL: oracle/tests). The padded forms need `alloc`.
#![cfg(feature = "cbc")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(Cbc);

use aes::cipher::block_padding::NoPadding;
#[cfg(feature = "alloc")]
use aes::cipher::block_padding::Pkcs7;
use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use proptest::prelude::*;
use simdcrypt::{Backend, Cbc, Error};
use simdcrypt_testkit::cbc::{RFC3962_CTS, RFC3962_KEY, pattern_blocks};
use simdcrypt_testkit::strategies::{aes_key, cbc_case};
use simdcrypt_testkit::{hex, records};

fn iv16(v: &[u8]) -> [u8; 16] {
    v.try_into().unwrap()
}

#[test]
fn nist_cavp_known_answers() {
    let mut n = 0;
    let backends = backends::<Cbc>();
    for kind in ["GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"] {
        for bits in [128, 192, 256] {
            let recs = records(&format!("nist-cavp/cbc/CBC{kind}{bits}.rsp"));
            assert!(!recs.is_empty());
            for &b in &backends {
                for r in &recs {
                    let cbc = Cbc::with_backend(&r.hex("KEY"), b).unwrap();
                    assert_eq!(cbc.backend(), b);
                    let iv = iv16(&r.hex("IV"));
                    let pt = r.hex("PLAINTEXT");
                    let ct = r.hex("CIPHERTEXT");
                    let last = iv16(&ct[ct.len() - 16..]);
                    // Both directions for every record, whichever section it is in.
                    let mut x = pt.clone();
                    let mut v = iv;
                    cbc.encrypt(&mut v, &mut x).unwrap();
                    assert_eq!(x, ct, "{b} {kind}{bits} {} {:?}", r.section, r.fields);
                    assert_eq!(v, last);
                    let mut v = iv;
                    cbc.decrypt(&mut v, &mut x).unwrap();
                    assert_eq!(x, pt, "{b} {kind}{bits} {} {:?}", r.section, r.fields);
                    assert_eq!(v, last);
                    n += 1;
                }
            }
        }
    }
    assert!(n >= backends.len() * 2000, "only {n} known answers checked");
}

/// RFC 3962 Appendix B (AES-128, "chicken teriyaki", zero IV): the Kerberos CTS form.
#[test]
fn rfc3962_ciphertext_stealing() {
    let (key, cases) = (hex(RFC3962_KEY), RFC3962_CTS);
    for b in backends::<Cbc>() {
        let cbc = Cbc::with_backend(&key, b).unwrap();
        for (pt, ct) in cases {
            let (pt, ct) = (hex(pt), hex(ct));
            let mut x = pt.clone();
            cbc.encrypt_cts(&[0; 16], &mut x).unwrap();
            assert_eq!(x, ct, "{b} len {}", pt.len());
            cbc.decrypt_cts(&[0; 16], &mut x).unwrap();
            assert_eq!(x, pt, "{b} len {}", pt.len());
        }
        // Exactly one block is plain CBC.
        let pt = hex("4920776f756c64206c696b6520746865");
        let mut want = pt.clone();
        cbc.encrypt(&mut [7; 16], &mut want).unwrap();
        let mut x = pt.clone();
        cbc.encrypt_cts(&[7; 16], &mut x).unwrap();
        assert_eq!(x, want, "{b}");
        cbc.decrypt_cts(&[7; 16], &mut x).unwrap();
        assert_eq!(x, pt, "{b}");
    }
}

#[test]
fn unavailable_or_foreign_backend_is_an_error() {
    assert_unavailable_or_foreign_backend_errors::<Cbc>(|b| {
        Cbc::with_backend(&[0u8; 16], b).map(|x| x.backend())
    });
    assert!(matches!(
        Cbc::new(&[0u8; 17]).unwrap_err(),
        Error::InvalidKeyLength { len: 17, .. }
    ));
}

#[test]
fn errors_leave_everything_untouched() {
    for b in backends::<Cbc>() {
        let cbc = Cbc::with_backend(&[3u8; 24], b).unwrap();
        for len in [1usize, 15, 17, 31, 100, 4097] {
            let orig: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut buf = orig.clone();
            let mut iv = [9u8; 16];
            assert_eq!(
                cbc.encrypt(&mut iv, &mut buf),
                Err(Error::NotBlockMultiple { len })
            );
            assert_eq!(
                cbc.decrypt(&mut iv, &mut buf),
                Err(Error::NotBlockMultiple { len })
            );
            assert_eq!((buf.as_slice(), iv), (orig.as_slice(), [9u8; 16]));
            #[cfg(feature = "alloc")]
            assert_eq!(
                cbc.decrypt_padded(&iv, &buf),
                Err(Error::NotBlockMultiple { len })
            );
        }
        #[cfg(feature = "alloc")]
        assert_eq!(
            cbc.decrypt_padded(&[0; 16], &[]),
            Err(Error::DataTooShort { len: 0, min: 16 })
        );
        for len in 0..16 {
            let mut buf = vec![7u8; len];
            assert_eq!(
                cbc.encrypt_cts(&[1; 16], &mut buf),
                Err(Error::DataTooShort { len, min: 16 })
            );
            assert_eq!(
                cbc.decrypt_cts(&[1; 16], &mut buf),
                Err(Error::DataTooShort { len, min: 16 })
            );
            assert_eq!(buf, vec![7u8; len]);
        }
        // encrypt_many: mismatched counts, and one bad length among good ones.
        let mut a = vec![1u8; 64];
        let mut c = vec![2u8; 33];
        let mut d = vec![3u8; 32];
        let mut ivs = [[5u8; 16]; 3];
        {
            let mut bufs: Vec<&mut [u8]> = vec![&mut a, &mut d];
            assert_eq!(
                cbc.encrypt_many(&mut ivs, &mut bufs),
                Err(Error::LengthMismatch {
                    what: "ivs and bufs counts",
                    left: 3,
                    right: 2
                })
            );
        }
        {
            let mut bufs: Vec<&mut [u8]> = vec![&mut a, &mut d, &mut c];
            assert_eq!(
                cbc.encrypt_many(&mut ivs, &mut bufs),
                Err(Error::NotBlockMultiple { len: 33 })
            );
        }
        assert_eq!(ivs, [[5u8; 16]; 3]);
        assert_eq!(cbc.encrypt_many(&mut [], &mut []), Ok(()));
        assert_eq!((a, c, d), (vec![1u8; 64], vec![2u8; 33], vec![3u8; 32]));
    }
}

/// Every padding that is not PKCS#7 is the one `BadPadding`; good ones come back.
#[cfg(feature = "alloc")]
#[test]
fn every_corrupted_padding_is_rejected() {
    let iv = [0x42u8; 16];
    for b in backends::<Cbc>() {
        let cbc = Cbc::with_backend(&[0x11u8; 32], b).unwrap();
        // Encrypts a chosen final plaintext block without padding, then unpads.
        let try_last = |last: [u8; 16]| {
            let mut buf = [[0xeeu8; 16], last].concat();
            cbc.encrypt(&mut iv.clone(), &mut buf).unwrap();
            let r = cbc.decrypt_padded(&iv, &buf);
            (r, buf)
        };
        for v in std::iter::once(0u8).chain(17..=255) {
            let mut last = [v; 16];
            last[0] = 0x5a;
            let (r, buf) = try_last(last);
            assert_eq!(r, Err(Error::BadPadding), "{b} last byte {v}");
            let mut check = iv;
            let mut ct = buf.clone();
            cbc.decrypt(&mut check, &mut ct).unwrap();
            assert_eq!(ct[16..], last, "decrypt_padded must not touch its input");
        }
        for p in 1..=16u8 {
            let mut last = [0xa0u8; 16];
            last[16 - usize::from(p)..].fill(p);
            let (r, _) = try_last(last);
            let mut want = vec![0xeeu8; 16];
            want.extend_from_slice(&last[..16 - usize::from(p)]);
            assert_eq!(r, Ok(want), "{b} good pad {p}");
            // Each pad byte but the last, changed to every other value: inconsistent.
            // Every change on the SIMD backends; a spread of them on the (slow) portable one.
            let deltas: Vec<u8> = if b == Backend::Portable {
                vec![1, 2, 4, 8, 16, 32, 64, 128, 0xff, p ^ 17, p]
            } else {
                (1..=255).collect()
            };
            for pos in 16 - usize::from(p)..15 {
                for &delta in &deltas {
                    let mut bad = last;
                    bad[pos] ^= delta;
                    let (r, _) = try_last(bad);
                    assert_eq!(r, Err(Error::BadPadding), "{b} pad {p} pos {pos} ^{delta}");
                }
            }
        }
    }
}

macro_rules! rustcrypto {
    ($key:expr, $t:ident, $body:expr) => {
        match $key.len() {
            16 => {
                type $t = aes::Aes128;
                $body
            }
            24 => {
                type $t = aes::Aes192;
                $body
            }
            _ => {
                type $t = aes::Aes256;
                $body
            }
        }
    };
}

fn rc_cbc(key: &[u8], iv: &[u8; 16], data: &[u8], enc: bool) -> Vec<u8> {
    rustcrypto!(
        key,
        A,
        if enc {
            cbc::Encryptor::<A>::new_from_slices(key, iv)
                .unwrap()
                .encrypt_padded_vec::<NoPadding>(data)
        } else {
            cbc::Decryptor::<A>::new_from_slices(key, iv)
                .unwrap()
                .decrypt_padded_vec::<NoPadding>(data)
                .unwrap()
        }
    )
}

#[cfg(feature = "alloc")]
fn rc_cbc_pkcs7(key: &[u8], iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
    rustcrypto!(
        key,
        A,
        cbc::Encryptor::<A>::new_from_slices(key, iv)
            .unwrap()
            .encrypt_padded_vec::<Pkcs7>(data)
    )
}

fn rc_cts(key: &[u8], iv: &[u8; 16], data: &[u8], enc: bool) -> Vec<u8> {
    use cts::{Decrypt, Encrypt};
    let mut x = data.to_vec();
    rustcrypto!(
        key,
        A,
        if enc {
            cts::CbcCs3::<A>::new_from_slices(key, iv)
                .unwrap()
                .encrypt(&mut x)
                .unwrap()
        } else {
            cts::CbcCs3::<A>::new_from_slices(key, iv)
                .unwrap()
                .decrypt(&mut x)
                .unwrap()
        }
    );
    x
}

/// Cut points (sorted, multiples of 16) from random fractions.
fn cuts(len_blocks: usize, fr: &[u16]) -> Vec<usize> {
    let mut c: Vec<usize> = fr
        .iter()
        .map(|&f| 16 * (len_blocks * usize::from(f) / 65536))
        .collect();
    c.sort_unstable();
    c
}

/// `buf` through one call of `f` (encrypt or decrypt, chaining the IV from `iv`) per piece
/// between the `cut` points; returns the IV after the last.
fn chained(
    iv: [u8; 16],
    buf: &mut [u8],
    cut: &[usize],
    f: impl Fn(&mut [u8; 16], &mut [u8]),
) -> [u8; 16] {
    let (mut v, mut start) = (iv, 0);
    for c in cut.iter().copied().chain(std::iter::once(buf.len())) {
        f(&mut v, &mut buf[start..c]);
        start = c;
    }
    v
}

/// Every block count from 0 to 40 on every backend, each key size, against RustCrypto:
/// the short decryption entries (fewer than 8 registers of blocks: 8 on AES-NI, 16 on
/// VAES-AVX2) and the looping ones on both sides of each hand-over.
#[test]
fn every_block_count_on_every_backend() {
    let iv = [0x3cu8; 16];
    for key_len in [16usize, 24, 32] {
        let key: Vec<u8> = (0..key_len as u8)
            .map(|i| i.wrapping_mul(13) ^ 0x99)
            .collect();
        for n in 0..=40usize {
            let pt = pattern_blocks(n, n as u8);
            let ct = rc_cbc(&key, &iv, &pt, true);
            for b in Cbc::available_backends() {
                let cbc = Cbc::with_backend(&key, b).unwrap();
                let mut x = pt.clone();
                cbc.encrypt(&mut iv.clone(), &mut x).unwrap();
                assert_eq!(x, ct, "{b} encrypt, {n} blocks, {key_len}-byte key");
                let mut v = iv;
                cbc.decrypt(&mut v, &mut x).unwrap();
                assert_eq!(x, pt, "{b} decrypt, {n} blocks, {key_len}-byte key");
                let want_iv = if n == 0 {
                    iv
                } else {
                    iv16(&ct[ct.len() - 16..])
                };
                assert_eq!(v, want_iv, "{b} chaining value after decrypting {n} blocks");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cbc_matches_references_and_chains_across_calls(
        (key, iv, pt) in cbc_case(),
        fr in prop::collection::vec(any::<u16>(), 0..5),
    ) {
        let nblocks = pt.len() / 16;
        let want = rc_cbc(&key, &iv, &pt, true);
        prop_assert_eq!(&rc_cbc(&key, &iv, &want, false), &pt);
        let want_iv = if nblocks == 0 { iv } else { iv16(&want[want.len() - 16..]) };
        let cut = cuts(nblocks, &fr);
        for b in Cbc::available_backends() {
            let cbc = Cbc::with_backend(&key, b).unwrap();
            // One call, then successive calls at random cuts: the chain continues.
            for cut in [&[][..], &cut[..]] {
                let mut x = pt.clone();
                let v = chained(iv, &mut x, cut, |v, part| cbc.encrypt(v, part).unwrap());
                prop_assert_eq!(&x, &want, "{} encrypt, cut at {:?}", b, cut);
                prop_assert_eq!(v, want_iv);
                let v = chained(iv, &mut x, cut, |v, part| cbc.decrypt(v, part).unwrap());
                prop_assert_eq!(&x, &pt, "{} decrypt, cut at {:?}", b, cut);
                prop_assert_eq!(v, want_iv);
            }
        }
    }

    #[test]
    fn cts_matches_rustcrypto_cs3(
        key in aes_key(),
        iv in prop::array::uniform16(any::<u8>()),
        len in prop_oneof![16usize..=80, 16usize..=4200],
        seed in any::<u8>(),
    ) {
        let pt: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(7) ^ seed).collect();
        // Exactly one block is plain CBC (RFC 3962); RustCrypto `cts` 0.7 encrypts that
        // block twice instead, so it is the reference only from 17 bytes on.
        let want = if len == 16 {
            rc_cbc(&key, &iv, &pt, true)
        } else {
            rc_cts(&key, &iv, &pt, true)
        };
        prop_assert_eq!(&rc_cts(&key, &iv, &rc_cts(&key, &iv, &pt, true), false), &pt);
        for b in Cbc::available_backends() {
            let cbc = Cbc::with_backend(&key, b).unwrap();
            let mut x = pt.clone();
            cbc.encrypt_cts(&iv, &mut x).unwrap();
            prop_assert_eq!(&x, &want, "{} len {}", b, len);
            cbc.decrypt_cts(&iv, &mut x).unwrap();
            prop_assert_eq!(&x, &pt, "{} len {}", b, len);
        }
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn padding_round_trips(
        key in aes_key(),
        iv in prop::array::uniform16(any::<u8>()),
        msg in prop::collection::vec(any::<u8>(), 0..=300),
    ) {
        let want = rc_cbc_pkcs7(&key, &iv, &msg);
        for b in Cbc::available_backends() {
            let cbc = Cbc::with_backend(&key, b).unwrap();
            let ct = cbc.encrypt_padded(&iv, &msg);
            prop_assert_eq!(&ct, &want, "{}", b);
            prop_assert_eq!(cbc.decrypt_padded(&iv, &ct), Ok(msg.clone()), "{}", b);
        }
    }

    #[test]
    fn encrypt_many_equals_single_calls(
        key in aes_key(),
        streams in prop::collection::vec(
            (prop::array::uniform16(any::<u8>()), prop_oneof![0usize..=6, 0usize..=70], any::<u8>()),
            1..=20,
        ),
    ) {
        let ivs0: Vec<[u8; 16]> = streams.iter().map(|s| s.0).collect();
        let pts: Vec<Vec<u8>> = streams
            .iter()
            .map(|&(_, n, seed)| (0..16 * n).map(|i| (i as u8) ^ seed).collect())
            .collect();
        let portable = Cbc::with_backend(&key, Backend::Portable).unwrap();
        let mut want = pts.clone();
        let mut want_ivs = ivs0.clone();
        for (v, x) in want_ivs.iter_mut().zip(want.iter_mut()) {
            portable.encrypt(v, x).unwrap();
        }
        for (i, w) in want.iter().enumerate() {
            prop_assert_eq!(w, &rc_cbc(&key, &ivs0[i], &pts[i], true));
        }
        for b in Cbc::available_backends() {
            let cbc = Cbc::with_backend(&key, b).unwrap();
            let mut got = pts.clone();
            let mut ivs = ivs0.clone();
            let mut bufs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
            cbc.encrypt_many(&mut ivs, &mut bufs).unwrap();
            prop_assert_eq!(&got, &want, "{} n={}", b, streams.len());
            prop_assert_eq!(&ivs, &want_ivs, "{}", b);
        }
    }
}

/// More streams than any backend has lanes (and than the refill window), with
/// lengths from 0 to 20 blocks.
#[test]
fn encrypt_many_with_many_streams() {
    let key = [0x77u8; 16];
    let n = 150;
    let ivs0: Vec<[u8; 16]> = (0..n).map(|i| [i as u8; 16]).collect();
    let pts: Vec<Vec<u8>> = (0..n)
        .map(|i| vec![(i * 3) as u8; 16 * ((i * 7) % 21)])
        .collect();
    let mut want = pts.clone();
    let mut want_ivs = ivs0.clone();
    for (i, (v, x)) in want_ivs.iter_mut().zip(want.iter_mut()).enumerate() {
        *x = rc_cbc(&key, &ivs0[i], x, true);
        if !x.is_empty() {
            *v = iv16(&x[x.len() - 16..]);
        }
    }
    for b in backends::<Cbc>() {
        let cbc = Cbc::with_backend(&key, b).unwrap();
        let mut got = pts.clone();
        let mut ivs = ivs0.clone();
        let mut bufs: Vec<&mut [u8]> = got.iter_mut().map(|v| v.as_mut_slice()).collect();
        cbc.encrypt_many(&mut ivs, &mut bufs).unwrap();
        assert_eq!(got, want, "{b}");
        assert_eq!(ivs, want_ivs, "{b}");
    }
}
