//! The stack pointer, for the leak tests and the dry runs of the wipes (test builds only):
//! one instruction where `build.rs` sets `simdcrypt_sp` (x86-64 and AArch64, in `pure`
//! builds too), a local's address elsewhere.

/// The stack pointer where this is inlined: in a wipe, where its area starts (in the
/// leak tests, where a checked call's caller stands).
#[inline(always)]
pub(crate) fn pointer() -> usize {
    #[cfg(simdcrypt_sp_x86_64)]
    {
        let sp: usize;
        // SAFETY: reads the stack pointer into a register; no memory is touched.
        unsafe {
            core::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(simdcrypt_sp_aarch64)]
    {
        let sp: usize;
        // SAFETY: reads the stack pointer into a register; no memory is touched.
        unsafe {
            core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(not(simdcrypt_sp))]
    {
        let marker = 0u8;
        core::hint::black_box(&marker) as *const u8 as usize
    }
}
