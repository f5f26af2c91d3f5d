use crate::cpu::ShaNiToken;
use crate::sha1::Run;

// The symbols carry the crate version's prefix (build.rs, asm/simdcrypt_asm.h).
unsafe extern "sysv64" {
    #[link_name = concat!(env!("SIMDCRYPT_ASM_PREFIX"), "sha1_shani_compress")]
    fn simdcrypt_sha1_shani_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
    #[link_name = concat!(env!("SIMDCRYPT_ASM_PREFIX"), "sha1_shani_compress2")]
    fn simdcrypt_sha1_shani_compress2(
        state_a: *mut u32,
        blocks_a: *const u8,
        state_b: *mut u32,
        blocks_b: *const u8,
        nblocks: usize,
    );
}

/// Compresses `blocks` into `state` (H0..H4) with the SHA-NI assembly kernel.
#[inline]
pub(crate) fn compress(_t: ShaNiToken, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves SHA-NI, SSSE3 and SSE4.1, all the kernel uses; it reads no
    // block past the last one.
    unsafe { one_stream(simdcrypt_sha1_shani_compress, state, blocks) }
}

/// Runs the assembly one-stream kernel `kernel(state, blocks, number of blocks)` over
/// `blocks` (none: no call, as the kernels take at least one block).
///
/// # Safety
/// The CPU has every feature `kernel` uses, and `kernel` reads no byte outside the blocks
/// it is given, writes only the five words at `state` and its own aligned stack frame,
/// and follows the SysV ABI (callee-saved registers restored).
#[inline(always)]
pub(crate) unsafe fn one_stream(
    kernel: unsafe extern "sysv64" fn(*mut u32, *const u8, usize),
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
) {
    if blocks.is_empty() {
        return;
    }
    // SAFETY: `state` is 5 writable words and `blocks` is `blocks.len() * 64` readable
    // bytes, the kernel's whole reach (the caller's contract for the rest).
    unsafe { kernel(state.as_mut_ptr(), blocks.as_ptr().cast(), blocks.len()) }
}

/// Compresses two independent messages at once: `blocks_a` into `a` and `blocks_b` into
/// `b`, interleaved. Meant for equal lengths (`blocks_a.len() == blocks_b.len()`); if they
/// differ, the common prefix runs interleaved and the rest of the longer one alone, so the
/// result is always the same as two [`compress`] calls.
#[inline]
pub(crate) fn compress2(t: ShaNiToken, (a, blocks_a): Run, (b, blocks_b): Run) {
    let n = blocks_a.len().min(blocks_b.len());
    if n > 0 {
        // SAFETY: the token proves SHA-NI, SSSE3 and SSE4.1, all the kernel uses. `a` and
        // `b` are distinct 5-word states (two `&mut`), and both block pointers are
        // readable for `n * 64` bytes; the kernel reads no block past the last one and
        // writes only the two states and its own aligned stack frame (SysV ABI).
        unsafe {
            simdcrypt_sha1_shani_compress2(
                a.as_mut_ptr(),
                blocks_a.as_ptr().cast(),
                b.as_mut_ptr(),
                blocks_b.as_ptr().cast(),
                n,
            )
        }
    }
    compress(t, a, &blocks_a[n..]);
    compress(t, b, &blocks_b[n..]);
}

#[cfg(test)]
mod tests;
