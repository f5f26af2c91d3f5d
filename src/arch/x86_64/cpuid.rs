//! CPUID detection on x86-64: the features the CPU and the OS enable (`crate::cpu::detected`
//! caches them) and the CPU's signature (`crate::cpu::signature`): the one place that
//! reads CPUID.

use crate::cpu::features::{Features, Signature, Vendor};

#[allow(unused_unsafe)] // `__cpuid` is an `unsafe fn` before Rust 1.94 (MSRV 1.89)
pub(crate) fn probe() -> Features {
    use core::arch::x86_64::{__cpuid, __cpuid_count};

    let bit = |reg: u32, n: u32| reg & (1 << n) != 0;
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaf 0 reports the highest leaf.
    let max_leaf = unsafe { __cpuid(0) }.eax;
    // SAFETY: as above; leaf 1 exists on every x86-64 CPU.
    let l1 = unsafe { __cpuid(1) };
    let l7 = if max_leaf >= 7 {
        // SAFETY: leaf 7 is at most the highest leaf the CPU reports.
        unsafe { __cpuid_count(7, 0) }
    } else {
        core::arch::x86_64::CpuidResult {
            eax: 0,
            ebx: 0,
            ecx: 0,
            edx: 0,
        }
    };

    // XCR0: which register files the OS saves on a context switch.
    let osxsave = bit(l1.ecx, 27);
    let xcr0 = if osxsave {
        // SAFETY: CPUID.1:ECX.OSXSAVE says the OS enabled `xgetbv`.
        unsafe { xgetbv0() }
    } else {
        0
    };
    let ymm_state = xcr0 & 0b110 == 0b110; // XMM and YMM state
    let zmm_state = xcr0 & 0b1110_0110 == 0b1110_0110; // plus opmask, ZMM_Hi256, Hi16_ZMM

    let mut f = Features::NONE;
    let mut set = |feature: Features, present: bool| {
        if present {
            f = f.union(feature);
        }
    };
    set(Features::AES, bit(l1.ecx, 25));
    set(Features::PCLMULQDQ, bit(l1.ecx, 1));
    set(Features::SSSE3, bit(l1.ecx, 9));
    set(Features::SSE41, bit(l1.ecx, 19));
    let avx = bit(l1.ecx, 28) && ymm_state;
    set(Features::AVX, avx);
    set(Features::AVX2, avx && bit(l7.ebx, 5));
    set(Features::BMI1, bit(l7.ebx, 3));
    set(Features::BMI2, bit(l7.ebx, 8));
    set(Features::SHA, bit(l7.ebx, 29));
    set(Features::VAES, avx && bit(l7.ecx, 9));
    set(Features::VPCLMULQDQ, avx && bit(l7.ecx, 10));
    let avx512 = avx && zmm_state;
    set(Features::AVX512F, avx512 && bit(l7.ebx, 16));
    set(Features::AVX512BW, avx512 && bit(l7.ebx, 30));
    set(Features::AVX512VL, avx512 && bit(l7.ebx, 31));
    f
}

/// Reads XCR0.
///
/// # Safety
/// The CPU must support `xgetbv` and the OS must have enabled it (CPUID.1:ECX.OSXSAVE).
#[target_feature(enable = "xsave")]
unsafe fn xgetbv0() -> u64 {
    // SAFETY: the caller guarantees OSXSAVE, so `xgetbv` with ECX = 0 is defined.
    unsafe { core::arch::x86_64::_xgetbv(0) }
}

#[allow(unused_unsafe)] // `__cpuid` is an `unsafe fn` before Rust 1.94 (MSRV 1.89)
pub(crate) fn read_signature() -> Option<Signature> {
    use core::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaves 0 and 1 always exist.
    let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&l0.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&l0.edx.to_le_bytes());
    name[8..].copy_from_slice(&l0.ecx.to_le_bytes());
    let vendor = match &name {
        b"GenuineIntel" => Vendor::Intel,
        b"AuthenticAMD" => Vendor::Amd,
        _ => Vendor::Other,
    };
    let base_family = (l1.eax >> 8) & 0xf;
    let base_model = (l1.eax >> 4) & 0xf;
    // The extended fields count where the base family is 15 (and, for the model, 6 too).
    let family = if base_family == 0xf {
        base_family + ((l1.eax >> 20) & 0xff)
    } else {
        base_family
    };
    let model = if base_family == 0xf || base_family == 0x6 {
        base_model | (((l1.eax >> 16) & 0xf) << 4)
    } else {
        base_model
    };
    Some(Signature {
        vendor,
        family,
        model,
        stepping: l1.eax & 0xf,
    })
}
