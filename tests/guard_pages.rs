//! Every kernel touches only its own bytes: each input and output is placed flush against
//! an inaccessible (`PROT_NONE`) page, after its end and, in a second run, before its
//! start, so a read or write one byte outside faults (the test process dies with SIGSEGV)
//! instead of passing unnoticed. Every data-unit length that reaches a masked tail group
//! (1 to 31 blocks after the last full group, with and without ciphertext stealing) is
//! run on every available backend, in place and out of place, and checked against the
//! portable backend. Each algorithm's tests are built where the build has it.
#![cfg(unix)]

simdcrypt_testkit::backend_helpers!();
#[cfg(feature = "cbc")]
simdcrypt_testkit::algorithm_helpers!(Cbc);
#[cfg(feature = "sha1")]
simdcrypt_testkit::algorithm_helpers!(Sha1);
#[cfg(feature = "xts")]
simdcrypt_testkit::xts_helpers!();

#[cfg(feature = "cbc")]
use simdcrypt::Cbc;
#[cfg(feature = "sha1")]
use simdcrypt::Sha1;
#[cfg(feature = "xts")]
use simdcrypt::Xts;
use simdcrypt::{Aes, Backend};
use simdcrypt_testkit::bytes;

const PAGE: usize = 4096;

/// `len` bytes placed flush against an inaccessible page: at the end of an accessible
/// region (`at_end`) or at its start. Unmapped on drop.
struct Guarded {
    base: *mut u8,
    total: usize,
    data: *mut u8,
    len: usize,
}

impl Guarded {
    fn new(len: usize, at_end: bool) -> Guarded {
        let pages = len.div_ceil(PAGE).max(1);
        // One guard page on each side of `pages` accessible pages.
        let total = (pages + 2) * PAGE;
        // SAFETY: an anonymous private mapping; the result is checked.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        let base = base.cast::<u8>();
        // SAFETY: the first and the last page of the mapping just made.
        unsafe {
            assert_eq!(libc::mprotect(base.cast(), PAGE, libc::PROT_NONE), 0);
            assert_eq!(
                libc::mprotect(base.add(total - PAGE).cast(), PAGE, libc::PROT_NONE),
                0
            );
        }
        let first = PAGE;
        let off = if at_end {
            first + pages * PAGE - len
        } else {
            first
        };
        // SAFETY: `off + len <= total - PAGE`, inside the mapping.
        let data = unsafe { base.add(off) };
        Guarded {
            base,
            total,
            data,
            len,
        }
    }

    fn with(bytes: &[u8], at_end: bool) -> Guarded {
        let mut g = Guarded::new(bytes.len(), at_end);
        g.slice_mut().copy_from_slice(bytes);
        g
    }

    fn slice(&self) -> &[u8] {
        // SAFETY: `len` accessible bytes at `data`, owned by `self`.
        unsafe { core::slice::from_raw_parts(self.data, self.len) }
    }

    fn slice_mut(&mut self) -> &mut [u8] {
        // SAFETY: as for `slice`, borrowed exclusively.
        unsafe { core::slice::from_raw_parts_mut(self.data, self.len) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, not used after this.
        unsafe { libc::munmap(self.base.cast(), self.total) };
    }
}

/// Unit lengths that end in every tail shape: 1 to 31 leftover blocks after 0, 1 or 2 full
/// groups of the widest kernel (32 blocks), each whole and with 1 or 15 bytes stolen.
#[cfg(feature = "xts")]
fn unit_lengths() -> Vec<usize> {
    let mut v = Vec::new();
    for groups in 0..3 {
        for blocks in 1..=32 {
            for extra in [0, 1, 15] {
                v.push(groups * 512 + blocks * 16 + extra);
            }
        }
    }
    v
}

/// On every backend and on both sides of the guard page: `run(b, buf)` on a guarded copy
/// of `input` must leave `expect` in it.
fn check_guarded(
    backends: &[Backend],
    input: &[u8],
    expect: &[u8],
    what: &str,
    run: impl Fn(Backend, &mut [u8]),
) {
    for &b in backends {
        for at_end in [true, false] {
            let mut g = Guarded::with(input, at_end);
            run(b, g.slice_mut());
            assert_eq!(g.slice(), expect, "{b} {what}, guard at end: {at_end}");
        }
    }
}

/// As [`check_guarded`], with `expect` what `run(Backend::Portable, buf)` leaves in an
/// unguarded copy of `input`.
fn check_guarded_as_portable(
    backends: &[Backend],
    input: &[u8],
    what: &str,
    run: impl Fn(Backend, &mut [u8]),
) {
    let mut expect = input.to_vec();
    run(Backend::Portable, &mut expect);
    check_guarded(backends, input, &expect, what, run);
}

#[cfg(feature = "xts")]
#[test]
fn xts_units_touch_only_their_bytes() {
    let backends = backends::<Xts>();
    for key_len in [32, 64] {
        let key = bytes(key_len as u64, key_len);
        let reference = Xts::with_backend(&key, Backend::Portable).unwrap();
        let xts = |b| Xts::with_backend(&key, b).unwrap();
        for len in unit_lengths() {
            let pt = bytes(len as u64, len);
            let mut expect = pt.clone();
            reference.encrypt_sector(&mut expect, 9).unwrap();
            let what = format!("{len} in place");
            check_guarded(&backends, &pt, &expect, &what, |b, buf| {
                xts(b).encrypt_sector(buf, 9).unwrap();
            });
            check_guarded(&backends, &expect, &pt, &what, |b, buf| {
                xts(b).decrypt_sector(buf, 9).unwrap();
            });
            // Out of place, both buffers guarded.
            for &b in &backends {
                for at_end in [true, false] {
                    let src = Guarded::with(&expect, at_end);
                    let mut dst = Guarded::with(&vec![0xee; len], at_end);
                    xts(b)
                        .decrypt_sector_to(src.slice(), dst.slice_mut(), 9)
                        .unwrap();
                    assert_eq!(dst.slice(), &pt[..], "{b} {len} out of place");
                }
            }
        }
    }
}

#[cfg(feature = "xts")]
#[test]
fn xts_sector_runs_touch_only_their_bytes() {
    let backends = backends::<Xts>();
    let key = bytes(3, 64);
    // Several units of a tail-group length each, and whole-group units (the fused path).
    for (sector, count) in [(80, 5), (144, 3), (17, 7), (512, 3), (256, 4), (528, 2)] {
        let pt = bytes(sector as u64, sector * count);
        let what = format!("{sector}x{count}");
        check_guarded_as_portable(&backends, &pt, &what, |b, buf| {
            let xts = Xts::with_backend(&key, b).unwrap();
            xts.encrypt_sectors(buf, sector, 1).unwrap();
        });
    }
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_touches_only_its_bytes() {
    let backends = backends::<Cbc>();
    let key = bytes(5, 32);
    let reference = Cbc::with_backend(&key, Backend::Portable).unwrap();
    let cbc = |b| Cbc::with_backend(&key, b).unwrap();
    for blocks in 1..=40 {
        let len = 16 * blocks;
        let pt = bytes(len as u64, len);
        let (mut expect, mut iv_e) = (pt.clone(), [7u8; 16]);
        reference.encrypt(&mut iv_e, &mut expect).unwrap();
        let what = format!("{len}");
        check_guarded(&backends, &pt, &expect, &what, |b, buf| {
            let mut iv = [7u8; 16];
            cbc(b).encrypt(&mut iv, buf).unwrap();
            assert_eq!(iv, iv_e, "{b} {len} iv");
        });
        check_guarded(&backends, &expect, &pt, &what, |b, buf| {
            cbc(b).decrypt(&mut [7u8; 16], buf).unwrap();
        });
        // Ciphertext stealing, 17 bytes and up: a round trip.
        if blocks > 1 {
            let part = &pt[..len - 9];
            check_guarded(&backends, part, part, "cts", |b, buf| {
                cbc(b).encrypt_cts(&[1; 16], buf).unwrap();
                cbc(b).decrypt_cts(&[1; 16], buf).unwrap();
            });
        }
    }
}

#[test]
fn aes_blocks_touch_only_their_bytes() {
    let backends = backends::<Aes>();
    let key = bytes(6, 16);
    for blocks in 1..=40 {
        let pt = bytes(blocks as u64, 16 * blocks);
        check_guarded_as_portable(&backends, &pt, &format!("{blocks}"), |b, buf| {
            let aes = Aes::with_backend(&key, b).unwrap();
            aes.encrypt_blocks(buf.as_chunks_mut::<16>().0);
        });
    }
}

#[cfg(feature = "sha1")]
#[test]
fn sha1_reads_only_its_bytes() {
    let backends = backends::<Sha1>();
    for len in (0..=160).chain([255, 256, 1000, 4096, 4097]) {
        let msg = bytes(len as u64, len);
        let mut h = Sha1::with_backend(Backend::Portable).unwrap();
        h.update(&msg);
        let expect = h.finalize();
        for &b in &backends {
            for at_end in [true, false] {
                let g = Guarded::with(&msg, at_end);
                let mut h = Sha1::with_backend(b).unwrap();
                h.update(g.slice());
                assert_eq!(h.finalize(), expect, "{b} {len}");
                // One-shot HMAC, the message and a key of 0 to 99 bytes each guarded.
                let key = bytes(len as u64 + 1, len % 100);
                let gk = Guarded::with(&key, at_end);
                let k = simdcrypt::HmacSha1Key::with_backend(&key, Backend::Portable).unwrap();
                let tag = simdcrypt::sha1::hmac_with(b, gk.slice(), g.slice());
                assert_eq!(tag, Ok(k.mac(&msg)), "{b} {len} HMAC");
                // The lanes, each message guarded, lengths differing.
                let others: Vec<Guarded> = (0..9)
                    .map(|i| Guarded::with(&bytes(i, len + 64 * i as usize), at_end))
                    .collect();
                let mut inputs: Vec<&[u8]> = vec![g.slice()];
                inputs.extend(others.iter().map(Guarded::slice));
                let mut out = vec![[0u8; 20]; inputs.len()];
                simdcrypt::sha1::sha1_many_with(b, &inputs, &mut out).unwrap();
                assert_eq!(out[0], expect, "{b} {len} many");
                for (o, m) in out[1..].iter().zip(&inputs[1..]) {
                    assert_eq!(*o, simdcrypt::sha1(m), "{b} {len} many");
                }
            }
        }
    }
}
