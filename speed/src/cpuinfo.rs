//! What machine this is: the CPU's name and signature, and the peers' versions.

/// The CPU brand string and its family/model/stepping, e.g.
/// `Intel(R) Xeon(R) Processor (family 6 model 207 stepping 2)`; on Arm, the core's name
/// and its identification register, e.g. `ARM Neoverse-N1 (implementer 0x41 part 0xd0c
/// r3p1)`.
pub fn cpu_model() -> String {
    let brand = model_name();
    if let Some((f, m, s)) = signature() {
        return format!("{brand} (family {f} model {m} stepping {s})");
    }
    let cores = proc_cpuinfo().map_or_else(Vec::new, |t| arm_cores(&t));
    if cores.is_empty() {
        return brand;
    }
    let ids: Vec<String> = cores.iter().map(|c| c.id()).collect();
    format!("{brand} ({})", ids.join("; "))
}

/// The CPU's model name: CPUID's brand string, else (Arm on Linux) the cores named from
/// /proc/cpuinfo's `CPU implementer` and `CPU part`, else its `model name`, else (macOS)
/// `sysctl machdep.cpu.brand_string`.
pub fn model_name() -> String {
    cpuid_brand()
        .or_else(|| proc_cpuinfo().and_then(|t| arm_name(&arm_cores(&t))))
        .or_else(proc_model)
        .or_else(sysctl_brand)
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// The CPU vendor: CPUID leaf 0's string (`GenuineIntel`, `AuthenticAMD`), else
/// /proc/cpuinfo's `vendor_id`, else (Arm) the implementer's name (`ARM`, `Ampere`), else
/// `Apple` where macOS names an Apple chip.
pub fn vendor() -> Option<String> {
    cpuid_vendor()
        .or_else(|| proc_field("vendor_id"))
        .or_else(|| {
            let cores = arm_cores(&proc_cpuinfo()?);
            Some(cores.first()?.vendor()?.to_string())
        })
        .or_else(|| {
            sysctl_brand()
                .filter(|b| b.starts_with("Apple"))
                .map(|_| "Apple".to_string())
        })
}

fn proc_cpuinfo() -> Option<String> {
    std::fs::read_to_string("/proc/cpuinfo").ok()
}

/// One kind of Arm core, from the fields of its `MIDR_EL1` that Linux prints in
/// /proc/cpuinfo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmCore {
    /// `CPU implementer` (0x41 is Arm).
    pub implementer: u32,
    /// `CPU part` (0xd0c is Neoverse N1).
    pub part: u32,
    /// `CPU variant` (the `r` of `r3p1`).
    pub variant: u32,
    /// `CPU revision` (the `p` of `r3p1`).
    pub revision: u32,
}

/// Arm's implementer codes and names (as lscpu prints them).
const ARM_IMPLEMENTERS: &[(u32, &str)] = &[
    (0x41, "ARM"),
    (0x42, "Broadcom"),
    (0x43, "Cavium"),
    (0x46, "Fujitsu"),
    (0x48, "HiSilicon"),
    (0x4e, "NVIDIA"),
    (0x50, "APM"),
    (0x51, "Qualcomm"),
    (0x53, "Samsung"),
    (0x56, "Marvell"),
    (0x61, "Apple"),
    (0x6d, "Microsoft"),
    (0x70, "Phytium"),
    (0xc0, "Ampere"),
];

/// (implementer, part, name) of the cores likely to run the tool.
const ARM_PARTS: &[(u32, u32, &str)] = &[
    (0x41, 0xd03, "Cortex-A53"),
    (0x41, 0xd04, "Cortex-A35"),
    (0x41, 0xd05, "Cortex-A55"),
    (0x41, 0xd07, "Cortex-A57"),
    (0x41, 0xd08, "Cortex-A72"),
    (0x41, 0xd09, "Cortex-A73"),
    (0x41, 0xd0a, "Cortex-A75"),
    (0x41, 0xd0b, "Cortex-A76"),
    (0x41, 0xd0c, "Neoverse-N1"),
    (0x41, 0xd0d, "Cortex-A77"),
    (0x41, 0xd40, "Neoverse-V1"),
    (0x41, 0xd41, "Cortex-A78"),
    (0x41, 0xd44, "Cortex-X1"),
    (0x41, 0xd46, "Cortex-A510"),
    (0x41, 0xd47, "Cortex-A710"),
    (0x41, 0xd48, "Cortex-X2"),
    (0x41, 0xd49, "Neoverse-N2"),
    (0x41, 0xd4a, "Neoverse-E1"),
    (0x41, 0xd4d, "Cortex-A715"),
    (0x41, 0xd4e, "Cortex-X3"),
    (0x41, 0xd4f, "Neoverse-V2"),
    (0x41, 0xd80, "Cortex-A520"),
    (0x41, 0xd81, "Cortex-A720"),
    (0x41, 0xd82, "Cortex-X4"),
    (0x41, 0xd84, "Neoverse-V3"),
    (0x41, 0xd85, "Cortex-X925"),
    (0x41, 0xd87, "Cortex-A725"),
    (0x41, 0xd8e, "Neoverse-N3"),
    (0x46, 0x001, "A64FX"),
    (0x48, 0xd01, "Kunpeng-920"),
    (0x4e, 0x004, "Carmel"),
    (0x6d, 0xd49, "Azure-Cobalt-100"),
    (0xc0, 0xac3, "Ampere-1"),
    (0xc0, 0xac4, "Ampere-1a"),
];

impl ArmCore {
    /// The implementer's name, where known.
    pub fn vendor(self) -> Option<&'static str> {
        ARM_IMPLEMENTERS
            .iter()
            .find(|(i, _)| *i == self.implementer)
            .map(|(_, n)| *n)
    }

    /// `ARM Neoverse-N1`; `ARM part 0xd8f` for a part not in the table; `implementer
    /// 0x99 part 0x001` for an implementer not in it.
    pub fn name(self) -> String {
        let part = ARM_PARTS
            .iter()
            .find(|(i, p, _)| *i == self.implementer && *p == self.part)
            .map(|(_, _, n)| *n);
        match (self.vendor(), part) {
            (Some(v), Some(p)) => format!("{v} {p}"),
            (Some(v), None) => format!("{v} part {:#05x}", self.part),
            (None, _) => format!(
                "implementer {:#04x} part {:#05x}",
                self.implementer, self.part
            ),
        }
    }

    /// `implementer 0x41 part 0xd0c r3p1`.
    pub fn id(self) -> String {
        format!(
            "implementer {:#04x} part {:#05x} r{}p{}",
            self.implementer, self.part, self.variant, self.revision
        )
    }
}

/// The distinct cores that a Linux /proc/cpuinfo lists (one per kind on big.LITTLE
/// machines; none where it names no `CPU implementer` and `CPU part`, as on x86).
pub fn arm_cores(cpuinfo: &str) -> Vec<ArmCore> {
    let number = |v: &str| {
        let v = v.trim();
        match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => v.parse().ok(),
        }
    };
    let mut cores: Vec<ArmCore> = Vec::new();
    // A processor's block ends at a blank line (older kernels print the fields once, after
    // every `processor` line).
    for block in cpuinfo.split("\n\n") {
        let field = |name: &str| {
            block
                .lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(k, _)| k.trim() == name)
                .and_then(|(_, v)| number(v))
        };
        let (Some(implementer), Some(part)) = (field("CPU implementer"), field("CPU part")) else {
            continue;
        };
        let core = ArmCore {
            implementer,
            part,
            variant: field("CPU variant").unwrap_or(0),
            revision: field("CPU revision").unwrap_or(0),
        };
        if !cores.contains(&core) {
            cores.push(core);
        }
    }
    cores
}

/// The cores' names, each kind once (`ARM Cortex-X1 + ARM Cortex-A55`); `None` without any.
fn arm_name(cores: &[ArmCore]) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for n in cores.iter().map(|c| c.name()) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    (!names.is_empty()).then(|| names.join(" + "))
}

/// macOS's `machdep.cpu.brand_string` (`Apple M1`).
#[cfg(target_os = "macos")]
fn sysctl_brand() -> Option<String> {
    let name = c"machdep.cpu.brand_string";
    let mut len: libc::size_t = 0;
    // SAFETY: `name` is NUL-terminated; a null buffer asks for the length alone.
    let rc = unsafe {
        libc::sysctlbyname(
            name.as_ptr(),
            std::ptr::null_mut(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    if rc != 0 || len == 0 {
        return None;
    }
    let mut buf = vec![0u8; len];
    // SAFETY: `buf` has `len` writable bytes, and `len` says so.
    let rc = unsafe {
        libc::sysctlbyname(
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    if rc != 0 {
        return None;
    }
    buf.truncate(len);
    let s = String::from_utf8_lossy(&buf);
    let s = s.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!s.is_empty()).then(|| s.to_string())
}

#[cfg(not(target_os = "macos"))]
fn sysctl_brand() -> Option<String> {
    None
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
    use super::*;

    #[test]
    fn model_is_named() {
        let m = super::cpu_model();
        assert!(!m.is_empty() && !m.contains('\0'), "{m:?}");
    }

    /// One Neoverse N1 processor's lines after its number, as arm64 Linux prints them.
    const NEOVERSE_N1: &str = "BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x3
CPU part\t: 0xd0c
CPU revision\t: 1
";

    /// The two processors of an AWS Graviton2 (Neoverse N1), a blank line between them.
    fn graviton2() -> String {
        format!("processor\t: 0\n{NEOVERSE_N1}\nprocessor\t: 1\n{NEOVERSE_N1}")
    }

    #[test]
    fn names_a_neoverse_n1() {
        let cores = arm_cores(&graviton2());
        let n1 = ArmCore {
            implementer: 0x41,
            part: 0xd0c,
            variant: 3,
            revision: 1,
        };
        assert_eq!(cores, [n1]);
        assert_eq!(n1.vendor(), Some("ARM"));
        assert_eq!(arm_name(&cores).as_deref(), Some("ARM Neoverse-N1"));
        assert_eq!(n1.id(), "implementer 0x41 part 0xd0c r3p1");
    }

    #[test]
    fn names_the_server_cores() {
        let name = |implementer, part| {
            ArmCore {
                implementer,
                part,
                variant: 0,
                revision: 0,
            }
            .name()
        };
        assert_eq!(name(0x41, 0xd40), "ARM Neoverse-V1");
        assert_eq!(name(0x41, 0xd4f), "ARM Neoverse-V2");
        assert_eq!(name(0x41, 0xd49), "ARM Neoverse-N2");
        assert_eq!(name(0x41, 0xd08), "ARM Cortex-A72");
        assert_eq!(name(0xc0, 0xac3), "Ampere Ampere-1");
        // A part or an implementer not in the tables still names the core exactly.
        assert_eq!(name(0x41, 0xd8f), "ARM part 0xd8f");
        assert_eq!(name(0x99, 0x001), "implementer 0x99 part 0x001");
    }

    /// big.LITTLE: each kind of core once, in the order listed; an older kernel's single
    /// block after every `processor` line; decimal fields.
    #[test]
    fn lists_each_kind_of_core_once() {
        let block = |part: &str| {
            format!(
                "processor\t: 0\nCPU implementer\t: 0x41\nCPU variant\t: 0x1\n\
                 CPU part\t: {part}\nCPU revision\t: 0\n"
            )
        };
        let text = [
            block("0xd05"),
            block("0xd05"),
            block("0xd44"),
            block("0xd05"),
        ]
        .join("\n");
        let cores = arm_cores(&text);
        assert_eq!(cores.len(), 2);
        assert_eq!(
            arm_name(&cores).as_deref(),
            Some("ARM Cortex-A55 + ARM Cortex-X1")
        );
        let old = "processor\t: 0\nprocessor\t: 1\nFeatures\t: aes\nCPU implementer\t: 65\n\
                   CPU variant\t: 0\nCPU part\t: 0xd08\nCPU revision\t: 3\n";
        assert_eq!(
            arm_cores(old),
            [ArmCore {
                implementer: 0x41,
                part: 0xd08,
                variant: 0,
                revision: 3
            }]
        );
    }

    /// An x86 /proc/cpuinfo has no Arm core: the name comes from CPUID or `model name`.
    #[test]
    fn finds_no_arm_core_on_x86() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\
                   model\t\t: 17\nmodel name\t: AMD EPYC 9R14\n\n";
        assert!(arm_cores(x86).is_empty());
        assert_eq!(arm_name(&[]), None);
    }
}
