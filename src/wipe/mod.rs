//! Zeroing of secret or key-derived memory with stores the compiler keeps.
//!
//! 16 bytes per volatile store, not `zeroize`'s one per element (docs/design.md, "Stack
//! and register wipes").

use core::sync::atomic::{Ordering, compiler_fence};

#[cfg(all(test, feature = "std"))]
mod leak_tests;
pub(crate) mod reach;
#[cfg(all(test, feature = "std"))]
pub(crate) use reach::LEVEL;
pub(crate) use reach::depth;
#[cfg(test)]
use reach::dry_run;
#[cfg(all(test, feature = "std"))]
pub(crate) use reach::repaint;
#[cfg(test)]
pub(crate) use reach::stack_pointer;
#[cfg(all(test, feature = "std"))]
pub(crate) use reach::{DRY, LOWEST, PAINT, PAINTED, REACH, SITES};

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

/// Overwrites with zeros the stack just below the caller's stack pointer, where the frames
/// of the calls it just made were (the spills and copies of key material that a kernel's
/// compiled code leaves there: round keys broadcast to vectors, SHA-1 message schedules,
/// chaining values, which no wipe of a named variable reaches), the vector registers
/// the kernel may have left key material in (xmm0-15, and zmm16-31 on AVX-512 CPUs), and
/// the general-purpose registers a call may clobber (rax, rcx, rdx, rsi, rdi, r8-r11,
/// where scalar SHA-1 rounds leave chaining words).
///
/// Call it right after the kernel returns, from the function that called the kernel (the
/// kernel entries are `#[inline(never)]`, so their frames lie below that function's).
/// `BYTES` is how far it reaches: [`depth`] of the site's measured depths, which picks the
/// one measured at this build's optimisation level and adds a margin
/// (`leak_tests::wipes_reach_as_deep_as_calls_write` checks them, docs/design.md "Stack
/// and register wipes"). Up to 512 bytes the stores are written out, deeper a loop of
/// four stores a pass.
///
/// The stores go from the top of the area down, 16 or 32 bytes apart, so that a stack
/// about to overflow faults on its guard page instead of writing past it.
///
/// On x86-64 the zeroing is inline assembly in the caller below its stack pointer
/// (lowered over the area while it writes). Elsewhere it is a local array in a frame of
/// its own (docs/design.md, "Stack and register wipes": AArch64, and where it stops).
#[inline(always)]
#[cfg_attr(test, track_caller)]
pub(crate) fn stack<const BYTES: usize>() {
    const {
        assert!(
            BYTES.is_multiple_of(16),
            "a wipe covers whole 16-byte chunks"
        )
    };
    #[cfg(test)]
    if dry_run(BYTES, stack_pointer()) {
        return;
    }
    #[cfg(simdcrypt_x86_64)]
    crate::arch::x86_64::wipe::stack_xmm::<BYTES>();
    #[cfg(not(simdcrypt_x86_64))]
    {
        stack_area::<BYTES>();
        after_wipe();
    }
    #[cfg(simdcrypt_aarch64)]
    crate::arch::aarch64::wipe::registers();
}

/// [`stack`]'s work where there is no assembly: its frame is the area, written from the
/// top down.
#[cfg(not(simdcrypt_x86_64))]
#[inline(never)]
fn stack_area<const BYTES: usize>() {
    let mut area = core::mem::MaybeUninit::<Area<BYTES>>::uninit();
    let p = area.as_mut_ptr().cast::<Chunk>();
    for i in (0..size_of::<Area<BYTES>>() / 16).rev() {
        // SAFETY: `i` is below the area's size in 16-byte chunks (`BYTES` is a multiple of
        // 16, checked in `stack`, and `repr(align(16))` aligns it): an aligned chunk of the
        // local area, written (never read) as a whole.
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

/// `BYTES` bytes of stack, 16-aligned.
#[cfg(not(simdcrypt_x86_64))]
#[repr(C, align(16))]
struct Area<const BYTES: usize>([u8; BYTES]);

/// A 16-byte chunk.
#[cfg(not(simdcrypt_x86_64))]
type Chunk = u128;
#[cfg(not(simdcrypt_x86_64))]
const ZERO: Chunk = 0;

#[cfg(test)]
mod tests;
