//! Portable (bitsliced) AES against RustCrypto `aes` on 256-block (4 KiB) batches (OpenSSL
//! as a peer: the speed tool).
//!
//! For RustCrypto's software backend and OpenSSL without AES-NI, run:
//! `RUSTFLAGS='--cfg aes_backend="soft"' OPENSSL_ia32cap="~0x200000000000000"
//!  cargo bench --all-features --bench aes_soft`

use aes::cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::{Aes, Backend};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("aes_soft_4k");
    g.throughput(Throughput::Bytes(4096))
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(20);
    let key = [0x42u8; 32];
    let mut blocks = vec![[0x17u8; 16]; 256];
    for bits in [128usize, 256] {
        let k = &key[..bits / 8];
        let ours = Aes::with_backend(k, Backend::Portable).unwrap();
        g.bench_function(format!("simdcrypt-portable/enc{bits}"), |b| {
            b.iter(|| ours.encrypt_blocks(black_box(&mut blocks)))
        });
        g.bench_function(format!("simdcrypt-portable/dec{bits}"), |b| {
            b.iter(|| ours.decrypt_blocks(black_box(&mut blocks)))
        });
        macro_rules! rc {
            ($t:ty) => {{
                let c = <$t>::new_from_slice(k).unwrap();
                g.bench_function(format!("rustcrypto/enc{bits}"), |b| {
                    b.iter(|| {
                        c.encrypt_blocks(aes::Block::cast_slice_from_core_mut(black_box(
                            &mut blocks,
                        )))
                    })
                });
                g.bench_function(format!("rustcrypto/dec{bits}"), |b| {
                    b.iter(|| {
                        c.decrypt_blocks(aes::Block::cast_slice_from_core_mut(black_box(
                            &mut blocks,
                        )))
                    })
                });
            }};
        }
        if bits == 128 {
            rc!(aes::Aes128)
        } else {
            rc!(aes::Aes256)
        }
    }
    g.finish();
    // Single-block calls (CBC-encrypt style), AES-256.
    let mut g = c.benchmark_group("aes_soft_1block");
    g.throughput(Throughput::Bytes(16))
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    let ours = Aes::with_backend(&key, Backend::Portable).unwrap();
    let mut one = [0x17u8; 16];
    g.bench_function("simdcrypt-portable/enc256", |b| {
        b.iter(|| ours.encrypt_block(black_box(&mut one)))
    });
    let rc = aes::Aes256::new_from_slice(&key).unwrap();
    g.bench_function("rustcrypto/enc256", |b| {
        b.iter(|| rc.encrypt_block(black_box(&mut one).into()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
