//! The register half of the wipe after a keyed call on AArch64 (the stack half is
//! `crate::wipe::stack`'s portable frame): every NEON register `v0`-`v31` and the
//! general-purpose registers a call may clobber (`x0`-`x17`), where round keys, tweaks,
//! chaining values and SHA-1 states stay after a kernel returns.
//!
//! `v8`-`v15` are callee-saved in their low 64 bits only (AAPCS64): the compiler saves
//! and restores those halves around the wipe where its caller has them live, so what
//! comes back is the caller's own; their upper halves, which no one restores, are zero.

#[cfg(all(test, feature = "std"))]
pub(crate) mod leak_tests;

/// One `asm!` that zeroes each NEON register `$v` (`movi`) and each general-purpose
/// register `$x` (`mov` from `xzr`), each declared as clobbered.
macro_rules! zero {
    (v: [$($v:tt)*], x: [$($x:tt)*]) => {
        // SAFETY: writes zero into the registers it declares as clobbered and nothing else:
        // no memory, no stack, no flags.
        unsafe {
            core::arch::asm!(
                $(concat!("movi ", $v, ".16b, #0"),)*
                $(concat!("mov ", $x, ", xzr"),)*
                $(out($v) _,)*
                $(out($x) _,)*
                options(nomem, nostack, preserves_flags),
            );
        }
    };
}

/// Zeroes `v0`-`v31` and `x0`-`x17`.
#[inline(always)]
pub(crate) fn registers() {
    zero!(
        v: ["v0" "v1" "v2" "v3" "v4" "v5" "v6" "v7" "v8" "v9" "v10" "v11" "v12" "v13" "v14" "v15"
            "v16" "v17" "v18" "v19" "v20" "v21" "v22" "v23" "v24" "v25" "v26" "v27" "v28" "v29"
            "v30" "v31"],
        x: ["x0" "x1" "x2" "x3" "x4" "x5" "x6" "x7" "x8" "x9" "x10" "x11" "x12" "x13" "x14"
            "x15" "x16" "x17"]
    );
}
