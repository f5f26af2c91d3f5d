//! The leak tests' register dump on x86-64 (`crate::wipe::leak_tests`): a call made
//! from inline assembly that stores the registers the instruction after it returns.

/// The general-purpose registers a call may clobber, in the order [`call_and_dump`]
/// stores them.
pub(crate) const GPRS: [&str; 9] = ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"];

/// Makes the call, then stores the vector registers as it left them into `dump`: 64 bytes
/// for each of zmm0-31 (with AVX-512 F), ymm0-15 (with AVX) or xmm0-15, leaving the rest;
/// and [`GPRS`] into the first 9 words of `gprs`.
///
/// One asm block makes the call (through `trampoline`, a SysV function) and stores the
/// registers the instruction after it returns, through pointers held in callee-saved
/// registers, so no compiled code runs in between to overwrite them. A panic in the call
/// aborts the test binary (its message printed first): unwinding out of an asm block is
/// not stable Rust, and catching it in `trampoline` would put code that writes registers
/// (at opt-level 0, the catch's returned `Result`) after the call.
#[inline(always)]
pub(crate) fn call_and_dump<F: FnOnce()>(call: F, dump: &mut [u8; 32 * 64], gprs: &mut [u64; 18]) {
    /// Takes the closure out of `*f` and calls it.
    extern "sysv64" fn trampoline<F: FnOnce()>(f: *mut Option<F>) {
        // SAFETY: `call_and_dump` passes a pointer to its own `Option<F>`, live and not otherwise
        // used while the asm block below runs.
        let f = unsafe { (*f).take() };
        f.expect("the call is made once")();
    }
    let mut call = Some(call);
    let (avx, avx512) = (
        std::arch::is_x86_feature_detected!("avx"),
        std::arch::is_x86_feature_detected!("avx512f"),
    );
    let (p, g, c) = (dump.as_mut_ptr(), gprs.as_mut_ptr(), &raw mut call);
    let f = trampoline::<F> as extern "sysv64" fn(*mut Option<F>);
    // The call, the stores of the general-purpose registers (`g`, r12) and then
    // `$store`, those of the vector registers (`p`, r13).
    macro_rules! call_and_dump {
        ($($store:tt)*) => {
            core::arch::asm!(
                "call {f}",
                "mov qword ptr [r12], rax",
                "mov qword ptr [r12 + 8], rcx",
                "mov qword ptr [r12 + 16], rdx",
                "mov qword ptr [r12 + 24], rsi",
                "mov qword ptr [r12 + 32], rdi",
                "mov qword ptr [r12 + 40], r8",
                "mov qword ptr [r12 + 48], r9",
                "mov qword ptr [r12 + 56], r10",
                "mov qword ptr [r12 + 64], r11",
                $($store)*,
                f = in(reg) f,
                in("rdi") c,
                in("r12") g,
                in("r13") p,
                clobber_abi("sysv64"),
            )
        };
    }
    // SAFETY: `f` is a SysV function of one pointer argument (rdi: `call`, live in this
    // frame); without `nostack` the stack pointer is aligned for the call and the stack
    // below it is the block's; every register the callee may change is declared
    // clobbered (`clobber_abi("sysv64")`), and r12 and r13, callee-saved, keep `g` and
    // `p` across the call; the callee does not unwind (a panic in an `extern "sysv64"`
    // function aborts).
    // `g` points to 9 writable u64 and `p` to 2048 writable bytes, 64 for each vector
    // register stored; each form runs only where the CPU has its registers.
    unsafe {
        if avx512 {
            call_and_dump!(concat!(
                ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,",
                "24,25,26,27,28,29,30,31\n",
                "vmovdqu64 zmmword ptr [r13 + 64 * \\r], zmm\\r\n",
                ".endr",
            ));
        } else if avx {
            call_and_dump!(concat!(
                ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n",
                "vmovdqu ymmword ptr [r13 + 64 * \\r], ymm\\r\n",
                ".endr",
            ));
        } else {
            call_and_dump!(concat!(
                ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n",
                "movdqu xmmword ptr [r13 + 64 * \\r], xmm\\r\n",
                ".endr",
            ));
        }
    }
}
