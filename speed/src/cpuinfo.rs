//! What machine this is: the CPU's name and signature, and the peers' versions.

/// The CPU brand string and its family/model/stepping, e.g.
/// `Intel(R) Xeon(R) Processor (family 6 model 207 stepping 2)`.
pub fn cpu_model() -> String {
    let brand = model_name();
    match signature() {
        Some((f, m, s)) => format!("{brand} (family {f} model {m} stepping {s})"),
        None => brand,
    }
}

/// The CPU's model name: CPUID's brand string, else /proc/cpuinfo's `model name`.
pub fn model_name() -> String {
    cpuid_brand()
        .or_else(proc_model)
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// The CPU vendor: CPUID leaf 0's string (`GenuineIntel`, `AuthenticAMD`), else
/// /proc/cpuinfo's `vendor_id`.
pub fn vendor() -> Option<String> {
    cpuid_vendor().or_else(|| proc_field("vendor_id"))
}

#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // `__cpuid` is an `unsafe fn` before Rust 1.94 (MSRV 1.89)
fn cpuid_vendor() -> Option<String> {
    use core::arch::x86_64::__cpuid;
    // SAFETY: leaf 0 exists on every x86-64 CPU.
    let r = unsafe { __cpuid(0) };
    let bytes: Vec<u8> = [r.ebx, r.edx, r.ecx]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let s = String::from_utf8_lossy(&bytes)
        .trim_matches('\0')
        .to_string();
    (!s.is_empty()).then_some(s)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_vendor() -> Option<String> {
    None
}

fn proc_field(name: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The operating system: its kind, its release name (/etc/os-release) and kernel.
pub fn os() -> String {
    let mut s = std::env::consts::OS.to_string();
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
    if let Some(p) = pretty {
        s += &format!(", {p}");
    }
    if let Ok(k) = std::fs::read_to_string("/proc/sys/kernel/osrelease") {
        s += &format!(", kernel {}", k.trim());
    }
    s
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
