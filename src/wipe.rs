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

/// Overwrites with zeros the `16 * N` bytes of stack just below the caller's stack
/// pointer, where the frames of the calls it just made were: the spills and copies of key
/// material that a kernel's compiled code leaves there (round keys broadcast to vectors,
/// SHA-1 message schedules, chaining values), which no wipe of a named variable reaches.
///
/// Call it right after the kernel returns, from the function that called the kernel; `N`
/// covers the deepest frame the kernel makes (measured in optimised builds; see the tests
/// in `leak_tests.rs`).
///
/// On x86-64 the zeroing is a frameless assembly routine that writes from just under its
/// own return address downwards: it reaches every byte of the frames below the caller.
/// (An earlier version zeroed a local array in a function of its own; the compiler placed
/// that array up to 64 bytes below the top of its frame, and a round key that an AVX-512
/// kernel spilled just under its saved registers was left in that gap.) Elsewhere it is
/// that array, which is the best portable Rust can do.
#[inline(always)]
pub(crate) fn stack<const N: usize>() {
    #[cfg(test)]
    if dry_run(16 * N) {
        return;
    }
    #[cfg(simdcrypt_x86_64)]
    // SAFETY: `zero_below_16` writes only below its own return address, in stack that no
    // live frame uses (the caller's frame is above it), and follows the SysV ABI.
    unsafe {
        zero_below_16(16 * N as u64);
    }
    #[cfg(not(simdcrypt_x86_64))]
    stack_area::<N>();
    after_wipe();
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
    // SAFETY: the token proves the CPU runs AVX; as in `stack`.
    unsafe { zero_below_32(32 * N as u64) };
    after_wipe();
}

/// Zeroes the `bytes` bytes (a multiple of 16) of stack just below this routine's return
/// address, with 16-byte stores (SSE2, the x86-64 baseline). It has no frame of its own,
/// so its stack pointer at entry marks the area's top exactly; it clobbers only `rax`,
/// `rdx` and `xmm0` (caller-saved) and the flags.
///
/// Pseudo-code: `top = rsp; p = (top - bytes) & !15; while p + 16 <= top { store 0 at p;
/// p += 16 }; store 0 at top - 16 (unaligned: the 8 bytes an aligned walk leaves)`.
///
/// # Safety
/// Called with a stack that has `bytes` bytes mapped below the stack pointer (the frames
/// that were just there).
#[cfg(simdcrypt_x86_64)]
#[unsafe(naked)]
unsafe extern "sysv64" fn zero_below_16(bytes: u64) {
    core::arch::naked_asm!(
        "mov rax, rsp",
        "sub rax, rdi",
        "and rax, -16",
        "lea rdx, [rsp - 16]",
        "xorps xmm0, xmm0",
        "2:",
        "movaps xmmword ptr [rax], xmm0",
        "add rax, 16",
        "cmp rax, rdx",
        "jbe 2b",
        "movups xmmword ptr [rsp - 16], xmm0",
        "ret",
    );
}

/// [`zero_below_16`] with 32-byte AVX stores (`ymm0` clobbered, then `vzeroupper`).
///
/// # Safety
/// As [`zero_below_16`], and the CPU runs AVX.
#[cfg(simdcrypt_x86_64)]
#[unsafe(naked)]
unsafe extern "sysv64" fn zero_below_32(bytes: u64) {
    core::arch::naked_asm!(
        "mov rax, rsp",
        "sub rax, rdi",
        "and rax, -32",
        "lea rdx, [rsp - 32]",
        "vpxor xmm0, xmm0, xmm0",
        "2:",
        "vmovdqa ymmword ptr [rax], ymm0",
        "add rax, 32",
        "cmp rax, rdx",
        "jbe 2b",
        "vmovdqu ymmword ptr [rsp - 32], ymm0",
        "vzeroupper",
        "ret",
    );
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
