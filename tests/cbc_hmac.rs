//! AES-CBC + HMAC-SHA1 in one pass (`CbcHmacSha1`) on every available backend: against the
//! sequential composition of the portable CBC and HMAC-SHA1 (themselves checked against
//! NIST and RFC vectors in tests/cbc.rs and tests/sha1.rs) and RustCrypto `cts` + `hmac`,
//! for every length up to 300 and across the 64-byte group boundaries, every key size;
//! tag truncation, mismatches (the buffer wiped) and rejections (the buffer untouched).
#![cfg(all(feature = "cbc", feature = "sha1"))]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(CbcHmacSha1);

use hmac::{KeyInit, Mac};
use proptest::prelude::*;
use simdcrypt::{Backend, Cbc, CbcHmacSha1, Error, HmacSha1};
use simdcrypt_testkit::cbc::{RFC3962_CTS, RFC3962_KEY};
use simdcrypt_testkit::hex;

fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

/// The sequential reference: portable CBC(-CS3), portable HMAC-SHA1 of the plaintext.
fn reference(
    key: &[u8],
    mac_key: &[u8],
    iv: &[u8; 16],
    msg: &[u8],
    cts: bool,
) -> (Vec<u8>, [u8; 20]) {
    let cbc = Cbc::with_backend(key, Backend::Portable).unwrap();
    let mut ct = msg.to_vec();
    if cts {
        cbc.encrypt_cts(iv, &mut ct).unwrap();
    } else {
        cbc.encrypt(&mut iv.clone(), &mut ct).unwrap();
    }
    let mut mac = HmacSha1::with_backend(mac_key, Backend::Portable).unwrap();
    mac.update(msg);
    (ct, mac.finalize())
}

/// RustCrypto's HMAC-SHA1, an independent oracle for the tag.
fn rustcrypto_hmac(key: &[u8], msg: &[u8]) -> [u8; 20] {
    let mut m = hmac::Hmac::<sha1::Sha1>::new_from_slice(key).unwrap();
    m.update(msg);
    m.finalize().into_bytes().into()
}

/// Lengths: everything to 600, then around the 64-byte group boundaries to 20 groups, and
/// a few large ones (a 1,504-byte packet, 4 KiB plus a block and a partial one, 64 KiB).
fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=600).collect();
    for g in 5..=20 {
        for d in [-33i64, -32, -17, -16, -15, -1, 0, 1, 15, 16, 17, 31, 32, 33] {
            v.push((64 * g as i64 + d) as usize);
        }
    }
    v.extend([1504, 4096, 4096 + 16, 4096 + 17, 16384 + 5, 65536]);
    v
}

/// A flipped tag bit is refused, with the sealed buffer wiped.
fn forged_tag_is_refused(
    open: impl Fn(&mut [u8], &[u8]) -> Result<(), Error>,
    sealed: &[u8],
    tag: [u8; 20],
    what: &str,
) {
    let mut bad = tag;
    bad[sealed.len() % 20] ^= 1 << (sealed.len() % 8);
    let mut forged = sealed.to_vec();
    assert_eq!(
        open(&mut forged, &bad),
        Err(Error::TagMismatch),
        "{what}: forged tag"
    );
    assert!(forged.iter().all(|&x| x == 0), "{what}: wiped");
}

/// Seals `msg` with `c` (`cts`: CBC-CS3, `seal_cts`; else `seal`): the sequential
/// reference's ciphertext and tag (`keys`: the AES and the MAC key). Then a forged tag is
/// refused and the real one opens the buffer back to `msg` (`open_cts`; `open_truncated`
/// with 12 bytes of the tag for whole blocks).
fn seal_and_open(
    c: &CbcHmacSha1,
    (key, mac_key): (&[u8], &[u8]),
    iv: &[u8; 16],
    msg: &[u8],
    cts: bool,
    what: &str,
) {
    type Seal = fn(&CbcHmacSha1, &[u8; 16], &mut [u8]) -> Result<[u8; 20], Error>;
    type Open = fn(&CbcHmacSha1, &[u8; 16], &mut [u8], &[u8]) -> Result<(), Error>;
    let (seal, open, name): (Seal, Open, &str) = if cts {
        (CbcHmacSha1::seal_cts, CbcHmacSha1::open_cts, "_cts")
    } else {
        (CbcHmacSha1::seal, CbcHmacSha1::open, "")
    };
    let (want_ct, want_tag) = reference(key, mac_key, iv, msg, cts);
    let mut buf = msg.to_vec();
    let tag = seal(c, iv, &mut buf).unwrap();
    assert_eq!(buf, want_ct, "seal{name} ct, {what}");
    assert_eq!(tag, want_tag, "seal{name} tag, {what}");
    let what = format!("open{name}, {what}");
    forged_tag_is_refused(|m, t| open(c, iv, m, t), &buf, tag, &what);
    if cts {
        open(c, iv, &mut buf, &tag).unwrap();
    } else {
        c.open_truncated(iv, &mut buf, &tag[..12], 12).unwrap();
    }
    assert_eq!(buf, msg, "{what}");
}

#[test]
fn stitched_equals_sequential_every_length() {
    let backends = backends::<CbcHmacSha1>();
    let mut checked = 0;
    for key_len in [16, 24, 32] {
        let key = data(key_len, 1);
        let mac_key = data(20, 2);
        let iv: [u8; 16] = data(16, 3).try_into().unwrap();
        for &b in &backends {
            let c = CbcHmacSha1::with_backend(&key, &mac_key, b).unwrap();
            assert_eq!(c.backend(), runs_on(b, key_len));
            for len in lengths() {
                let msg = data(len, len as u8);
                let what = format!("{b}, key {key_len}, len {len}");
                if len >= 16 {
                    seal_and_open(&c, (&key, &mac_key), &iv, &msg, true, &what);
                    checked += 1;
                }
                if len.is_multiple_of(16) {
                    seal_and_open(&c, (&key, &mac_key), &iv, &msg, false, &what);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= backends.len() * 3 * 500, "only {checked} cases");
}

#[test]
fn tag_is_rustcrypto_hmac_of_the_plaintext() {
    for b in backends::<CbcHmacSha1>() {
        for mac_key in [&b""[..], b"k", &[0x55; 64], &[0xaa; 80]] {
            let c = CbcHmacSha1::with_backend(&[9u8; 32], mac_key, b).unwrap();
            for len in [16, 17, 63, 64, 65, 127, 128, 129, 1000] {
                let msg = data(len, 7);
                let mut buf = msg.clone();
                let tag = c.seal_cts(&[0u8; 16], &mut buf).unwrap();
                assert_eq!(tag, rustcrypto_hmac(mac_key, &msg), "{b} len {len}");
            }
        }
    }
}

/// RFC 3962 Appendix B (AES-128 "chicken teriyaki", zero IV) through `seal_cts`.
#[test]
fn rfc3962_ciphertext_stealing_vectors() {
    let (key, cases) = (hex(RFC3962_KEY), RFC3962_CTS);
    for b in backends::<CbcHmacSha1>() {
        let c = CbcHmacSha1::with_backend(&key, b"mac", b).unwrap();
        for (pt, ct) in cases {
            let (pt, ct) = (hex(pt), hex(ct));
            let mut buf = pt.clone();
            let tag = c.seal_cts(&[0u8; 16], &mut buf).unwrap();
            assert_eq!(buf, ct, "{b} len {}", pt.len());
            assert_eq!(tag, rustcrypto_hmac(b"mac", &pt));
            c.open_cts(&[0u8; 16], &mut buf, &tag).unwrap();
            assert_eq!(buf, pt);
        }
    }
}

/// An open call: the full-length form (`None`) or the truncated form with `tag_len`.
type Open<'a> = &'a dyn Fn(&mut [u8], &[u8], Option<usize>) -> Result<(), Error>;

/// The tag-length rules of one open form over `sealed` (the sealing of `msg` with `tag`):
/// the full form takes only all 20 bytes; the truncated form takes a correct tag at every
/// stated length 10 to 20 and refuses a wrong one (buffer wiped), refuses a stated length
/// of 9 or 21 and a tag whose length is not the stated one (buffer untouched).
fn check_tag_lengths(what: &str, open: Open, sealed: &[u8], msg: &[u8], tag: &[u8; 20]) {
    let mut buf = sealed.to_vec();
    open(&mut buf, tag, None).unwrap();
    assert_eq!(buf, msg, "{what}: full tag");
    // A received tag passed straight through cannot shorten the check.
    let long = [tag.as_slice(), &[0]].concat();
    for n in [0, 1, 9, 10, 12, 19, 21] {
        let mut buf = sealed.to_vec();
        assert_eq!(
            open(&mut buf, &long[..n], None),
            Err(Error::InvalidTagLength {
                len: n,
                expected: 20
            }),
            "{what}: {n}-byte tag"
        );
        assert_eq!(buf, sealed, "{what}: {n}-byte tag: buffer touched");
    }
    for n in 10..=20 {
        let mut buf = sealed.to_vec();
        open(&mut buf, &tag[..n], Some(n)).unwrap();
        assert_eq!(buf, msg, "{what}: truncated to {n}");
        let mut bad = *tag;
        bad[n - 1] ^= 0x10;
        let mut buf = sealed.to_vec();
        assert_eq!(
            open(&mut buf, &bad[..n], Some(n)),
            Err(Error::TagMismatch),
            "{what}: wrong tag truncated to {n}"
        );
        assert!(buf.iter().all(|&x| x == 0), "{what}: {n}: not wiped");
    }
    for n in [0, 9, 21, 40] {
        let mut buf = sealed.to_vec();
        assert_eq!(
            open(&mut buf, &long[..n.min(21)], Some(n)),
            Err(Error::InvalidTruncatedTagLength { tag_len: n }),
            "{what}: tag_len {n}"
        );
        assert_eq!(buf, sealed, "{what}: tag_len {n}: buffer touched");
    }
    for (n, tag_len) in [(10, 12), (12, 10), (20, 12), (19, 20), (11, 10)] {
        let mut buf = sealed.to_vec();
        assert_eq!(
            open(&mut buf, &tag[..n], Some(tag_len)),
            Err(Error::InvalidTagLength {
                len: n,
                expected: tag_len
            }),
            "{what}: {n}-byte tag for tag_len {tag_len}"
        );
        assert_eq!(buf, sealed);
    }
}

#[test]
fn truncated_tags_and_mismatches() {
    for b in backends::<CbcHmacSha1>() {
        let c = CbcHmacSha1::with_backend(&[3u8; 16], b"key", b).unwrap();
        for len in [16, 17, 64, 100, 300] {
            let msg = data(len, 9);
            let mut sealed = msg.clone();
            let tag = c.seal_cts(&[2u8; 16], &mut sealed).unwrap();
            let open_cts = |buf: &mut [u8], t: &[u8], n: Option<usize>| match n {
                None => c.open_cts(&[2u8; 16], buf, t),
                Some(n) => c.open_cts_truncated(&[2u8; 16], buf, t, n),
            };
            check_tag_lengths(
                &format!("{b} open_cts, len {len}"),
                &open_cts,
                &sealed,
                &msg,
                &tag,
            );
            if len.is_multiple_of(16) {
                let mut whole = msg.clone();
                let tag = c.seal(&[2u8; 16], &mut whole).unwrap();
                let open = |buf: &mut [u8], t: &[u8], n: Option<usize>| match n {
                    None => c.open(&[2u8; 16], buf, t),
                    Some(n) => c.open_truncated(&[2u8; 16], buf, t, n),
                };
                check_tag_lengths(&format!("{b} open, len {len}"), &open, &whole, &msg, &tag);
            }
            // A flipped bit in any tag byte, any ciphertext byte, or the IV: mismatch, wiped.
            for i in 0..20 {
                let mut bad = tag;
                bad[i] ^= 1 << (i % 8);
                let mut buf = sealed.clone();
                assert_eq!(
                    c.open_cts(&[2u8; 16], &mut buf, &bad),
                    Err(Error::TagMismatch)
                );
                assert!(buf.iter().all(|&x| x == 0), "{b} len {len}: not wiped");
            }
            for i in (0..len).step_by(7) {
                let mut buf = sealed.clone();
                buf[i] ^= 0x80;
                assert_eq!(
                    c.open_cts_truncated(&[2u8; 16], &mut buf, &tag[..12], 12),
                    Err(Error::TagMismatch)
                );
                assert!(
                    buf.iter().all(|&x| x == 0),
                    "{b} len {len} byte {i}: not wiped"
                );
            }
            let mut buf = sealed.clone();
            assert_eq!(
                c.open_cts(&[3u8; 16], &mut buf, &tag),
                Err(Error::TagMismatch)
            );
            assert!(buf.iter().all(|&x| x == 0));
        }
        // Short buffers and partial blocks: rejected before anything is written.
        let mut short = [7u8; 15];
        assert_eq!(
            c.seal_cts(&[0u8; 16], &mut short),
            Err(Error::DataTooShort { len: 15, min: 16 })
        );
        assert_eq!(
            c.open_cts_truncated(&[0u8; 16], &mut short, &[0u8; 12], 12),
            Err(Error::DataTooShort { len: 15, min: 16 })
        );
        assert_eq!(short, [7u8; 15]);
        let mut odd = [7u8; 33];
        assert_eq!(
            c.seal(&[0u8; 16], &mut odd),
            Err(Error::NotBlockMultiple { len: 33 })
        );
        assert_eq!(
            c.open(&[0u8; 16], &mut odd, &[0u8; 20]),
            Err(Error::NotBlockMultiple { len: 33 })
        );
        assert_eq!(odd, [7u8; 33]);
        // The empty message: the HMAC of nothing.
        let mut empty = [0u8; 0];
        assert_eq!(
            c.seal(&[0u8; 16], &mut empty).unwrap(),
            rustcrypto_hmac(b"key", b"")
        );
    }
}

/// The backend a key of `key_len` bytes keyed on `b` runs on: `b`, except AES-192 on the
/// x86-64 stitch, which has no 12-round copy and runs its AES-NI CBC and SHA-NI one after
/// the other (the `aesni` row's kernels).
fn runs_on(b: Backend, key_len: usize) -> Backend {
    if b == Backend::AesNiShaNi && key_len == 24 {
        Backend::AesNi
    } else {
        b
    }
}

/// `backend()` names what runs, for each key size: the stitch for the keys it has a copy
/// for, the CBC backend for the others (with the same output as that backend keyed alone).
#[test]
fn backend_reports_what_runs() {
    for key_len in [16, 24, 32] {
        let key = data(key_len, 4);
        for b in backends::<CbcHmacSha1>() {
            let c = CbcHmacSha1::with_backend(&key, b"mac", b).unwrap();
            assert_eq!(c.backend(), runs_on(b, key_len), "{b}, key {key_len}");
            let same = CbcHmacSha1::with_backend(&key, b"mac", c.backend()).unwrap();
            assert_eq!(same.backend(), c.backend(), "{b}, key {key_len}");
            let (mut x, mut y) = (data(200, 5), data(200, 5));
            let iv = [6u8; 16];
            assert_eq!(
                c.seal_cts(&iv, &mut x).unwrap(),
                same.seal_cts(&iv, &mut y).unwrap()
            );
            assert_eq!(x, y, "{b}, key {key_len}");
        }
        if Backend::AesNiShaNi.is_available() {
            let c = CbcHmacSha1::with_backend(&key, b"mac", Backend::AesNiShaNi).unwrap();
            let want = if key_len == 24 {
                Backend::AesNi
            } else {
                Backend::AesNiShaNi
            };
            assert_eq!(c.backend(), want, "key {key_len}");
        }
        if Backend::Armv8AesSha1.is_available() {
            let c = CbcHmacSha1::with_backend(&key, b"mac", Backend::Armv8AesSha1).unwrap();
            assert_eq!(c.backend(), Backend::Armv8AesSha1, "key {key_len}");
        }
    }
}

#[test]
fn backend_selection() {
    let all: Vec<Backend> = CbcHmacSha1::available_backends().collect();
    assert!(all.contains(&CbcHmacSha1::new(&[0u8; 16], b"k").unwrap().backend()));
    assert_eq!(
        CbcHmacSha1::with_backend(&[0u8; 16], b"k", Backend::VaesAvx512).unwrap_err(),
        Error::BackendNotForAlgorithm {
            backend: Backend::VaesAvx512,
            algorithm: "CBC-HMAC-SHA1"
        }
    );
    assert_unavailable_or_foreign_backend_errors::<CbcHmacSha1>(|b| {
        CbcHmacSha1::with_backend(&[0u8; 16], b"k", b).map(|x| x.backend())
    });
    if !Backend::AesNiShaNi.is_available() {
        assert_eq!(
            CbcHmacSha1::with_backend(&[0u8; 16], b"k", Backend::AesNiShaNi).unwrap_err(),
            Error::BackendUnavailable(Backend::AesNiShaNi)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random keys, IVs and messages: every backend agrees with the portable one.
    #[test]
    fn backends_agree(
        key in prop::sample::select(vec![16usize, 24, 32]).prop_flat_map(|n| prop::collection::vec(any::<u8>(), n)),
        mac_key in prop::collection::vec(any::<u8>(), 0..100),
        iv in any::<[u8; 16]>(),
        msg in prop::collection::vec(any::<u8>(), 16..1200),
    ) {
        let p = CbcHmacSha1::with_backend(&key, &mac_key, Backend::Portable).unwrap();
        let mut want = msg.clone();
        let want_tag = p.seal_cts(&iv, &mut want).unwrap();
        prop_assert_eq!(want_tag, rustcrypto_hmac(&mac_key, &msg));
        for b in CbcHmacSha1::available_backends() {
            let c = CbcHmacSha1::with_backend(&key, &mac_key, b).unwrap();
            let mut buf = msg.clone();
            prop_assert_eq!(c.seal_cts(&iv, &mut buf).unwrap(), want_tag);
            prop_assert_eq!(&buf, &want);
            c.open_cts(&iv, &mut buf, &want_tag).unwrap();
            prop_assert_eq!(&buf, &msg);
        }
    }
}
