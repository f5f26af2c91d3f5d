//! SHA-1 and HMAC-SHA1 on every available backend: NIST SHAVS (short, long, Monte), RFC
//! 2202, the length counter past 2^32 and 2^61 bytes, and property tests against the
//! portable backend, RustCrypto `sha1`/`hmac` and OpenSSL.
#![cfg(feature = "sha1")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(Sha1);

use ::sha1::Digest;
use hmac::{KeyInit, Mac};
use proptest::prelude::*;
use simdcrypt::sha1::{compress_with, digest_with, hmac_with, sha1_many_backend, sha1_many_with};
use simdcrypt::{Backend, Error, HmacSha1, HmacSha1Key, Sha1, hmac_sha1, sha1, sha1_many};
use simdcrypt_testkit::strategies::{hmac_key, message};
use simdcrypt_testkit::{hex, records};

const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

fn hash_with(b: Backend, data: &[u8]) -> [u8; 20] {
    let mut h = Sha1::with_backend(b).unwrap();
    assert_eq!(h.backend(), b);
    h.update(data);
    h.finalize()
}

fn rustcrypto(data: &[u8]) -> [u8; 20] {
    ::sha1::Sha1::digest(data).into()
}

fn rustcrypto_hmac(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut m = <hmac::Hmac<::sha1::Sha1> as KeyInit>::new_from_slice(key).unwrap();
    m.update(data);
    m.finalize().into_bytes().into()
}

/// The message of a SHAVS record (`Len` in bits; `Len = 0` has `Msg = 00`).
fn shavs_msg(r: &simdcrypt_testkit::Record) -> Vec<u8> {
    let bits: usize = r.get("Len").parse().unwrap();
    assert_eq!(bits % 8, 0, "byte-oriented vectors only");
    let mut m = r.hex("Msg");
    m.truncate(bits / 8);
    assert_eq!(m.len(), bits / 8);
    m
}

#[test]
fn nist_short_and_long_messages() {
    let mut n = 0;
    for file in ["SHA1ShortMsg", "SHA1LongMsg"] {
        let recs = records(&format!("nist-cavp/sha1/{file}.rsp"));
        assert!(recs.len() >= 64, "{file}: only {} records", recs.len());
        for b in backends::<Sha1>() {
            for r in &recs {
                let msg = shavs_msg(r);
                let md: [u8; 20] = r.hex("MD").try_into().unwrap();
                assert_eq!(hash_with(b, &msg), md, "{b} {file} Len={}", r.get("Len"));
                // Byte by byte for the short ones, in 7-byte pieces for all.
                let mut h = Sha1::with_backend(b).unwrap();
                for c in msg.chunks(7) {
                    h.update(c);
                }
                assert_eq!(h.finalize(), md, "{b} {file} Len={} chunked", r.get("Len"));
                n += 1;
            }
        }
    }
    assert!(
        n >= 100 * backends::<Sha1>().len(),
        "only {n} vectors checked"
    );
}

#[test]
fn nist_monte_carlo() {
    let recs = records("nist-cavp/sha1/SHA1Monte.rsp");
    let seed_rec = recs.iter().find(|r| r.fields.contains_key("Seed")).unwrap();
    let checkpoints: Vec<[u8; 20]> = recs
        .iter()
        .filter(|r| r.fields.contains_key("COUNT"))
        .map(|r| r.hex("MD").try_into().unwrap())
        .collect();
    assert_eq!(checkpoints.len(), 100);
    for b in backends::<Sha1>() {
        let mut seed: [u8; 20] = seed_rec.hex("Seed").try_into().unwrap();
        for (j, want) in checkpoints.iter().enumerate() {
            let mut md = [seed; 3];
            for _ in 3..1003 {
                let mut h = Sha1::with_backend(b).unwrap();
                h.update(&md[0]);
                h.update(&md[1]);
                h.update(&md[2]);
                md = [md[1], md[2], h.finalize()];
            }
            assert_eq!(md[2], *want, "{b} COUNT = {j}");
            seed = md[2];
        }
    }
}

#[test]
fn rfc2202_hmac() {
    let recs = records("rfc2202/rfc-2202-sha1.txt");
    assert_eq!(recs.len(), 7);
    for b in backends::<Sha1>() {
        for r in &recs {
            let key = r.hex("Key");
            let msg = r.hex("Msg");
            let md: [u8; 20] = r.hex("MD").try_into().unwrap();
            let mut mac = HmacSha1::with_backend(&key, b).unwrap();
            assert_eq!(mac.backend(), b);
            mac.update(&msg);
            assert_eq!(mac.clone().finalize(), md, "{b} key {}", key.len());
            mac.clone().verify(&md).unwrap();
            mac.verify_truncated(&md[..12], 12).unwrap();
            // The same through a key set up once.
            let k = HmacSha1Key::with_backend(&key, b).unwrap();
            assert_eq!(k.backend(), b);
            assert_eq!(k.mac(&msg), md, "{b} keyed once, key {}", key.len());
            k.verify(&msg, &md).unwrap();
            k.verify_truncated(&msg, &md[..10], 10).unwrap();
            let mut m = k.start();
            m.update(&msg);
            assert_eq!(m.finalize(), md, "{b} start()");
            // And one-shot, the key set up in the call.
            assert_eq!(
                hmac_with(b, &key, &msg),
                Ok(md),
                "{b} one-shot, key {}",
                key.len()
            );
        }
    }
    // The automatic backend too.
    let mut mac = HmacSha1::new(b"Jefe");
    mac.update(b"what do ya want for nothing?");
    assert_eq!(
        mac.finalize(),
        hex("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")[..]
    );
}

#[test]
fn known_answers_and_api() {
    assert_eq!(
        sha1(b"abc")[..],
        hex("a9993e364706816aba3e25717850c26c9cd0d89d")[..]
    );
    assert_eq!(
        sha1(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")[..],
        hex("84983e441c3bd26ebaae4aa1f95129e5e54670f1")[..]
    );
    let mut h = Sha1::new();
    h.update(b"garbage");
    h.reset();
    h.update(b"abc");
    assert_eq!(h.finalize(), sha1(b"abc"));
    assert_eq!(Sha1::default().finalize(), sha1(b""));
    assert_eq!(
        Sha1::with_backend(Backend::AesNi).unwrap_err(),
        Error::BackendNotForAlgorithm {
            backend: Backend::AesNi,
            algorithm: "SHA-1"
        }
    );
    assert!(HmacSha1::with_backend(b"k", Backend::VaesAvx512).is_err());
    assert_unavailable_or_foreign_backend_errors::<Sha1>(|b| {
        Sha1::with_backend(b).map(|x| x.backend())
    });
    // The automatic choice is the best available one (unless SIMDCRYPT_BACKEND caps it).
    if std::env::var_os("SIMDCRYPT_BACKEND").is_none() {
        assert_eq!(
            Some(Sha1::new().backend()),
            Sha1::available_backends().next()
        );
    }
}

#[test]
fn million_a() {
    let data = vec![b'a'; 1_000_000];
    for b in backends::<Sha1>() {
        assert_eq!(
            hash_with(b, &data)[..],
            hex("34aa973cd4c4daa4f61eeb2bdbad27316534016f")[..],
            "{b}"
        );
    }
}

#[test]
fn hmac_verify_rules() {
    let key = [0x0bu8; 20];
    let tag = hex("b617318655057264e28bc0b6fb378c8ef146be00");
    let mac = || {
        let mut m = HmacSha1::new(&key);
        m.update(b"Hi There");
        m
    };
    // `verify` takes the full 20 bytes only: a received tag passed straight through
    // cannot shorten the check.
    mac().verify(&tag).unwrap();
    let mut long = tag.clone();
    long.push(0);
    for len in [0, 1, 9, 10, 12, 19, 21] {
        assert_eq!(
            mac().verify(&long[..len]),
            Err(Error::InvalidTagLength { len, expected: 20 })
        );
    }
    // `verify_truncated`: every stated length 10 to 20 accepts the right tag and refuses a
    // wrong one.
    for len in 10..=20 {
        mac().verify_truncated(&tag[..len], len).unwrap();
        let mut bad = tag[..len].to_vec();
        for i in [0, len / 2, len - 1] {
            bad[i] ^= 0x01;
            assert_eq!(
                mac().verify_truncated(&bad, len),
                Err(Error::TagMismatch),
                "len {len} byte {i}"
            );
            bad[i] ^= 0x01;
        }
    }
    // Stated lengths outside 10 to 20, whatever the tag.
    for tag_len in [0, 9, 21, 100] {
        assert_eq!(
            mac().verify_truncated(&long[..tag_len.min(21)], tag_len),
            Err(Error::InvalidTruncatedTagLength { tag_len })
        );
    }
    // A tag whose length is not the one stated.
    for (len, expected) in [(10, 12), (12, 10), (20, 12), (19, 20)] {
        assert_eq!(
            mac().verify_truncated(&tag[..len], expected),
            Err(Error::InvalidTagLength { len, expected })
        );
    }
    // The same rules through a key set up once.
    let k = HmacSha1Key::new(&key);
    k.verify(b"Hi There", &tag).unwrap();
    assert_eq!(
        k.verify(b"Hi There", &tag[..19]),
        Err(Error::InvalidTagLength {
            len: 19,
            expected: 20
        })
    );
    for len in [10, 12, 20] {
        k.verify_truncated(b"Hi There", &tag[..len], len).unwrap();
        assert_eq!(
            k.verify_truncated(b"Hi there", &tag[..len], len),
            Err(Error::TagMismatch)
        );
    }
    for tag_len in [9, 21] {
        assert_eq!(
            k.verify_truncated(b"Hi There", &long[..tag_len], tag_len),
            Err(Error::InvalidTruncatedTagLength { tag_len })
        );
    }
    assert_eq!(
        k.verify_truncated(b"Hi There", &tag[..12], 10),
        Err(Error::InvalidTagLength {
            len: 12,
            expected: 10
        })
    );
    // A tag for other data fails.
    let mut other = HmacSha1::new(&key);
    other.update(b"Hi there");
    assert_eq!(other.verify(&tag), Err(Error::TagMismatch));
    // reset starts a new message under the same key.
    let mut m = mac();
    m.update(b"more");
    m.reset();
    m.update(b"Hi There");
    assert_eq!(m.finalize()[..], tag[..]);
}

#[test]
fn debug_prints_no_key() {
    let key = *b"SECRETKEYSECRETKEY";
    let mut m = HmacSha1::new(&key);
    m.update(b"x");
    let s = format!("{m:?}");
    assert!(s.starts_with("HmacSha1"), "{s}");
    assert!(!s.contains("SECRET") && !s.contains("5345"), "{s}");
    let s = format!("{:?}", Sha1::new());
    assert!(s.starts_with("Sha1"), "{s}");
}

/// The final padding block built by hand: `tail || 0x80 || 0.. || bits` (one block only).
fn hand_padded(tail: &[u8], bits: u64) -> [u8; 64] {
    assert!(tail.len() < 56);
    let mut b = [0u8; 64];
    b[..tail.len()].copy_from_slice(tail);
    b[tail.len()] = 0x80;
    b[56..].copy_from_slice(&bits.to_be_bytes());
    b
}

#[test]
fn length_counter_past_2_32_and_2_61_bytes() {
    let state = [1, 2, 3, 4, 5];
    let data: Vec<u8> = (0..100u8).collect();
    let expect_digest = |s: [u32; 5]| -> [u8; 20] {
        let mut o = [0u8; 20];
        for (i, w) in s.iter().enumerate() {
            o[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
        o
    };
    // (bytes hashed before, expected bit count after 100 more bytes)
    let cases: [(u64, u64); 6] = [
        ((1 << 32) - 40, ((1u64 << 32) + 60) * 8),
        ((1 << 32) + 64, ((1u64 << 32) + 164) * 8),
        // 2^61 bytes = 2^64 bits: the bit count wraps.
        ((1 << 61) - 40, 60 * 8),
        ((1 << 61) + 64, 164 * 8),
        ((1 << 61) - 3, 97 * 8),
        (u64::MAX - 30, 69u64.wrapping_mul(8)),
    ];
    for b in backends::<Sha1>() {
        for (before, bits) in cases {
            let mut h = Sha1::with_state(b, state, before).unwrap();
            h.update(&data[..37]);
            h.update(&data[37..]);
            let got = h.finalize();
            // By hand: one whole block from the data, then 36 bytes and the padding.
            let mut s = state;
            let block: [u8; 64] = data[..64].try_into().unwrap();
            compress_with(Backend::Portable, &mut s, &[block]).unwrap();
            let mut s2 = s;
            compress_with(Backend::Portable, &mut s, &[hand_padded(&data[64..], bits)]).unwrap();
            assert_eq!(got, expect_digest(s), "{b} before {before}");
            // The same through RustCrypto's compression function.
            let mut blocks = vec![block, hand_padded(&data[64..], bits)];
            let mut rc = state;
            ::sha1::block_api::compress(&mut rc, &blocks);
            assert_eq!(got, expect_digest(rc), "{b} before {before} (RustCrypto)");
            // And the padding block on the backend itself.
            blocks.remove(0);
            compress_with(b, &mut s2, &blocks).unwrap();
            assert_eq!(got, expect_digest(s2), "{b} before {before} (own compress)");
        }
    }
}

#[test]
fn sha1_many_rejects_mismatched_lengths() {
    let inputs: [&[u8]; 2] = [b"a", b"b"];
    let mut out = [[7u8; 20]; 3];
    assert_eq!(
        sha1_many(&inputs, &mut out),
        Err(Error::LengthMismatch {
            what: "inputs and out counts",
            left: 2,
            right: 3
        })
    );
    assert_eq!(out, [[7u8; 20]; 3], "output untouched");
    for b in backends::<Sha1>() {
        assert!(sha1_many_with(b, &inputs, &mut out[..1]).is_err());
        assert_eq!(out, [[7u8; 20]; 3], "output untouched");
    }
    sha1_many(&[], &mut []).unwrap();
}

#[test]
fn sha1_many_lane_edges() {
    // Every tail length around the 55/56/64-byte padding edges, in unequal lanes.
    let data: Vec<u8> = (0..3000u32).map(|i| (i * 7 + 3) as u8).collect();
    let lens: Vec<usize> = (0..130).chain([191, 192, 193, 1000, 2999]).collect();
    let inputs: Vec<&[u8]> = lens.iter().map(|&l| &data[..l]).collect();
    let want: Vec<[u8; 20]> = inputs.iter().map(|m| rustcrypto(m)).collect();
    for b in backends::<Sha1>() {
        let mut out = vec![[0u8; 20]; inputs.len()];
        sha1_many_with(b, &inputs, &mut out).unwrap();
        assert_eq!(out, want, "{b}");
        // Reversed, so long and short messages meet in other lanes.
        let rev: Vec<&[u8]> = inputs.iter().rev().copied().collect();
        sha1_many_with(b, &rev, &mut out).unwrap();
        let want_rev: Vec<[u8; 20]> = want.iter().rev().copied().collect();
        assert_eq!(out, want_rev, "{b} reversed");
    }
}

/// splitmix64, for deterministic message lengths.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every message count 0..=40 (the AVX-512 backend switches from eight to sixteen lanes at
/// nine, and back to eight once at most eight are left), with random lengths 0..=5000, all
/// lengths equal, and one long message among many short ones, on every backend.
#[test]
fn sha1_many_every_count_and_length_mix() {
    let data: Vec<u8> = (0..40_000u32).map(|i| (i * 29 + i / 251) as u8).collect();
    let mut seed = 0x5a1_u64;
    let bs = backends::<Sha1>();
    for count in 0..=40usize {
        let random: Vec<usize> = (0..count)
            .map(|_| (splitmix(&mut seed) % 5001) as usize)
            .collect();
        let equal_len = [0, 55, 64, 4096][count % 4];
        let equal = vec![equal_len; count];
        let long_first: Vec<usize> = (0..count)
            .map(|i| if i == 0 { 40_000 } else { i * 3 })
            .collect();
        let long_last: Vec<usize> = (0..count)
            .map(|i| if i + 1 == count { 39_999 } else { 100 + i })
            .collect();
        for (pattern, lens) in [
            ("random", random),
            ("equal", equal),
            ("long first", long_first),
            ("long last", long_last),
        ] {
            let inputs: Vec<&[u8]> = lens
                .iter()
                .enumerate()
                .map(|(i, &l)| &data[(i * 17) % (40_001 - l)..][..l])
                .collect();
            let want: Vec<[u8; 20]> = inputs.iter().map(|m| rustcrypto(m)).collect();
            let mut out = vec![[0u8; 20]; count];
            sha1_many(&inputs, &mut out).unwrap();
            assert_eq!(out, want, "auto, {count} messages, {pattern}");
            for &b in &bs {
                let mut out = vec![[0u8; 20]; count];
                sha1_many_with(b, &inputs, &mut out).unwrap();
                assert_eq!(out, want, "{b}, {count} messages, {pattern}");
            }
        }
    }
}

#[test]
fn sha1_many_backend_choice() {
    let avx512 = Sha1::available_backends().any(|b| b == Backend::Avx512);
    assert_eq!(avx512, Backend::Avx512.is_available());
    if std::env::var_os("SIMDCRYPT_BACKEND").is_none() {
        // Sixteen (or eight) AVX-512 lanes first wherever the CPU has them, else AVX2.
        let want = if avx512 {
            Backend::Avx512
        } else if Backend::Avx2.is_available() {
            Backend::Avx2
        } else {
            sha1_many_backend()
        };
        assert_eq!(sha1_many_backend(), want);
    }
    let inputs: [&[u8]; 1] = [b"abc"];
    let mut out = [[0u8; 20]];
    let r = sha1_many_with(Backend::Avx512, &inputs, &mut out);
    if avx512 {
        r.unwrap();
        assert_eq!(out[0], sha1(b"abc"));
    } else {
        assert_eq!(r, Err(Error::BackendUnavailable(Backend::Avx512)));
        assert_eq!(out, [[0u8; 20]], "output untouched");
    }
}

fn split_points(len: usize, cuts: &[usize]) -> Vec<usize> {
    let mut p: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    p.push(0);
    p.push(len);
    p.sort_unstable();
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn compress_matches_rustcrypto(
        state in any::<[u32; 5]>(),
        data in proptest::collection::vec(any::<u8>(), 0..64 * 9),
    ) {
        let (blocks, _) = data.as_chunks::<64>();
        let mut want = state;
        ::sha1::block_api::compress(&mut want, blocks);
        for b in backends::<Sha1>() {
            let mut s = state;
            compress_with(b, &mut s, blocks).unwrap();
            prop_assert_eq!(s, want, "{}", b);
        }
    }

    #[test]
    fn chunked_updates_match_oracles(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
    ) {
        let want = rustcrypto(&data);
        prop_assert_eq!(hash_with(Backend::Portable, &data), want);
        prop_assert_eq!(sha1(&data), want);
        let points = split_points(data.len(), &cuts);
        for b in backends::<Sha1>() {
            let mut h = Sha1::with_backend(b).unwrap();
            for w in points.windows(2) {
                h.update(&data[w[0]..w[1]]);
            }
            prop_assert_eq!(h.finalize(), want, "{}", b);
        }
    }

    #[test]
    fn hmac_matches_oracles(
        key in hmac_key(),
        data in message(),
        cuts in proptest::collection::vec(any::<usize>(), 0..5),
    ) {
        let want = rustcrypto_hmac(&key, &data);
        let points = split_points(data.len(), &cuts);
        for b in backends::<Sha1>() {
            let mut m = HmacSha1::with_backend(&key, b).unwrap();
            for w in points.windows(2) {
                m.update(&data[w[0]..w[1]]);
            }
            prop_assert_eq!(m.clone().finalize(), want, "{}", b);
            prop_assert_eq!(m.clone().verify(&want), Ok(()));
            prop_assert_eq!(m.clone().verify_truncated(&want[..12], 12), Ok(()));
            let mut bad = want;
            bad[key.len() % 20] ^= 0x80;
            prop_assert_eq!(m.clone().verify(&bad), Err(Error::TagMismatch));
            prop_assert_eq!(m.clone().verify(&want[..12]), Err(Error::InvalidTagLength { len: 12, expected: 20 }));
            prop_assert_eq!(m.verify_truncated(&want[..9], 9), Err(Error::InvalidTruncatedTagLength { tag_len: 9 }));
        }
        let mut m = HmacSha1::new(&key);
        m.update(&data);
        prop_assert_eq!(m.finalize(), want);
        prop_assert_eq!(hmac_sha1(&key, &data), want);
        for b in backends::<Sha1>() {
            prop_assert_eq!(hmac_with(b, &key, &data), Ok(want), "{} one-shot", b);
        }
        // A key set up once: the one-shot `mac`, `verify`, and `start` then `update`, on
        // every backend, for several messages under the same key.
        for b in backends::<Sha1>() {
            let k = HmacSha1Key::with_backend(&key, b).unwrap();
            prop_assert_eq!(k.mac(&data), want, "{}", b);
            let half = &data[..data.len() / 2];
            prop_assert_eq!(k.mac(half), rustcrypto_hmac(&key, half), "{} second message", b);
            prop_assert_eq!(k.verify(&data, &want), Ok(()));
            prop_assert_eq!(k.verify_truncated(&data, &want[..12], 12), Ok(()));
            let mut bad = want;
            bad[key.len() % 20] ^= 0x80;
            prop_assert_eq!(k.verify(&data, &bad), Err(Error::TagMismatch));
            prop_assert_eq!(k.verify(&data, &want[..12]), Err(Error::InvalidTagLength { len: 12, expected: 20 }));
            prop_assert_eq!(k.verify(&data, &[0; 21]), Err(Error::InvalidTagLength { len: 21, expected: 20 }));
            prop_assert_eq!(k.verify_truncated(&data, &want[..9], 9), Err(Error::InvalidTruncatedTagLength { tag_len: 9 }));
            let mut m = k.start();
            for w in points.windows(2) {
                m.update(&data[w[0]..w[1]]);
            }
            prop_assert_eq!(m.finalize(), want, "{} start()", b);
        }
        prop_assert_eq!(HmacSha1Key::new(&key).mac(&data), want);
    }
}

/// HMAC of messages long enough that `sha-ni-asm` hands its whole blocks to the assembly
/// (16 blocks and more) before the fused inner-and-outer tail in registers: lengths
/// around 1 KiB and its padding edges, on every backend, one-shot and incremental.
#[test]
fn hmac_long_messages() {
    let data: Vec<u8> = (0..2200u32).map(|i| (i * 13 + 5) as u8).collect();
    let key = [0x4bu8; 33];
    for b in backends::<Sha1>() {
        let k = HmacSha1Key::with_backend(&key, b).unwrap();
        for len in (1015..=1100).chain([1151, 1152, 1153, 2047, 2048, 2049, 2200]) {
            let msg = &data[..len];
            let want = rustcrypto_hmac(&key, msg);
            assert_eq!(k.mac(msg), want, "{b} len {len}");
            let mut m = k.start();
            m.update(&msg[..len / 3]);
            m.update(&msg[len / 3..]);
            assert_eq!(m.finalize(), want, "{b} incremental len {len}");
            assert_eq!(hmac_with(b, &key, msg), Ok(want), "{b} one-shot len {len}");
        }
    }
}

/// The one-shot `sha1` (whole blocks straight from the input, then the padded tail) at
/// every length across the one- and two-padding-block edges and several whole blocks; on
/// every backend the same through `update` + `finalize` (a message ending on a block
/// boundary keeps its last block for the padding call; SHA-NI builds the padded tail in
/// registers from 16-byte pieces, a partial piece by a shifted load of the message's last
/// 16 bytes or, under 16 bytes, piece by piece), and HMAC on a set-up key, whose inner
/// and outer hashes follow a 64-byte key block.
#[test]
fn one_shot_every_length() {
    let data: Vec<u8> = (0..700u32).map(|i| (i * 7 + 3) as u8).collect();
    let key = b"a key of some bytes";
    let keys: Vec<(Backend, HmacSha1Key)> = backends::<Sha1>()
        .into_iter()
        .map(|b| (b, HmacSha1Key::with_backend(key, b).unwrap()))
        .collect();
    for len in 0..=data.len() {
        let msg = &data[..len];
        let want = rustcrypto(msg);
        assert_eq!(sha1(msg), want, "len {len}");
        let want_mac = rustcrypto_hmac(key, msg);
        for (b, k) in &keys {
            assert_eq!(hash_with(*b, msg), want, "{b} len {len}");
            assert_eq!(digest_with(*b, msg), Ok(want), "{b} one-shot len {len}");
            assert_eq!(k.mac(msg), want_mac, "{b} HMAC len {len}");
            assert_eq!(
                hmac_with(*b, key, msg),
                Ok(want_mac),
                "{b} one-shot HMAC len {len}"
            );
        }
        assert_eq!(hmac_sha1(key, msg), want_mac, "one-shot HMAC len {len}");
    }
    // Messages that end at every offset of a buffer: the shifted load of the last 16
    // bytes reads only inside the slice (see also tests/guard_pages.rs).
    for start in 0..80 {
        for len in [1, 15, 16, 17, 55, 56, 63, 64, 65] {
            if start + len <= data.len() {
                let msg = &data[start..start + len];
                for (b, _) in &keys {
                    assert_eq!(hash_with(*b, msg), rustcrypto(msg), "{b} {start}+{len}");
                    assert_eq!(
                        digest_with(*b, msg),
                        Ok(rustcrypto(msg)),
                        "{b} {start}+{len}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn sha1_many_matches_one_at_a_time(
        lens in proptest::collection::vec(0usize..=5000, 0..=40),
        seed in any::<u8>(),
    ) {
        let data: Vec<u8> = (0..5000u32).map(|i| seed.wrapping_add((i * 31 / 7) as u8)).collect();
        let inputs: Vec<&[u8]> = lens
            .iter()
            .enumerate()
            .map(|(i, &l)| &data[(i * 13) % 7..][..l.min(5000 - (i * 13) % 7)])
            .collect();
        let want: Vec<[u8; 20]> = inputs.iter().map(|m| sha1(m)).collect();
        let mut out = vec![[0u8; 20]; inputs.len()];
        sha1_many(&inputs, &mut out).unwrap();
        prop_assert_eq!(&out, &want);
        for b in backends::<Sha1>() {
            let mut out = vec![[0u8; 20]; inputs.len()];
            sha1_many_with(b, &inputs, &mut out).unwrap();
            prop_assert_eq!(&out, &want, "{}", b);
        }
    }
}

#[test]
fn compress_with_rejects_other_backends() {
    let mut s = IV;
    assert!(compress_with(Backend::AesNi, &mut s, &[[0; 64]]).is_err());
    assert_eq!(s, IV, "state untouched");
    assert!(matches!(
        hmac_with(Backend::AesNi, b"key", b"msg"),
        Err(Error::BackendNotForAlgorithm { .. })
    ));
}
