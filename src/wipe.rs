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

/// Overwrites words with zeros (a SHA-1 state): one 16-byte volatile store per four
/// words, one word store for each of the rest (a state: two stores, not five).
#[inline]
pub(crate) fn words(words: &mut [u32]) {
    let (quads, rest) = words.as_chunks_mut::<4>();
    for q in quads {
        // SAFETY: `q` is a valid, exclusive, aligned (4 bytes, as `[u32; 4]` needs)
        // reference to four words.
        unsafe { core::ptr::write_volatile(q, [0; 4]) };
    }
    for w in rest {
        // SAFETY: `w` is a valid, exclusive, aligned reference to a word.
        unsafe { core::ptr::write_volatile(w, 0) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites with zeros the `16 * N` bytes of stack just below the caller's stack
/// pointer, where the frames of the calls it just made were: the spills and copies of key
/// material that a kernel's compiled code leaves there (round keys broadcast to vectors,
/// SHA-1 message schedules, chaining values), which no wipe of a named variable reaches.
///
/// Call it right after the kernel returns, from the function that called the kernel; `N`
/// covers the deepest frame the kernel makes (measured in optimised builds; see the tests
/// in `leak_tests.rs`).
///
/// On x86-64 the zeroing is inline assembly in the caller, `N` unrolled stores at fixed
/// offsets below its stack pointer (lowered over the area while it writes): it reaches
/// every byte of the frames below the caller.
/// (The first version zeroed a local array in a function of its own; the compiler placed
/// that array up to 64 bytes below the top of its frame, and a round key that an AVX-512
/// kernel spilled just under its saved registers was left in that gap. A store loop in a
/// frameless routine closed the gap but cost a 256-byte CBC decryption 0.75x of its speed
/// on Zen 4, against unrolled stores.) Elsewhere it is that array, the best portable Rust
/// can do.
#[inline(always)]
pub(crate) fn stack<const N: usize>() {
    #[cfg(test)]
    if dry_run(16 * N) {
        return;
    }
    #[cfg(simdcrypt_x86_64)]
    // SAFETY: without `nostack` the stack pointer is aligned for a call (16 bytes) and
    // the stack below it belongs to the asm block, which restores the stack pointer; the
    // stores stay in the `16 * N` bytes below it, which the frames of the calls just made
    // used (mapped). The stack pointer is lowered over the area first, so that nothing
    // is written below it (where a signal handler's frame could go, and which valgrind
    // reports). xmm0 is declared clobbered.
    unsafe {
        core::arch::asm!(
            "sub rsp, {bytes}",
            "xorps xmm0, xmm0",
            ".set simdcrypt_wipe_off, 0",
            ".rept {n}",
            "movaps xmmword ptr [rsp + simdcrypt_wipe_off], xmm0",
            ".set simdcrypt_wipe_off, simdcrypt_wipe_off + 16",
            ".endr",
            "add rsp, {bytes}",
            n = const N,
            bytes = const 16 * N,
            out("xmm0") _,
        );
    }
    #[cfg(not(simdcrypt_x86_64))]
    {
        stack_area::<N>();
        after_wipe();
    }
}

/// [`stack`]'s work where there is no assembly: its frame is the area.
#[cfg(not(simdcrypt_x86_64))]
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

/// Keeps the wipe's call out of tail position. As the last call of a function it would
/// be made a tail call (a jump after the caller's frame is popped), so its area would
/// start where the caller's frame started, higher up, and not reach the kernel's frames.
#[cfg(not(simdcrypt_x86_64))]
#[inline(always)]
fn after_wipe() {
    let mut done = 0u8;
    core::hint::black_box(&mut done);
}

/// [`stack`] for callers whose CPU has AVX (the token proves it): `32 * N` bytes, one
/// 32-byte store per 32 bytes, half the stores of [`stack`] for the deep frames of the
/// VAES kernels (ymm stores move as many bytes per cycle as zmm ones on every CPU seen).
#[cfg(simdcrypt_x86_64)]
#[inline(always)]
pub(crate) fn stack_avx<const N: usize>(_avx: crate::cpu::VaesAvx2Token) {
    #[cfg(test)]
    if dry_run(32 * N) {
        return;
    }
    // SAFETY: the token proves the CPU runs AVX; as in `stack`, the stack pointer is
    // lowered over the area (`32 * N + 32` bytes) and restored, and the stores stay in it
    // (the aligned ones from the old stack pointer rounded down to 32, one unaligned
    // store for the top 32 bytes). Every register the C ABI lets a call clobber is
    // declared clobbered: `vzeroupper` clears the upper halves of all vector registers,
    // and the caller has just made a call.
    unsafe {
        core::arch::asm!(
            "mov rax, rsp",
            "and rax, -32",
            "sub rsp, {bytes}",
            "vpxor xmm0, xmm0, xmm0",
            "vmovdqu ymmword ptr [rsp + {bytes} - 32], ymm0",
            ".set simdcrypt_wipe_off, 32",
            ".rept {n}",
            "vmovdqa ymmword ptr [rax - simdcrypt_wipe_off], ymm0",
            ".set simdcrypt_wipe_off, simdcrypt_wipe_off + 32",
            ".endr",
            "add rsp, {bytes}",
            "vzeroupper",
            n = const N,
            bytes = const 32 * N + 32,
            clobber_abi("C"),
        );
    }
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

/// Test builds: when [`DRY`] is set, records in [`LOWEST`] where a wipe of `bytes` would
/// start (an address in this frame, a few bytes below where the wipe's area starts) and in
/// [`REACH`] where it would end, and says to skip it.
#[cfg(test)]
#[inline(never)]
fn dry_run(bytes: usize) -> bool {
    let marker = 0u8;
    let at = core::hint::black_box(&marker) as *const u8 as usize;
    if DRY.with(core::cell::Cell::get) {
        LOWEST.with(|l| l.set(l.get().min(at)));
        REACH.with(|l| l.set(l.get().min(at - bytes)));
        true
    } else {
        false
    }
}

#[cfg(test)]
std::thread_local! {
    /// Test builds: a switch that makes [`stack`] wipe nothing, the lowest address where
    /// such a skipped wipe would have started on this thread (where the frames of the
    /// calls before it started), and the lowest address a skipped wipe would have
    /// reached, so that `leak_tests` can see how deep below those the calls wrote.
    pub(crate) static LOWEST: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
    pub(crate) static REACH: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
    pub(crate) static DRY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// `N` aligned 16-byte chunks of stack.
#[cfg(not(simdcrypt_x86_64))]
#[repr(C, align(16))]
struct Area<const N: usize>([Chunk; N]);

/// A 16-byte chunk.
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
