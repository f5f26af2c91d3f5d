//! Every public keyed call, and SHA-1 with collision detection (whose kernels are the
//! deepest unkeyed ones), on every backend this CPU runs, completes on a small thread
//! stack: 32 KiB where the crate is optimised (opt-level 1, 2, 3, `s`, `z`), 128 KiB where
//! it is not (opt-level 0, a plain `cargo build`). A call whose frames or stack wipe
//! went deeper would overflow the stack, and the process would abort.
//!
//! The calls run on such a thread and on a thread with the default stack, and must give
//! the same bytes. CI runs this in the test profile (opt-level 3), in a debug build
//! (`cargo test --profile dev`) and at the other levels (`.ci/wipe-depths check`). Each
//! algorithm's calls run where the build has it.

use simdcrypt::Aes;
#[cfg(feature = "cbc")]
use simdcrypt::Cbc;
#[cfg(all(feature = "cbc", feature = "sha1", feature = "alloc"))]
use simdcrypt::CbcHmacSha1;
#[cfg(all(feature = "cbc", feature = "sha1", feature = "alloc"))]
use simdcrypt::krb5::{Aes128CtsHmacSha196, Aes256CtsHmacSha196};
#[cfg(feature = "sha1")]
use simdcrypt::{HmacSha1, HmacSha1Key, Sha1};
#[cfg(feature = "xts")]
use simdcrypt::{Xts, xts::Tweaks};
use simdcrypt_testkit::bytes;

/// The stack this build's calls must fit in, in bytes (`simdcrypt_opt_level` is set by the
/// package's build script, for its tests as for the library).
const STACK: usize = if cfg!(simdcrypt_opt_level = "0") {
    128 * 1024
} else {
    32 * 1024
};

/// Runs `f` on a thread with `stack` bytes of stack (`None`: the default) and returns
/// what it returned.
fn on_stack<T: Send + 'static>(stack: Option<usize>, f: fn() -> T) -> T {
    let mut b = std::thread::Builder::new();
    if let Some(s) = stack {
        b = b.stack_size(s);
    }
    b.spawn(f).unwrap().join().unwrap()
}

/// Runs `f` on a small stack and on a default one, and checks they agree.
fn fits(what: &str, f: fn() -> Vec<Vec<u8>>) {
    let small = on_stack(Some(STACK), f);
    let big = on_stack(None, f);
    assert!(
        !big.is_empty() && big.iter().all(|o| !o.is_empty()),
        "{what}: no output"
    );
    assert_eq!(
        small, big,
        "{what}: the calls on a {STACK}-byte stack gave other bytes"
    );
}

/// The outputs that `calls(keyed, out)` pushes to `out` for each backend `b` of `backends`
/// and each key `bytes(seed, len)` of the lengths `key_lens`, `keyed` made by
/// `make(key, b)`.
fn each_keyed<T>(
    backends: impl Iterator<Item = simdcrypt::Backend>,
    key_lens: &[usize],
    seed: u64,
    make: impl Fn(&[u8], simdcrypt::Backend) -> Result<T, simdcrypt::Error>,
    mut calls: impl FnMut(T, &mut Vec<Vec<u8>>),
) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for b in backends {
        for &len in key_lens {
            calls(make(&bytes(seed, len), b).unwrap(), &mut out);
        }
    }
    out
}

#[test]
fn aes_calls_fit() {
    fits("Aes", || {
        let backends = Aes::available_backends();
        each_keyed(backends, &[16, 24, 32], 1, Aes::with_backend, |aes, out| {
            let mut blocks: Vec<[u8; 16]> = (0..67).map(|i| [i as u8; 16]).collect();
            aes.encrypt_blocks(&mut blocks);
            aes.decrypt_blocks(&mut blocks[..20]);
            aes.encrypt_block(&mut blocks[0]);
            aes.decrypt_block(&mut blocks[1]);
            out.push(blocks.concat());
        })
    })
}

#[cfg(feature = "xts")]
#[test]
fn xts_calls_fit() {
    fits("Xts", || {
        let backends = Xts::available_backends();
        each_keyed(backends, &[32, 64], 2, Xts::with_backend, |xts, out| {
            let mut buf = bytes(3, 8 * 512 + 100);
            xts.encrypt_sector(&mut buf[..100], 1).unwrap();
            xts.decrypt_sector(&mut buf[..4096 + 5], 2).unwrap();
            xts.encrypt_with_tweak(&mut buf[..37], &[9; 16]).unwrap();
            xts.decrypt_with_tweak(&mut buf[..16], &[9; 16]).unwrap();
            xts.encrypt_sectors(&mut buf[..8 * 512], 512, 3).unwrap();
            xts.decrypt_sectors(&mut buf[..4 * 80], 80, 4).unwrap();
            let src = buf.clone();
            xts.encrypt_sector_to(&src[..600], &mut buf[..600], 5)
                .unwrap();
            xts.decrypt_sectors_to(&src[..1024], &mut buf[..1024], 256, 6)
                .unwrap();
            let t = Tweaks::plain64(7).step(8);
            xts.encrypt_sectors_with(&mut buf[..4096], 1024, t).unwrap();
            xts.decrypt_sectors_with_to(&src[..2048], &mut buf[..2048], 512, t)
                .unwrap();
            xts.encrypt_area(&mut buf, 512, t).unwrap();
            xts.decrypt_area(&mut buf[..1000], 512, t).unwrap();
            out.push(buf);
        })
    })
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_calls_fit() {
    fits("Cbc", || {
        let backends = Cbc::available_backends();
        each_keyed(backends, &[16, 24, 32], 4, Cbc::with_backend, |cbc, out| {
            let mut buf = bytes(5, 1024 + 9);
            let mut iv = [1u8; 16];
            cbc.encrypt(&mut iv, &mut buf[..1024]).unwrap();
            cbc.decrypt(&mut iv, &mut buf[..320]).unwrap();
            cbc.decrypt(&mut iv, &mut buf[..48]).unwrap();
            cbc.encrypt_cts(&[2; 16], &mut buf[..37]).unwrap();
            cbc.decrypt_cts(&[2; 16], &mut buf[..1033]).unwrap();
            #[cfg(feature = "alloc")]
            {
                let padded = cbc.encrypt_padded(&[3; 16], &buf[..100]);
                let back = cbc.decrypt_padded(&[3; 16], &padded).unwrap();
                assert_eq!(back, buf[..100]);
                out.push(padded);
            }
            let mut streams: Vec<Vec<u8>> = (0..20)
                .map(|i| bytes(i, 16 * (1 + i as usize % 5)))
                .collect();
            let mut refs: Vec<&mut [u8]> = streams.iter_mut().map(|s| &mut s[..]).collect();
            let mut ivs = [[3u8; 16]; 20];
            cbc.encrypt_many(&mut ivs, &mut refs).unwrap();
            out.push(buf);
            out.push(streams.concat());
        })
    })
}

#[cfg(feature = "sha1")]
#[test]
fn sha1_and_hmac_calls_fit() {
    fits("SHA-1 and HMAC-SHA1", || {
        let mut out = Vec::new();
        let msg = bytes(6, 5000);
        for b in Sha1::available_backends() {
            let mut h = Sha1::with_backend(b).unwrap();
            h.update(&msg[..3]);
            h.update(&msg);
            out.push(h.finalize().to_vec());
            out.push(
                simdcrypt::sha1::digest_with(b, &msg[..1000])
                    .unwrap()
                    .to_vec(),
            );
            for key_len in [20, 64, 100] {
                let key = bytes(7, key_len);
                let mut m = HmacSha1::with_backend(&key, b).unwrap();
                m.update(&msg[..77]);
                m.update(&msg);
                let tag = m.finalize();
                let k = HmacSha1Key::with_backend(&key, b).unwrap();
                k.verify(&[&msg[..77], &msg[..]].concat(), &tag).unwrap();
                let mut s = k.start();
                s.update(&msg[..64]);
                s.verify(&k.mac(&msg[..64])).unwrap();
                out.push(tag.to_vec());
                out.push(k.mac(&msg[..20]).to_vec());
                out.push(
                    simdcrypt::sha1::hmac_with(b, &key, &msg[..300])
                        .unwrap()
                        .to_vec(),
                );
            }
        }
        let inputs: Vec<&[u8]> = (0..9).map(|i| &msg[..100 * i + 3]).collect();
        let mut digests = [[0u8; 20]; 9];
        simdcrypt::sha1_many(&inputs, &mut digests).unwrap();
        out.push(digests.concat());
        out.push(simdcrypt::sha1(&msg).to_vec());
        out.push(simdcrypt::hmac_sha1(b"key", &msg).to_vec());
        out
    })
}

/// SHA-1 with collision detection, on every backend: an attack (its flagged block's
/// recompression tests and safe-hash recompressions) and random data, one-shot, streamed
/// and in lanes.
#[cfg(feature = "sha1")]
#[test]
fn sha1dc_calls_fit() {
    fits("SHA-1 with collision detection", || {
        let attack = std::fs::read(simdcrypt_testkit::vector_path(
            "sha1dc/shattered-1-first320.bin",
        ))
        .unwrap();
        let msg = bytes(8, 5000);
        let verdict = |r: Result<[u8; 20], simdcrypt::sha1::Collision>| match r {
            Ok(d) => [&[0u8][..], &d].concat(),
            Err(c) => [&[1u8][..], &c.digest(), &c.safe_digest()].concat(),
        };
        let mut out = Vec::new();
        for b in simdcrypt::Sha1Dc::available_backends() {
            for data in [&attack[..], &msg[..], &msg[..900]] {
                out.push(verdict(simdcrypt::sha1::sha1dc_with(b, data).unwrap()));
                let mut h = simdcrypt::Sha1Dc::with_backend(b).unwrap();
                h.update(&data[..3]);
                h.update(&data[3..]);
                out.push(verdict(h.finalize()));
            }
            let inputs: Vec<&[u8]> = (0..9)
                .map(|i| {
                    if i % 3 == 0 {
                        &attack[..]
                    } else {
                        &msg[..100 * i + 3]
                    }
                })
                .collect();
            let mut r = [Ok([0; 20]); 9];
            simdcrypt::sha1::sha1dc_many_with(b, &inputs, &mut r).unwrap();
            out.extend(r.into_iter().map(verdict));
        }
        assert_eq!(out[0][0], 1, "the attack is flagged");
        out
    })
}

#[cfg(all(feature = "cbc", feature = "sha1", feature = "alloc"))]
#[test]
fn cbc_hmac_and_krb5_calls_fit() {
    fits("CBC-HMAC-SHA1 and krb5", || {
        let backends = CbcHmacSha1::available_backends();
        let make = |key: &[u8], b| CbcHmacSha1::with_backend(key, &bytes(9, 20), b);
        let mut out = each_keyed(backends, &[16, 24, 32], 8, make, |c, out| {
            let mut buf = bytes(10, 1504);
            let tag = c.seal(&[4; 16], &mut buf[..1024]).unwrap();
            let mut opened = buf.clone();
            c.open(&[4; 16], &mut opened[..1024], &tag).unwrap();
            let tag2 = c.seal_cts(&[5; 16], &mut buf[..200]).unwrap();
            c.open_cts(&[5; 16], &mut buf[..200], &tag2).unwrap();
            out.push(buf);
            out.push(tag.to_vec());
        });
        let k128 = Aes128CtsHmacSha196::new(&bytes(11, 16)).unwrap();
        let k256 = Aes256CtsHmacSha196::new(&bytes(12, 32)).unwrap();
        let msg = bytes(13, 1400);
        for b in CbcHmacSha1::available_backends() {
            let u = k128.usage_keys_with_backend(24, b).unwrap();
            let ct = u.encrypt(&[0x42; 16], &msg);
            assert_eq!(u.decrypt(&ct).unwrap(), msg);
            out.push(ct);
            let u = k256.usage_keys_with_backend(25, b).unwrap();
            let ct = u.encrypt(&[0x43; 16], &msg[..33]);
            assert_eq!(u.decrypt(&ct).unwrap(), msg[..33]);
            out.push(ct);
            out.push(u.checksum(&msg).to_vec());
        }
        out.push(k256.encrypt(3, &[1; 16], b"NFS WRITE"));
        out.push(k128.checksum(4, b"krb-priv").to_vec());
        let s2k =
            Aes256CtsHmacSha196::string_to_key(b"password", b"ATHENA.MIT.EDUraeburn", 2).unwrap();
        out.push(s2k.key_bytes().to_vec());
        out
    })
}

/// The RustCrypto trait routes: CTR and CBC over `simdcrypt::Aes128`/`Aes256` (the `cipher`
/// traits), and `Hmac<simdcrypt::Sha1>` (the `digest` traits).
#[cfg(all(feature = "cipher", feature = "digest"))]
#[test]
fn trait_routes_fit() {
    use cbc::cipher::{BlockModeEncrypt, StreamCipher};
    use cipher::InnerIvInit;
    use hmac::{KeyInit, Mac};
    fits("cipher and digest traits", || {
        let mut out = Vec::new();
        for b in Aes::available_backends() {
            let c = simdcrypt::Aes128::with_backend(&[7u8; 16].into(), b).unwrap();
            let core = ctr::CtrCore::<simdcrypt::Aes128, ctr::flavors::Ctr128BE>::inner_iv_init(
                c,
                &[1u8; 16].into(),
            );
            let mut buf = bytes(14, 1000);
            ctr::Ctr128BE::from_core(core).apply_keystream(&mut buf);
            out.push(buf);
            let c = simdcrypt::Aes256::with_backend(&[8u8; 32].into(), b).unwrap();
            let ct = cbc::Encryptor::<simdcrypt::Aes256>::inner_iv_init(c, &[2u8; 16].into())
                .encrypt_padded_vec::<cipher::block_padding::Pkcs7>(&bytes(15, 300));
            out.push(ct);
        }
        let mut m = <hmac::Hmac<Sha1> as KeyInit>::new_from_slice(&bytes(16, 20)).unwrap();
        Mac::update(&mut m, &bytes(17, 2000));
        out.push(m.finalize().into_bytes().to_vec());
        let mut key = [0u8; 20];
        pbkdf2::pbkdf2_hmac::<Sha1>(b"password", b"salt", 50, &mut key);
        out.push(key.to_vec());
        out
    })
}
