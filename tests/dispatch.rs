//! Dispatch: the automatic choice, `SIMDCRYPT_BACKEND`, `SIMDCRYPT_REQUIRE`. Each algorithm
//! is checked where the build has it; `SIMDCRYPT_BACKEND` is read where it has `std`.

use simdcrypt::{Aes, Backend, Error};

/// The CPU flags as the kernel reports them: independent of this crate's own detection.
#[cfg(simdcrypt_x86_64)]
fn cpuinfo_flags() -> Vec<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with("flags"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, f)| f.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

#[cfg(simdcrypt_x86_64)]
fn has(flags: &[String], want: &[&str]) -> bool {
    want.iter().all(|w| flags.iter().any(|f| f == w))
}

/// Every backend named in `SIMDCRYPT_REQUIRE` exists here: unknown names and missing
/// backends fail.
#[test]
fn required_backends_are_available() {
    for b in simdcrypt_testkit::required::<Backend>() {
        assert!(
            b.is_available(),
            "SIMDCRYPT_REQUIRE names {b}, which this CPU or build lacks"
        );
    }
}

/// Our CPUID reading agrees with the kernel's view for every feature we detect.
#[cfg(simdcrypt_x86_64)]
#[test]
fn detection_agrees_with_proc_cpuinfo() {
    let flags = cpuinfo_flags();
    if flags.is_empty() {
        eprintln!("no /proc/cpuinfo: nothing to compare");
        return;
    }
    let detected = simdcrypt::cpu::detected();
    for &(f, name) in simdcrypt::cpu::Features::ALL {
        assert_eq!(
            detected.contains(f),
            has(&flags, &[name]),
            "feature {name}: CPUID says {}, /proc/cpuinfo says {}",
            detected.contains(f),
            has(&flags, &[name])
        );
    }
}

/// The vendor, family, model and stepping we read (which pick the tuning table's row)
/// agree with the kernel's `/proc/cpuinfo`.
#[cfg(simdcrypt_x86_64)]
#[test]
fn signature_agrees_with_proc_cpuinfo() {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
    };
    let Some(vendor) = field("vendor_id") else {
        panic!("no vendor_id in /proc/cpuinfo on an x86-64 Linux machine");
    };
    let sig = simdcrypt::cpu::signature().expect("x86-64 reads a signature");
    let want = match vendor.as_str() {
        "GenuineIntel" => simdcrypt::cpu::Vendor::Intel,
        "AuthenticAMD" => simdcrypt::cpu::Vendor::Amd,
        _ => simdcrypt::cpu::Vendor::Other,
    };
    assert_eq!(sig.vendor, want);
    let num = |n: &str| field(n).unwrap().parse::<u32>().unwrap();
    assert_eq!(sig.family, num("cpu family"));
    assert_eq!(sig.model, num("model"));
    assert_eq!(sig.stepping, num("stepping"));
    eprintln!("{sig:?}: tuning row {:?}", simdcrypt::tuning_row());
}

/// On AArch64 detection agrees with the kernel's hardware capabilities (`getauxval`,
/// read here directly, not through `std`'s detection, which the crate uses): AES with
/// PMULL, and SHA-1 with SHA-2 (Rust's `sha2` feature, which the SHA-1 kernels take).
#[cfg(all(simdcrypt_aarch64, target_os = "linux"))]
#[test]
fn detection_agrees_with_hwcap() {
    use simdcrypt::cpu::{Armv8AesToken, Armv8Sha1Token, Features};
    // Linux's arch/arm64/include/uapi/asm/hwcap.h.
    const AES: u64 = 1 << 3;
    const PMULL: u64 = 1 << 4;
    const SHA1: u64 = 1 << 5;
    const SHA2: u64 = 1 << 6;
    // SAFETY: `getauxval` reads the process's auxiliary vector; no memory is passed.
    let hwcap = unsafe { libc::getauxval(libc::AT_HWCAP) };
    let aes = hwcap & (AES | PMULL) == AES | PMULL;
    let sha = hwcap & (SHA1 | SHA2) == SHA1 | SHA2;
    let f = simdcrypt::cpu::detected();
    assert_eq!(f.contains(Features::AES.union(Features::PMULL)), aes, "{f}");
    assert_eq!(f.contains(Features::SHA1), sha, "{f}");
    assert_eq!(Armv8AesToken::get().is_some(), aes);
    assert_eq!(Armv8Sha1Token::get().is_some(), sha);
    // The automatic choice takes them where they exist (and no cap is set).
    if std::env::var_os("SIMDCRYPT_BACKEND").is_none() {
        let want = if aes {
            Backend::Armv8Aes
        } else {
            Backend::Portable
        };
        assert_eq!(Aes::new(&[0u8; 16]).unwrap().backend(), want);
        #[cfg(feature = "sha1")]
        assert_eq!(
            simdcrypt::Sha1::new().backend(),
            if sha {
                Backend::Armv8Sha1
            } else {
                Backend::Portable
            }
        );
    }
}

/// Without the architecture code (a target without SIMD backends or the `pure` feature)
/// nothing is detected and every algorithm has the portable backend alone.
#[cfg(not(any(simdcrypt_x86_64, simdcrypt_aarch64)))]
#[test]
fn portable_build_detects_nothing_and_picks_portable() {
    assert_eq!(simdcrypt::cpu::detected(), simdcrypt::cpu::Features::NONE);
    let only_portable = |v: Vec<Backend>| assert_eq!(v, [Backend::Portable]);
    only_portable(Aes::available_backends().collect());
    #[cfg(feature = "cbc")]
    only_portable(simdcrypt::Cbc::available_backends().collect());
    #[cfg(feature = "xts")]
    only_portable(simdcrypt::Xts::available_backends().collect());
    #[cfg(feature = "sha1")]
    only_portable(simdcrypt::Sha1::available_backends().collect());
    #[cfg(all(feature = "cbc", feature = "sha1"))]
    only_portable(simdcrypt::CbcHmacSha1::available_backends().collect());
    assert_eq!(Aes::new(&[0u8; 16]).unwrap().backend(), Backend::Portable);
    for b in simdcrypt::all_backends() {
        assert_eq!(b.is_available(), *b == Backend::Portable, "{b}");
    }
}

/// Without a cap, AES picks a VAES kernel wherever the CPU has VAES.
#[cfg(simdcrypt_x86_64)]
#[test]
fn automatic_choice_is_the_best_available() {
    let aes = Aes::new(&[0u8; 16]).unwrap();
    let capped = std::env::var_os("SIMDCRYPT_BACKEND").is_some();
    if !capped {
        assert_eq!(Some(aes.backend()), Aes::available_backends().next());
        let flags = cpuinfo_flags();
        if has(&flags, &["aes", "avx2", "vaes", "vpclmulqdq"]) {
            assert!(
                matches!(aes.backend(), Backend::VaesAvx2 | Backend::VaesAvx512),
                "VAES CPU, but AES picked {}",
                aes.backend()
            );
        } else if has(&flags, &["aes", "pclmulqdq", "ssse3", "sse4_1"]) {
            assert_eq!(aes.backend(), Backend::AesNi);
        }
    }
    // Whatever the cap, the choice stays within it.
    let cap = simdcrypt::automatic_features();
    assert!(cap.contains(aes.backend().required_features()));
}

/// Runs this test binary again (through the target's runner, if any) with
/// `SIMDCRYPT_BACKEND` set and reads what it picks.
#[cfg(feature = "std")]
fn child_choice(cap: &str) -> String {
    let out = simdcrypt_testkit::rerun_self()
        .args([
            "--exact",
            "print_choice_for_parent",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SIMDCRYPT_BACKEND", cap)
        .env("SIMDCRYPT_PRINT_CHOICE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    stdout
        .lines()
        .find_map(|l| l.split_once("CHOICE ").map(|(_, c)| c.trim()))
        .map(|s| format!("{s} | {stderr}"))
        .unwrap_or_else(|| panic!("child printed no choice: {stdout}"))
}

/// In a child process (see `child_choice`), prints the automatic AES choice; in this
/// process, checks that the choice is stable across instances.
#[test]
fn print_choice_for_parent() {
    let a = Aes::new(&[1u8; 16]).unwrap().backend();
    let b = Aes::new(&[2u8; 32]).unwrap().backend();
    assert_eq!(a, b);
    if std::env::var_os("SIMDCRYPT_PRINT_CHOICE").is_some() {
        println!("CHOICE {a}");
    }
}

#[cfg(feature = "std")]
#[test]
fn simdcrypt_backend_caps_the_automatic_choice() {
    if Backend::AesNi.is_available() {
        let c = child_choice("aesni");
        assert!(c.starts_with("aesni |"), "{c}");
    }
    let c = child_choice("portable");
    assert!(c.starts_with("portable |"), "{c}");
    // An unknown name is reported on stderr and caps at portable.
    let c = child_choice("no-such-backend");
    assert!(c.starts_with("portable |"), "{c}");
    assert!(c.contains("unknown backend \"no-such-backend\""), "{c}");
}

#[test]
fn explicit_backends_ignore_nothing() {
    // `with_backend` of an absent backend is an error, never a silent substitute.
    for &b in simdcrypt::all_backends() {
        match Aes::with_backend(&[0u8; 16], b) {
            Ok(a) => assert_eq!(a.backend(), b),
            Err(Error::BackendUnavailable(x)) => {
                assert_eq!(x, b);
                assert!(!b.is_available());
            }
            Err(Error::BackendNotForAlgorithm { backend, .. }) => assert_eq!(backend, b),
            Err(e) => panic!("{b}: unexpected {e}"),
        }
    }
}

/// What a child process with `SIMDCRYPT_BACKEND` set to `value` (raw bytes) and its
/// standard error as `stderr_mode` (`"keep"`, `"closed"`: fd 2 closed, `"broken"`: a pipe
/// whose reader is gone) reports: its exit status, stdout and stderr.
#[cfg(all(unix, feature = "std"))]
fn env_child(value: &[u8], stderr_mode: &str) -> (std::process::ExitStatus, String, String) {
    use std::os::unix::ffi::OsStrExt;
    let out = simdcrypt_testkit::rerun_self()
        .args([
            "--exact",
            "env_problem_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SIMDCRYPT_BACKEND", std::ffi::OsStr::from_bytes(value))
        .env("SIMDCRYPT_ENV_CHILD", stderr_mode)
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `Some($backend)` where the build has `$feature` (an algorithm), `None` where not.
#[cfg(all(unix, feature = "std"))]
macro_rules! if_built {
    ($feature:literal, $backend:expr) => {{
        #[cfg(feature = $feature)]
        let b = Some($backend);
        #[cfg(not(feature = $feature))]
        let b = None;
        b
    }};
}

/// The line `env_problem_child` prints: `CHOICE` and the backends of AES, SHA-1 and XTS,
/// `-` for an algorithm the build leaves out.
#[cfg(all(unix, feature = "std"))]
fn choice_line(aes: Backend, sha1: Option<Backend>, xts: Option<Backend>) -> String {
    let name = |b: Option<Backend>| b.map_or_else(|| "-".to_owned(), |b| b.to_string());
    format!("CHOICE {aes} {} {}", name(sha1), name(xts))
}

/// In a child process (see `env_child`): points stderr where the parent asked, then builds
/// every algorithm on its automatic backend and prints the choice and the problem.
#[cfg(all(unix, feature = "std"))]
#[test]
fn env_problem_child() {
    let Ok(mode) = std::env::var("SIMDCRYPT_ENV_CHILD") else {
        return;
    };
    // SAFETY: plain POSIX calls on file descriptors this process owns; nothing else in
    // this single-threaded child uses fd 2 meanwhile.
    unsafe {
        match mode.as_str() {
            "closed" => assert_eq!(libc::close(2), 0),
            "broken" => {
                let mut fds = [0; 2];
                assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
                assert_eq!(libc::close(fds[0]), 0);
                assert_eq!(libc::dup2(fds[1], 2), 2);
                assert_eq!(libc::close(fds[1]), 0);
            }
            _ => {}
        }
    }
    let aes = Aes::new(&[1u8; 16]).unwrap().backend();
    let sha = if_built!("sha1", simdcrypt::Sha1::new().backend());
    let xts = if_built!(
        "xts",
        simdcrypt::Xts::new(&[[2u8; 16], [3u8; 16]].concat())
            .unwrap()
            .backend()
    );
    println!("{}", choice_line(aes, sha, xts));
    println!("PROBLEM {:?}", simdcrypt::backend_env_problem());
}

/// Values that name no backend, and values that are not UTF-8, are problems that
/// `backend_env_problem` returns and stderr reports once; a closed or broken stderr is
/// no panic.
#[cfg(all(unix, feature = "std"))]
#[test]
fn simdcrypt_backend_bad_values_are_reported_not_fatal() {
    let uncapped = choice_line(
        Aes::available_backends().next().unwrap(),
        if_built!(
            "sha1",
            simdcrypt::Sha1::available_backends().next().unwrap()
        ),
        if_built!("xts", simdcrypt::Xts::available_backends().next().unwrap()),
    );
    let portable = choice_line(
        Backend::Portable,
        if_built!("sha1", Backend::Portable),
        if_built!("xts", Backend::Portable),
    );
    let cases: [(&[u8], &str, &str, &str); 6] = [
        (b"", "keep", "names no backend", &uncapped),
        (b",", "keep", "names no backend", &uncapped),
        (b" , ", "broken", "names no backend", &uncapped),
        (b"aes\xffni", "keep", "not valid UTF-8", &portable),
        (b"\xff", "closed", "not valid UTF-8", &portable),
        (b"nope", "broken", "unknown backend \\\"nope\\\"", &portable),
    ];
    for (value, mode, problem, choice) in cases {
        let (status, stdout, stderr) = env_child(value, mode);
        let what = format!(
            "{:?} with stderr {mode}: {status}\n{stdout}\n{stderr}",
            value.escape_ascii().to_string()
        );
        assert!(status.success(), "{what}");
        assert!(stdout.contains(choice), "{what}");
        let line = stdout
            .lines()
            .find(|l| l.starts_with("PROBLEM "))
            .unwrap_or_else(|| panic!("no PROBLEM line: {what}"));
        assert!(
            line.starts_with("PROBLEM Some(") && line.contains(problem),
            "{what}"
        );
        if mode == "keep" {
            // Reported once on stderr.
            assert_eq!(
                stderr.matches("simdcrypt: SIMDCRYPT_BACKEND").count(),
                1,
                "{what}"
            );
        }
    }
    // A good value is no problem.
    let (status, stdout, _) = env_child(b"portable", "closed");
    assert!(
        status.success() && stdout.contains("PROBLEM None"),
        "{stdout}"
    );
}

/// Every keyed type, through its public `with_backend`: for each backend, whether it
/// built, and the backend it reports; with the type's `implemented_backends` and
/// `available_backends`.
type Build = fn(Backend) -> Result<Backend, Error>;

/// A row of `keyed_types`: `$t` as named, the backends `$imp` implements (the HMAC types
/// run SHA-1's), those `$t` has here, and `$t::$new(args.., backend)` built.
macro_rules! keyed {
    ($name:expr, $t:ident, $imp:ident, $new:ident($($arg:expr),*)) => {
        (
            $name,
            $imp::implemented_backends(),
            $t::available_backends().collect(),
            |b| $t::$new($($arg,)* b).map(|x| x.backend()),
        )
    };
}

/// The keyed types this build has.
fn keyed_types() -> Vec<(&'static str, &'static [Backend], Vec<Backend>, Build)> {
    #[cfg(feature = "cbc")]
    use simdcrypt::Cbc;
    #[cfg(all(feature = "cbc", feature = "sha1"))]
    use simdcrypt::CbcHmacSha1;
    #[cfg(feature = "xts")]
    use simdcrypt::Xts;
    #[cfg(feature = "sha1")]
    use simdcrypt::{HmacSha1, HmacSha1Key, Sha1};
    vec![
        keyed!("Aes", Aes, Aes, with_backend(&[0u8; 16])),
        #[cfg(feature = "xts")]
        keyed!(
            "Xts",
            Xts,
            Xts,
            with_backend(&[[1u8; 32], [2u8; 32]].concat())
        ),
        #[cfg(feature = "xts")]
        keyed!(
            "Xts (equal halves)",
            Xts,
            Xts,
            with_backend_allow_equal_halves(&[7u8; 64])
        ),
        #[cfg(feature = "cbc")]
        keyed!("Cbc", Cbc, Cbc, with_backend(&[0u8; 16])),
        #[cfg(feature = "sha1")]
        keyed!("Sha1", Sha1, Sha1, with_backend()),
        #[cfg(feature = "sha1")]
        keyed!("HmacSha1", HmacSha1, Sha1, with_backend(b"k")),
        #[cfg(feature = "sha1")]
        keyed!("HmacSha1Key", HmacSha1Key, Sha1, with_backend(b"k")),
        #[cfg(all(feature = "cbc", feature = "sha1"))]
        keyed!(
            "CbcHmacSha1",
            CbcHmacSha1,
            CbcHmacSha1,
            with_backend(&[0u8; 16], b"k")
        ),
    ]
}

/// The table is complete, seen from the public API: every implemented backend of every
/// keyed type builds exactly where it is available (and reports itself), every other
/// backend is `BackendNotForAlgorithm`; `available_backends` is the implemented ones
/// this CPU runs, portable last; every backend some type implements (in a build with
/// every algorithm).
#[test]
fn every_implemented_backend_builds_where_available() {
    let types = keyed_types();
    for (name, implemented, available, build) in &types {
        assert_eq!(implemented.last(), Some(&Backend::Portable), "{name}");
        assert_eq!(available.last(), Some(&Backend::Portable), "{name}");
        let mut sorted = available.clone();
        sorted.sort_by_key(|b| implemented.iter().position(|x| x == b));
        let here: Vec<Backend> = implemented
            .iter()
            .copied()
            .filter(|b| b.is_available())
            .collect();
        // The same set (the tuning row may reorder it).
        assert_eq!(sorted, here, "{name}");
        for &b in simdcrypt::all_backends() {
            match build(b) {
                Ok(got) => {
                    assert_eq!(got, b, "{name}");
                    assert!(implemented.contains(&b) && b.is_available(), "{name} {b}");
                }
                Err(Error::BackendUnavailable(x)) => {
                    assert_eq!(x, b, "{name}");
                    assert!(implemented.contains(&b) && !b.is_available(), "{name} {b}");
                }
                Err(Error::BackendNotForAlgorithm { backend, .. }) => {
                    assert_eq!(backend, b, "{name}");
                    assert!(!implemented.contains(&b), "{name} {b}");
                }
                Err(e) => panic!("{name} {b}: unexpected {e}"),
            }
        }
    }
    #[cfg(all(feature = "xts", feature = "cbc", feature = "sha1"))]
    for &b in simdcrypt::all_backends() {
        assert!(
            types.iter().any(|(_, imp, _, _)| imp.contains(&b)),
            "{b} is implemented by no type"
        );
    }
    // Each backend's features are those of its capability token.
    use simdcrypt::cpu::*;
    for &b in simdcrypt::all_backends() {
        let want = match b {
            Backend::Portable => Features::NONE,
            Backend::AesNi => AesNiToken::FEATURES,
            Backend::VaesAvx2 | Backend::VaesAvx2Asm => VaesAvx2Token::FEATURES,
            Backend::VaesAvx512 => VaesAvx512Token::FEATURES,
            Backend::Ssse3 => Ssse3Token::FEATURES,
            Backend::Avx2 | Backend::Avx2Asm => Avx2Token::FEATURES,
            Backend::Avx512 => Avx512Token::FEATURES,
            Backend::ShaNi | Backend::ShaNiAsm => ShaNiToken::FEATURES,
            Backend::AesNiShaNi => AesNiToken::FEATURES.union(ShaNiToken::FEATURES),
            Backend::Armv8Aes => Armv8AesToken::FEATURES,
            Backend::Armv8Sha1 => Armv8Sha1Token::FEATURES,
            Backend::Armv8AesSha1 => Armv8AesToken::FEATURES.union(Armv8Sha1Token::FEATURES),
            _ => panic!("{b}: a backend this test does not know"),
        };
        assert_eq!(b.required_features(), want, "{b}");
    }
}

/// The XTS assembly twin is selected explicitly only: capped at its own features, XTS
/// picks the intrinsics kernel. And on a CPU whose tuning row puts the SHA-NI intrinsics
/// first (AMD Zen 3 and Zen 4), SHA-1 picks them.
#[cfg(all(unix, feature = "std"))]
#[test]
fn explicit_backends_and_tuning_rows_are_honoured() {
    #[cfg(feature = "xts")]
    if Backend::VaesAvx2Asm.is_available() {
        let (status, stdout, stderr) = env_child(b"vaes-avx2-asm", "keep");
        assert!(status.success(), "{stdout}\n{stderr}");
        let want = choice_line(
            Backend::VaesAvx2,
            if_built!("sha1", Backend::Ssse3),
            Some(Backend::VaesAvx2),
        );
        assert!(stdout.contains(&format!("{want}\n")), "{stdout}");
        assert!(stdout.contains("PROBLEM None"), "{stdout}");
        assert!(simdcrypt::Xts::available_backends().any(|b| b == Backend::VaesAvx2Asm));
    }
    #[cfg(feature = "sha1")]
    {
        let uncapped = std::env::var_os("SIMDCRYPT_BACKEND").is_none();
        if uncapped
            && Backend::ShaNi.is_available()
            && matches!(simdcrypt::tuning_row(), Some("AMD Zen 3" | "AMD Zen 4"))
        {
            assert_eq!(simdcrypt::Sha1::new().backend(), Backend::ShaNi);
            let sha: Vec<Backend> = simdcrypt::Sha1::available_backends().collect();
            let pos = |x| sha.iter().position(|&b| b == x);
            if Backend::ShaNiAsm.is_available() {
                assert!(pos(Backend::ShaNi) < pos(Backend::ShaNiAsm), "{sha:?}");
            }
        }
    }
}
