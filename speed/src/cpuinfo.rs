//! What machine this is: the CPU's name and signature, and the peers' versions.

/// The CPU brand string and its family/model/stepping, e.g.
/// `Intel(R) Xeon(R) Processor (family 6 model 207 stepping 2)`.
pub fn cpu_model() -> String {
    let brand = cpuid_brand()
        .or_else(proc_model)
        .unwrap_or_else(|| "unknown CPU".to_string());
    match signature() {
        Some((f, m, s)) => format!("{brand} (family {f} model {m} stepping {s})"),
        None => brand,
    }
}

fn proc_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|s| !s.is_empty())
}

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // `__cpuid` is an `unsafe fn` before Rust 1.94 (MSRV 1.89)
fn cpuid_brand() -> Option<String> {
    use core::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaf 0x8000_0000 reports the highest
    // extended leaf.
    let max = unsafe { __cpuid(0x8000_0000) }.eax;
    if max < 0x8000_0004 {
        return None;
    }
    let mut bytes = Vec::with_capacity(48);
    for leaf in 0x8000_0002..=0x8000_0004u32 {
        // SAFETY: the leaf is at most the highest extended leaf, checked above.
        let r = unsafe { __cpuid(leaf) };
        for reg in [r.eax, r.ebx, r.ecx, r.edx] {
            bytes.extend_from_slice(&reg.to_le_bytes());
        }
    }
    let s = String::from_utf8_lossy(&bytes);
    let s = s.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!s.is_empty()).then(|| s.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_brand() -> Option<String> {
    None
}

/// Display family, model and stepping from CPUID leaf 1.
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // `__cpuid` is an `unsafe fn` before Rust 1.94 (MSRV 1.89)
pub fn signature() -> Option<(u32, u32, u32)> {
    use core::arch::x86_64::__cpuid;
    // SAFETY: leaf 1 exists on every x86-64 CPU.
    let eax = unsafe { __cpuid(1) }.eax;
    let stepping = eax & 0xf;
    let base_model = (eax >> 4) & 0xf;
    let base_family = (eax >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((eax >> 20) & 0xff)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xf {
        base_model | (((eax >> 16) & 0xf) << 4)
    } else {
        base_model
    };
    Some((family, model, stepping))
}

/// Not on x86-64: no CPUID.
#[cfg(not(target_arch = "x86_64"))]
pub fn signature() -> Option<(u32, u32, u32)> {
    None
}

/// The libcrypto version string, e.g. `OpenSSL 3.0.13 30 Jan 2024`; `None` where OpenSSL is
/// not linked in.
pub fn openssl_version() -> Option<String> {
    #[cfg(feature = "openssl")]
    return simdcrypt_oracle::openssl::version();
    #[cfg(not(feature = "openssl"))]
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn model_is_named() {
        let m = super::cpu_model();
        assert!(!m.is_empty() && !m.contains('\0'), "{m:?}");
    }
}
