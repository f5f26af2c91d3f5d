//! SHA-1 benchmarks.
//!
//! `cargo bench --all-features --bench sha1` runs the criterion groups (short runs).
//! `cargo bench --all-features --bench sha1 -- --ratios` prints side-by-side ratios measured
//! in one process, interleaved and repeated: SHA-NI against the `sha1rnds4` latency ceiling
//! and OpenSSL, `sha1_many` against one stream, AVX2 against OpenSSL and the portable path.
//! Run it a second time with `OPENSSL_ia32cap=":~0x20000000"` to compare against OpenSSL's
//! path without SHA-NI.
//! `cargo bench --all-features --bench sha1 -- --lanes` prints `sha1_many` per message count
//! (1 to 40 messages of 4 KiB) on the AVX-512, AVX2 and SHA-NI lanes, against one SHA-NI
//! stream per message.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use simdcrypt::sha1::{compress_with, sha1_many_with};
use simdcrypt::{Backend, Sha1};

fn hash(b: Backend, data: &[u8]) -> [u8; 20] {
    let mut h = Sha1::with_backend(b).unwrap();
    h.update(data);
    h.finalize()
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 131 + 7) as u8).collect()
}

fn criterion_benches(c: &mut Criterion) {
    let big = data(65536);
    let mut g = c.benchmark_group("sha1-64KiB");
    g.throughput(Throughput::Bytes(big.len() as u64));
    g.measurement_time(Duration::from_secs(1));
    g.warm_up_time(Duration::from_millis(300));
    for b in Sha1::available_backends() {
        g.bench_function(b.name(), |x| x.iter(|| hash(b, black_box(&big))));
    }
    g.bench_function("rustcrypto", |x| {
        x.iter(|| {
            use sha1::Digest;
            sha1::Sha1::digest(black_box(&big))
        })
    });
    g.finish();

    let msgs = data(8 * 4096);
    let inputs: Vec<&[u8]> = msgs.chunks(4096).collect();
    let mut g = c.benchmark_group("sha1-many-8x4KiB");
    g.throughput(Throughput::Bytes(msgs.len() as u64));
    g.measurement_time(Duration::from_secs(1));
    g.warm_up_time(Duration::from_millis(300));
    for b in Sha1::available_backends() {
        let mut out = [[0u8; 20]; 8];
        g.bench_function(b.name(), |x| {
            x.iter(|| sha1_many_with(b, black_box(&inputs), &mut out).unwrap())
        });
    }
    g.finish();
}

// --- side-by-side ratios -------------------------------------------------------------

/// This thread's CPU time in nanoseconds (Linux), else wall time: on a machine shared with
/// other jobs, time spent descheduled does not count.
fn now_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: `ts` is a valid, writable `struct timespec` (two 64-bit fields on x86-64
        // Linux); the clock id is a Linux constant.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return ts.sec as u64 * 1_000_000_000 + ts.nsec as u64;
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Bytes per nanosecond of `f` (which processes `bytes` per call), over about `ms` of CPU
/// time.
fn rate(bytes: usize, ms: u64, mut f: impl FnMut()) -> f64 {
    f();
    let mut calls = 0u64;
    let start = now_ns();
    let budget = ms * 1_000_000;
    while now_ns() - start < budget {
        for _ in 0..4 {
            f();
        }
        calls += 4;
    }
    (calls as f64 * bytes as f64) / (now_ns() - start) as f64
}

#[cfg(simdcrypt_x86_64)]
mod rnds4 {
    use std::arch::x86_64::*;

    /// `n` x 8 `sha1rnds4` in one dependent chain.
    #[target_feature(enable = "sha,sse2")]
    pub fn chain(n: u64, b: __m128i) -> __m128i {
        let mut a = _mm_set1_epi32(1);
        for _ in 0..n {
            a = _mm_sha1rnds4_epu32::<0>(a, b);
            a = _mm_sha1rnds4_epu32::<1>(a, b);
            a = _mm_sha1rnds4_epu32::<2>(a, b);
            a = _mm_sha1rnds4_epu32::<3>(a, b);
            a = _mm_sha1rnds4_epu32::<0>(a, b);
            a = _mm_sha1rnds4_epu32::<1>(a, b);
            a = _mm_sha1rnds4_epu32::<2>(a, b);
            a = _mm_sha1rnds4_epu32::<3>(a, b);
        }
        a
    }

    /// `n` x 8 `sha1rnds4` in eight independent chains.
    #[target_feature(enable = "sha,sse2")]
    pub fn eight(n: u64, b: __m128i) -> __m128i {
        let mut a: [__m128i; 8] = core::array::from_fn(|i| _mm_set1_epi32(i as i32));
        for _ in 0..n {
            for x in a.iter_mut() {
                *x = _mm_sha1rnds4_epu32::<0>(*x, b);
            }
        }
        a.iter()
            .fold(_mm_setzero_si128(), |s, x| _mm_xor_si128(s, *x))
    }

    /// `n` x 2 four-round steps of the one-stream dependency pattern without the message
    /// schedule: `P = ABCD; ABCD = sha1rnds4(ABCD, X); X = sha1nexte(P, M)`.
    #[target_feature(enable = "sha,sse2")]
    pub fn pattern(n: u64, m: __m128i) -> __m128i {
        let (mut s, mut x) = (m, m);
        for _ in 0..n {
            let p = s;
            s = _mm_sha1rnds4_epu32::<0>(s, x);
            x = _mm_sha1nexte_epu32(p, m);
            let p = s;
            s = _mm_sha1rnds4_epu32::<1>(s, x);
            x = _mm_sha1nexte_epu32(p, m);
        }
        _mm_xor_si128(s, x)
    }

    /// Nanoseconds per step of [`pattern`].
    pub fn measure_pattern() -> Option<f64> {
        if !std::is_x86_feature_detected!("sha") {
            return None;
        }
        let n = 100_000u64;
        let mut best = f64::MAX;
        for _ in 0..40 {
            let k = std::hint::black_box(3);
            let t = super::now_ns();
            // SAFETY: SHA was detected just above; SSE2 is part of x86-64.
            std::hint::black_box(unsafe { pattern(n, _mm_set1_epi32(k)) });
            best = best.min((super::now_ns() - t) as f64 / (2 * n) as f64);
        }
        Some(best)
    }

    /// `n` x 8 of one SHA instruction (`OP`: 0 rnds4, 1 nexte, 2 msg1, 3 msg2) in eight
    /// independent chains: its reciprocal throughput.
    #[target_feature(enable = "sha,sse2")]
    pub fn op8<const OP: u8>(n: u64, k: __m128i) -> __m128i {
        let mut r: [__m128i; 8] = core::array::from_fn(|i| _mm_set1_epi32(i as i32));
        for _ in 0..n {
            for x in r.iter_mut() {
                *x = match OP {
                    0 => _mm_sha1rnds4_epu32::<1>(*x, k),
                    1 => _mm_sha1nexte_epu32(*x, k),
                    2 => _mm_sha1msg1_epu32(*x, k),
                    _ => _mm_sha1msg2_epu32(*x, k),
                };
            }
        }
        r.iter()
            .fold(_mm_setzero_si128(), |s, x| _mm_xor_si128(s, *x))
    }

    /// Reciprocal throughputs in nanoseconds of rnds4, nexte, msg1 and msg2.
    pub fn measure_step() -> Option<[f64; 4]> {
        if !std::is_x86_feature_detected!("sha") {
            return None;
        }
        let n = 50_000u64;
        let mut best = [f64::MAX; 4];
        for _ in 0..30 {
            let k = std::hint::black_box(3);
            let mut run = |i: usize, f: &dyn Fn() -> __m128i| {
                let t = super::now_ns();
                std::hint::black_box(f());
                best[i] = best[i].min((super::now_ns() - t) as f64 / (8 * n) as f64);
            };
            // SAFETY (all four): SHA was detected just above; SSE2 is part of x86-64.
            run(0, &|| unsafe { op8::<0>(n, _mm_set1_epi32(k)) });
            run(1, &|| unsafe { op8::<1>(n, _mm_set1_epi32(k)) });
            run(2, &|| unsafe { op8::<2>(n, _mm_set1_epi32(k)) });
            run(3, &|| unsafe { op8::<3>(n, _mm_set1_epi32(k)) });
        }
        Some(best)
    }

    /// Nanoseconds per cycle, from a chain of dependent 64-bit `imul` (3 cycles each).
    pub fn ns_per_cycle() -> f64 {
        let n = 200_000u64;
        let mut best = f64::MAX;
        for _ in 0..40 {
            let mut x = std::hint::black_box(3u64);
            let t = super::now_ns();
            for _ in 0..n {
                // SAFETY: register-only arithmetic; no memory, stack or flags contract.
                unsafe {
                    std::arch::asm!(
                        "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}",
                        "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}",
                        inout(reg) x,
                        options(nomem, nostack)
                    )
                };
            }
            std::hint::black_box(x);
            best = best.min((super::now_ns() - t) as f64 / (24 * n) as f64);
        }
        best
    }

    /// Nanoseconds per `sha1rnds4`: (latency, reciprocal throughput).
    pub fn measure() -> Option<(f64, f64)> {
        if !std::is_x86_feature_detected!("sha") {
            return None;
        }
        let n = 100_000u64;
        let mut best = (f64::MAX, f64::MAX);
        for _ in 0..60 {
            let t = super::now_ns();
            // SAFETY: SHA was detected just above; SSE2 is part of x86-64.
            std::hint::black_box(unsafe { chain(n, _mm_set1_epi32(std::hint::black_box(3))) });
            best.0 = best.0.min((super::now_ns() - t) as f64 / (8 * n) as f64);
            let t = super::now_ns();
            // SAFETY: as above.
            std::hint::black_box(unsafe { eight(n, _mm_set1_epi32(std::hint::black_box(3))) });
            best.1 = best.1.min((super::now_ns() - t) as f64 / (8 * n) as f64);
        }
        Some(best)
    }
}

/// Best of `rounds` interleaved measurements of each named case (short windows: on a
/// shared machine the best window is the one nobody else interrupted).
/// A named case: bytes per call and the call.
type Case<'a> = (&'static str, usize, Box<dyn FnMut() + 'a>);

fn measure_all(cases: &mut [Case<'_>], rounds: usize) -> Vec<f64> {
    let mut best = vec![0f64; cases.len()];
    for _ in 0..rounds {
        for (i, (_, bytes, f)) in cases.iter_mut().enumerate() {
            best[i] = best[i].max(rate(*bytes, 8, f));
        }
    }
    best
}

fn ratios() {
    let avail: Vec<Backend> = Sha1::available_backends().collect();
    let has = |b: Backend| avail.contains(&b);
    let big_v = data(65536);
    let big = &big_v[..];
    let msgs = data(8 * 4096);
    let inputs: Vec<&[u8]> = msgs.chunks(4096).collect();
    // The compression function alone on 64 KiB (no padding block).
    let blocks: Vec<[u8; 64]> = big.chunks(64).map(|c| c.try_into().unwrap()).collect();
    println!(
        "OPENSSL_ia32cap={:?}",
        std::env::var("OPENSSL_ia32cap").unwrap_or_default()
    );

    let mut names: Vec<&str> = Vec::new();
    let mut cases: Vec<Case<'_>> = Vec::new();
    for b in [
        Backend::ShaNi,
        Backend::Avx512,
        Backend::Avx2,
        Backend::Ssse3,
        Backend::Portable,
    ] {
        if has(b) {
            cases.push((
                b.name(),
                big.len(),
                Box::new(move || {
                    black_box(hash(b, black_box(big)));
                }),
            ));
        }
    }
    {
        cases.push((
            "rustcrypto",
            big.len(),
            Box::new(move || {
                use sha1::Digest;
                black_box(sha1::Sha1::digest(black_box(big)));
            }),
        ));
    }
    for (b, many, seq) in [
        (Backend::ShaNi, "many8x4K:sha-ni", "seq8x4K:sha-ni"),
        (Backend::Avx512, "many8x4K:avx512", "seq8x4K:avx512"),
        (Backend::Avx2, "many8x4K:avx2", "seq8x4K:avx2"),
    ] {
        if has(b) {
            let inputs = &inputs;
            cases.push((
                many,
                msgs.len(),
                Box::new(move || {
                    let mut out = [[0u8; 20]; 8];
                    sha1_many_with(b, black_box(inputs), &mut out).unwrap();
                    black_box(out);
                }),
            ));
            cases.push((
                seq,
                msgs.len(),
                Box::new(move || {
                    for m in inputs {
                        black_box(hash(b, black_box(m)));
                    }
                }),
            ));
        }
    }
    {
        let inputs = &inputs;
        cases.push((
            "many8x4K:auto",
            msgs.len(),
            Box::new(move || {
                let mut out = [[0u8; 20]; 8];
                simdcrypt::sha1_many(black_box(inputs), &mut out).unwrap();
                black_box(out);
            }),
        ));
    }
    for (b, name) in [
        (Backend::ShaNi, "compress:sha-ni"),
        (Backend::Avx512, "compress:avx512"),
        (Backend::Avx2, "compress:avx2"),
    ] {
        if has(b) {
            let blocks = &blocks;
            cases.push((
                name,
                big.len(),
                Box::new(move || {
                    let mut s = [1, 2, 3, 4, 5];
                    compress_with(b, &mut s, black_box(blocks)).unwrap();
                    black_box(s);
                }),
            ));
        }
    }
    names.extend(cases.iter().map(|c| c.0));

    #[cfg(simdcrypt_x86_64)]
    let lat = rnds4::measure();
    #[cfg(not(simdcrypt_x86_64))]
    let lat: Option<(f64, f64)> = None;
    let r = measure_all(&mut cases, 40);
    #[cfg(simdcrypt_x86_64)]
    let lat2 = rnds4::measure();
    #[cfg(not(simdcrypt_x86_64))]
    let lat2: Option<(f64, f64)> = None;
    let get = |n: &str| names.iter().position(|x| *x == n).map(|i| r[i]);
    for (n, v) in names.iter().zip(&r) {
        println!("{n:>18}: {v:.3} B/ns");
    }
    let ratio = |label: &str, a: Option<f64>, b: Option<f64>| {
        if let (Some(a), Some(b)) = (a, b) {
            println!("{label}: {:.3}", a / b);
        }
    };
    if let (Some((l1, t1)), Some((l2, t2))) = (lat, lat2) {
        let (l, t) = (l1.min(l2), t1.min(t2));
        println!(
            "sha1rnds4: latency {l:.3} ns, reciprocal throughput {t:.3} ns (ratio {:.2})",
            l / t
        );
        let ceiling = 64.0 / (20.0 * l);
        println!("one-stream ceiling 64 B / (20 x latency) = {ceiling:.3} B/ns");
        #[cfg(simdcrypt_x86_64)]
        {
            let c = rnds4::ns_per_cycle();
            println!(
                "clock {:.2} GHz (imul chain): sha1rnds4 latency {:.2} cycles, reciprocal throughput {:.2} cycles",
                1.0 / c,
                l / c,
                t / c
            );
            if let Some(pt) = rnds4::measure_pattern() {
                let bound = 64.0 / (20.0 * pt);
                println!(
                    "rnds4+nexte dependency pattern: {pt:.3} ns/step ({:.2} cycles, {:.2} x rnds4 latency); its one-stream bound {bound:.3} B/ns",
                    pt / c,
                    pt / l
                );
                ratio("sha-ni 64KiB / pattern bound", get("sha-ni"), Some(bound));
            }
            if let Some(ops) = rnds4::measure_step() {
                println!(
                    "reciprocal throughput, cycles: rnds4 {:.2}, nexte {:.2}, msg1 {:.2}, msg2 {:.2}",
                    ops[0] / c,
                    ops[1] / c,
                    ops[2] / c,
                    ops[3] / c
                );
            }
        }
        ratio("sha-ni 64KiB / ceiling", get("sha-ni"), Some(ceiling));
        ratio(
            "sha-ni compress / ceiling",
            get("compress:sha-ni"),
            Some(ceiling),
        );
    }
    ratio("sha-ni / openssl", get("sha-ni"), get("openssl"));
    ratio("sha-ni / rustcrypto", get("sha-ni"), get("rustcrypto"));
    ratio(
        "many 8x4KiB sha-ni / one stream sha-ni",
        get("many8x4K:sha-ni"),
        get("seq8x4K:sha-ni"),
    );
    ratio(
        "many 8x4KiB auto (sha1_many) / one stream sha-ni",
        get("many8x4K:auto"),
        get("seq8x4K:sha-ni"),
    );
    ratio(
        "many 8x4KiB avx2 / one stream avx2",
        get("many8x4K:avx2"),
        get("seq8x4K:avx2"),
    );
    ratio(
        "many 8x4KiB avx512 / one stream sha-ni",
        get("many8x4K:avx512"),
        get("seq8x4K:sha-ni"),
    );
    ratio(
        "many 8x4KiB avx512 / many 8x4KiB avx2",
        get("many8x4K:avx512"),
        get("many8x4K:avx2"),
    );
    ratio("avx512 64KiB / avx2 64KiB", get("avx512"), get("avx2"));
    ratio(
        "avx512 compress / avx2 compress",
        get("compress:avx512"),
        get("compress:avx2"),
    );
    ratio("avx2 / openssl", get("avx2"), get("openssl"));
    ratio("ssse3 / openssl", get("ssse3"), get("openssl"));
    ratio("avx2 / portable", get("avx2"), get("portable"));
    ratio("ssse3 / portable", get("ssse3"), get("portable"));
}

/// `sha1_many` per message count: the AVX-512 lanes (sixteen zmm lanes from nine messages
/// on, eight ymm lanes below), the eight AVX2 lanes, two SHA-NI lanes (each finishing its
/// stragglers on its own one-stream kernel) and the automatic choice (stragglers on
/// SHA-NI), against one SHA-NI stream per message, all 4 KiB messages.
fn lanes() {
    let avail: Vec<Backend> = Sha1::available_backends().collect();
    let msgs = data(40 * 4096);
    let single = [Backend::ShaNiAsm, Backend::ShaNi, Backend::Avx2]
        .into_iter()
        .find(|b| avail.contains(b))
        .unwrap_or(Backend::Portable);
    let many: Vec<Backend> = [Backend::Avx512, Backend::Avx2, Backend::ShaNiAsm]
        .into_iter()
        .filter(|b| avail.contains(b))
        .collect();
    println!("sha1_many, 4 KiB messages, B/ns (x one {single} stream per message)");
    for n in [1usize, 2, 3, 4, 8, 9, 12, 16, 17, 20, 24, 32, 40] {
        let inputs: Vec<&[u8]> = msgs.chunks(4096).take(n).collect();
        let inputs = &inputs;
        let mut cases: Vec<Case<'_>> = vec![(
            "seq",
            n * 4096,
            Box::new(move || {
                for m in inputs {
                    black_box(hash(single, black_box(m)));
                }
            }),
        )];
        for &b in &many {
            cases.push((
                b.name(),
                n * 4096,
                Box::new(move || {
                    let mut out = vec![[0u8; 20]; n];
                    sha1_many_with(b, black_box(inputs), &mut out).unwrap();
                    black_box(out);
                }),
            ));
        }
        cases.push((
            "auto",
            n * 4096,
            Box::new(move || {
                let mut out = vec![[0u8; 20]; n];
                simdcrypt::sha1_many(black_box(inputs), &mut out).unwrap();
                black_box(out);
            }),
        ));
        let r = measure_all(&mut cases, 15);
        let row: Vec<String> = many
            .iter()
            .map(|b| b.name())
            .chain(["auto"])
            .zip(&r[1..])
            .map(|(b, v)| format!("{b}: {v:.2} ({:.2}x)", v / r[0]))
            .collect();
        println!(
            "{n:>3} messages: one stream {:.2}; {}",
            r[0],
            row.join("; ")
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--ratios") {
        ratios();
        return;
    }
    if std::env::args().any(|a| a == "--lanes") {
        lanes();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c);
    c.final_summary();
}
