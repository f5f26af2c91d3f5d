//! Criterion benches: every algorithm x simdcrypt backend x size, next to OpenSSL (with the
//! `openssl` feature) and RustCrypto, all from the speed tool's table.
//!
//! `cargo bench -p simdcrypt-speed -- aes-128-xts-enc/` runs one algorithm; the benchmark
//! ids are `<algorithm>/<backend>/<size>`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_speed::algs;

fn all(c: &mut Criterion) {
    for alg in algs::catalog() {
        let mut g = c.benchmark_group(alg.name);
        for size in alg.default_sizes() {
            g.throughput(Throughput::Bytes(alg.bytes(size) as u64));
            for who in alg.contenders() {
                let Some(mut r) = alg.make(who, size) else {
                    continue;
                };
                g.bench_function(BenchmarkId::new(who.backend_name(), size), |b| {
                    b.iter(|| r.run())
                });
            }
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = all
}
criterion_main!(benches);
