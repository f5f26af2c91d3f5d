//! XTS throughput as ratios, all measured in one process: every backend (OpenSSL: the speed
//! tool), RustCrypto `xts-mode`, and the instruction ceiling
//! `32 B × (independent vaesenc ymm per second) / rounds`.
//!
//! `cargo bench --all-features --bench xts` (about 15 s). Each figure is the best of
//! several short timed batches; the ceiling is the best of its runs before, between and
//! after the kernels. Compare the ratios, not the absolute numbers. For OpenSSL's software
//! path (to compare the portable backend), run with
//! `OPENSSL_ia32cap="~0x200000000000000"`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use simdcrypt::{Backend, Xts};

/// Best bytes per second of `f` (which processes `bytes` per call) over `reps` short
/// batches (about 0.4 ms each, so that some land in a quiet slice of a shared machine).
fn rate(bytes: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed() < Duration::from_millis(2) {
        f();
        n += 1;
    }
    let per_batch = (n / 5).max(1);
    let mut best = f64::MAX;
    for _ in 0..reps * 6 {
        let t = Instant::now();
        for _ in 0..per_batch {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    bytes as f64 * per_batch as f64 / best
}

#[cfg(simdcrypt_x86_64)]
mod ceiling {
    use core::arch::x86_64::*;

    /// `iters` rounds of 10 independent `vaesenc ymm` chains.
    #[target_feature(enable = "avx2,vaes")]
    fn chains(iters: u64, k: __m256i) -> __m256i {
        let mut s = [_mm256_setzero_si256(); 10];
        for (i, x) in s.iter_mut().enumerate() {
            *x = _mm256_set1_epi32(i as i32);
        }
        for _ in 0..iters {
            for x in s.iter_mut() {
                *x = _mm256_aesenc_epi128(*x, k);
            }
        }
        s.iter()
            .fold(_mm256_setzero_si256(), |a, b| _mm256_xor_si256(a, *b))
    }

    /// Independent `vaesenc ymm` per second, or `None` without VAES.
    pub fn vaesenc_ymm_per_s() -> Option<f64> {
        if !(is_x86_feature_detected!("vaes") && is_x86_feature_detected!("avx2")) {
            return None;
        }
        let iters = 40_000u64;
        let mut best = f64::MAX;
        for i in 0..60 {
            let t = std::time::Instant::now();
            // SAFETY: VAES and AVX2 were detected above.
            let r = unsafe { chains(iters, _mm256_set1_epi64x(std::hint::black_box(7 + i))) };
            std::hint::black_box(r);
            best = best.min(t.elapsed().as_secs_f64());
        }
        Some(10.0 * iters as f64 / best)
    }
}

/// One measured row: label, bytes per second, AES rounds, OpenSSL's rate to compare.
struct Row(String, f64, f64, Option<f64>);

fn main() {
    let reps = 7;
    #[cfg_attr(not(simdcrypt_x86_64), allow(unused_mut))]
    let mut ceiling_ops: Option<f64> = None;
    let mut ceil = || {
        #[cfg(simdcrypt_x86_64)]
        if let Some(x) = ceiling::vaesenc_ymm_per_s() {
            ceiling_ops = Some(ceiling_ops.map_or(x, |c: f64| c.max(x)));
        }
        ceiling_ops
    };
    ceil();
    let mut rows = Vec::new();
    main_with(reps, &mut rows, &mut ceil);
    let ops = ceil();
    // The ceiling is the best of all its runs (before, between and after the kernels).
    if let Some(ops) = ops {
        println!(
            "ceiling: {:.3} G vaesenc-ymm/s (best of all runs)",
            ops / 1e9
        );
    }
    let mut last_rounds = 0.0;
    for Row(label, r, rounds, ossl) in rows {
        if rounds != last_rounds {
            last_rounds = rounds;
            let bits = if rounds == 10.0 { 128 } else { 256 };
            println!("== XTS-AES-{bits} ==");
            if let Some(o) = ops {
                println!("  {:<30} {:7.3} GB/s", "ceiling", 32.0 * o / rounds / 1e9);
            }
        }
        let pct = ops.map_or(String::new(), |o| {
            format!("{:5.1}% of ceiling", 100.0 * r / (32.0 * o / rounds))
        });
        let vs = ossl.map_or(String::new(), |o| format!("  {:4.2}x openssl", r / o));
        let vs = if label.starts_with("portable") {
            format!("{vs}  ({:.1} MB/s)", r / 1e6)
        } else {
            vs
        };
        println!("  {label:<30} {:7.3} GB/s  {pct}{vs}", r / 1e9);
    }
}

fn main_with(reps: usize, rows: &mut Vec<Row>, ceil: &mut dyn FnMut() -> Option<f64>) {
    // `XTS_BENCH=rayon` measures only the threaded call (for a quiet moment).
    let only_rayon = std::env::var("XTS_BENCH").is_ok_and(|v| v == "rayon");
    let backends: Vec<Backend> = if only_rayon {
        Vec::new()
    } else {
        Xts::available_backends().collect()
    };
    for key_len in [32usize, 64] {
        let rounds = if key_len == 32 { 10.0 } else { 14.0 };
        let key: Vec<u8> = (0..key_len as u8).collect();
        let ossl_4k: [Option<f64>; 2] = [None, None];
        if !only_rayon {
            use aes::cipher::KeyInit;
            let mut buf = vec![1u8; 4096];
            let half = key_len / 2;
            let r = if key_len == 32 {
                let x = xts_mode::Xts128::<aes::Aes128>::new(
                    aes::Aes128::new_from_slice(&key[..half]).unwrap(),
                    aes::Aes128::new_from_slice(&key[half..]).unwrap(),
                );
                rate(4096, 3, || x.encrypt_sector(&mut buf, [0u8; 16].into()))
            } else {
                let x = xts_mode::Xts128::<aes::Aes256>::new(
                    aes::Aes256::new_from_slice(&key[..half]).unwrap(),
                    aes::Aes256::new_from_slice(&key[half..]).unwrap(),
                );
                rate(4096, 3, || x.encrypt_sector(&mut buf, [0u8; 16].into()))
            };
            rows.push(Row("xts-mode 4 KiB enc".into(), r, rounds, None));
        }
        for &b in &backends {
            let xts = Xts::with_backend(&key, b).unwrap();
            let reps = if b == Backend::Portable { 3 } else { reps };
            for dec in [false, true] {
                let dir = if dec { "dec" } else { "enc" };
                let mut buf = vec![1u8; 4096];
                let r = rate(4096, reps, || {
                    if dec {
                        xts.decrypt_sector(black_box(&mut buf), 5).unwrap()
                    } else {
                        xts.encrypt_sector(black_box(&mut buf), 5).unwrap()
                    }
                });
                rows.push(Row(
                    format!("{} 4 KiB {dir}", b.name()),
                    r,
                    rounds,
                    ossl_4k[usize::from(dec)],
                ));
                ceil();
                if b == Backend::Portable {
                    continue;
                }
                let mut big = vec![1u8; 64 * 1024];
                let r = rate(big.len(), reps, || {
                    if dec {
                        xts.decrypt_sector(black_box(&mut big), 5).unwrap()
                    } else {
                        xts.encrypt_sector(black_box(&mut big), 5).unwrap()
                    }
                });
                rows.push(Row(
                    format!("{} 64 KiB unit {dir}", b.name()),
                    r,
                    rounds,
                    None,
                ));
                let mut buf = vec![1u8; 64 * 1024];
                let r = rate(buf.len(), reps, || {
                    if dec {
                        xts.decrypt_sectors(black_box(&mut buf), 4096, 9).unwrap()
                    } else {
                        xts.encrypt_sectors(black_box(&mut buf), 4096, 9).unwrap()
                    }
                });
                rows.push(Row(
                    format!("{} 4 KiB sectors {dir}", b.name()),
                    r,
                    rounds,
                    None,
                ));
                let r = rate(buf.len(), reps, || {
                    if dec {
                        xts.decrypt_sectors(black_box(&mut buf), 512, 9).unwrap()
                    } else {
                        xts.encrypt_sectors(black_box(&mut buf), 512, 9).unwrap()
                    }
                });
                rows.push(Row(
                    format!("{} 512 B sectors {dir}", b.name()),
                    r,
                    rounds,
                    None,
                ));
            }
        }
        #[cfg(feature = "rayon")]
        if key_len == 64 {
            let xts = Xts::new(&key).unwrap();
            let mut buf = vec![1u8; 16 << 20];
            let one = rate(buf.len(), 5, || {
                xts.encrypt_sectors(black_box(&mut buf), 4096, 0).unwrap()
            });
            let par = rate(buf.len(), 5, || {
                xts.par_encrypt_sectors(black_box(&mut buf), 4096, 0)
                    .unwrap()
            });
            println!(
                "  rayon 16 MiB {}: 1 thread {:.2} GB/s, par {:.2} GB/s ({} threads): {:.2}x",
                xts.backend(),
                one / 1e9,
                par / 1e9,
                rayon::current_num_threads(),
                par / one
            );
            for size in [
                32usize << 10,
                64 << 10,
                128 << 10,
                256 << 10,
                512 << 10,
                1 << 20,
            ] {
                let mut buf = vec![1u8; size];
                let one = rate(size, 5, || {
                    xts.encrypt_sectors(black_box(&mut buf), 4096, 0).unwrap()
                });
                // Force the fan-out below the threshold to find where it pays.
                let par = rate(size, 5, || {
                    let (a, b) = buf.split_at_mut(size / 2);
                    rayon::join(
                        || xts.encrypt_sectors(a, 4096, 0).unwrap(),
                        || xts.encrypt_sectors(b, 4096, (size / 8192) as u128).unwrap(),
                    );
                });
                println!("  rayon split at {:>4} KiB: {:.2}x", size >> 10, par / one);
            }
        }
    }
}
