//! The x86-64 stack and register wipes of `crate::wipe`: inline
//! assembly that lowers the stack pointer over the area, stores zeros from the top down and
//! restores it, then clears the vector registers and the caller-saved general-purpose
//! registers with zero idioms.

#[cfg(all(test, feature = "std"))]
pub(crate) mod leak_tests;

#[cfg(test)]
use crate::wipe::reach::{dry_run, stack_pointer};

/// Of a wipe of `n16` 16-byte stores, how many are written out before the loop of four:
/// all of them up to 512 bytes, else the odd ones.
const fn unrolled(n16: usize) -> usize {
    if n16 <= 32 { n16 } else { n16 % 8 }
}

/// [`crate::wipe::stack`]'s stores below the caller's stack pointer, then [`registers`].
#[inline(always)]
pub(crate) fn stack_xmm<const BYTES: usize>() {
    // (Up to 512 bytes the stores written out, deeper the odd ones and then a loop of four,
    // each addressed from the stack pointer: docs/design.md, "Stack and register wipes".)
    // SAFETY: without `nostack` the stack pointer is aligned for a call (16 bytes) and
    // the stack below it belongs to the asm block, which restores the stack pointer; the
    // stores stay in the `BYTES` bytes (a multiple of 16: the site's depth and
    // margin) below it, written from the top down, so the first touch
    // of an unmapped guard page faults. The stack pointer is lowered over the area first,
    // so that nothing is written below it (where a signal handler's frame could go, and
    // which valgrind reports). Every register the C ABI lets a call clobber is declared
    // clobbered.
    unsafe {
        core::arch::asm!(
            "sub rsp, {bytes}",
            "xorps xmm0, xmm0",
            ".set simdcrypt_wipe_off, {bytes}",
            ".rept {odd}",
            ".set simdcrypt_wipe_off, simdcrypt_wipe_off - 16",
            "movaps xmmword ptr [rsp + simdcrypt_wipe_off], xmm0",
            ".endr",
            "lea rax, [rsp + simdcrypt_wipe_off]",
            "cmp rax, rsp",
            "je 3f",
            "2:",
            "movaps xmmword ptr [rax - 16], xmm0",
            "movaps xmmword ptr [rax - 32], xmm0",
            "movaps xmmword ptr [rax - 48], xmm0",
            "movaps xmmword ptr [rax - 64], xmm0",
            "sub rax, 64",
            "cmp rax, rsp",
            "jne 2b",
            "3:",
            "add rsp, {bytes}",
            odd = const unrolled(BYTES / 16),
            bytes = const BYTES / 16 * 16,
            clobber_abi("C"),
        );
    }
    registers();
}

/// The asm that zeroes xmm0-15.
macro_rules! zero_xmm {
    () => {
        concat!(
            "xorps xmm1, xmm1\n",
            "xorps xmm2, xmm2\n",
            "xorps xmm3, xmm3\n",
            "xorps xmm4, xmm4\n",
            "xorps xmm5, xmm5\n",
            "xorps xmm6, xmm6\n",
            "xorps xmm7, xmm7\n",
            "xorps xmm8, xmm8\n",
            "xorps xmm9, xmm9\n",
            "xorps xmm10, xmm10\n",
            "xorps xmm11, xmm11\n",
            "xorps xmm12, xmm12\n",
            "xorps xmm13, xmm13\n",
            "xorps xmm14, xmm14\n",
            "xorps xmm15, xmm15\n",
            "xorps xmm0, xmm0",
        )
    };
}

/// The asm that zeroes zmm16-31 (`$w`: "xmm" for the EVEX 128-bit forms, which need
/// AVX-512 VL, or "zmm"); each clears the whole register.
macro_rules! zero_evex_high {
    ($w:literal) => {
        concat!(
            concat!("vpxord ", $w, "16, ", $w, "16, ", $w, "16\n"),
            concat!("vpxord ", $w, "17, ", $w, "17, ", $w, "17\n"),
            concat!("vpxord ", $w, "18, ", $w, "18, ", $w, "18\n"),
            concat!("vpxord ", $w, "19, ", $w, "19, ", $w, "19\n"),
            concat!("vpxord ", $w, "20, ", $w, "20, ", $w, "20\n"),
            concat!("vpxord ", $w, "21, ", $w, "21, ", $w, "21\n"),
            concat!("vpxord ", $w, "22, ", $w, "22, ", $w, "22\n"),
            concat!("vpxord ", $w, "23, ", $w, "23, ", $w, "23\n"),
            concat!("vpxord ", $w, "24, ", $w, "24, ", $w, "24\n"),
            concat!("vpxord ", $w, "25, ", $w, "25, ", $w, "25\n"),
            concat!("vpxord ", $w, "26, ", $w, "26, ", $w, "26\n"),
            concat!("vpxord ", $w, "27, ", $w, "27, ", $w, "27\n"),
            concat!("vpxord ", $w, "28, ", $w, "28, ", $w, "28\n"),
            concat!("vpxord ", $w, "29, ", $w, "29, ", $w, "29\n"),
            concat!("vpxord ", $w, "30, ", $w, "30, ", $w, "30\n"),
            concat!("vpxord ", $w, "31, ", $w, "31, ", $w, "31\n"),
        )
    };
}

/// The asm that zeroes the general-purpose registers a SysV call may clobber (rax, rcx,
/// rdx, rsi, rdi, r8-r11): a kernel's scalar code (SHA-1 rounds, the assembly's chaining
/// words) leaves key-derived words there. A 32-bit `xor` is a zero idiom (no execution
/// unit, no dependency) and clears the whole 64-bit register.
macro_rules! zero_gpr {
    () => {
        concat!(
            "xor eax, eax\n",
            "xor ecx, ecx\n",
            "xor edx, edx\n",
            "xor esi, esi\n",
            "xor edi, edi\n",
            "xor r8d, r8d\n",
            "xor r9d, r9d\n",
            "xor r10d, r10d\n",
            "xor r11d, r11d",
        )
    };
}

/// The asm that zeroes ymm/zmm0-15 by VEX zero idioms, then `vzeroupper`.
macro_rules! zero_vex {
    () => {
        concat!(
            "vpxor xmm0, xmm0, xmm0\n",
            "vpxor xmm1, xmm1, xmm1\n",
            "vpxor xmm2, xmm2, xmm2\n",
            "vpxor xmm3, xmm3, xmm3\n",
            "vpxor xmm4, xmm4, xmm4\n",
            "vpxor xmm5, xmm5, xmm5\n",
            "vpxor xmm6, xmm6, xmm6\n",
            "vpxor xmm7, xmm7, xmm7\n",
            "vpxor xmm8, xmm8, xmm8\n",
            "vpxor xmm9, xmm9, xmm9\n",
            "vpxor xmm10, xmm10, xmm10\n",
            "vpxor xmm11, xmm11, xmm11\n",
            "vpxor xmm12, xmm12, xmm12\n",
            "vpxor xmm13, xmm13, xmm13\n",
            "vpxor xmm14, xmm14, xmm14\n",
            "vpxor xmm15, xmm15, xmm15\n",
            "vzeroupper",
        )
    };
}

/// Zeroes the vector registers a kernel may leave key material in, as far as this CPU has
/// them: xmm0-15 (the SSE kernels write no upper halves, and the AVX kernels' wipe is
/// [`stack_ymm`]), and zmm16-31 with AVX-512 F, which the C library's `memcpy` on AVX-512
/// CPUs copies through (ymm16-31) even where no kernel of ours uses them; then the
/// caller-saved general-purpose registers (`zero_gpr!`). Zero idioms only (`xorps`,
/// EVEX `vpxord`, 32-bit `xor`), which cost no execution unit. Inline at every site: a
/// call each cost short calls more (docs/design.md, "Stack and register wipes").
#[inline(always)]
fn registers() {
    high_registers_where_present();
    // SAFETY: SSE2 is part of x86-64. Every register written (xmm0-15, the general-purpose
    // registers of `zero_gpr!`) is caller-saved in the SysV ABI and declared clobbered by
    // `clobber_abi("sysv64")`, which on a Windows target (where rsi, rdi and xmm6-15 are
    // callee-saved) makes the compiler save and restore them around the block. The flags
    // are written, which a block without `preserves_flags` may do.
    unsafe { core::arch::asm!(zero_xmm!(), zero_gpr!(), clobber_abi("sysv64")) };
}

/// Zeroes zmm16-31 where this CPU has them (AVX-512 F).
#[inline(always)]
fn high_registers_where_present() {
    let f = crate::cpu::detected();
    if f.contains(crate::cpu::Features::AVX512F) {
        high_registers(f.contains(crate::cpu::Features::AVX512VL));
    }
}

/// Zeroes zmm16-31, on a CPU with AVX-512 F (with VL: the 128-bit EVEX forms).
#[inline(always)]
fn high_registers(vl: bool) {
    if vl {
        // SAFETY: the caller has seen AVX-512 F and VL; zmm16-31 are caller-saved and
        // declared clobbered.
        unsafe { core::arch::asm!(zero_evex_high!("xmm"), clobber_abi("C")) };
    } else {
        // SAFETY: the caller has seen AVX-512 F; as above.
        unsafe { core::arch::asm!(zero_evex_high!("zmm"), clobber_abi("C")) };
    }
}

/// [`stack_avx`]'s and [`stack_avx512`]'s work, for a caller that has proved
/// AVX (and, with `ZMM`, AVX-512 F).
#[inline(always)]
#[cfg_attr(test, track_caller)]
pub(crate) fn stack_ymm<const BYTES: usize, const ZMM: bool>() {
    #[cfg(test)]
    if dry_run(BYTES, stack_pointer()) {
        return;
    }
    if ZMM {
        // (The tokens that prove AVX-512 include VL.)
        high_registers(true);
    } else {
        high_registers_where_present();
    }
    // SAFETY: the caller's token proves AVX; as in `stack_xmm`, the stack pointer is
    // lowered over the area (`BYTES`, rounded up to 32, and 32 more bytes) and
    // restored, and the stores stay in it, from the top down (one unaligned store for the
    // top 32 bytes, then aligned ones from the old stack pointer rounded down to 32, the
    // odd ones and then a loop of four, as in `stack_xmm`). Every register the C ABI lets
    // a call clobber is declared clobbered: `zero_vex!` zeroes ymm0-15 (zmm0-15) whole.
    unsafe {
        core::arch::asm!(
            "mov rax, rsp",
            "and rax, -32",
            "sub rsp, {bytes}",
            "vpxor xmm0, xmm0, xmm0",
            "vmovdqu ymmword ptr [rsp + {bytes} - 32], ymm0",
            ".set simdcrypt_wipe_off, 0",
            ".rept {odd}",
            ".set simdcrypt_wipe_off, simdcrypt_wipe_off + 32",
            "vmovdqa ymmword ptr [rax - simdcrypt_wipe_off], ymm0",
            ".endr",
            "sub rax, simdcrypt_wipe_off",
            "lea rcx, [rax - {looped}]",
            "cmp rax, rcx",
            "je 3f",
            "2:",
            "vmovdqa ymmword ptr [rax - 32], ymm0",
            "vmovdqa ymmword ptr [rax - 64], ymm0",
            "vmovdqa ymmword ptr [rax - 96], ymm0",
            "vmovdqa ymmword ptr [rax - 128], ymm0",
            "sub rax, 128",
            "cmp rax, rcx",
            "jne 2b",
            "3:",
            "add rsp, {bytes}",
            odd = const unrolled(BYTES.div_ceil(32) * 2) / 2,
            looped = const (BYTES.div_ceil(32) - unrolled(BYTES.div_ceil(32) * 2) / 2)
                * 32,
            bytes = const BYTES.div_ceil(32) * 32 + 32,
            clobber_abi("C"),
        );
    }
    vex_registers();
}

/// Zeroes ymm0-15 (zmm0-15 whole) by VEX zero idioms, then `vzeroupper`, and the
/// caller-saved general-purpose registers (`zero_gpr!`): the end of [`stack_ymm`],
/// inline as [`registers`].
#[inline(always)]
fn vex_registers() {
    // SAFETY: only called after code that the caller's token proved AVX for (so VEX
    // encodings run). As in `registers`, every register written (ymm0-15, the
    // general-purpose registers of `zero_gpr!`) is caller-saved in the SysV ABI and
    // declared clobbered by `clobber_abi("sysv64")` (saved and restored around the block
    // where the target's ABI has some of them callee-saved).
    unsafe { core::arch::asm!(zero_vex!(), zero_gpr!(), clobber_abi("sysv64")) };
}

/// [`crate::wipe::stack`] for callers whose CPU has AVX (the token proves it): one 32-byte store per
/// 32 bytes (`N` counts them), half the stores of [`crate::wipe::stack`] for the deep frames of the
/// VAES kernels, and VEX zero idioms for the vector registers (ymm0-15 whole); the
/// general-purpose registers as in [`crate::wipe::stack`].
#[inline(always)]
#[cfg_attr(test, track_caller)]
pub(crate) fn stack_avx<const BYTES: usize>(_avx: impl Avx) {
    stack_ymm::<BYTES, false>();
}

/// [`stack_avx`] after AVX-512 code (the token proves the CPU has it, so no feature check):
/// zmm16-31 zeroed too ([`stack_avx`] checks the CPU for them).
#[inline(always)]
#[cfg_attr(test, track_caller)]
pub(crate) fn stack_avx512<const BYTES: usize>(_avx512: impl Avx512) {
    stack_ymm::<BYTES, true>();
}

/// Marker traits of the tokens that prove a register file.
macro_rules! proven_by {
    ($($(#[$doc:meta])* $tr:ident: $($t:ident),+;)*) => {$(
        $(#[$doc])*
        pub(crate) trait $tr: Copy {}
        $(impl $tr for crate::cpu::$t {})+
    )*};
}

proven_by! {
    /// Tokens that prove AVX (and so VEX zero idioms and 32-byte stores).
    Avx: VaesAvx2Token, Avx2Token;
    /// Tokens that prove AVX-512 F (zmm16-31 exist).
    Avx512: VaesAvx512Token, Avx512Token;
}
