//! Side-by-side throughput of the SHA-1 assembly kernels, in one process: SHA-NI one
//! stream against the `sha1rnds4` latency ceiling, two streams against one, AVX2 against
//! the scalar RustCrypto code (OpenSSL as a peer: the speed tool, where
//! `OPENSSL_ia32cap=":~0x20000000"` hides SHA-NI from OpenSSL only).
//!
//! `cargo bench --bench sha1_asm`
//!
//! Prints ratios; absolute numbers on a shared machine are noise. Each figure is the best
//! of 400 short runs, all candidates (and the instruction loops that give the ceilings)
//! taking turns, so that they see the same machine state (a few seconds in all).

#[cfg(simdcrypt_asm)]
mod imp {
    use std::arch::asm;
    use std::hint::black_box;
    use std::time::Instant;

    // The kernels are crate-private; the bench binds the same symbols the crate links.
    unsafe extern "C" {
        fn simdcrypt_sha1_shani_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
        fn simdcrypt_sha1_shani_compress2(
            state_a: *mut u32,
            blocks_a: *const u8,
            state_b: *mut u32,
            blocks_b: *const u8,
            nblocks: usize,
        );
        fn simdcrypt_sha1_avx2_compress(state: *mut u32, blocks: *const u8, nblocks: usize);
    }

    const LEN: usize = 64 * 1024;
    const H0: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];

    /// Chain lengths of the instruction loops below.
    const N: usize = 4_000;

    /// `8 N` `sha1rnds4` in one dependent chain (their latency).
    fn rnds4_latency() {
        // SAFETY: only called when SHA-NI was detected; only xmm0/xmm1 are written.
        unsafe {
            asm!(
                "2:",
                "sha1rnds4 xmm0, xmm1, 0", "sha1rnds4 xmm0, xmm1, 0",
                "sha1rnds4 xmm0, xmm1, 0", "sha1rnds4 xmm0, xmm1, 0",
                "sha1rnds4 xmm0, xmm1, 0", "sha1rnds4 xmm0, xmm1, 0",
                "sha1rnds4 xmm0, xmm1, 0", "sha1rnds4 xmm0, xmm1, 0",
                "dec {n}", "jnz 2b",
                n = inout(reg) N => _, out("xmm0") _, out("xmm1") _,
                options(nostack),
            );
        }
    }

    /// `8 N` `sha1rnds4` in 8 independent chains (their reciprocal throughput).
    fn rnds4_throughput() {
        // SAFETY: as above; xmm0..xmm8 are declared clobbered.
        unsafe {
            asm!(
                "2:",
                "sha1rnds4 xmm0, xmm8, 0", "sha1rnds4 xmm1, xmm8, 0",
                "sha1rnds4 xmm2, xmm8, 0", "sha1rnds4 xmm3, xmm8, 0",
                "sha1rnds4 xmm4, xmm8, 0", "sha1rnds4 xmm5, xmm8, 0",
                "sha1rnds4 xmm6, xmm8, 0", "sha1rnds4 xmm7, xmm8, 0",
                "dec {n}", "jnz 2b",
                n = inout(reg) N => _,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                out("xmm8") _,
                options(nostack),
            );
        }
    }

    /// `4 N` four-round groups of the real one-stream step `sha1nexte; movdqa;
    /// sha1rnds4`, whose E input comes from the ABCD two groups back as in a block.
    fn group_step() {
        // SAFETY: as above; xmm0..xmm3 are declared clobbered.
        unsafe {
            asm!(
                "2:",
                "sha1nexte xmm1, xmm3", "movdqa xmm2, xmm0", "sha1rnds4 xmm0, xmm1, 0",
                "sha1nexte xmm2, xmm3", "movdqa xmm1, xmm0", "sha1rnds4 xmm0, xmm2, 0",
                "sha1nexte xmm1, xmm3", "movdqa xmm2, xmm0", "sha1rnds4 xmm0, xmm1, 0",
                "sha1nexte xmm2, xmm3", "movdqa xmm1, xmm0", "sha1rnds4 xmm0, xmm2, 0",
                "dec {n}", "jnz 2b",
                n = inout(reg) N => _,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                options(nostack),
            );
        }
    }

    fn gbps(bytes: usize, secs: f64) -> f64 {
        bytes as f64 / secs / 1e9
    }

    /// Minimum over `REPS` rounds of one call of each candidate, round-robin, so that all
    /// see the same machine load and the minimum filters out preemption.
    const REPS: usize = 400;

    fn race(cands: &mut [(&str, &mut dyn FnMut())]) -> Vec<f64> {
        let mut best = vec![f64::INFINITY; cands.len()];
        for _ in 0..REPS {
            for (b, (_, f)) in best.iter_mut().zip(cands.iter_mut()) {
                let t = Instant::now();
                f();
                *b = b.min(t.elapsed().as_secs_f64());
            }
        }
        best
    }

    pub fn main() {
        let data: Vec<[u8; 64]> = (0..LEN / 64)
            .map(|i| core::array::from_fn(|j| (i * 7 + j * 13) as u8))
            .collect();
        let data2: Vec<[u8; 64]> = data.iter().rev().copied().collect();
        let n = data.len();
        let sha = std::is_x86_feature_detected!("sha") && std::is_x86_feature_detected!("sse4.1");
        let avx2 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");

        let mut rc = || {
            let mut s = H0;
            sha1::block_api::compress(&mut s, black_box(&data));
            black_box(s);
        };
        let mut one = || {
            let mut s = H0;
            // SAFETY: only called when SHA-NI and SSE4.1 were detected; 5-word state,
            // `n` blocks.
            unsafe { simdcrypt_sha1_shani_compress(s.as_mut_ptr(), data.as_ptr().cast(), n) };
            black_box(s);
        };
        let mut two = || {
            let (mut a, mut b) = (H0, H0);
            // SAFETY: as above, two distinct states and two `n`-block buffers.
            unsafe {
                simdcrypt_sha1_shani_compress2(
                    a.as_mut_ptr(),
                    data.as_ptr().cast(),
                    b.as_mut_ptr(),
                    data2.as_ptr().cast(),
                    n,
                )
            };
            black_box((a, b));
        };
        let mut av = || {
            let mut s = H0;
            // SAFETY: only called when AVX2, BMI1 and BMI2 were detected; 5-word state,
            // `n` blocks.
            unsafe { simdcrypt_sha1_avx2_compress(s.as_mut_ptr(), data.as_ptr().cast(), n) };
            black_box(s);
        };
        let mut cands: Vec<(&str, &mut dyn FnMut())> = vec![("rustcrypto", &mut rc)];
        let (mut lat, mut thr, mut step) = (rnds4_latency, rnds4_throughput, group_step);
        if sha {
            cands.push(("rnds4-latency", &mut lat));
            cands.push(("rnds4-thr", &mut thr));
            cands.push(("group-step", &mut step));
            cands.push(("shani-asm", &mut one));
            cands.push(("shani-asm-x2", &mut two));
        }
        if avx2 {
            cands.push(("avx2-asm", &mut av));
        }
        let names: Vec<&str> = cands.iter().map(|c| c.0).collect();
        let t = race(&mut cands);
        let get = |name: &str| names.iter().position(|&x| x == name).map(|i| t[i]);
        println!(
            "SHA-1, 64 KiB per call, min of {REPS} round-robin calls (OPENSSL_ia32cap={:?})",
            std::env::var("OPENSSL_ia32cap").unwrap_or_default()
        );
        for (name, secs) in names.iter().zip(&t) {
            if matches!(*name, "rnds4-latency" | "rnds4-thr" | "group-step") {
                continue;
            }
            let bytes = if *name == "shani-asm-x2" {
                2 * LEN
            } else {
                LEN
            };
            println!("  {name:<14} {:.3} GB/s", gbps(bytes, *secs));
        }
        let rc = t[0];
        let ossl = get("openssl");
        if sha {
            let lat = get("rnds4-latency").unwrap() / (8 * N) as f64;
            let thr = get("rnds4-thr").unwrap() / (8 * N) as f64;
            let step = get("group-step").unwrap() / (4 * N) as f64;
            let ceiling = 64.0 / (20.0 * lat);
            let (one, two) = (get("shani-asm").unwrap(), get("shani-asm-x2").unwrap());
            let g1 = gbps(LEN, one);
            println!(
                "sha1rnds4: latency / reciprocal throughput = {:.2}; nexte+rnds4 group step / \
                 rnds4 latency = {:.2}",
                lat / thr,
                step / lat
            );
            println!(
                "  ceilings: 64 B / (20 x rnds4 latency) = {:.3} GB/s; 64 B / (20 x group \
                 step) = {:.3} GB/s; 64 B / (20 x rnds4 recip. throughput) = {:.3} GB/s",
                ceiling / 1e9,
                64.0 / (20.0 * step) / 1e9,
                64.0 / (20.0 * thr) / 1e9
            );
            println!(
                "  shani-asm / latency ceiling = {:.3}; / group-step ceiling = {:.3}; \
                 / RustCrypto = {:.3}{}",
                g1 / (ceiling / 1e9),
                g1 / (64.0 / (20.0 * step) / 1e9),
                rc / one,
                ossl.map(|o| format!("; / OpenSSL = {:.3}", o / one))
                    .unwrap_or_default()
            );
            println!(
                "  shani-asm-x2 / shani-asm = {:.3}",
                gbps(2 * LEN, two) / g1
            );
        }
        if let Some(a) = get("avx2-asm") {
            println!(
                "  avx2-asm / RustCrypto = {:.3}{}",
                rc / a,
                ossl.map(|o| format!("; / OpenSSL = {:.3}", o / a))
                    .unwrap_or_default()
            );
        }
    }
}

fn main() {
    #[cfg(simdcrypt_asm)]
    imp::main();
    #[cfg(not(simdcrypt_asm))]
    println!("sha1_asm: built without the assembly kernels (no-asm or not x86-64 ELF)");
}
