//! Side-by-side timing of `Xts::encrypt_sectors` and `encrypt_sectors_with` under the disk
//! formats' tweak conventions, interleaved in one run so that the ratios hold on a noisy
//! machine:
//!
//! ```sh
//! cargo run --release --example xts_tweaks_timing [-- <bytes per call> <rounds>]
//! ```
//!
//! For every backend and each sector size (512, 4096), every round times a batch of calls
//! of each variant in turn (rotating which goes first). Reported per variant: the best
//! batch's throughput, its ratio to `encrypt_sectors`' best (1.00 = the same speed), and
//! the median over rounds of the ratio within a round (batches a few milliseconds apart).
//! On a shared machine either view can stray when another process takes the core for a
//! batch; compare variants that run the same code (`plain64` and `encrypt_sectors`) to see
//! how far the noise goes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use simdcrypt::{Xts, xts::Tweaks};

fn main() -> Result<(), simdcrypt::Error> {
    let mut args = std::env::args().skip(1);
    let bytes: usize = args.next().map_or(64 << 10, |a| a.parse().expect("bytes"));
    let rounds: usize = args.next().map_or(30, |a| a.parse().expect("rounds"));
    let key: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37) ^ 0x5c).collect();
    println!("{bytes} bytes per call, best of {rounds} rounds, XTS-AES-256");
    for b in Xts::available_backends() {
        let xts = Xts::with_backend(&key, b)?;
        for sector in [512usize, 4096] {
            let mut buf = vec![0x11u8; bytes - bytes % sector];
            let first = 1u64 << 33;
            type Call = Box<dyn Fn(&Xts, &mut [u8]) -> Result<(), simdcrypt::Error>>;
            let variants: Vec<(&str, Call)> = vec![
                (
                    "encrypt_sectors",
                    Box::new(move |x, d| x.encrypt_sectors(d, sector, u128::from(first))),
                ),
                (
                    "with plain64",
                    Box::new(move |x, d| x.encrypt_sectors_with(d, sector, Tweaks::plain64(first))),
                ),
                (
                    "with plain64 step 8 (LUKS2)",
                    Box::new(move |x, d| {
                        x.encrypt_sectors_with(d, sector, Tweaks::plain64(first).step(8))
                    }),
                ),
                (
                    "with step = sector (GELI)",
                    Box::new(move |x, d| {
                        let t = Tweaks::plain64(first).step(sector as u128);
                        x.encrypt_sectors_with(d, sector, t)
                    }),
                ),
                (
                    "with plain64be",
                    Box::new(move |x, d| {
                        x.encrypt_sectors_with(d, sector, Tweaks::plain64be(first))
                    }),
                ),
            ];
            // Calls per batch: about 2 ms of work, from one warm-up call.
            let t0 = Instant::now();
            (variants[0].1)(&xts, &mut buf)?;
            let one = t0.elapsed().max(Duration::from_nanos(100));
            let per_batch = (Duration::from_millis(2).as_nanos() / one.as_nanos()).clamp(1, 10_000);
            let mut best = vec![Duration::MAX; variants.len()];
            let mut paired: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); variants.len()];
            for r in 0..rounds {
                let mut this = vec![Duration::ZERO; variants.len()];
                for k in 0..variants.len() {
                    let v = (r + k) % variants.len();
                    let t = Instant::now();
                    for _ in 0..per_batch {
                        (variants[v].1)(&xts, black_box(&mut buf))?;
                    }
                    this[v] = t.elapsed();
                    best[v] = best[v].min(this[v]);
                }
                for v in 0..variants.len() {
                    paired[v].push(this[0].as_secs_f64() / this[v].as_secs_f64());
                }
            }
            let base = best[0].as_secs_f64();
            for (v, (name, _)) in variants.iter().enumerate() {
                let gbs = (buf.len() as f64 * per_batch as f64) / best[v].as_secs_f64() / 1e9;
                paired[v].sort_by(f64::total_cmp);
                println!(
                    "{b:>14} {sector:>5} B  {name:<28} {gbs:7.2} GB/s  best {:.3}x  median {:.3}x",
                    base / best[v].as_secs_f64(),
                    paired[v][paired[v].len() / 2]
                );
            }
        }
    }
    Ok(())
}
