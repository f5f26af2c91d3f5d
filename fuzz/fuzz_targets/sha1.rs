//! SHA-1 and HMAC-SHA1: the chosen backend against the portable one and RustCrypto
//! `sha1`/`hmac`, with data split into random `update` chunks; `sha1_many` over several
//! messages; HMAC with random key lengths and truncated-tag `verify`, chunked updates and
//! `reset`; the `digest` trait impls (`Digest`, `hmac::Hmac<simdcrypt::Sha1>`).
#![no_main]

use hmac::{KeyInit, Mac};
use libfuzzer_sys::fuzz_target;
use sha1::Digest;
use simdcrypt::{Backend, Error, HmacSha1, Sha1};
use simdcrypt_fuzz::sha1::Input;

/// `data` cut at the `splits` (each a length, capped at what is left) then the rest: one
/// `update` per piece.
fn chunked(data: &[u8], splits: &[u16], mut update: impl FnMut(&[u8])) {
    let mut rest = data;
    for s in splits {
        let n = usize::from(*s).min(rest.len());
        update(&rest[..n]);
        rest = &rest[n..];
    }
    update(rest);
}

fuzz_target!(|inp: Input| {
    let backends: Vec<Backend> = Sha1::available_backends().collect();
    let b = backends[usize::from(inp.backend) % backends.len()];

    // Chunked updates equal one RustCrypto digest.
    let mut h = Sha1::with_backend(b).unwrap();
    chunked(&inp.data, &inp.splits, |c| h.update(c));
    let want: [u8; 20] = sha1::Sha1::digest(&inp.data).into();
    assert_eq!(h.finalize(), want, "{b}");

    // Many messages at once equal one digest each.
    let msgs: Vec<&[u8]> = inp.messages.iter().take(20).map(|m| &m[..]).collect();
    let mut out = vec![[0u8; 20]; msgs.len()];
    simdcrypt::sha1::sha1_many_with(b, &msgs, &mut out).unwrap();
    let mut auto = vec![[0u8; 20]; msgs.len()];
    simdcrypt::sha1_many(&msgs, &mut auto).unwrap();
    for (i, m) in msgs.iter().enumerate() {
        let d: [u8; 20] = sha1::Sha1::digest(m).into();
        assert_eq!(out[i], d, "{b} many[{i}] of {}", msgs.len());
        assert_eq!(auto[i], d, "auto many[{i}] of {}", msgs.len());
    }
    // Mismatched counts are refused, `out` untouched.
    if !msgs.is_empty() {
        let mut short = vec![[7u8; 20]; msgs.len() - 1];
        assert!(simdcrypt::sha1_many(&msgs, &mut short).is_err());
        assert!(short.iter().all(|d| *d == [7u8; 20]));
    }

    // HMAC against RustCrypto. `verify` takes all 20 bytes and nothing shorter;
    // `verify_truncated` a prefix of the stated length, 10 to 20; corrupted tags fail.
    let mut m = HmacSha1::with_backend(&inp.key, b).unwrap();
    m.update(&inp.data);
    let mut rc = hmac::Hmac::<sha1::Sha1>::new_from_slice(&inp.key).unwrap();
    rc.update(&inp.data);
    let want: [u8; 20] = rc.finalize().into_bytes().into();
    let n = usize::from(inp.tag_len) % 24;
    let mut tag = want.to_vec();
    tag.resize(n, 0);
    let full = m.clone().verify(&tag);
    if n == 20 {
        full.unwrap();
    } else {
        assert_eq!(
            full,
            Err(Error::InvalidTagLength {
                len: n,
                expected: 20
            }),
            "verify of a {n}-byte prefix"
        );
    }
    let r = m.clone().verify_truncated(&tag, n);
    if (10..=20).contains(&n) {
        r.unwrap();
        let mut bad = want;
        bad[usize::from(inp.flip) % n] ^= 1 << (inp.flip % 8);
        assert_eq!(
            m.clone().verify_truncated(&bad[..n], n),
            Err(Error::TagMismatch),
            "corrupted tag accepted"
        );
        let other = if n == 12 { 20 } else { 12 };
        assert_eq!(
            m.clone().verify_truncated(&tag, other),
            Err(Error::InvalidTagLength {
                len: n,
                expected: other
            }),
            "a {n}-byte tag for tag_len {other}"
        );
    } else {
        assert_eq!(r, Err(Error::InvalidTruncatedTagLength { tag_len: n }));
    }
    assert_eq!(m.clone().finalize(), want, "{b} HMAC");
    let one_shot = simdcrypt::sha1::hmac_with(b, &inp.key, &inp.data);
    assert_eq!(one_shot, Ok(want), "{b} one-shot HMAC");

    // Chunked HMAC updates (the same splits as the hash), then `reset` and the same
    // message again: the same tag each time.
    let mut c = HmacSha1::with_backend(&inp.key, b).unwrap();
    chunked(&inp.data, &inp.splits, |p| c.update(p));
    assert_eq!(c.clone().finalize(), want, "{b} chunked HMAC");
    c.update(&inp.key);
    c.reset();
    chunked(&inp.data, &inp.splits, |p| c.update(p));
    assert_eq!(c.finalize(), want, "{b} HMAC after reset");
    // Resetting a used instance whose tag was already taken from a clone: unchanged key.
    m.reset();
    m.update(&inp.data);
    assert_eq!(m.finalize(), want, "{b} HMAC reset after finalize of a clone");

    // The `digest` traits: `Digest` on the automatic backend, chunked, and
    // `hmac::Hmac<simdcrypt::Sha1>` against RustCrypto's.
    {
        use digest::{Digest as _, FixedOutputReset, Update};
        let mut d = <Sha1 as sha1::Digest>::new();
        chunked(&inp.data, &inp.splits, |p| Update::update(&mut d, p));
        let dig: [u8; 20] = FixedOutputReset::finalize_fixed_reset(&mut d).into();
        let plain: [u8; 20] = sha1::Sha1::digest(&inp.data).into();
        assert_eq!(dig, plain, "digest trait");
        // After the reset it is a fresh hash.
        let empty: [u8; 20] = d.finalize().into();
        assert_eq!(empty, <[u8; 20]>::from(sha1::Sha1::digest(b"")), "digest reset");
        let mut ours = <hmac::Hmac<Sha1> as KeyInit>::new_from_slice(&inp.key).unwrap();
        Mac::update(&mut ours, &inp.data);
        let tag: [u8; 20] = ours.finalize().into_bytes().into();
        assert_eq!(tag, want, "hmac::Hmac<simdcrypt::Sha1>");
    }
});
