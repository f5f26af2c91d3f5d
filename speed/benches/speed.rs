//! Criterion benches: every algorithm x simdcrypt backend x size, next to OpenSSL (with the
//! `openssl` feature) and RustCrypto, all from the speed tool's table.
//!
//! `cargo bench -p simdcrypt-speed -- aes-128-xts-enc/` runs one algorithm; the benchmark
//! ids are `<algorithm>/<backend>/<size>`, and `ceilings/<instruction>` for the instruction
//! probes (throughput in instructions per second). The key-setup algorithms (`aes-128-key`,
//! `aes-256-key`, `xts-256-key`, `krb5-usage-keys`) count keys (elements) per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_speed::algs;
use simdcrypt_speed::ceiling::Instr;

/// The instruction probes, as operations per second (`elements`): the ceilings that the
/// speed tool divides by.
fn ceilings(c: &mut Criterion) {
    let mut g = c.benchmark_group("ceilings");
    for instr in Instr::ALL {
        let Some(mut p) = instr.probe() else {
            continue;
        };
        g.throughput(Throughput::Elements(instr.ops_per_run()));
        g.bench_function(instr.name().replace(' ', "-"), |b| b.iter(|| p.run()));
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    for alg in algs::catalog() {
        let mut g = c.benchmark_group(alg.name);
        for size in alg.default_sizes() {
            // Key setup: one key per run, counted as an element (keys per second).
            g.throughput(if alg.family.is_key_setup() {
                Throughput::Elements(1)
            } else {
                Throughput::Bytes(alg.bytes(size) as u64)
            });
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
    targets = ceilings, all
}
criterion_main!(benches);
