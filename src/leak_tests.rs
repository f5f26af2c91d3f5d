//! No key material is left on the stack when a call returns.
//!
//! Each check runs on a thread of its own (a fully mapped stack), and:
//! 1. zeroes the `DEPTH` bytes below the current frame (`scrub`),
//! 2. makes the call (through a function that is never inlined, so its frames lie in
//!    that region),
//! 3. reads the region again (`scan`) and looks for every known key-derived 16-byte
//!    block: AES round keys (encryption and decryption), encrypted XTS tweaks, the HMAC
//!    blocks `K0 ^ ipad` and `K0 ^ opad` (as bytes and as the big-endian words a SHA-1
//!    schedule holds), and `K0`.
//!
//! Reading the stack below the current frame is outside what the Rust abstract machine
//! defines (the bytes belong to no live allocation); it is done with volatile reads of
//! plain integers on a mapped thread stack, in tests only, to see what a memory
//! disclosure would see. The scan can only miss leftovers (in the few bytes its own frame
//! covers); it cannot report a block that is not there, since the patterns are
//! pseudo-random 16-byte values.

use std::vec::Vec;

use crate::aes::KeySchedule;
use crate::{Aes, Backend, Cbc, HmacSha1, Sha1, Xts};

/// How deep below the caller's frame the scrub and the scan reach.
const DEPTH: usize = 48 * 1024;

/// The address of a local in a frame of its own: a little above where a sibling call's
/// frames start.
#[inline(never)]
fn frame_address() -> usize {
    let marker = 0u8;
    core::hint::black_box(&marker) as *const u8 as usize
}

/// Zeroes `DEPTH` bytes below this function's frame.
#[inline(never)]
fn scrub() {
    let top = frame_address() & !15;
    for a in (top - DEPTH..top - 256).step_by(8) {
        // SAFETY (test only, see the module doc): the thread's mapped stack, below every
        // live frame, written with plain 8-byte stores.
        unsafe { core::ptr::write_volatile(core::ptr::with_exposed_provenance_mut::<u64>(a), 0) };
    }
}

/// The offsets (below the frame) where any pattern occurs, with the pattern's index.
#[inline(never)]
fn scan(patterns: &[[u8; 16]]) -> Vec<(usize, usize)> {
    let top = frame_address() & !15;
    let bottom = top - DEPTH;
    let mut mem = std::vec![0u8; DEPTH - 256];
    for (i, m) in mem.iter_mut().enumerate() {
        // SAFETY: as in `scrub`; reads only.
        *m = unsafe {
            core::ptr::read_volatile(core::ptr::with_exposed_provenance::<u8>(bottom + i))
        };
    }
    let mut found = Vec::new();
    for (off, w) in mem.windows(16).enumerate() {
        for (p, pat) in patterns.iter().enumerate() {
            if w == pat {
                found.push((DEPTH - off, p));
            }
        }
    }
    found
}

/// Runs `call` between a scrub and a scan on a fresh thread; panics with `what` if any
/// pattern is found.
fn check(what: &str, patterns: Vec<[u8; 16]>, call: impl FnOnce() + Send + 'static) {
    let what = std::string::String::from(what);
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            scrub();
            run(call);
            let found = scan(&patterns);
            assert!(
                found.is_empty(),
                "{what}: {} key-derived blocks left on the stack (depth below the frame, \
                 pattern): {found:?}",
                found.len()
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

#[inline(never)]
fn run(call: impl FnOnce()) {
    call();
    core::hint::black_box(());
}

fn bytes(seed: u64, len: usize) -> Vec<u8> {
    crate::test_util::Rng(seed).bytes(len)
}

/// Every round key of `ks` that is not the key itself, both directions.
fn round_keys(ks: &KeySchedule) -> Vec<[u8; 16]> {
    let r = ks.rounds;
    ks.enc[1..=r].iter().chain(&ks.dec[..r]).copied().collect()
}

fn xts_patterns(key: &[u8], sectors: &[u128]) -> Vec<[u8; 16]> {
    let (k1, k2) = key.split_at(key.len() / 2);
    let (k1, k2) = (KeySchedule::new(k1).unwrap(), KeySchedule::new(k2).unwrap());
    let mut v = round_keys(&k1);
    v.extend(round_keys(&k2));
    let aes = Aes::with_backend(key.split_at(key.len() / 2).1, Backend::Portable).unwrap();
    for s in sectors {
        let mut t = s.to_le_bytes();
        aes.encrypt_block(&mut t);
        v.push(t);
    }
    v
}

#[test]
fn xts_leaves_no_round_keys_or_tweaks() {
    for b in Xts::available_backends() {
        for key_len in [32, 64] {
            let key = bytes(key_len as u64 + 1, key_len);
            for (len, count) in [(512, 1), (80, 1), (4096, 1), (33, 1), (512, 70), (1000, 3)] {
                let sectors: Vec<u128> = (0..count).map(|i| 1000 + i as u128).collect();
                let patterns = xts_patterns(&key, &sectors);
                let xts = std::boxed::Box::new(Xts::with_backend(&key, b).unwrap());
                for dec in [false, true] {
                    let xts = xts.clone();
                    check(
                        &std::format!(
                            "XTS {b} {key_len}-byte key, {count} x {len} bytes, dec {dec}"
                        ),
                        patterns.clone(),
                        move || {
                            let mut buf = std::vec![0x5au8; len * count];
                            if dec {
                                xts.decrypt_sectors(&mut buf, len, 1000).unwrap();
                            } else {
                                xts.encrypt_sectors(&mut buf, len, 1000).unwrap();
                            }
                            core::hint::black_box(&buf);
                        },
                    );
                }
            }
        }
    }
}

#[test]
fn cbc_leaves_no_round_keys() {
    for b in Cbc::available_backends() {
        for key_len in [16, 32] {
            let key = bytes(key_len as u64 + 7, key_len);
            let patterns = round_keys(&KeySchedule::new(&key).unwrap());
            let cbc = std::boxed::Box::new(Cbc::with_backend(&key, b).unwrap());
            for (op, len) in [
                (0, 64),
                (0, 4096),
                (1, 64),
                (1, 4096),
                (2, 1000),
                (3, 1000),
                (4, 4096),
            ] {
                let cbc = cbc.clone();
                check(
                    &std::format!("CBC {b} {key_len}-byte key, op {op}, {len} bytes"),
                    patterns.clone(),
                    move || {
                        let mut buf = std::vec![0x33u8; len];
                        let mut iv = [9u8; 16];
                        match op {
                            0 => cbc.encrypt(&mut iv, &mut buf[..len / 16 * 16]).unwrap(),
                            1 => cbc.decrypt(&mut iv, &mut buf[..len / 16 * 16]).unwrap(),
                            2 => cbc.encrypt_cts(&iv, &mut buf).unwrap(),
                            3 => cbc.decrypt_cts(&iv, &mut buf).unwrap(),
                            _ => {
                                let mut ivs = [[1u8; 16]; 9];
                                let mut parts: Vec<&mut [u8]> = buf.chunks_mut(448).collect();
                                parts.truncate(9);
                                cbc.encrypt_many(&mut ivs, &mut parts).unwrap();
                            }
                        }
                        core::hint::black_box(&buf);
                    },
                );
            }
        }
    }
}

/// The 16-byte pieces of a 64-byte block as bytes and as native-endian big-endian words
/// (what a SHA-1 message schedule stores).
fn pieces(block: &[u8; 64]) -> Vec<[u8; 16]> {
    let mut v = Vec::new();
    for c in block.as_chunks::<16>().0 {
        v.push(*c);
        let mut s = *c;
        for w in s.as_chunks_mut::<4>().0 {
            w.reverse();
        }
        v.push(s);
    }
    v
}

#[test]
fn hmac_keying_leaves_no_padded_key() {
    for b in Sha1::available_backends() {
        // A 64-byte key (no zero padding: every piece of K0 is pseudo-random), and a long
        // one (K0 = SHA-1(key), then zeros: only its first 16 bytes are a usable pattern).
        for key_len in [64, 100] {
            let key = bytes(key_len as u64 + 3, key_len);
            let mut k0 = [0u8; 64];
            if key_len > 64 {
                k0[..20].copy_from_slice(&crate::sha1(&key));
            } else {
                k0.copy_from_slice(&key);
            }
            let ipad: [u8; 64] = core::array::from_fn(|i| k0[i] ^ 0x36);
            let opad: [u8; 64] = core::array::from_fn(|i| k0[i] ^ 0x5c);
            // With a long key only K0's first 16 bytes are pseudo-random (the rest are
            // zeros, or runs of 0x36 / 0x5c after the XOR): only those pieces are looked for.
            let keep = if key_len > 64 { 2 } else { 8 };
            let mut patterns = Vec::new();
            for block in [&ipad, &opad, &k0] {
                patterns.extend(pieces(block).into_iter().take(keep));
            }
            check(
                &std::format!("HMAC keying {b}, {key_len}-byte key"),
                patterns,
                move || {
                    let mac = HmacSha1::with_backend(&key, b).unwrap();
                    core::hint::black_box(&mac);
                    // The key itself is the caller's; this copy is dropped here.
                    drop(key);
                },
            );
        }
    }
}

/// How deep below the caller's frame `call` writes: the stack region the wipes must cover.
fn depth(call: impl FnOnce() + Send + 'static) -> usize {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            paint();
            run(call);
            measure()
        })
        .unwrap()
        .join()
        .unwrap()
}

#[inline(never)]
fn paint() {
    let top = frame_address() & !15;
    for a in (top - DEPTH..top - 256).step_by(8) {
        // SAFETY: as in `scrub`.
        unsafe {
            core::ptr::write_volatile(
                core::ptr::with_exposed_provenance_mut::<u64>(a),
                0xa5a5_a5a5_a5a5_a5a5,
            )
        };
    }
}

#[inline(never)]
fn measure() -> usize {
    let top = frame_address() & !15;
    let bottom = top - DEPTH;
    for off in (0..DEPTH - 256).step_by(8) {
        // SAFETY: as in `scan`.
        let v = unsafe {
            core::ptr::read_volatile(core::ptr::with_exposed_provenance::<u64>(bottom + off))
        };
        if v != 0xa5a5_a5a5_a5a5_a5a5 {
            return DEPTH - off;
        }
    }
    0
}

/// Prints how much stack each kernel uses (run with `--nocapture` to size the wipes).
#[test]
fn stack_depths() {
    for b in Sha1::available_backends() {
        let d = depth(move || {
            let mac = HmacSha1::with_backend(&[7u8; 64], b).unwrap();
            core::hint::black_box(&mac);
        });
        std::eprintln!("depth: HMAC keying {b}: {d}");
    }
    for b in Xts::available_backends() {
        let xts = Xts::with_backend(&[[1u8; 32], [2u8; 32]].concat(), b).unwrap();
        for (len, sector) in [
            (512, 512),
            (64, 64),
            (33, 33),
            (4096, 4096),
            (64 * 512, 512),
        ] {
            let xts = xts.clone();
            let mut buf = std::vec![0u8; len];
            let d = depth(move || {
                xts.encrypt_sectors(&mut buf, sector, 0).unwrap();
            });
            std::eprintln!("depth: XTS {b} enc {len}/{sector}: {d}");
        }
    }
    for b in Cbc::available_backends() {
        let cbc = Cbc::with_backend(&[1u8; 32], b).unwrap();
        for len in [64, 4096] {
            for dec in [false, true] {
                let cbc = cbc.clone();
                let mut buf = std::vec![0u8; len];
                let d = depth(move || {
                    if dec {
                        cbc.decrypt(&mut [0; 16], &mut buf).unwrap();
                    } else {
                        cbc.encrypt(&mut [0; 16], &mut buf).unwrap();
                    }
                });
                std::eprintln!("depth: CBC {b} {len} dec {dec}: {d}");
            }
        }
    }
    for b in Xts::available_backends() {
        for len in [512, 4096 * 3] {
            let xts = Xts::with_backend(&[[1u8; 32], [2u8; 32]].concat(), b).unwrap();
            let mut buf = std::vec![0u8; len];
            let d = depth(move || {
                xts.encrypt_sectors(&mut buf, 512.min(len), 0).unwrap();
                xts.decrypt_sectors(&mut buf, 512.min(len), 0).unwrap();
                xts.encrypt_sector(&mut buf[..33], 0).unwrap();
                xts.decrypt_sector(&mut buf[..80], 0).unwrap();
            });
            std::eprintln!("depth: XTS {b} {len}: {d}");
        }
    }
    for b in Cbc::available_backends() {
        let cbc = Cbc::with_backend(&[1u8; 32], b).unwrap();
        let mut buf = std::vec![0u8; 4096];
        let d = depth(move || {
            cbc.encrypt(&mut [0; 16], &mut buf).unwrap();
            cbc.decrypt(&mut [0; 16], &mut buf).unwrap();
            cbc.encrypt_cts(&[0; 16], &mut buf[..1000]).unwrap();
            cbc.decrypt_cts(&[0; 16], &mut buf[..1000]).unwrap();
            let mut ivs = [[1u8; 16]; 9];
            let (a, rest) = buf.split_at_mut(448);
            let (b2, c) = rest.split_at_mut(448);
            let mut parts = [a, b2, &mut c[..448]];
            cbc.encrypt_many(&mut ivs[..3], &mut parts).unwrap();
        });
        std::eprintln!("depth: CBC {b}: {d}");
    }
    for b in Sha1::available_backends() {
        let imp = crate::sha1::Impl::new(b).unwrap();
        let blocks = [[3u8; 64]; 2];
        let d = depth(move || {
            let mut st = crate::sha1::IV;
            imp.compress(&mut st, &blocks[..1]);
            imp.compress(&mut st, &blocks);
            core::hint::black_box(&st);
        });
        std::eprintln!("depth: SHA-1 compress {b}: {d}");
    }
}
