//! The leak tests' register dump on AArch64 (`crate::wipe::leak_tests`): a call made
//! from inline assembly that stores the registers the instruction after it returns.

/// The general-purpose registers a call may clobber, in the order [`call_and_dump`]
/// stores them.
pub(crate) const GPRS: [&str; 18] = [
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
    "x15", "x16", "x17",
];

/// Makes the call, then stores the vector registers v0-v31 as it left them into `dump`
/// (16 bytes of each 64) and [`GPRS`] into `gprs`, from the asm block that makes the call,
/// as on x86-64 (`crate::arch::x86_64::wipe::leak_tests`).
#[inline(always)]
pub(crate) fn call_and_dump<F: FnOnce()>(call: F, dump: &mut [u8; 32 * 64], gprs: &mut [u64; 18]) {
    let mut call = Some(call);
    /// Takes the closure out of `*f` and calls it.
    extern "C" fn trampoline<F: FnOnce()>(f: *mut Option<F>) {
        // SAFETY: `call_and_dump` passes a pointer to its own `Option<F>`, live and not otherwise
        // used while the asm block below runs.
        let f = unsafe { (*f).take() };
        f.expect("the call is made once")();
    }
    let (p, g, c) = (dump.as_mut_ptr(), gprs.as_mut_ptr(), &raw mut call);
    let f = trampoline::<F> as extern "C" fn(*mut Option<F>);
    // SAFETY: as on x86-64: `f` is a C function of one pointer argument (x0: `call`,
    // live in this frame); without `nostack` the stack below the stack pointer is the
    // block's; every register the callee may change is declared clobbered
    // (`clobber_abi("C")`), and x20 and x21, callee-saved, keep `g` and `p` across
    // the call; the callee does not unwind (a panic in an `extern "C"` function
    // aborts). `g` points to 18 writable u64 and `p` to 2048 writable bytes, 64 for
    // each of the 32 registers stored (16 bytes each).
    unsafe {
        core::arch::asm!(
            "blr {f}",
            "stp x0, x1, [x20]",
            "stp x2, x3, [x20, #16]",
            "stp x4, x5, [x20, #32]",
            "stp x6, x7, [x20, #48]",
            "stp x8, x9, [x20, #64]",
            "stp x10, x11, [x20, #80]",
            "stp x12, x13, [x20, #96]",
            "stp x14, x15, [x20, #112]",
            "stp x16, x17, [x20, #128]",
            ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31",
            "str q\\r, [x21, #64 * \\r]",
            ".endr",
            f = in(reg) f,
            in("x0") c,
            in("x20") g,
            in("x21") p,
            clobber_abi("C"),
        );
    }
}
