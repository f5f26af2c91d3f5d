//! No key material is left on the stack when a call returns.
//!
//! Each check runs on a thread of its own (a fully mapped stack), and:
//! 1. zeroes the `DEPTH` bytes below the current frame (`scrub`),
//! 2. makes the call (through a function that is never inlined, so its frames lie in
//!    that region),
//! 3. reads the region again (`scan`) and looks for every known key-derived 16-byte
//!    block: the HMAC blocks `K0 ^ ipad` and `K0 ^ opad` (as bytes and as the big-endian
//!    words a SHA-1 schedule holds), and `K0`.
//!
//! XTS and CBC calls are not checked: zeroing the stack after each of them (the round
//! keys and tweaks their compiled kernels spill) measured 2-4x slower on short calls and
//! 0.76x on a 4 KiB XTS unit (AMD Zen 4), so it waits for kernels that keep keys in
//! registers or wipe their own frames.
//!
//! Reading the stack below the current frame is outside what the Rust abstract machine
//! defines (the bytes belong to no live allocation); it is done with volatile reads of
//! plain integers on a mapped thread stack, in tests only, to see what a memory
//! disclosure would see. The scan can only miss leftovers (in the few bytes its own frame
//! covers); it cannot report a block that is not there, since the patterns are
//! pseudo-random 16-byte values.

use std::vec::Vec;

use crate::{HmacSha1, Sha1};

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
                &std::format!("HmacSha1Key keying {b}, {key_len}-byte key"),
                patterns.clone(),
                {
                    let key = key.clone();
                    move || {
                        let k = crate::HmacSha1Key::with_backend(&key, b).unwrap();
                        core::hint::black_box(&k);
                        drop(key);
                    }
                },
            );
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
