//! Zeroing of secret or key-derived memory with stores the compiler keeps.
//!
//! `zeroize` writes arrays one byte at a time (one volatile store per element), which
//! costs a visible share of a short call: a SHA-1 of a few bytes wiped about 200 bytes
//! that way. These helpers write 16 bytes per volatile store instead.

use core::sync::atomic::{Ordering, compiler_fence};

/// Overwrites `bytes` with zeros: one 16-byte volatile store per 16 bytes, single-byte
/// volatile stores for the rest.
#[inline]
pub(crate) fn bytes(bytes: &mut [u8]) {
    let (chunks, rest) = bytes.as_chunks_mut::<16>();
    blocks(chunks);
    for b in rest {
        // SAFETY: `b` is a valid, exclusive reference to a byte.
        unsafe { core::ptr::write_volatile(b, 0) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites 16-byte blocks with zeros, one volatile store each.
#[inline]
pub(crate) fn blocks(blocks: &mut [[u8; 16]]) {
    for b in blocks {
        // SAFETY: `b` is a valid, exclusive, aligned reference to a block.
        unsafe { core::ptr::write_volatile(b, [0; 16]) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites words with zeros (a SHA-1 state), one volatile store each.
#[inline]
pub(crate) fn words(words: &mut [u32]) {
    for w in words {
        // SAFETY: `w` is a valid, exclusive, aligned reference to a word.
        unsafe { core::ptr::write_volatile(w, 0) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites with zeros the `16 * N` bytes of stack just below the caller's frame, where
/// the frames of the calls it just made were: the spills and copies of key material that
/// a kernel's compiled code leaves there (round keys broadcast to vectors, SHA-1 message
/// schedules, chaining values), which no wipe of a named variable reaches. One 16-byte
/// volatile store per 16 bytes.
///
/// Call it right after the kernel returns, from the function that called the kernel; `N`
/// covers the deepest frame the kernel makes (measured in optimised builds; see the tests
/// in `leak_tests.rs`). Its own frame is this array, placed where the kernel's were.
#[inline(never)]
pub(crate) fn stack<const N: usize>() {
    let mut area = core::mem::MaybeUninit::<Area<N>>::uninit();
    let p = area.as_mut_ptr().cast::<Chunk>();
    for i in 0..N {
        // SAFETY: `i < N`: an aligned 16-byte chunk of the local array, written (never
        // read) as a whole.
        unsafe { core::ptr::write_volatile(p.add(i), ZERO) };
    }
    compiler_fence(Ordering::SeqCst);
    core::hint::black_box(&mut area);
}

/// `N` aligned 16-byte chunks of stack.
#[repr(C, align(16))]
struct Area<const N: usize>([Chunk; N]);

/// A 16-byte chunk as one register-sized value, so that a volatile store of it is one
/// `movaps` (a volatile store of a byte array is split, or goes through a temporary).
#[cfg(simdcrypt_x86_64)]
type Chunk = core::arch::x86_64::__m128i;
#[cfg(simdcrypt_x86_64)]
// SAFETY: SSE2 is part of the x86-64 baseline; an all-zero vector.
const ZERO: Chunk = unsafe { core::mem::transmute::<u128, Chunk>(0) };
#[cfg(not(simdcrypt_x86_64))]
type Chunk = u128;
#[cfg(not(simdcrypt_x86_64))]
const ZERO: Chunk = 0;

#[cfg(test)]
mod tests {
    #[test]
    fn every_byte_is_cleared() {
        for len in 0..80 {
            let mut v: std::vec::Vec<u8> = (1..=len as u8).collect();
            super::bytes(&mut v);
            assert!(v.iter().all(|&b| b == 0), "{len}");
        }
        let mut b = [[0xffu8; 16]; 3];
        super::blocks(&mut b);
        assert_eq!(b, [[0; 16]; 3]);
        let mut w = [u32::MAX; 5];
        super::words(&mut w);
        assert_eq!(w, [0; 5]);
    }
}
