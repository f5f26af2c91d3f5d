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
