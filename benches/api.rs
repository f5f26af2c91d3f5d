//! Criterion benches of the public API, on the automatic backend: each algorithm at 16 B,
//! 1,500 B, 4 KiB and 64 KiB, key setup, and SHA-1 with collision detection beside plain
//! SHA-1 at 64 B, 1 KiB and 64 KiB (group `sha1dc`), and `sha1dc_many` beside one call
//! per message on 64 objects of 200 B to 12 KiB (group `sha1dc-many`). The side-by-side comparison with OpenSSL,
//! AWS-LC, RustCrypto and the instruction ceilings is the speed tool (speed/README.md).
//!
//! `cargo bench -p simdcrypt-benches` runs them all, `cargo bench -p simdcrypt-benches --
//! cbc/` one group; criterion's `--measurement-time S` and `--warm-up-time S` override the
//! short defaults below. A crate of its own (benches/Cargo.toml), so that criterion stays
//! out of the library's dev-dependencies.
//! CBC and `CbcHmacSha1` take whole blocks, so their 1,500-byte case is 1,504 bytes (the
//! next multiple of 16); the benchmark ids say the size measured.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::krb5::Aes256CtsHmacSha196;
use simdcrypt::{Aes, Cbc, CbcHmacSha1, HmacSha1Key, Xts, hmac_sha1, sha1, sha1dc};

/// The message sizes: 16 B, a network packet, a page, a large buffer.
const SIZES: [usize; 4] = [16, 1500, 4096, 65536];

/// An XTS-AES-256 key (two different halves: equal ones are refused).
fn xts_key() -> Vec<u8> {
    [[1u8; 32], [2u8; 32]].concat()
}

/// `size` rounded up to whole 16-byte blocks (for the APIs that take whole blocks).
fn blocks(size: usize) -> usize {
    size.next_multiple_of(16)
}

fn xts(c: &mut Criterion) {
    let xts = Xts::new(&xts_key()).unwrap();
    let mut g = c.benchmark_group("xts-aes-256");
    for size in SIZES {
        let mut buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        // One data unit of `size` bytes (ciphertext stealing at 1,500).
        g.bench_function(BenchmarkId::new("encrypt_sector", size), |b| {
            b.iter(|| xts.encrypt_sector(black_box(&mut buf), 42).unwrap())
        });
        // 512-byte sectors, where `size` holds whole ones.
        if size % 512 == 0 {
            g.bench_function(BenchmarkId::new("encrypt_sectors-512", size), |b| {
                b.iter(|| xts.encrypt_sectors(black_box(&mut buf), 512, 42).unwrap())
            });
        }
    }
    g.finish();
}

fn cbc(c: &mut Criterion) {
    let cbc = Cbc::new(&[7u8; 16]).unwrap();
    let mut g = c.benchmark_group("cbc-aes-128");
    for size in SIZES.map(blocks) {
        let mut buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(BenchmarkId::new("encrypt", size), |b| {
            b.iter(|| cbc.encrypt(&mut [1u8; 16], black_box(&mut buf)).unwrap())
        });
        g.bench_function(BenchmarkId::new("decrypt", size), |b| {
            b.iter(|| cbc.decrypt(&mut [1u8; 16], black_box(&mut buf)).unwrap())
        });
    }
    g.finish();
}

fn sha1_and_hmac(c: &mut Criterion) {
    let key = HmacSha1Key::new(b"an HMAC key");
    let mut g = c.benchmark_group("sha1");
    for size in SIZES {
        let buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(BenchmarkId::new("digest", size), |b| {
            b.iter(|| sha1(black_box(&buf)))
        });
        g.bench_function(BenchmarkId::new("hmac-keyed-once", size), |b| {
            b.iter(|| key.mac(black_box(&buf)))
        });
        g.bench_function(BenchmarkId::new("hmac-keyed-per-message", size), |b| {
            b.iter(|| hmac_sha1(b"an HMAC key", black_box(&buf)))
        });
    }
    g.finish();
}

/// `sha1dc` (collision detection) and plain `sha1` of the same buffer: what detection costs.
fn sha1dc_and_sha1(c: &mut Criterion) {
    let mut g = c.benchmark_group("sha1dc");
    for size in [64, 1024, 65536] {
        let buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(BenchmarkId::new("sha1dc", size), |b| {
            b.iter(|| sha1dc(black_box(&buf)))
        });
        g.bench_function(BenchmarkId::new("sha1", size), |b| {
            b.iter(|| sha1(black_box(&buf)))
        });
    }
    g.finish();
}

/// 64 objects of 200 B to 12 KiB (sizes spread evenly on a log scale, as a repository's
/// blobs and trees are), through `sha1dc_many` and one by one through `sha1dc`.
fn sha1dc_many_objects(c: &mut Criterion) {
    let objects: Vec<Vec<u8>> = (0..64u32)
        .map(|i| {
            let size =
                (200.0 * (12288.0f64 / 200.0).powf(f64::from((i * 37) % 64) / 63.0)) as usize;
            (0..size)
                .map(|k| (k as u32 ^ i.wrapping_mul(0x9e37_79b9)) as u8)
                .collect()
        })
        .collect();
    let msgs: Vec<&[u8]> = objects.iter().map(Vec::as_slice).collect();
    let bytes: usize = msgs.iter().map(|m| m.len()).sum();
    let mut out = vec![Ok([0u8; 20]); msgs.len()];
    let mut g = c.benchmark_group("sha1dc-many");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("64 objects 200 B-12 KiB/sha1dc_many", |b| {
        b.iter(|| simdcrypt::sha1dc_many(black_box(&msgs), &mut out))
    });
    g.bench_function("64 objects 200 B-12 KiB/one by one", |b| {
        b.iter(|| {
            for (m, o) in msgs.iter().zip(out.iter_mut()) {
                *o = sha1dc(black_box(m));
            }
        })
    });
    g.finish();
}

fn cbc_hmac_and_krb5(c: &mut Criterion) {
    let stitched = CbcHmacSha1::new(&[7u8; 16], b"an HMAC key").unwrap();
    let krb5 = Aes256CtsHmacSha196::new(&[3u8; 32]).unwrap().usage_keys(24);
    let mut g = c.benchmark_group("cbc-hmac-sha1");
    for size in SIZES {
        let whole = blocks(size);
        let mut buf = vec![0u8; whole];
        g.throughput(Throughput::Bytes(whole as u64));
        g.bench_function(BenchmarkId::new("seal-aes-128", whole), |b| {
            b.iter(|| stitched.seal(&[1u8; 16], black_box(&mut buf)).unwrap())
        });
        let sealed = {
            let mut s = vec![0u8; whole];
            let tag = stitched.seal(&[1u8; 16], &mut s).unwrap();
            (s, tag)
        };
        g.bench_function(BenchmarkId::new("open-aes-128", whole), |b| {
            b.iter(|| {
                buf.copy_from_slice(&sealed.0);
                stitched
                    .open(&[1u8; 16], black_box(&mut buf), &sealed.1)
                    .unwrap()
            })
        });
        let plain = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(BenchmarkId::new("krb5-aes256-encrypt", size), |b| {
            b.iter(|| krb5.encrypt(&[0x42; 16], black_box(&plain)))
        });
    }
    g.finish();
}

fn key_setup(c: &mut Criterion) {
    let mut g = c.benchmark_group("key-setup");
    g.throughput(Throughput::Elements(1));
    g.bench_function("Aes::new-128", |b| {
        b.iter(|| Aes::new(black_box(&[7u8; 16])).unwrap())
    });
    g.bench_function("Aes::new-256", |b| {
        b.iter(|| Aes::new(black_box(&[7u8; 32])).unwrap())
    });
    g.bench_function("Cbc::new-128", |b| {
        b.iter(|| Cbc::new(black_box(&[7u8; 16])).unwrap())
    });
    let key = xts_key();
    g.bench_function("Xts::new-256", |b| {
        b.iter(|| Xts::new(black_box(&key)).unwrap())
    });
    g.bench_function("krb5-aes256-new-usage_keys", |b| {
        b.iter(|| {
            Aes256CtsHmacSha196::new(black_box(&[3u8; 32]))
                .unwrap()
                .usage_keys(24)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    targets = xts, cbc, sha1_and_hmac, sha1dc_and_sha1, sha1dc_many_objects, cbc_hmac_and_krb5, key_setup
}
criterion_main!(benches);
