//! AES-CBC speed, side by side in one process, as ratios: decryption against the parallel
//! AES ceiling (`32 B x vaesenc-ymm/s / rounds`) and OpenSSL; single-stream encryption
//! against the chained ceiling (`16 B / (rounds x aesenc latency)`) and OpenSSL;
//! `encrypt_many` (8 x 4 KiB) against single-stream encryption; RustCrypto `cbc` too. The instruction rates are
//! measured in the same run. Each figure is the best of several short rounds, interleaved.
//!
//! `cargo bench --bench cbc` (about 8 s; best of 50 rounds of 4 ms each, to dodge other load).
//!
//! Also shown: the AES chain itself in three forms (one key; ten distinct keys, nine
//! `aesenc` and one `aesenclast`, as a real block has; and 256-op chains restarted from the
//! same value on every call, the way the speed tool's latency probe once was: the
//! out-of-order core overlaps consecutive calls' chains, so that form times less than the
//! latency), and decryption at 16 KiB next to 64 KiB (L1d is 48 KiB here).

use std::hint::black_box;
use std::time::{Duration, Instant};

use simdcrypt::{Backend, Cbc};

/// Seconds per call of each job, best of its rounds.
struct Meter {
    names: Vec<String>,
    best: Vec<f64>,
}

impl Meter {
    fn run(&mut self, i: usize, per: Duration, f: &mut dyn FnMut()) {
        f();
        let mut n = 0u64;
        let t = Instant::now();
        while t.elapsed() < per {
            f();
            n += 1;
        }
        let s = t.elapsed().as_secs_f64() / n as f64;
        if s < self.best[i] {
            self.best[i] = s;
        }
    }

    fn get(&self, name: &str) -> Option<f64> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| self.best[i])
    }
}

#[cfg(simdcrypt_x86_64)]
mod ceil {
    use core::arch::x86_64::*;
    use std::hint::black_box;

    /// `iters` steps of 10 independent `vaesenc ymm` chains.
    #[target_feature(enable = "avx2,vaes")]
    pub fn vaes_ymm_throughput(iters: u64) -> i32 {
        let k = black_box(_mm256_set1_epi32(0x0102_0304));
        let mut s: [__m256i; 10] = core::array::from_fn(|i| _mm256_set1_epi32(i as i32));
        s = black_box(s);
        for _ in 0..iters {
            for x in s.iter_mut() {
                *x = _mm256_aesenc_epi128(*x, k);
            }
        }
        let mut acc = s[0];
        for x in &s[1..] {
            acc = _mm256_xor_si256(acc, *x);
        }
        _mm256_extract_epi32::<0>(acc)
    }

    /// `iters` steps of 10 independent `vaesenc zmm` chains.
    #[target_feature(enable = "avx512f,vaes")]
    pub fn vaes_zmm_throughput(iters: u64) -> i32 {
        let k = black_box(_mm512_set1_epi32(0x0102_0304));
        let mut s: [__m512i; 10] = core::array::from_fn(|i| _mm512_set1_epi32(i as i32));
        s = black_box(s);
        for _ in 0..iters {
            for x in s.iter_mut() {
                *x = _mm512_aesenc_epi128(*x, k);
            }
        }
        let mut acc = s[0];
        for x in &s[1..] {
            acc = _mm512_xor_si512(acc, *x);
        }
        _mm512_cvtsi512_si32(acc)
    }

    /// `10 * iters` dependent AES rounds (one chain): per step nine `aesenc` and one
    /// `aesenclast` with ten distinct round keys, as in one AES-128 block.
    #[target_feature(enable = "aes")]
    pub fn aes_block_chain(iters: u64) -> i32 {
        let k: [__m128i; 10] = black_box(core::array::from_fn(|i| _mm_set1_epi32(i as i32 + 1)));
        let mut s = black_box(_mm_set1_epi32(7));
        for _ in 0..iters {
            for key in &k[..9] {
                s = _mm_aesenc_si128(s, *key);
            }
            s = _mm_aesenclast_si128(s, k[9]);
        }
        _mm_cvtsi128_si32(s)
    }

    /// About `10 * iters` `aesenc` (whole chains of 256) in chains that each start again from the same value
    /// (consecutive chains are independent).
    #[target_feature(enable = "aes")]
    pub fn aesenc_short_chains(iters: u64) -> i32 {
        let k = black_box(_mm_set1_epi32(0x0102_0304));
        let mut acc = 0;
        for _ in 0..iters * 10 / 256 {
            let mut s = black_box(_mm_set1_epi32(7));
            for _ in 0..256 {
                s = _mm_aesenc_si128(s, k);
            }
            acc ^= black_box(_mm_cvtsi128_si32(s));
        }
        acc
    }

    /// `10 * iters` dependent `aesenc xmm` (one chain).
    #[target_feature(enable = "aes")]
    pub fn aesenc_latency(iters: u64) -> i32 {
        let k = black_box(_mm_set1_epi32(0x0102_0304));
        let mut s = black_box(_mm_set1_epi32(7));
        for _ in 0..iters {
            for _ in 0..10 {
                s = _mm_aesenc_si128(s, k);
            }
        }
        _mm_cvtsi128_si32(s)
    }
}

/// RustCrypto `cbc` 0.2 over `aes` 0.9, in place, zero IV.
fn rustcrypto_cbc(key: &[u8], buf: &mut [u8], enc: bool) {
    use aes::cipher::block_padding::NoPadding;
    use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
    macro_rules! run {
        ($a:ty) => {
            if enc {
                let len = buf.len();
                cbc::Encryptor::<$a>::new_from_slices(key, &[0; 16])
                    .unwrap()
                    .encrypt_padded::<NoPadding>(buf, len)
                    .unwrap();
            } else {
                cbc::Decryptor::<$a>::new_from_slices(key, &[0; 16])
                    .unwrap()
                    .decrypt_padded::<NoPadding>(buf)
                    .unwrap();
            }
        };
    }
    match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        _ => run!(aes::Aes256),
    }
}

const CEIL_ITERS: u64 = 100_000;
const SIZE: usize = 64 * 1024;
const SMALL: usize = 16 * 1024;

type Job = Box<dyn FnMut()>;

fn main() {
    let per = Duration::from_millis(4);
    let rounds_of_measure = 50;
    #[cfg(simdcrypt_x86_64)]
    let have = |x: Backend| Cbc::available_backends().any(|b| b == x);
    let fast: Vec<Backend> = Cbc::available_backends()
        .filter(|b| *b != Backend::Portable)
        .collect();

    let mut m = Meter {
        names: Vec::new(),
        best: Vec::new(),
    };
    let mut jobs: Vec<Job> = Vec::new();
    let mut add = |m: &mut Meter, name: String, f: Job| {
        m.names.push(name);
        m.best.push(f64::INFINITY);
        jobs.push(f);
    };

    #[cfg(simdcrypt_x86_64)]
    {
        if have(Backend::VaesAvx2) {
            add(
                &mut m,
                "vaesenc ymm (10 chains)".into(),
                Box::new(|| {
                    // SAFETY: VAES and AVX2 were detected (the VaesAvx2 backend is available).
                    black_box(unsafe { ceil::vaes_ymm_throughput(black_box(CEIL_ITERS)) });
                }),
            );
        }
        if simdcrypt::cpu::VaesAvx512Token::get().is_some() {
            add(
                &mut m,
                "vaesenc zmm (10 chains)".into(),
                Box::new(|| {
                    // SAFETY: the token proves VAES and AVX-512F.
                    black_box(unsafe { ceil::vaes_zmm_throughput(black_box(CEIL_ITERS)) });
                }),
            );
        }
        if have(Backend::AesNi) {
            add(
                &mut m,
                "aesenc xmm (1 chain)".into(),
                Box::new(|| {
                    // SAFETY: AES-NI was detected (the AesNi backend is available).
                    black_box(unsafe { ceil::aesenc_latency(black_box(CEIL_ITERS)) });
                }),
            );
            add(
                &mut m,
                "aes rounds, 10 keys (1 chain)".into(),
                Box::new(|| {
                    // SAFETY: AES-NI was detected (the AesNi backend is available).
                    black_box(unsafe { ceil::aes_block_chain(black_box(CEIL_ITERS)) });
                }),
            );
            add(
                &mut m,
                "aesenc xmm (256-op chains)".into(),
                Box::new(|| {
                    // SAFETY: AES-NI was detected (the AesNi backend is available).
                    black_box(unsafe { ceil::aesenc_short_chains(black_box(CEIL_ITERS)) });
                }),
            );
        }
    }
    let keys: [&[u8]; 3] = [&[1u8; 16], &[2u8; 24], &[3u8; 32]];
    for key in keys {
        let bits = key.len() * 8;
        for &b in &fast {
            for (size, tag) in [(SIZE, ""), (SMALL, " 16K")] {
                let cbc = Cbc::with_backend(key, b).unwrap();
                let mut buf = vec![0x5au8; size];
                add(
                    &mut m,
                    format!("decrypt {bits} {b}{tag}"),
                    Box::new(move || {
                        cbc.decrypt(&mut [0u8; 16], black_box(&mut buf)).unwrap();
                    }),
                );
            }
        }
        for &b in &fast {
            let cbc = Cbc::with_backend(key, b).unwrap();
            let mut buf = vec![0x5au8; SIZE];
            add(
                &mut m,
                format!("encrypt {bits} {b}"),
                Box::new(move || {
                    cbc.encrypt(&mut [0u8; 16], black_box(&mut buf)).unwrap();
                }),
            );
        }
        for enc in [false, true] {
            let key = key.to_vec();
            let mut buf = vec![0x5au8; SIZE];
            let what = if enc { "encrypt" } else { "decrypt" };
            add(
                &mut m,
                format!("{what} {bits} rustcrypto"),
                Box::new(move || rustcrypto_cbc(&key, black_box(&mut buf), enc)),
            );
        }
        for &b in &fast {
            let cbc = Cbc::with_backend(key, b).unwrap();
            let mut bufs = vec![vec![0x5au8; 4096]; 8];
            let mut ivs = [[0u8; 16]; 8];
            add(
                &mut m,
                format!("many8x4K {bits} {b}"),
                Box::new(move || {
                    let mut v: Vec<&mut [u8]> = bufs.iter_mut().map(|x| x.as_mut_slice()).collect();
                    cbc.encrypt_many(&mut ivs, black_box(&mut v)).unwrap();
                }),
            );
        }
    }

    for _ in 0..rounds_of_measure {
        for (i, f) in jobs.iter_mut().enumerate() {
            m.run(i, per, f.as_mut());
        }
    }

    let ops = CEIL_ITERS as f64 * 10.0;
    println!(
        "CBC, {} KiB buffers, best of {rounds_of_measure} rounds",
        SIZE / 1024
    );
    for (n, s) in m.names.iter().zip(&m.best) {
        if n.contains("chain") {
            println!(
                "  {n:28} {:8.3} G/s ({:.3} ns each)",
                ops / s / 1e9,
                s / ops * 1e9
            );
        } else {
            let bytes = if n.starts_with("many") {
                8 * 4096
            } else if n.ends_with(" 16K") {
                SMALL
            } else {
                SIZE
            };
            println!("  {n:28} {:8.3} GB/s", bytes as f64 / s / 1e9);
        }
    }
    let vaes_rate = m.get("vaesenc ymm (10 chains)").map(|s| ops / s);
    let lat = m.get("aesenc xmm (1 chain)").map(|s| s / ops);
    println!("ratios:");
    if let Some(l) = lat {
        for other in [
            "aes rounds, 10 keys (1 chain)",
            "aesenc xmm (256-op chains)",
        ] {
            if let Some(s) = m.get(other) {
                println!(
                    "  {other}: {:.2}x the one-key chain's time per op",
                    s / ops / l
                );
            }
        }
    }
    if let (Some(y), Some(z)) = (
        m.get("vaesenc ymm (10 chains)"),
        m.get("vaesenc zmm (10 chains)"),
    ) {
        println!("  AES blocks/s, zmm vs ymm: {:.2}x", (4.0 / z) / (2.0 / y));
    }
    for (bits, rounds) in [(128, 10.0), (192, 12.0), (256, 14.0)] {
        let par_ceil = vaes_rate.map(|r| 32.0 * r / rounds);
        let chain_ceil = lat.map(|l| 16.0 / (rounds * l));
        for &b in &fast {
            let Some(s) = m.get(&format!("decrypt {bits} {b}")) else {
                continue;
            };
            let mut line = format!("  decrypt {bits} {:10}", b.name());
            if let Some(c) = par_ceil {
                line += &format!(" {:5.1}% of parallel ceiling", 100.0 * SIZE as f64 / s / c);
            }
            if let Some(o) = m.get(&format!("decrypt {bits} openssl")) {
                line += &format!(", {:.2}x OpenSSL", o / s);
            }
            if let Some(o) = m.get(&format!("decrypt {bits} rustcrypto")) {
                line += &format!(", {:.2}x RustCrypto", o / s);
            }
            if let (Some(c), Some(s16)) = (par_ceil, m.get(&format!("decrypt {bits} {b} 16K"))) {
                line += &format!("; 16 KiB {:5.1}%", 100.0 * SMALL as f64 / s16 / c);
            }
            println!("{line}");
        }
        for &b in &fast {
            let Some(s) = m.get(&format!("encrypt {bits} {b}")) else {
                continue;
            };
            let mut line = format!("  encrypt {bits} {:10}", b.name());
            if let Some(c) = chain_ceil {
                line += &format!(" {:5.1}% of chained ceiling", 100.0 * SIZE as f64 / s / c);
            }
            if let Some(o) = m.get(&format!("encrypt {bits} openssl")) {
                line += &format!(", {:.2}x OpenSSL", o / s);
            }
            if let Some(o) = m.get(&format!("encrypt {bits} rustcrypto")) {
                line += &format!(", {:.2}x RustCrypto", o / s);
            }
            if let Some(s8) = m.get(&format!("many8x4K {bits} {b}")) {
                let ratio = (8.0 * 4096.0 / s8) / (SIZE as f64 / s);
                line += &format!("; encrypt_many 8x4KiB {ratio:.2}x one stream");
            }
            println!("{line}");
        }
    }
}
