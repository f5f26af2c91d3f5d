//! No key material is left on the stack when a call returns.
//!
//! Each check runs on a thread of its own (a fully mapped stack), and:
//! 1. zeroes the `DEPTH` bytes below the current frame (`zero_region`),
//! 2. makes the call (through a function that is never inlined, so its frames lie in
//!    that region),
//! 3. reads the region again (`scan`) and looks for every known key-derived 16-byte
//!    block: the HMAC blocks `K0 ^ ipad` and `K0 ^ opad` (as bytes and as the big-endian
//!    words a SHA-1 schedule holds), and `K0`.
//!
//! The XTS and CBC checks look for every round key but the key itself (both directions,
//! both XTS keys) and the first encrypted XTS tweaks, after each kind of call (one unit
//! with stealing, a batch of sectors, out of place; CBC one stream each way, many streams,
//! stealing), on every backend the CPU runs.
//!
//! `wipes_reach_as_deep_as_calls_write` makes the wipes dry, paints the region, makes each
//! call and checks that the deepest byte it changed lies within the deepest wipe's reach;
//! with `--nocapture` it prints how deep below the wipe's start each call writes, which
//! is what the wipe sites' depths (`crate::wipe::depth`) are sized from.
//!
//! The depths are measured on x86-64 and on AArch64 (under qemu: `.ci/wipe-depths
//! --target`; a site of the generic code holds the deepest of the two), and both run every
//! check. On other targets (s390x in CI, under qemu) the wipes reach what those two
//! targets' frames need, not what theirs need: there the depth check, and each leak check that finds key material in a build CI
//! makes (the test profile or release), is ignored (run them with `--ignored` to see what
//! is left); the others still run.
//!
//! Reading the stack below the current frame is outside what the Rust abstract machine
//! defines (the bytes belong to no live allocation); it is done with volatile reads of
//! plain integers on a mapped thread stack, in tests only, to see what a memory
//! disclosure would see. The scan can only miss leftovers (in the few bytes its own frame
//! covers); it cannot report a block that is not there, since the patterns are
//! pseudo-random 16-byte values.

use std::vec::Vec;

#[cfg(simdcrypt_aarch64)]
use crate::arch::aarch64::wipe::leak_tests::{GPRS, call_and_dump};
#[cfg(simdcrypt_x86_64)]
use crate::arch::x86_64::wipe::leak_tests::{GPRS, call_and_dump};

/// Without an architecture's code, no register to name.
#[cfg(not(any(simdcrypt_x86_64, simdcrypt_aarch64)))]
const GPRS: [&str; 0] = [];

/// Without an architecture's code: the call alone, no register dumped.
#[cfg(not(any(simdcrypt_x86_64, simdcrypt_aarch64)))]
fn call_and_dump<F: FnOnce()>(call: F, _: &mut [u8; 32 * 64], _: &mut [u64; 18]) {
    call();
}

#[cfg(feature = "cbc")]
use crate::Cbc;
#[cfg(all(feature = "cbc", feature = "sha1"))]
use crate::CbcHmacSha1;
#[cfg(feature = "xts")]
use crate::Xts;
use crate::aes::{KeySchedule, Width};
use crate::{Aes, Backend};
#[cfg(feature = "sha1")]
use crate::{HmacSha1, HmacSha1Key, Sha1};

/// How deep below the caller's frame the zeroing and the scan reach: past the deepest call
/// of any build (an unoptimised one's, about 40 KiB), with room to spare.
const DEPTH: usize = 128 * 1024;

/// The stack of each check's thread: the region, and room for the test's own frames.
const STACK: usize = 2 * DEPTH + (1 << 20);

/// The address of a local in a frame of its own: a little above where a sibling call's
/// frames start.
#[inline(never)]
fn frame_address() -> usize {
    let marker = 0u8;
    core::hint::black_box(&marker) as *const u8 as usize
}

/// Zeroes `DEPTH` bytes below this function's frame.
#[inline(never)]
fn zero_region() {
    let top = frame_address() & !15;
    for a in (top - DEPTH..top - 256).step_by(8) {
        // SAFETY (test only, see the module doc): the thread's mapped stack, below every
        // live frame, written with plain 8-byte stores.
        unsafe { core::ptr::write_volatile(core::ptr::with_exposed_provenance_mut::<u64>(a), 0) };
    }
}

/// The offsets below `top` where any pattern occurs, with the pattern's index, read into
/// `mem` (`DEPTH - 256` bytes, allocated before: an allocation here would write over the
/// frames to be read).
#[inline(never)]
fn scan_below(top: usize, mem: &mut [u8], patterns: &[[u8; 16]]) -> Vec<(usize, usize)> {
    let bottom = top - DEPTH;
    for (i, m) in mem.iter_mut().enumerate() {
        // SAFETY: as in `zero_region`; reads only.
        *m = unsafe {
            core::ptr::read_volatile(core::ptr::with_exposed_provenance::<u8>(bottom + i))
        };
    }
    let index: std::collections::HashMap<[u8; 16], usize> = patterns
        .iter()
        .enumerate()
        .map(|(p, pat)| (*pat, p))
        .collect();
    let mut found = Vec::new();
    for (off, w) in mem.windows(16).enumerate() {
        if let Some(&p) = index.get(w) {
            found.push((DEPTH - off, p));
        }
    }
    found
}

/// Runs `call` between a zeroing of the region and a scan on a fresh thread; panics with `what` if any
/// pattern is found.
fn check(what: &str, patterns: Vec<[u8; 16]>, call: impl FnOnce() + Send + 'static) {
    let what = std::string::String::from(what);
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            // (Allocated before the call: an allocation after it would run the allocator
            // over the frames to be read.)
            let mut mem = std::vec![0u8; DEPTH - 256];
            zero_region();
            CALLER_SP.with(|c| c.set(usize::MAX));
            let (regs, gprs) = registers_after(call);
            // Below the caller only (see `mark`): a finding `d` bytes below `top` lies at
            // `top - d`.
            let top = frame_address() & !15;
            let caller = CALLER_SP.with(core::cell::Cell::get);
            let found: Vec<(usize, usize)> = scan_below(top, &mut mem, &patterns)
                .into_iter()
                .filter(|&(d, _)| top - d < caller)
                .collect();
            assert!(
                found.is_empty(),
                "{what}: {} key-derived blocks left on the stack (depth below the frame, \
                 pattern): {found:?}",
                found.len()
            );
            let in_regs: Vec<(usize, usize)> = regs
                .chunks(64)
                .enumerate()
                .flat_map(|(r, reg)| {
                    reg.windows(16)
                        .filter_map(|w| patterns.iter().position(|p| w == p))
                        .map(move |p| (r, p))
                })
                .collect();
            assert!(
                in_regs.is_empty(),
                "{what}: key-derived blocks left in vector registers (register, pattern): \
                 {in_regs:?}"
            );
            let in_gprs = gprs_holding(&gprs, &patterns);
            assert!(
                in_gprs.is_empty(),
                "{what}: key-derived words left in general-purpose registers (register, \
                 pattern): {in_gprs:?}"
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

/// What `scan_in_call` (a call that scans the stack itself, with the value it keyed still
/// alive) found, made as [`check`] makes a call (nothing is looked for in its registers:
/// the live value may hold them). The result is asserted on by the caller, outside the
/// call: a panic inside it would abort the test binary (see [`run`]).
fn found_in_call(
    what: &str,
    scan_in_call: impl FnOnce() -> Vec<(usize, usize)> + Send + 'static,
) -> Vec<(usize, usize)> {
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let out = slot.clone();
    check(what, Vec::new(), move || {
        let found = scan_in_call();
        *out.lock().unwrap() = found;
    });
    core::mem::take(&mut *slot.lock().unwrap())
}

/// Which of `gprs` (as [`run`] dumps them) hold key-derived data, as (register, pattern)
/// pairs: a register's low or high 32 bits equal to an aligned 4-byte word of a pattern
/// (little-endian, as a 32-bit load reads it; the patterns that hold words in big-endian
/// order also come byte-swapped). Scalar code holds 32-bit words (SHA-1's chaining
/// words), or 64-bit halves of a block whose two halves are such words. A false match is
/// a 2^-32 chance per register half and word: the patterns are pseudo-random.
fn gprs_holding(gprs: &[u64; 18], patterns: &[[u8; 16]]) -> Vec<(&'static str, usize)> {
    let mut found = Vec::new();
    for (&name, &r) in GPRS.iter().zip(gprs) {
        let halves = [r as u32, (r >> 32) as u32];
        for (p, pat) in patterns.iter().enumerate() {
            let mut words = pat
                .as_chunks::<4>()
                .0
                .iter()
                .map(|w| u32::from_le_bytes(*w));
            if words.any(|w| halves.contains(&w)) {
                found.push((name, p));
            }
        }
    }
    found
}

/// Makes the call, then returns the vector registers as it left them (64 bytes a register,
/// zeros beyond what the CPU has) and the general-purpose registers a call may clobber
/// ([`GPRS`], in that order), stored by the architecture's `call_and_dump` the instruction
/// after the call returns (`src/arch/x86_64/wipe/leak_tests.rs` and its AArch64 twin);
/// zeros where there is none.
#[inline(never)]
fn registers_after<F: FnOnce()>(call: F) -> (Vec<u8>, [u64; 18]) {
    let (mut dump, mut gprs) = (std::vec![0u8; 32 * 64], [0u64; 18]);
    let regs = <&mut [u8; 32 * 64]>::try_from(&mut dump[..]).expect("32 registers of 64 bytes");
    call_and_dump(call, regs, &mut gprs);
    (dump, gprs)
}

/// Every distinct set of knobs in the tuning table, the defaults first.
fn every_knobs() -> Vec<crate::tuning::Tuning> {
    let mut v = std::vec![crate::tuning::Tuning::DEFAULT];
    for r in crate::tuning::TABLE {
        if !v.contains(&r.knobs) {
            v.push(r.knobs);
        }
    }
    v
}

fn bytes(seed: u64, len: usize) -> Vec<u8> {
    simdcrypt_testkit::Rng(seed).bytes(len)
}

/// [`bytes`], never freed, for the checked calls: a buffer freed at the end of a call
/// would run the allocator after the call's wipes, which writes most caller-saved
/// registers and so would hide what the call left in them from [`run`]'s dump. (The
/// leak tests allocate a few MB this way in all.)
fn kept(seed: u64, len: usize) -> &'static mut [u8] {
    bytes(seed, len).leak()
}

/// Drops nothing: a value a checked call returns (a `Vec`, a keyed value) is kept, for the
/// reason [`bytes`] gives.
fn keep<T>(value: T) {
    core::mem::forget(core::hint::black_box(value));
}

/// The 16-byte pieces of a 64-byte block as bytes and as native-endian big-endian words
/// (what a SHA-1 message schedule stores).
#[cfg(feature = "sha1")]
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

/// Every round key of `ks` that is not the key itself, both directions.
fn round_keys(ks: &KeySchedule) -> Vec<[u8; 16]> {
    let r = ks.rounds;
    ks.enc[1..=r].iter().chain(&ks.dec[1..r]).copied().collect()
}

/// How deep `call` writes below where its stack wipe starts, and how far below the
/// deepest reach of its wipes (negative: short of it), in bytes: the wipes made dry, the
/// region painted, the call made, the deepest changed byte found (`None` if no wipe ran).
fn depth_of(
    knobs: crate::tuning::Tuning,
    call: impl FnOnce() + Send + 'static,
) -> Option<(usize, isize, Sites)> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            crate::tuning::KNOBS.with(|k| k.set(Some(knobs)));
            let top = frame_address() & !15;
            for a in (top - DEPTH..top - 256).step_by(8) {
                // SAFETY: as in `zero_region`.
                unsafe {
                    core::ptr::write_volatile(
                        core::ptr::with_exposed_provenance_mut::<u64>(a),
                        crate::wipe::PAINT,
                    )
                };
            }
            crate::wipe::LOWEST.with(|l| l.set(usize::MAX));
            crate::wipe::REACH.with(|l| l.set(usize::MAX));
            crate::wipe::PAINTED.with(|p| p.set((top - DEPTH, top - 256)));
            crate::wipe::DRY.with(|d| d.set(true));
            registers_after(call);
            crate::wipe::DRY.with(|d| d.set(false));
            crate::wipe::PAINTED.with(|p| p.set((0, 0)));
            let start = crate::wipe::LOWEST.with(|l| l.get());
            let reach = crate::wipe::REACH.with(|l| l.get());
            if start == usize::MAX {
                return None;
            }
            let mut deepest = top - 256;
            for a in (top - DEPTH..top - 256).step_by(8) {
                // SAFETY: as in `scan_below`.
                let v = unsafe {
                    core::ptr::read_volatile(core::ptr::with_exposed_provenance::<u64>(a))
                };
                if v != crate::wipe::PAINT {
                    deepest = a;
                    break;
                }
            }
            let sites = crate::wipe::SITES.with(|s| s.borrow().clone());
            Some((
                start.saturating_sub(deepest),
                reach as isize - deepest as isize,
                sites,
            ))
        })
        .unwrap()
        .join()
        .unwrap()
}

/// Each wipe site that ran, the deepest that the calls before it wrote below its start,
/// and its reach, in bytes.
type Sites = Vec<(&'static core::panic::Location<'static>, usize, usize)>;

/// What an XTS key derives: round keys of both halves, and the first 32 tweaks of
/// sectors 0..4 (the calls below use those sectors).
#[cfg(feature = "xts")]
fn xts_patterns(key: &[u8]) -> Vec<[u8; 16]> {
    let (a, b) = key.split_at(key.len() / 2);
    let (k1, k2) = (KeySchedule::new(a).unwrap(), KeySchedule::new(b).unwrap());
    let mut pats = round_keys(&k1);
    pats.extend(round_keys(&k2));
    pats.push(k2.enc[k2.rounds]);
    for sector in 0u128..4 {
        let mut t = sector.to_le_bytes();
        Width::Portable.blocks::<false>(&k2, core::slice::from_mut(&mut t));
        let mut t = u128::from_le_bytes(t);
        for _ in 0..32 {
            pats.push(t.to_le_bytes());
            t = crate::block::mul_x(t);
        }
    }
    pats
}

/// Round keys of a one-key state (AES, CBC, the AES key of CBC-HMAC-SHA1).
fn aes_patterns(key: &[u8]) -> Vec<[u8; 16]> {
    round_keys(&KeySchedule::new(key).unwrap())
}

/// The 16-byte pieces in which a kernel may store a SHA-1 chaining value `[a, b, c, d, e]`:
/// the words as a `[u32; 5]` (both 16-byte windows), as digest bytes (big-endian), and in
/// the reversed order of the SHA-NI `ABCD` register (`d, c, b, a` in memory), each byte
/// order.
#[cfg(feature = "sha1")]
fn state_pieces(s: &[u32; 5]) -> Vec<[u8; 16]> {
    let mut v = Vec::new();
    let reversed = [s[3], s[2], s[1], s[0]];
    for words in [&s[..4], &s[1..], &reversed[..]] {
        let le: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
        v.push(le.try_into().unwrap());
        v.push(be.try_into().unwrap());
    }
    v
}

/// HMAC's padded key K0 (RFC 2104): the key, or SHA-1 of a key longer than a block, then
/// zeros to 64 bytes.
#[cfg(feature = "sha1")]
fn k0_of(key: &[u8]) -> [u8; 64] {
    let mut k0 = [0u8; 64];
    if key.len() > 64 {
        k0[..20].copy_from_slice(&crate::sha1(key));
    } else {
        k0[..key.len()].copy_from_slice(key);
    }
    k0
}

/// What an HMAC key derives beyond its padded blocks: the inner and outer starting states
/// (after `K0 ^ ipad` and `K0 ^ opad`), and the inner hash's chaining values after each
/// whole block of `bytes(msg_seed, 1024)` (the calls below hash prefixes of it), each as
/// [`state_pieces`].
#[cfg(feature = "sha1")]
fn hmac_state_patterns(key: &[u8], msg_seed: u64) -> Vec<[u8; 16]> {
    let k0 = k0_of(key);
    let (mut inner, mut outer) = (crate::sha1::IV, crate::sha1::IV);
    crate::sha1::soft::compress(&mut inner, &[k0.map(|k| k ^ 0x36)]);
    crate::sha1::soft::compress(&mut outer, &[k0.map(|k| k ^ 0x5c)]);
    let mut pats = state_pieces(&outer);
    pats.extend(state_pieces(&inner));
    let msg = bytes(msg_seed, 1024);
    for block in msg.as_chunks::<64>().0 {
        crate::sha1::soft::compress(&mut inner, core::slice::from_ref(block));
        pats.extend(state_pieces(&inner));
    }
    pats
}

/// A call on a keyed state, with its name.
type Named<T> = (&'static str, fn(&T));

/// One keyed type under test: its name, backends, key lengths, what a key derives, how
/// it is keyed on a backend, and its calls.
struct Case<T: 'static> {
    name: &'static str,
    backends: fn() -> Vec<Backend>,
    key_lens: &'static [usize],
    patterns: fn(&[u8]) -> Vec<[u8; 16]>,
    make: fn(&[u8], Backend) -> T,
    calls: &'static [Named<T>],
}

impl<T: Send + Sync + 'static> Case<T> {
    /// Every call on every backend and key length leaves none of the key's patterns.
    fn check(&self) {
        for b in (self.backends)() {
            for &key_len in self.key_lens {
                let key = bytes(key_len as u64 + self.name.len() as u64, key_len);
                let pats = (self.patterns)(&key);
                for &(what, call) in self.calls {
                    // The keyed state stays on the heap (in its box, never freed: see
                    // `bytes`); only the call's frames are below.
                    let state: &'static T =
                        std::boxed::Box::leak(std::boxed::Box::new((self.make)(&key, b)));
                    let name = std::format!("{} {what}, {b}, {key_len}-byte key", self.name);
                    check(&name, pats.clone(), move || call(state));
                }
            }
        }
    }

    /// Checks that each call's wipes reach as deep as the call wrote (every byte it wrote
    /// below its caller, key-derived or not, so this holds with room to spare), and
    /// prints how deep each call writes below where its wipe starts (the deepest over
    /// the key lengths, each round count being a kernel of its own with its own frame, and
    /// over the knobs of every row of the tuning table, which pick kernels and thresholds),
    /// which is what the sites' depths are sized from.
    fn depths(&self, short: &mut Vec<std::string::String>, sites: &mut Sites) {
        for b in (self.backends)() {
            for &(what, call) in self.calls {
                let (mut deepest, mut beyond) = (0, isize::MIN);
                for knobs in every_knobs() {
                    for &key_len in self.key_lens {
                        let key = bytes(key_len as u64, key_len);
                        // Keyed under the knobs too: a value takes its knobs at keying.
                        crate::tuning::KNOBS.with(|k| k.set(Some(knobs)));
                        let state = std::boxed::Box::new((self.make)(&key, b));
                        crate::tuning::KNOBS.with(|k| k.set(None));
                        let (d, r, s) = depth_of(knobs, move || call(&state))
                            .unwrap_or_else(|| panic!("{} {what}, {b}: no stack wipe", self.name));
                        merge(sites, s);
                        deepest = deepest.max(d);
                        beyond = beyond.max(r);
                    }
                }
                let name = self.name;
                std::println!(
                    "{name} {b:14} writes {deepest:5} bytes below its wipe's start, \
                     {beyond:6} past its reach  {what}"
                );
                if beyond > 0 {
                    short.push(std::format!("{name} {what}, {b}: {beyond} bytes"));
                }
            }
        }
    }
}

/// Adds `new` to `all`, keeping each site's deepest need.
fn merge(all: &mut Sites, new: Sites) {
    for n in new {
        match all
            .iter_mut()
            .find(|e| e.0.file() == n.0.file() && e.0.line() == n.0.line())
        {
            Some(e) => {
                e.1 = e.1.max(n.1);
                e.2 = e.2.max(n.2);
            }
            None => all.push(n),
        }
    }
}

/// The [`Case`] of a type keyed by `$t::with_backend` on each of `$t::available_backends()`.
macro_rules! case {
    ($t:ident, $name:literal, $key_lens:expr, $patterns:expr, $calls:expr) => {
        Case {
            name: $name,
            backends: || $t::available_backends().collect(),
            key_lens: $key_lens,
            patterns: $patterns,
            make: |k, b| $t::with_backend(k, b).unwrap(),
            calls: $calls,
        }
    };
}

#[cfg(feature = "xts")]
const XTS: Case<Xts> = case!(Xts, "XTS", &[32, 64], xts_patterns, &XTS_CALLS);

#[cfg(feature = "cbc")]
const CBC: Case<Cbc> = case!(Cbc, "CBC", &[16, 24, 32], aes_patterns, &CBC_CALLS);

const AES: Case<Aes> = case!(Aes, "AES", &[16, 24, 32], aes_patterns, &AES_CALLS);

/// A [`Case`] on the CBC-HMAC-SHA1 backends with 16- and 32-byte AES keys: `CbcHmacSha1`,
/// and krb5, whose two enctypes are those.
#[cfg(all(feature = "cbc", feature = "sha1"))]
const fn on_cbc_hmac<T>(
    name: &'static str,
    patterns: fn(&[u8]) -> Vec<[u8; 16]>,
    make: fn(&[u8], Backend) -> T,
    calls: &'static [Named<T>],
) -> Case<T> {
    Case {
        name,
        backends: || CbcHmacSha1::available_backends().collect(),
        key_lens: &[16, 32],
        patterns,
        make,
        calls,
    }
}

#[cfg(all(feature = "cbc", feature = "sha1"))]
const CBC_HMAC: Case<CbcHmacSha1> = on_cbc_hmac(
    "CBC-HMAC-SHA1",
    |k| {
        let mut pats = aes_patterns(k);
        pats.extend(hmac_state_patterns(&[9; 20], 10));
        pats
    },
    |k, b| CbcHmacSha1::with_backend(k, &[9; 20], b).unwrap(),
    &CBC_HMAC_CALLS,
);

#[cfg(feature = "sha1")]
const HMAC: Case<HmacSha1Key> = Case {
    name: "HMAC-SHA1",
    backends: || Sha1::available_backends().collect(),
    key_lens: &[20, 64, 100],
    patterns: |k| hmac_state_patterns(k, 20),
    make: |k, b| HmacSha1Key::with_backend(k, b).unwrap(),
    calls: &HMAC_CALLS,
};

#[cfg(feature = "xts")]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn xts_calls_leave_no_round_keys_or_tweaks() {
    XTS.check();
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_calls_leave_no_round_keys() {
    CBC.check();
}

#[test]
fn aes_calls_leave_no_round_keys() {
    AES.check();
}

#[cfg(all(feature = "cbc", feature = "sha1"))]
#[test]
fn cbc_hmac_calls_leave_no_round_keys_or_hmac_states() {
    CBC_HMAC.check();
}

#[cfg(feature = "sha1")]
#[test]
fn hmac_calls_leave_no_chaining_values() {
    HMAC.check();
}

#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target (build.rs warns)"
)]
fn wipes_reach_as_deep_as_calls_write() {
    let (mut short, mut sites) = (Vec::new(), Vec::new());
    #[cfg(feature = "xts")]
    XTS.depths(&mut short, &mut sites);
    #[cfg(feature = "cbc")]
    CBC.depths(&mut short, &mut sites);
    AES.depths(&mut short, &mut sites);
    #[cfg(all(feature = "cbc", feature = "sha1"))]
    CBC_HMAC.depths(&mut short, &mut sites);
    #[cfg(feature = "sha1")]
    HMAC.depths(&mut short, &mut sites);
    #[cfg(all(feature = "cbc", feature = "sha1"))]
    {
        CBC_HMAC_KEYING.depths(&mut short, &mut sites);
        KRB5.depths(&mut short, &mut sites);
    }
    #[cfg(feature = "sha1")]
    HMAC_KEYING.depths(&mut short, &mut sites);
    sites.sort_by_key(|s| (s.0.file(), s.0.line()));
    // Each wipe site against the kernels it follows (what its depth is sized from; the
    // calls above check the wipes together, which is what the promise needs).
    for (site, needs, reach) in &sites {
        std::println!(
            "site {}:{} needs {needs:5} reaches {reach:5}",
            site.file(),
            site.line()
        );
    }
    assert!(
        short.is_empty(),
        "calls that write deeper than their wipes reach: {short:?}"
    );
}

/// The wipes read the depth column of the level this crate was built at: `build.rs` found
/// it in the profile and `RUSTFLAGS` (`.ci/wipe-depths` runs this in each of its builds,
/// with the column the build must read in `SIMDCRYPT_EXPECT_WIPE_COLUMN`).
#[test]
#[ignore = "needs SIMDCRYPT_EXPECT_WIPE_COLUMN: run by .ci/wipe-depths"]
fn wipes_read_the_column_of_this_builds_level() {
    let want: usize = std::env::var("SIMDCRYPT_EXPECT_WIPE_COLUMN")
        .expect("SIMDCRYPT_EXPECT_WIPE_COLUMN: the column this build's wipes must read")
        .parse()
        .unwrap();
    assert_eq!(crate::wipe::LEVEL, want);
}

/// Marks where a measured call starts: the stack that the test's own work (allocations,
/// test data) wrote is painted again, so that the first wipe's depth counts the call's
/// frames only; and the stack pointer of the function that makes the call (this is
/// inlined into it) is kept in [`CALLER_SP`], above which [`check`] finds nothing to
/// report: the promise is about the stack below the caller (the caller's own frame may
/// hold what it moves into a consuming method, as `HmacSha1::finalize`'s `self`, which an
/// unoptimised build copies there on the way out of its box).
#[inline(always)]
fn mark() {
    CALLER_SP.with(|c| c.set(crate::wipe::stack_pointer()));
    crate::wipe::repaint();
}

std::thread_local! {
    /// The stack pointer of the function that made the checked call ([`mark`]); `usize::MAX`
    /// where the call has no mark (key set-up: the whole region is the callee's).
    static CALLER_SP: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
}

/// Key bytes for the key set-up calls: a constant (making them would allocate, and the
/// allocator's frames would be measured with the call's), with distinct XTS halves.
const SETUP_KEY: [u8; 64] = {
    let mut k = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        k[i] = (i as u8).wrapping_mul(29) ^ 0x5a;
        i += 1;
    }
    k
};

/// A call that keys `$t` with the first `$n` bytes of [`SETUP_KEY`] on the backend of the
/// value it is given (keying, which `keying_leaves_no_round_keys` checks for leaks, here for
/// its depth).
macro_rules! set_up {
    ($t:ident, $n:literal) => {
        (concat!("key set-up, ", $n, "-byte key"), |v| {
            keep($t::with_backend(&SETUP_KEY[..$n], v.backend()).unwrap());
        })
    };
}

/// A call named `$name` on `$v`, the value under test: its data bound to `$p` (made before
/// the mark, as test data), then [`mark`], then `$call`.
macro_rules! marked_call {
    ($name:expr; $p:pat = $data:expr; |$v:ident| $call:expr) => {
        ($name, |$v| {
            let $p = $data;
            mark();
            $call;
        })
    };
}

/// Each kind of XTS call, by name.
#[cfg(feature = "xts")]
const XTS_CALLS: [Named<Xts>; 10] = [
    set_up!(Xts, 32),
    set_up!(Xts, 64),
    marked_call!("one 16-byte unit (one block), encrypt and decrypt"; b = kept(15, 16); |x| {
        x.encrypt_sector(b, 1).unwrap();
        x.decrypt_sector(b, 1).unwrap();
    }),
    marked_call!("one 512-byte unit (short on vaes-avx512: a whole zmm group)"; b = kept(14, 512);
        |x| x.encrypt_sector(b, 4).unwrap()),
    marked_call!("one 100-byte unit (short on every kernel), encrypt"; b = kept(12, 100);
        |x| x.encrypt_sector(b, 2).unwrap()),
    marked_call!("one 37-byte unit (short on every kernel), decrypt"; b = kept(13, 37);
        |x| x.decrypt_sector(b, 3).unwrap()),
    marked_call!("one unit with stealing, encrypt"; b = kept(1, 4096 + 5);
        |x| x.encrypt_sector(b, 0).unwrap()),
    marked_call!("one unit with stealing, decrypt"; b = kept(2, 1000 + 7);
        |x| x.decrypt_sector(b, 1).unwrap()),
    marked_call!("four 512-byte sectors in place, encrypt"; b = kept(3, 4 * 512);
        |x| x.encrypt_sectors(b, 512, 0).unwrap()),
    ("four 80-byte sectors out of place, decrypt", |x| {
        let s = kept(4, 4 * 80);
        let d = kept(0, 4 * 80);
        mark();
        x.decrypt_sectors_to(s, d, 80, 0).unwrap();
    }),
];

/// Each kind of CBC call, by name.
#[cfg(feature = "cbc")]
const CBC_CALLS: [Named<Cbc>; 10] = [
    set_up!(Cbc, 16),
    set_up!(Cbc, 32),
    marked_call!("encrypt 1 KiB"; b = kept(5, 1024); |c| c.encrypt(&mut [1; 16], b).unwrap()),
    marked_call!("encrypt 3 blocks (short: under a group on every kernel)"; b = kept(10, 48);
        |c| c.encrypt(&mut [1; 16], b).unwrap()),
    marked_call!("decrypt 1 KiB"; b = kept(6, 1024); |c| c.decrypt(&mut [1; 16], b).unwrap()),
    marked_call!("decrypt 3 blocks"; b = kept(7, 48); |c| c.decrypt(&mut [1; 16], b).unwrap()),
    marked_call!("decrypt 20 blocks"; b = kept(8, 320); |c| c.decrypt(&mut [1; 16], b).unwrap()),
    ("encrypt_many, 20 streams", |c| {
        let mut refs: Vec<&mut [u8]> = (0..20)
            .map(|i| kept(i, 16 * (1 + i as usize % 5)))
            .collect();
        let mut ivs = [[3u8; 16]; 20];
        mark();
        c.encrypt_many(&mut ivs, &mut refs).unwrap();
        keep(refs);
    }),
    marked_call!("encrypt_cts 37 bytes"; b = kept(8, 37); |c| c.encrypt_cts(&[2; 16], b).unwrap()),
    marked_call!("decrypt_cts 37 bytes"; b = kept(9, 37); |c| c.decrypt_cts(&[2; 16], b).unwrap()),
];

/// Each kind of ECB call, by name.
const AES_CALLS: [Named<Aes>; 7] = [
    set_up!(Aes, 16),
    set_up!(Aes, 24),
    set_up!(Aes, 32),
    ("encrypt 64 blocks", |a| {
        let mut b = [[5u8; 16]; 64];
        mark();
        a.encrypt_blocks(&mut b);
    }),
    ("decrypt 7 blocks", |a| {
        let mut b = [[6u8; 16]; 7];
        mark();
        a.decrypt_blocks(&mut b);
    }),
    ("decrypt 20 blocks", |a| {
        let mut b = [[6u8; 16]; 20];
        mark();
        a.decrypt_blocks(&mut b);
    }),
    ("encrypt one block", |a| {
        let mut b = [7u8; 16];
        mark();
        a.encrypt_block(&mut b);
    }),
];

/// Keys with `$make` (inlined into the checked closure: the constructors are
/// `#[inline(always)]`, so that closure receives the value as a caller's frame would,
/// holding whatever copies the move makes), then scans the stack below that frame for
/// `$pats` with the value alive: what the keying (and any use in `$make`) left in the
/// frames of the library's calls below the caller.
macro_rules! below_the_caller {
    ($what:expr, $pats:expr, $make:expr) => {{
        let (what, pats): (std::string::String, Vec<[u8; 16]>) = ($what, $pats);
        assert!(!pats.is_empty(), "{what}: nothing to look for");
        let found = found_in_call(&what, move || {
            let mut mem = std::vec![0u8; DEPTH - 256];
            let top = frame_address() & !15;
            let value = $make;
            core::hint::black_box(&value);
            let found = scan_below(top, &mut mem, &pats);
            // (Kept alive until here: a `Copy` value too.)
            let _ = core::hint::black_box(value);
            found
        });
        assert!(
            found.is_empty(),
            "{what}: key-derived blocks below the caller (depth below the frame, \
             pattern): {found:?}"
        );
    }};
}

/// Keying `Aes`, `Cbc` and `Xts` leaves none of their round keys in the frames below
/// the one that receives the value: the expansion's and the constructor's frames are
/// wiped. (The frame that receives the value by return holds it, and may hold a copy
/// from the move out of the call, as any moved Rust value: that frame is the caller's,
/// above what is scanned here. The value itself is wiped on drop.)
#[test]
fn keying_leaves_no_round_keys() {
    for key_len in [16, 24, 32] {
        let key = bytes(30 + key_len as u64, key_len);
        let pats = aes_patterns(&key);
        for b in Aes::available_backends() {
            let k = key.clone();
            let what = std::format!("Aes::with_backend {b}, {key_len}-byte key");
            below_the_caller!(what, pats.clone(), Aes::with_backend(&k, b));
        }
        #[cfg(feature = "cbc")]
        for b in Cbc::available_backends() {
            let k = key.clone();
            let what = std::format!("Cbc::with_backend {b}, {key_len}-byte key");
            below_the_caller!(what, pats.clone(), Cbc::with_backend(&k, b));
        }
    }
    #[cfg(feature = "xts")]
    for key_len in [32, 64] {
        let key = bytes(40 + key_len as u64, key_len);
        let (a, b) = key.split_at(key_len / 2);
        let mut pats = aes_patterns(a);
        pats.extend(aes_patterns(b));
        for bk in Xts::available_backends() {
            let k = key.clone();
            let what = std::format!("Xts::with_backend {bk}, {key_len}-byte key");
            below_the_caller!(what, pats.clone(), Xts::with_backend(&k, bk));
        }
    }
}

/// Each kind of CBC-HMAC-SHA1 call, by name.
#[cfg(all(feature = "cbc", feature = "sha1"))]
const CBC_HMAC_CALLS: [Named<CbcHmacSha1>; 2] = [
    ("seal and open 1 KiB", |c| {
        let b = kept(10, 1024);
        mark();
        let tag = c.seal(&[4; 16], b).unwrap();
        c.open(&[4; 16], b, &tag).unwrap();
    }),
    ("seal_cts and open_cts 200 bytes", |c| {
        let b = kept(11, 200);
        mark();
        let tag = c.seal_cts(&[4; 16], b).unwrap();
        c.open_cts(&[4; 16], b, &tag).unwrap();
    }),
];

/// Each kind of HMAC-SHA1 call under a set-up key, by name (the messages are prefixes of
/// `bytes(20, 1024)`, whose inner chaining values the patterns hold).
#[cfg(feature = "sha1")]
const HMAC_CALLS: [Named<HmacSha1Key>; 14] = [
    // (Key set-up, which the padded-key test below checks for leaks, here for its depth.)
    marked_call!("key set-up, 20-byte key"; key = kept(21, 20);
        |k| keep(HmacSha1Key::with_backend(key, k.backend()).unwrap())),
    marked_call!("key set-up, 100-byte key"; key = kept(21, 100);
        |k| keep(HmacSha1Key::with_backend(key, k.backend()).unwrap())),
    marked_call!("mac 20 bytes"; msg = kept(20, 20); |k| keep(k.mac(msg))),
    marked_call!("mac 1000 bytes"; msg = kept(20, 1000); |k| keep(k.mac(msg))),
    marked_call!("mac 4096 bytes (long runs: sha-ni-asm's assembly)"; msg = kept(20, 4096);
        |k| keep(k.mac(msg))),
    marked_call!("verify 130 bytes"; msg = kept(20, 130); |k| keep(k.verify(msg, &[0; 20]))),
    ("update 1024 bytes, the state kept", |k| {
        // Nothing is freed or moved after the keyed work: what the compressions left in
        // the registers reaches `run`'s dump as they left it.
        let msg = kept(20, 1024);
        let m = std::boxed::Box::leak(std::boxed::Box::new(k.start()));
        mark();
        m.update(msg);
    }),
    ("update in 7 pieces, finalize", |k| {
        let msg = kept(20, 700);
        mark();
        // On the heap: `finalize` consumes the state (see "update 1024 bytes, verify").
        let mut m = std::boxed::Box::new(k.start());
        for piece in msg.chunks(100) {
            m.update(piece);
        }
        keep(m.finalize());
    }),
    ("update 1024 bytes, verify", |k| {
        let msg = kept(20, 1024);
        mark();
        // On the heap: `verify_truncated` consumes the state, and a value moved out of a
        // local leaves its bytes in the caller's own frame, which no callee can wipe.
        let mut m = std::boxed::Box::new(k.start());
        m.update(msg);
        keep(m.verify_truncated(&[0; 12], 12));
    }),
    // (One-shot, keyed in the call: `one_shot_hmac_leaves_no_key_material` checks it for
    // leaks, here for its depth.)
    ("one-shot, 20-byte key, 20 bytes", |k| {
        let (key, msg) = (kept(21, 20), kept(20, 20));
        mark();
        let tag = crate::sha1::hmac_with(k.backend(), key, msg);
        keep(tag.unwrap());
    }),
    ("one-shot, 100-byte key, 1000 bytes", |k| {
        let (key, msg) = (kept(21, 100), kept(20, 1000));
        mark();
        let tag = crate::sha1::hmac_with(k.backend(), key, msg);
        keep(tag.unwrap());
    }),
    ("one-shot, 20-byte key, 4096 bytes (long runs)", |k| {
        let (key, msg) = (kept(21, 20), kept(20, 4096));
        mark();
        let tag = crate::sha1::hmac_with(k.backend(), key, msg);
        keep(tag.unwrap());
    }),
    // (Through the `digest` traits' block core, as `hmac::Hmac<Sha1>` drives it; a build
    // without the `digest` feature has no core, and makes the call as `mac`.)
    marked_call!("digest core: 1000 bytes, inner and outer finalization";
        (msg, cores) = (kept(20, 1000), cores_of(k)); |k| through_core(k, cores, msg)),
    marked_call!("digest core: 4096 bytes (long runs)";
        (msg, cores) = (kept(20, 4096), cores_of(k)); |k| through_core(k, cores, msg)),
];

/// The inner and outer `Sha1Core`s on `k`'s backend, from `k`'s starting states, on the
/// heap, where a caller of `hmac::Hmac` holds them from its keying on: made before the
/// checked calls' mark (making them copies the states through this frame, which is the
/// keying's, not the calls'). `()` without the `digest` feature.
#[cfg(all(feature = "sha1", feature = "digest"))]
fn cores_of(k: &HmacSha1Key) -> std::boxed::Box<[crate::Sha1Core; 2]> {
    let (inner, outer) = k.starts();
    std::boxed::Box::new([
        crate::Sha1Core::resume_on(k.backend(), *inner, 1),
        crate::Sha1Core::resume_on(k.backend(), *outer, 1),
    ])
}

#[cfg(all(feature = "sha1", not(feature = "digest")))]
fn cores_of(_: &HmacSha1Key) {}

/// An HMAC tag through the `Sha1Core`s of [`cores_of`]: the message's whole blocks in one
/// `update_blocks`, then each core's finalization (the buffered tail; the inner digest), as
/// `hmac::Hmac` makes these calls. Without the `digest` feature, `k.mac` (every call must
/// wipe).
#[cfg(all(feature = "sha1", feature = "digest"))]
#[inline(always)]
fn through_core(_: &HmacSha1Key, mut cores: std::boxed::Box<[crate::Sha1Core; 2]>, msg: &[u8]) {
    use crate::Sha1Core;
    use digest::array::Array;
    use digest::block_api::{Buffer, FixedOutputCore, UpdateCore};
    let (blocks, tail) = msg.as_chunks::<64>();
    cores[0].update_blocks(Array::cast_slice_from_core(blocks));
    let mut buffer = std::boxed::Box::new(Buffer::<Sha1Core>::new(tail));
    let mut out = std::boxed::Box::new(Array::default());
    cores[0].finalize_fixed_core(&mut buffer, &mut out);
    buffer.reset();
    buffer.digest_blocks(&out[..], |b| cores[1].update_blocks(b));
    cores[1].finalize_fixed_core(&mut buffer, &mut out);
    keep((cores, buffer, out));
}

#[cfg(all(feature = "sha1", not(feature = "digest")))]
#[inline(always)]
fn through_core(k: &HmacSha1Key, (): (), msg: &[u8]) {
    keep(k.mac(msg));
}

/// `hmac_sha1` keys in the call: nothing of the key (its padded blocks, K0) nor of what
/// it derives (the starting states, the inner chaining values) may be left on the stack.
#[cfg(feature = "sha1")]
#[test]
fn one_shot_hmac_leaves_no_key_material() {
    for b in Sha1::available_backends() {
        for key_len in [20, 64, 100] {
            let key = bytes(key_len as u64 + 5, key_len);
            // The states, and K0's pseudo-random pieces with each pad and alone (a 20-byte
            // key or digest fills the first, a 64-byte key all four).
            let mut patterns = hmac_state_patterns(&key, 20);
            patterns.extend(padded_key_pieces(&key, &[0x36, 0x5c, 0]));
            for msg_len in [20, 130, 1000] {
                let key = key.clone();
                check(
                    &std::format!("one-shot HMAC {b}, {key_len}-byte key, {msg_len} bytes"),
                    patterns.clone(),
                    move || {
                        let tag = crate::sha1::hmac_with(b, &key, &bytes(20, msg_len));
                        core::hint::black_box(tag.unwrap());
                        // Kept, not freed: glibc's `free` on AArch64 reads the freed
                        // chunk's first words (the key's bytes) into x8 (its tcache
                        // double-free check), after the call's wipe.
                        super::leak_tests::keep(key);
                    },
                );
            }
        }
    }
}

#[cfg(feature = "sha1")]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn hmac_keying_leaves_no_padded_key() {
    for b in Sha1::available_backends() {
        // A 64-byte key (no zero padding: every piece of K0 is pseudo-random), and a long
        // one (K0 = SHA-1(key), then zeros: only its first 16 bytes are a usable pattern).
        for key_len in [64, 100] {
            let key = bytes(key_len as u64 + 3, key_len);
            // K0's pseudo-random pieces with each pad and alone (with a long key only its
            // first 16 bytes are).
            let patterns = padded_key_pieces(&key, &[0x36, 0x5c, 0]);
            check(
                &std::format!("HmacSha1Key keying {b}, {key_len}-byte key"),
                patterns.clone(),
                {
                    let key = key.clone();
                    move || {
                        let k = crate::HmacSha1Key::with_backend(&key, b).unwrap();
                        core::hint::black_box(&k);
                        super::leak_tests::keep(key); // (see the one-shot HMAC's check)
                    }
                },
            );
            check(
                &std::format!("HMAC keying {b}, {key_len}-byte key"),
                patterns,
                move || {
                    let mac = HmacSha1::with_backend(&key, b).unwrap();
                    core::hint::black_box(&mac);
                    // The key itself is the caller's; this copy is kept (see the one-shot
                    // HMAC's check).
                    super::leak_tests::keep(key);
                },
            );
        }
    }
}

/// `hmac::Hmac<simdcrypt::Sha1>` (the `digest` traits' block core, `Sha1Core`): no inner
/// chaining value that only the compressions hold (the states after each whole message
/// block but the last) is left on the stack. The starting states and the last state are
/// the `hmac` crate's to keep: it holds the core by value and moves it through its own
/// frames, which this crate's wipes do not cover.
#[cfg(feature = "digest")]
#[test]
fn digest_trait_hmac_leaves_no_chaining_values() {
    use hmac::{KeyInit, Mac};
    for key_len in [20, 64, 100] {
        let key = bytes(key_len as u64 + 7, key_len);
        // The pieces of the inner states after blocks 1 .. n - 1 of `bytes(20, 1024)`
        // (`hmac_state_patterns` lists the outer and inner starting states, then one state
        // per block, each as `state_pieces`' six pieces).
        let all = hmac_state_patterns(&key, 20);
        for msg_len in [130, 1000] {
            let whole = msg_len / 64;
            let pats = all[2 * 6..(2 + whole - 1) * 6].to_vec();
            assert!(!pats.is_empty());
            let key = key.clone();
            check(
                &std::format!("Hmac<Sha1>, {key_len}-byte key, {msg_len} bytes"),
                pats,
                move || {
                    // On the heap: `finalize` consumes the state (as in `HMAC_CALLS`).
                    let mut mac =
                        std::boxed::Box::new(hmac::Hmac::<Sha1>::new_from_slice(&key).unwrap());
                    mac.update(&bytes(20, msg_len));
                    core::hint::black_box(mac.finalize().into_bytes());
                    drop(key);
                },
            );
        }
    }
}

/// The pseudo-random 16-byte pieces of K0 XORed with each of `pads` (0x36: `K0 ^ ipad`,
/// 0x5c: `K0 ^ opad`, 0: K0 itself), as [`pieces`] (both byte orders): those that K0's
/// key bytes fill whole (all four of a 64-byte key's, one of a 20-byte key's or a long
/// key's digest); a piece past them is zeros, or a run of the pad byte, which other data
/// may hold.
#[cfg(feature = "sha1")]
fn padded_key_pieces(key: &[u8], pads: &[u8]) -> Vec<[u8; 16]> {
    let k0 = k0_of(key);
    let whole = if key.len() > 64 { 20 } else { key.len() } / 16;
    assert!(whole > 0, "a key of at least 16 bytes");
    let mut pats = Vec::new();
    for &pad in pads {
        let block: [u8; 64] = core::array::from_fn(|i| k0[i] ^ pad);
        pats.extend(pieces(&block).into_iter().take(2 * whole));
    }
    pats
}

/// What keying HMAC-SHA1 with `key` derives: the inner and outer starting states
/// ([`hmac_state_patterns`]' first twelve pieces) and the padded key blocks' pieces.
#[cfg(feature = "sha1")]
fn hmac_key_patterns(key: &[u8]) -> Vec<[u8; 16]> {
    let mut pats = hmac_state_patterns(key, 0)[..12].to_vec();
    pats.extend(padded_key_pieces(key, &[0x36, 0x5c]));
    pats
}

/// `HmacSha1` keyed with `key` on backend `b` (`None`: the automatic one), made in the
/// caller's frame (inlined, as the constructors are), which is what the tests scan below.
#[cfg(feature = "sha1")]
#[inline(always)]
fn hmac_on(b: Option<crate::Backend>, key: &[u8]) -> HmacSha1 {
    match b {
        Some(b) => HmacSha1::with_backend(key, b).unwrap(),
        None => HmacSha1::new(key),
    }
}

/// [`hmac_on`] with `msg` through `update` in 300-byte pieces, in the caller's frame
/// (inlined, as [`hmac_on`] is).
#[cfg(feature = "sha1")]
#[inline(always)]
fn hmac_updated(b: Option<crate::Backend>, key: &[u8], msg: &[u8]) -> HmacSha1 {
    let mut mac = hmac_on(b, key);
    for piece in msg.chunks(300) {
        mac.update(piece);
    }
    mac
}

/// Keying `HmacSha1Key` and `HmacSha1` (on every SHA-1 backend and the automatic one)
/// leaves neither the starting states nor the padded key blocks below the caller, and
/// neither does a message through `HmacSha1` (`update` in pieces, with the value alive,
/// then `finalize`), nor its inner chaining values.
#[cfg(feature = "sha1")]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn hmac_keying_and_use_leave_nothing_below_the_caller() {
    for key_len in [20, 64, 100] {
        let key = bytes(50 + key_len as u64, key_len);
        let keyed = hmac_key_patterns(&key);
        let mut used = keyed.clone();
        used.extend(hmac_state_patterns(&key, 20)[12..].iter().copied());
        let msg = bytes(20, 1000);
        let want = HmacSha1Key::with_backend(&key, crate::Backend::Portable)
            .unwrap()
            .mac(&msg);
        let backends = Sha1::available_backends().map(Some).chain([None]);
        for b in backends {
            let on = b.map_or("automatic".into(), |b| std::format!("{b}"));
            let k = key.clone();
            below_the_caller!(
                std::format!("HmacSha1Key keying, {on}, {key_len}-byte key"),
                keyed.clone(),
                match b {
                    Some(b) => HmacSha1Key::with_backend(&k, b).unwrap(),
                    None => HmacSha1Key::new(&k),
                }
            );
            let k = key.clone();
            below_the_caller!(
                std::format!("HmacSha1 keying, {on}, {key_len}-byte key"),
                keyed.clone(),
                hmac_on(b, &k)
            );
            // A message still open: what `update` leaves is the caller's to keep only in
            // the value.
            let (k, m) = (key.clone(), msg.clone());
            below_the_caller!(
                std::format!("HmacSha1 keying, update, {on}, {key_len}-byte key"),
                used.clone(),
                hmac_updated(b, &k, &m)
            );
            let (k, m) = (key.clone(), msg.clone());
            below_the_caller!(
                std::format!("HmacSha1 keying, update, finalize, {on}, {key_len}-byte key"),
                used.clone(),
                {
                    let tag = hmac_updated(b, &k, &m).finalize();
                    assert_eq!(tag, want, "the tag of the message looked for");
                    tag
                }
            );
        }
    }
}

/// Keying `CbcHmacSha1` (on every backend and the automatic one, each AES key length)
/// leaves neither the AES round keys nor HMAC's starting states or padded key blocks below
/// the caller.
#[cfg(all(feature = "cbc", feature = "sha1"))]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn cbc_hmac_keying_leaves_nothing_below_the_caller() {
    for (aes_len, mac_len) in [(16, 20), (24, 64), (32, 100)] {
        let (aes_key, mac_key) = (bytes(60 + aes_len as u64, aes_len), bytes(70, mac_len));
        let mut pats = aes_patterns(&aes_key);
        pats.extend(hmac_key_patterns(&mac_key));
        for b in CbcHmacSha1::available_backends().map(Some).chain([None]) {
            let on = b.map_or("automatic".into(), |b| std::format!("{b}"));
            let (a, m) = (aes_key.clone(), mac_key.clone());
            below_the_caller!(
                std::format!("CbcHmacSha1 keying, {on}, {aes_len}-byte AES key"),
                pats.clone(),
                match b {
                    Some(b) => CbcHmacSha1::with_backend(&a, &m, b).unwrap(),
                    None => CbcHmacSha1::new(&a, &m).unwrap(),
                }
            );
        }
    }
}

/// A Kerberos base key of either enctype, and the keys of [`KRB5_USAGE`] derived from it.
#[cfg(all(feature = "cbc", feature = "sha1"))]
struct Krb5Keys {
    base: Krb5Base,
    keys: crate::krb5::UsageKeys,
}

/// A Kerberos base key: aes128 (16 bytes) or aes256 (32).
#[cfg(all(feature = "cbc", feature = "sha1"))]
enum Krb5Base {
    Aes128(crate::krb5::Aes128CtsHmacSha196),
    Aes256(crate::krb5::Aes256CtsHmacSha196),
}

#[cfg(all(feature = "cbc", feature = "sha1"))]
impl Krb5Base {
    /// The base key of `key`'s enctype (its length's).
    #[inline(always)]
    fn new(key: &[u8]) -> Krb5Base {
        use crate::krb5::{Aes128CtsHmacSha196 as A128, Aes256CtsHmacSha196 as A256};
        match key.len() {
            16 => Krb5Base::Aes128(A128::new(key).unwrap()),
            _ => Krb5Base::Aes256(A256::new(key).unwrap()),
        }
    }

    /// `usage`'s keys, encryption on `backend` (the automatic one for `None`).
    #[inline(always)]
    fn usage_keys(&self, usage: u32, backend: Option<Backend>) -> crate::krb5::UsageKeys {
        match (self, backend) {
            (Krb5Base::Aes128(k), Some(b)) => k.usage_keys_with_backend(usage, b).unwrap(),
            (Krb5Base::Aes256(k), Some(b)) => k.usage_keys_with_backend(usage, b).unwrap(),
            (Krb5Base::Aes128(k), None) => k.usage_keys(usage),
            (Krb5Base::Aes256(k), None) => k.usage_keys(usage),
        }
    }
}

/// The key usage the krb5 checks derive.
#[cfg(all(feature = "cbc", feature = "sha1"))]
const KRB5_USAGE: u32 = 24;

/// The messages the krb5 checks encrypt (`confounder ‖ plaintext`, a prefix of it) and
/// checksum (a prefix of `KRB5_CKSUM_MSG`'s): the seeds of [`hmac_state_patterns`].
#[cfg(all(feature = "cbc", feature = "sha1"))]
const KRB5_MSG: u64 = 80;
#[cfg(all(feature = "cbc", feature = "sha1"))]
const KRB5_CKSUM_MSG: u64 = 81;

/// Ke, Ki and Kc of [`KRB5_USAGE`] under `base` (RFC 3961's `DK`: the AES keystream of the
/// base key from the n-folded constant), worked out here on the portable AES.
#[cfg(all(feature = "cbc", feature = "sha1"))]
fn krb5_derived(base: &[u8]) -> [Vec<u8>; 3] {
    let ks = KeySchedule::new(base).unwrap();
    [0xaa, 0x55, 0x99].map(|kind| {
        let mut c = [0u8; 5];
        c[..4].copy_from_slice(&KRB5_USAGE.to_be_bytes());
        c[4] = kind;
        let mut block = [0u8; 16];
        crate::krb5::nfold(&c, &mut block);
        let mut out = Vec::new();
        while out.len() < base.len() {
            Width::Portable.blocks::<false>(&ks, core::slice::from_mut(&mut block));
            out.extend_from_slice(&block);
        }
        out
    })
}

/// What a krb5 base key and [`KRB5_USAGE`]'s keys derive: the base key's round keys; Ke,
/// Ki and Kc themselves; Ke's round keys; Ki's and Kc's HMAC starting states and padded
/// blocks; and the inner chaining values of the messages the calls authenticate.
#[cfg(all(feature = "cbc", feature = "sha1"))]
fn krb5_patterns(base: &[u8]) -> Vec<[u8; 16]> {
    let [ke, ki, kc] = krb5_derived(base);
    let mut pats = aes_patterns(base);
    for k in [&ke, &ki, &kc] {
        pats.extend(k.as_chunks::<16>().0.iter().copied());
    }
    pats.extend(aes_patterns(&ke));
    pats.extend(padded_key_pieces(&ki, &[0x36, 0x5c]));
    pats.extend(padded_key_pieces(&kc, &[0x36, 0x5c]));
    pats.extend(hmac_state_patterns(&ki, KRB5_MSG));
    pats.extend(hmac_state_patterns(&kc, KRB5_CKSUM_MSG));
    pats
}

/// Each kind of krb5 call, by name (keying ones for their depth: the krb5 keying test
/// below checks them for leaks with the value alive).
#[cfg(all(feature = "cbc", feature = "sha1"))]
const KRB5_CALLS: [Named<Krb5Keys>; 7] = [
    ("base key set-up", |k| {
        let n = match k.base {
            Krb5Base::Aes128(_) => 16,
            Krb5Base::Aes256(_) => 32,
        };
        mark();
        keep(Krb5Base::new(&SETUP_KEY[..n]));
    }),
    ("usage_keys of another usage", |k| {
        mark();
        let keys = k.base.usage_keys(KRB5_USAGE + 1, Some(k.keys.backend()));
        keep(keys);
    }),
    ("encrypt 200 bytes", |k| {
        let m = kept(KRB5_MSG, 216);
        let conf: [u8; 16] = m[..16].try_into().unwrap();
        mark();
        keep(k.keys.encrypt(&conf, &m[16..]));
    }),
    ("decrypt 1000 bytes", |k| {
        let m = kept(KRB5_MSG, 1016);
        let conf: [u8; 16] = m[..16].try_into().unwrap();
        let ct = k.keys.encrypt(&conf, &m[16..]);
        mark();
        let pt = k.keys.decrypt(&ct).unwrap();
        assert_eq!(pt, m[16..]);
        keep((ct, pt));
    }),
    ("decrypt, forged", |k| {
        let m = kept(KRB5_MSG, 100);
        let conf: [u8; 16] = m[..16].try_into().unwrap();
        let mut ct = k.keys.encrypt(&conf, &m[16..]);
        *ct.last_mut().unwrap() ^= 1;
        mark();
        assert_eq!(k.keys.decrypt(&ct), Err(crate::Error::TagMismatch));
        keep(ct);
    }),
    ("checksum and verify_checksum 300 bytes", |k| {
        let m = kept(KRB5_CKSUM_MSG, 300);
        mark();
        let c = k.keys.checksum(m);
        k.keys.verify_checksum(m, &c).unwrap();
    }),
    (
        "enctype encrypt and decrypt (keys derived in each call)",
        |k| {
            let m = kept(KRB5_MSG, 150);
            let conf: [u8; 16] = m[..16].try_into().unwrap();
            mark();
            let (ct, pt) = match &k.base {
                Krb5Base::Aes128(b) => {
                    let ct = b.encrypt(KRB5_USAGE, &conf, &m[16..]);
                    let pt = b.decrypt(KRB5_USAGE, &ct);
                    (ct, pt)
                }
                Krb5Base::Aes256(b) => {
                    let ct = b.encrypt(KRB5_USAGE, &conf, &m[16..]);
                    let pt = b.decrypt(KRB5_USAGE, &ct);
                    (ct, pt)
                }
            };
            let pt = pt.unwrap();
            assert_eq!(pt, m[16..]);
            keep((ct, pt));
        },
    ),
];

#[cfg(all(feature = "cbc", feature = "sha1"))]
const KRB5: Case<Krb5Keys> = on_cbc_hmac(
    "krb5",
    krb5_patterns,
    |k, b| {
        let base = Krb5Base::new(k);
        let keys = base.usage_keys(KRB5_USAGE, Some(b));
        Krb5Keys { base, keys }
    },
    &KRB5_CALLS,
);

/// The patterns [`krb5_patterns`] looks for are what the keys hold: the derived keys
/// worked out here give `UsageKeys`' ciphertext, tag and checksum.
#[cfg(all(feature = "cbc", feature = "sha1"))]
#[test]
fn krb5_derived_keys_are_the_ones_looked_for() {
    for n in [16, 32] {
        let base = bytes(n as u64 + "krb5".len() as u64, n);
        let [ke, ki, kc] = krb5_derived(&base);
        let keys = Krb5Base::new(&base).usage_keys(KRB5_USAGE, None);
        let m = bytes(KRB5_MSG, 216);
        let ct = keys.encrypt(m[..16].try_into().unwrap(), &m[16..]);
        let mut want = m.clone();
        Cbc::with_backend(&ke, Backend::Portable)
            .unwrap()
            .encrypt_cts(&[0; 16], &mut want)
            .unwrap();
        assert_eq!(ct[..216], want, "{n}-byte base key: Ke");
        let tag = HmacSha1Key::new(&ki).mac(&m);
        assert_eq!(ct[216..], tag[..12], "{n}-byte base key: Ki");
        let msg = bytes(KRB5_CKSUM_MSG, 300);
        let sum = HmacSha1Key::new(&kc).mac(&msg);
        assert_eq!(keys.checksum(&msg), sum[..12], "{n}-byte base key: Kc");
    }
}

/// Each krb5 call (on every CBC-HMAC-SHA1 backend, both enctypes) leaves none of what the
/// base key and the usage's keys derive on the stack.
#[cfg(all(feature = "cbc", feature = "sha1"))]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn krb5_calls_leave_no_derived_keys() {
    KRB5.check();
}

/// Keying a krb5 base key (both enctypes) leaves none of its round keys below the caller,
/// and deriving a usage's keys (on every CBC-HMAC-SHA1 backend and the automatic one) none
/// of the base key's round keys or of the derived keys and what they derive.
#[cfg(all(feature = "cbc", feature = "sha1"))]
#[test]
#[cfg_attr(
    not(simdcrypt_sp),
    ignore = "the wipes' depths are not measured on this target: it finds key material (build.rs warns)"
)]
fn krb5_keying_leaves_nothing_below_the_caller() {
    for n in [16, 32] {
        let key = bytes(n as u64 + 90, n);
        let k = key.clone();
        below_the_caller!(
            std::format!("krb5 base key, {n} bytes"),
            aes_patterns(&key),
            Krb5Base::new(&k)
        );
        let pats = krb5_patterns(&key);
        for b in CbcHmacSha1::available_backends().map(Some).chain([None]) {
            let on = b.map_or("automatic".into(), |b| std::format!("{b}"));
            // The base key on the heap: only the derivation's frames are below.
            let base = std::boxed::Box::new(Krb5Base::new(&key));
            below_the_caller!(
                std::format!("krb5 usage_keys, {on}, {n}-byte base key"),
                pats.clone(),
                base.usage_keys(KRB5_USAGE, b)
            );
        }
    }
}

/// `CbcHmacSha1` keying, for its depth in `wipes_reach_as_deep_as_calls_write` (the keying
/// test above checks it for leaks).
#[cfg(all(feature = "cbc", feature = "sha1"))]
const CBC_HMAC_KEYING: Case<CbcHmacSha1> = on_cbc_hmac(
    "CBC-HMAC-SHA1",
    aes_patterns,
    |k, b| CbcHmacSha1::with_backend(k, &[9; 20], b).unwrap(),
    &[
        ("key set-up, 16-byte key", |c| {
            mark();
            let k = CbcHmacSha1::with_backend(&SETUP_KEY[..16], &SETUP_KEY[..20], c.backend());
            keep(k.unwrap());
        }),
        ("key set-up, 32-byte key, 100-byte MAC key", |c| {
            let (a, m) = (&SETUP_KEY[..32], &[7u8; 100]);
            mark();
            keep(CbcHmacSha1::with_backend(a, m, c.backend()).unwrap());
        }),
    ],
);

/// `HmacSha1` keying, for its depth in `wipes_reach_as_deep_as_calls_write` (the keying
/// test above checks it for leaks).
#[cfg(feature = "sha1")]
const HMAC_KEYING: Case<HmacSha1Key> = Case {
    name: "HMAC-SHA1",
    backends: || Sha1::available_backends().collect(),
    key_lens: &[20],
    patterns: |k| hmac_state_patterns(k, 20),
    make: |k, b| HmacSha1Key::with_backend(k, b).unwrap(),
    calls: &[
        ("HmacSha1 key set-up, 20-byte key", |k| {
            mark();
            keep(HmacSha1::with_backend(&SETUP_KEY[..20], k.backend()).unwrap());
        }),
        ("HmacSha1 key set-up, 100-byte key", |k| {
            let key = [3u8; 100];
            mark();
            keep(HmacSha1::with_backend(&key, k.backend()).unwrap());
        }),
    ],
};
