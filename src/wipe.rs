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
#[inline(always)]
pub(crate) fn stack<const N: usize>() {
    #[cfg(test)]
    if dry_run() {
        return;
    }
    stack_area::<N>();
    after_wipe();
}

/// [`stack`]'s work: its frame is the area.
#[inline(never)]
fn stack_area<const N: usize>() {
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

/// [`stack`] for callers whose CPU has AVX (the token proves it): `32 * N` bytes, one
/// 32-byte store per 32 bytes, half the stores of [`stack`] for the deep frames of the
/// VAES kernels (ymm stores move as many bytes per cycle as zmm ones on every CPU seen).
#[cfg(simdcrypt_x86_64)]
#[inline(always)]
pub(crate) fn stack_avx<const N: usize>(_avx: crate::cpu::VaesAvx2Token) {
    #[cfg(test)]
    if dry_run() {
        return;
    }
    // SAFETY: the token proves the CPU runs AVX.
    unsafe { stack_area_avx::<N>() };
    after_wipe();
}

/// Keeps the wipe's call out of tail position. As the last call of a function it would
/// be made a tail call (a jump after the caller's frame is popped), so its area would
/// start where the caller's frame started, higher up, and not reach the kernel's frames.
#[inline(always)]
fn after_wipe() {
    let mut done = 0u8;
    core::hint::black_box(&mut done);
}

/// [`stack_avx`]'s work: its frame is the area.
///
/// # Safety
/// The CPU runs AVX.
#[cfg(simdcrypt_x86_64)]
#[inline(never)]
#[target_feature(enable = "avx")]
unsafe fn stack_area_avx<const N: usize>() {
    use core::arch::x86_64::{__m256i, _mm256_setzero_si256};
    #[repr(C, align(32))]
    struct Area32<const N: usize>([__m256i; N]);
    let mut area = core::mem::MaybeUninit::<Area32<N>>::uninit();
    let p = area.as_mut_ptr().cast::<__m256i>();
    for i in 0..N {
        // SAFETY: `i < N`: an aligned 32-byte chunk of the local array, written (never
        // read) as a whole.
        unsafe { core::ptr::write_volatile(p.add(i), _mm256_setzero_si256()) };
    }
    compiler_fence(Ordering::SeqCst);
    core::hint::black_box(&mut area);
}

/// A wipe depth by build: test builds (debug assertions on, as `cargo test` builds the
/// crate) make deeper frames than release builds, and `leak_tests` checks the former.
pub(crate) const fn depth(debug_assertions: usize, release: usize) -> usize {
    if cfg!(debug_assertions) {
        debug_assertions
    } else {
        release
    }
}

/// Test builds: when [`DRY`] is set, records in [`LOWEST`] where a wipe would start (an
/// address in this frame, which lies where the wipe's area would) and says to skip it.
#[cfg(test)]
#[inline(never)]
fn dry_run() -> bool {
    let marker = 0u8;
    let at = core::hint::black_box(&marker) as *const u8 as usize;
    if DRY.with(core::cell::Cell::get) {
        LOWEST.with(|l| l.set(l.get().min(at)));
        true
    } else {
        false
    }
}

#[cfg(test)]
std::thread_local! {
    /// Test builds: a switch that makes [`stack`] wipe nothing, and the lowest address
    /// where such a skipped wipe would have started on this thread (where the frames of
    /// the calls before it started), so that `leak_tests::stack_depths` can see how deep
    /// below that the calls wrote.
    pub(crate) static LOWEST: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
    pub(crate) static DRY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
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
