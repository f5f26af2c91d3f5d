//! SHA-1 with collision detection on every backend that has it: NIST SHAVS and random
//! messages against plain SHA-1, the published attacks (SHAttered, SHA-mbles) detected with
//! the reference's digests, the reduced-round collision not flagged, and the attacks'
//! neighbours (every bit flipped, prefixes, truncations) and random messages against the
//! authors' algorithm (the `sha1collisiondetection` crate) as a differential oracle.
#![cfg(feature = "sha1")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(Sha1Dc);

use hex_literal::hex;
use simdcrypt::sha1::{Collision, sha1dc_many_with, sha1dc_with};
use simdcrypt::{Backend, Error, Sha1Dc, sha1, sha1dc, sha1dc_many};
use simdcrypt_testkit::sha1dc::{Verdict, reference};
use simdcrypt_testkit::{Rng, records, vector_path};

fn file(name: &str) -> Vec<u8> {
    let p = vector_path(&format!("sha1dc/{name}"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn verdict(r: Result<[u8; 20], Collision>) -> Verdict {
    r.map_err(|c| (c.digest(), c.safe_digest()))
}

/// The result on backend `b`, one-shot and in pieces of `piece` bytes (the two must agree).
fn ours(b: Backend, data: &[u8], piece: usize) -> Verdict {
    let one = verdict(sha1dc_with(b, data).unwrap());
    let mut h = Sha1Dc::with_backend(b).unwrap();
    assert_eq!(h.backend(), b);
    for c in data.chunks(piece.max(1)) {
        h.update(c);
    }
    assert_eq!(verdict(h.finalize()), one, "{b}: pieces of {piece}");
    one
}

#[test]
fn backends_and_errors() {
    assert_unavailable_or_foreign_backend_errors::<Sha1Dc>(|b| {
        Sha1Dc::with_backend(b).map(|h| h.backend())
    });
    assert_eq!(Sha1Dc::available_backends().last(), Some(Backend::Portable));
    let e = Sha1Dc::with_backend(Backend::AesNi).unwrap_err();
    assert_eq!(
        e.to_string(),
        "backend aesni does not implement SHA-1 with collision detection"
    );
}

#[test]
fn nist_vectors_are_plain_sha1() {
    let bs = backends::<Sha1Dc>();
    let mut n = 0;
    for f in ["SHA1ShortMsg", "SHA1LongMsg"] {
        for r in records(&format!("nist-cavp/sha1/{f}.rsp")) {
            let bits: usize = r.get("Len").parse().unwrap();
            let mut msg = r.hex("Msg");
            msg.truncate(bits / 8);
            let md: [u8; 20] = r.hex("MD").try_into().unwrap();
            for &b in &bs {
                assert_eq!(ours(b, &msg, 7), Ok(md), "{b} {f} Len={bits}");
            }
            assert_eq!(sha1dc(&msg), Ok(md));
            n += 1;
        }
    }
    assert!(n >= 129, "only {n} vectors");
}

#[test]
fn random_messages_are_plain_sha1_and_the_references() {
    let bs = backends::<Sha1Dc>();
    let mut rng = Rng(0x05a1_d00c);
    for i in 0..600 {
        let len = match i % 3 {
            0 => (rng.next() % 200) as usize,
            1 => (rng.next() % 2000) as usize,
            _ => 64 * (rng.next() % 40) as usize,
        };
        let msg = rng.bytes(len);
        let piece = 1 + (rng.next() % 150) as usize;
        let want = reference(&msg);
        assert_eq!(want, Ok(sha1(&msg)), "random data is no attack");
        for &b in &bs {
            assert_eq!(ours(b, &msg, piece), want, "{b} len {len} pieces {piece}");
        }
    }
}

/// The published attacks, with the digests of the authors' `sha1dcsum` (safe-hash mode)
/// and of plain SHA-1; the reduced-round collision is not flagged in the default mode.
#[test]
fn published_attacks_are_detected() {
    let cases: [(&str, Verdict); 5] = [
        (
            "shattered-1-first320.bin",
            Err((
                hex!("f92d74e3874587aaf443d1db961d4e26dde13e9c"),
                hex!("7117b3cb9225aaf0d8ef1a40e493957b0bf8693d"),
            )),
        ),
        (
            "shattered-2-first320.bin",
            Err((
                hex!("f92d74e3874587aaf443d1db961d4e26dde13e9c"),
                hex!("29f38ae9fd98e2931120fa0bf213e024250d3f6a"),
            )),
        ),
        (
            "sha-mbles-1.bin",
            Err((
                hex!("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0"),
                hex!("4f3d9be4a472c4dae83c6314aa6c36a064c1fd14"),
            )),
        ),
        (
            "sha-mbles-2.bin",
            Err((
                hex!("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0"),
                hex!("9ed5d77a4f48be1dbf3e9e15650733eb850897f2"),
            )),
        ),
        (
            "sha1_reducedsha_coll.bin",
            Ok(hex!("a56374e1cf4c3746499bc7c0acb39498ad2ee185")),
        ),
    ];
    let bs = backends::<Sha1Dc>();
    for (name, want) in cases {
        let data = file(name);
        assert_eq!(reference(&data), want, "the reference on {name}");
        for &b in &bs {
            for piece in [1, 63, 64, 65, 320, 1000] {
                assert_eq!(ours(b, &data, piece), want, "{b} {name}");
            }
        }
        assert_eq!(verdict(sha1dc(&data)), want, "{name}");
        if let Err((plain, _)) = want {
            assert_eq!(
                plain,
                sha1(&data),
                "{name}: Collision::digest is plain SHA-1"
            );
        }
    }
    let c = sha1dc(&file("shattered-1-first320.bin")).unwrap_err();
    assert_eq!(
        c.to_string(),
        "SHA-1 collision attack detected (disturbance vector II(52,0), SHA-1 \
         f92d74e3874587aaf443d1db961d4e26dde13e9c)"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(c);
    assert!(boxed.to_string().contains("II(52,0)"));
}

/// Every bit of the attack blocks flipped (the whole of SHA-mbles, whose chosen prefix
/// sets the chaining value its blocks need), each file under prefixes of 0 to 130 bytes
/// (aligned and not) and every truncation: the reference's verdict and digests.
#[test]
fn attack_neighbours_match_the_reference() {
    let bs = backends::<Sha1Dc>();
    let mut flagged = 0;
    let mut total = 0;
    let mut check = |data: &[u8], what: &dyn Fn() -> String| {
        let want = reference(data);
        for &b in &bs {
            assert_eq!(ours(b, data, 64), want, "{b} {}", what());
        }
        flagged += usize::from(want.is_err());
        total += 1;
    };
    for (name, attack) in [
        ("shattered-1-first320.bin", 192..320),
        ("shattered-2-first320.bin", 192..320),
        ("sha-mbles-1.bin", 0..640),
        ("sha-mbles-2.bin", 0..640),
        ("sha1_reducedsha_coll.bin", 0..128),
    ] {
        let data = file(name);
        for i in attack.clone() {
            for bit in 0..8 {
                let mut d = data.clone();
                d[i] ^= 1 << bit;
                check(&d, &|| format!("{name} byte {i} bit {bit} flipped"));
            }
        }
        for p in 0..=130 {
            let mut d = vec![0x20u8; p];
            d.extend_from_slice(&data);
            check(&d, &|| format!("{name} after {p} bytes"));
        }
        for n in 0..=data.len() {
            check(&data[..n], &|| format!("{name} cut to {n} bytes"));
        }
    }
    // The recompression test holds on the exact attack block from its exact chaining
    // value alone: a flipped bit, a prefix (aligned or not) or a cut before the end of the
    // colliding block leaves no attack, and the reference flags only the four attack
    // files as they are (seen once unprefixed, once cut to their whole length).
    assert_eq!((flagged, total), (8, 16_020));
}

/// Random whole blocks, and the SHAttered blocks followed by random ones.
#[test]
fn random_blocks_and_embedded_attacks_match_the_reference() {
    let bs = backends::<Sha1Dc>();
    let mut rng = Rng(2017);
    let shattered = file("shattered-1-first320.bin");
    for i in 0..300 {
        // Up to 8 blocks, or (every fifth message) up to 300: runs longer than the 64
        // blocks the SIMD backends filter ahead, with flagged blocks among them.
        let most = if i % 5 == 4 { 300 } else { 8 };
        let blocks = 1 + (rng.next() % most) as usize;
        let mut msg = rng.bytes(64 * blocks);
        if i % 3 == 0 {
            // The attack's 320 bytes at a block boundary, then more data.
            msg.splice(0..0, shattered.iter().copied());
        }
        let want = reference(&msg);
        assert_eq!(want.is_err(), i % 3 == 0, "message {i}");
        for &b in &bs {
            assert_eq!(ours(b, &msg, 1 + i), want, "{b} message {i}");
        }
    }
}

/// `sha1dc_many` (and its hook on every backend) against the reference, message by
/// message: on the lanes a flagged message that ends in them (equal lengths, all eight
/// finishing together) and one that ends as a straggler on one stream (the longest),
/// attacks in several lanes at once, and random counts and lengths.
#[test]
fn many_messages_against_the_reference() {
    let attacks = [
        file("shattered-1-first320.bin"),
        file("shattered-2-first320.bin"),
        file("sha-mbles-1.bin"),
        file("sha-mbles-2.bin"),
    ];
    let mut rng = Rng(4303);
    // (An attack's blocks collide from the chaining value its prefix leaves: first.)
    let with_attack = |rng: &mut Rng, len: usize, which: usize| {
        let mut m = attacks[which % attacks.len()].clone();
        m.extend(rng.bytes(len));
        m
    };
    let mut sets: Vec<Vec<Vec<u8>>> = Vec::new();
    // Sixteen of 2000 bytes, attacks in lanes 3 and 4 of the first eight and in the last.
    sets.push(
        (0..16)
            .map(|i| match i {
                3 | 4 | 15 => with_attack(&mut rng, 2000 - attacks[i % 4].len(), i),
                _ => rng.bytes(2000),
            })
            .collect(),
    );
    // Eight short ones and a long attack that the lanes leave to one stream.
    let mut set: Vec<Vec<u8>> = (0..8).map(|_| rng.bytes(100)).collect();
    set.push(with_attack(&mut rng, 5000, 1));
    sets.push(set);
    for round in 0..30 {
        let count = 1 + rng.next() as usize % 40;
        sets.push(
            (0..count)
                .map(|i| {
                    let len = rng.next() as usize % if round % 3 == 0 { 12_288 } else { 1500 };
                    if rng.next().is_multiple_of(5) {
                        with_attack(&mut rng, len, i)
                    } else {
                        rng.bytes(len)
                    }
                })
                .collect(),
        );
    }
    let bs = backends::<Sha1Dc>();
    let mut flagged = 0;
    for (n, set) in sets.iter().enumerate() {
        let msgs: Vec<&[u8]> = set.iter().map(Vec::as_slice).collect();
        let want: Vec<Verdict> = msgs.iter().map(|m| reference(m)).collect();
        flagged += want.iter().filter(|v| v.is_err()).count();
        let mut out = vec![Ok([0u8; 20]); msgs.len()];
        sha1dc_many(&msgs, &mut out).unwrap();
        let got: Vec<Verdict> = out.iter().map(|&r| verdict(r)).collect();
        assert_eq!(got, want, "set {n}: sha1dc_many");
        for &b in &bs {
            out.fill(Ok([0u8; 20]));
            sha1dc_many_with(b, &msgs, &mut out).unwrap();
            let got: Vec<Verdict> = out.iter().map(|&r| verdict(r)).collect();
            assert_eq!(got, want, "set {n}: sha1dc_many_with({b})");
        }
    }
    assert!(flagged >= 40, "only {flagged} flagged messages");
}

#[test]
fn many_messages() {
    let sh = file("shattered-2-first320.bin");
    let long = vec![7u8; 5000];
    let msgs: [&[u8]; 4] = [b"", &sh, b"abc", &long];
    let mut out = [Ok([0u8; 20]); 4];
    sha1dc_many(&msgs, &mut out).unwrap();
    for (m, o) in msgs.iter().zip(&out) {
        assert_eq!(*o, sha1dc(m));
    }
    assert!(out[1].is_err() && out[0].is_ok());
    let mut short = [Ok([9u8; 20]); 3];
    assert_eq!(
        sha1dc_many(&msgs, &mut short),
        Err(Error::LengthMismatch {
            what: "inputs and out counts",
            left: 4,
            right: 3
        })
    );
    assert_eq!(short, [Ok([9u8; 20]); 3], "out untouched");
    assert_eq!(
        sha1dc_many(&msgs, &mut short).unwrap_err().to_string(),
        "inputs and out counts differ: 4 and 3"
    );
}
