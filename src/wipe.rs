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
    let mut area = core::mem::MaybeUninit::<[[u8; 16]; N]>::uninit();
    let p = area.as_mut_ptr().cast::<[u8; 16]>();
    for i in 0..N {
        // SAFETY: `i < N`: a block of the local array, written (never read) as a whole.
        unsafe { core::ptr::write_volatile(p.add(i), [0; 16]) };
    }
    compiler_fence(Ordering::SeqCst);
    core::hint::black_box(&mut area);
}

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
