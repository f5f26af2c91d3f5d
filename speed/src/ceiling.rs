//! Instruction ceilings, measured in the same run as the kernels they bound.
//!
//! ```text
//! throughput: 12 independent chains, x[i] = op(x[i], k), repeated; ops/s = 12 * n / t
//! latency:    one chain,              x    = op(x, k),    repeated; ops/s = n / t = 1/latency
//!             (each latency chain continues from one run to the next, as a kernel's chain
//!             does: a fresh chain per run would let the out-of-order core overlap the
//!             next run's chain with this one's, and time less than the latency)
//! ceilings:   parallel AES     = 32 B * vaesenc-ymm/s / rounds   (16 B * aesenc-xmm/s without VAES;
//!                                64 B * vaesenc-zmm/s / rounds where zmm moves the most bytes:
//!                                see `zmm_moves_more`)
//!             chained CBC enc  = 16 B / (rounds * aesenc latency)
//!             SHA-1, 1 stream  = 64 B / (20 * sha1rnds4 latency)
//!             SHA-1, n streams = 64 B / (20 * sha1rnds4 reciprocal throughput)
//! ```
//! Every probe is a safe `#[target_feature]` function reached only through a capability
//! token from `simdcrypt::cpu`, so it runs only where detection found its instructions.

use std::hint::black_box;
use std::time::Duration;

use crate::measure::Runner;

/// How many times each probe body repeats per `run`.
const ITERS: u64 = 256;
/// `aesenc` or `sha1rnds4` per `run` of their latency probes: long, so that moving the chain
/// value between runs (a few cycles, on the chain) is under 0.1% of the time.
const LAT_ITERS: u64 = 4096;
/// AES blocks (10 rounds each) per `run` of the block-chain probe.
const AES_BLOCKS: u64 = 512;
/// 256-long restarted chains per `run` of that probe.
const RESTARTS: u64 = 16;
/// Independent chains in the throughput probes (8-12 saturate every core known).
const CHAINS: usize = 12;
/// Chains in the `sha1rnds4` throughput probe (latency / throughput is about 3 to 4).
const SHA_CHAINS: usize = 8;

/// One measurable instruction property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `aesenc xmm`, 12 independent chains.
    AesXmmThroughput,
    /// `vaesenc ymm`, 12 independent chains.
    VaesYmmThroughput,
    /// `vaesenc zmm`, 12 independent chains (the parallel-AES ceiling where 512-bit AES moves
    /// more bytes per second than 256-bit, as on AMD Zen 5; shown for information elsewhere).
    VaesZmmThroughput,
    /// `aesenc xmm`, one chain.
    AesLatency,
    /// A real AES-128 block as one chain: nine `aesenc` and one `aesenclast` with ten
    /// distinct round keys (per round: what a CBC encrypt chain pays; shown for information).
    AesBlockChain,
    /// `aesenc` in 256-long chains that each restart from the same value: the out-of-order
    /// core overlaps consecutive chains, so this times less than the latency (the form the
    /// latency probe once had; shown as a warning of what a restarted chain measures).
    AesRestartedChains,
    /// `sha1rnds4`, one chain.
    Sha1Rnds4Latency,
    /// `sha1rnds4`, 8 independent chains.
    Sha1Rnds4Throughput,
}

impl Instr {
    /// Every probe, in display order.
    pub const ALL: [Instr; 8] = [
        Instr::AesXmmThroughput,
        Instr::VaesYmmThroughput,
        Instr::VaesZmmThroughput,
        Instr::AesLatency,
        Instr::AesBlockChain,
        Instr::AesRestartedChains,
        Instr::Sha1Rnds4Latency,
        Instr::Sha1Rnds4Throughput,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Instr::AesXmmThroughput => "aesenc-xmm throughput",
            Instr::VaesYmmThroughput => "vaesenc-ymm throughput",
            Instr::VaesZmmThroughput => "vaesenc-zmm throughput",
            Instr::AesLatency => "aesenc latency",
            Instr::AesBlockChain => "aes block chain, per round",
            Instr::AesRestartedChains => "aesenc restarted chains",
            Instr::Sha1Rnds4Latency => "sha1rnds4 latency",
            Instr::Sha1Rnds4Throughput => "sha1rnds4 throughput",
        }
    }

    /// Whether the probe measures a latency (one chain).
    pub fn is_latency(self) -> bool {
        matches!(
            self,
            Instr::AesLatency
                | Instr::AesBlockChain
                | Instr::AesRestartedChains
                | Instr::Sha1Rnds4Latency
        )
    }

    /// Instructions executed per `run` of the probe.
    pub fn ops_per_run(self) -> u64 {
        ITERS
            * match self {
                Instr::AesLatency => LAT_ITERS / ITERS,
                Instr::AesBlockChain => AES_BLOCKS * 10 / ITERS,
                Instr::AesRestartedChains => RESTARTS * 256 / ITERS,
                Instr::Sha1Rnds4Latency => LAT_ITERS / ITERS,
                Instr::Sha1Rnds4Throughput => SHA_CHAINS as u64,
                _ => CHAINS as u64,
            }
    }

    /// The probe, if this CPU has the instruction.
    pub fn probe(self) -> Option<Box<dyn Runner>> {
        use simdcrypt::cpu::{AesNiToken, ShaNiToken, VaesAvx2Token, VaesAvx512Token};
        Some(match self {
            Instr::AesXmmThroughput => Box::new(Probe::AesXmm(AesNiToken::get()?)),
            Instr::AesLatency => Box::new(Probe::AesLatency(AesNiToken::get()?, 0)),
            Instr::AesBlockChain => Box::new(Probe::AesBlock(AesNiToken::get()?, 0)),
            Instr::AesRestartedChains => Box::new(Probe::AesRestarted(AesNiToken::get()?)),
            Instr::VaesYmmThroughput => Box::new(Probe::VaesYmm(VaesAvx2Token::get()?)),
            Instr::VaesZmmThroughput => Box::new(Probe::VaesZmm(VaesAvx512Token::get()?)),
            Instr::Sha1Rnds4Latency => Box::new(Probe::ShaLatency(ShaNiToken::get()?, [0; 2])),
            Instr::Sha1Rnds4Throughput => Box::new(Probe::Sha(ShaNiToken::get()?)),
        })
    }
}

/// What bounds an algorithm's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ceiling {
    /// Independent blocks (ECB, XTS, CBC decrypt, many CBC streams) with this many rounds.
    Parallel(u32),
    /// One CBC encryption chain with this many rounds.
    Chained(u32),
    /// One SHA-1 stream.
    Sha1Latency,
    /// Many independent SHA-1 streams.
    Sha1Throughput,
    /// None measured (several threads: the one-core ceilings do not apply).
    None,
}

impl Ceiling {
    /// The instruction whose rate sets the ceiling here, and the bytes one such instruction
    /// is worth; `None` if this CPU lacks the instruction.
    pub fn resolve(self) -> Option<(Instr, f64)> {
        use simdcrypt::cpu::{AesNiToken, ShaNiToken, VaesAvx2Token};
        match self {
            Ceiling::Parallel(rounds) => {
                if zmm_moves_more() {
                    Some((Instr::VaesZmmThroughput, 64.0 / f64::from(rounds)))
                } else if VaesAvx2Token::get().is_some() {
                    Some((Instr::VaesYmmThroughput, 32.0 / f64::from(rounds)))
                } else if AesNiToken::get().is_some() {
                    Some((Instr::AesXmmThroughput, 16.0 / f64::from(rounds)))
                } else {
                    None
                }
            }
            Ceiling::Chained(rounds) => AesNiToken::get()
                .is_some()
                .then(|| (Instr::AesLatency, 16.0 / f64::from(rounds))),
            Ceiling::Sha1Latency => ShaNiToken::get()
                .is_some()
                .then_some((Instr::Sha1Rnds4Latency, 64.0 / 20.0)),
            Ceiling::Sha1Throughput => ShaNiToken::get()
                .is_some()
                .then_some((Instr::Sha1Rnds4Throughput, 64.0 / 20.0)),
            Ceiling::None => None,
        }
    }

    /// The formula, for the table and the JSON.
    pub fn describe(self) -> String {
        match (self, self.resolve()) {
            (Ceiling::Parallel(r), Some((Instr::VaesYmmThroughput, _))) => {
                format!("32 B x vaesenc-ymm/s / {r}")
            }
            (Ceiling::Parallel(r), Some((Instr::VaesZmmThroughput, _))) => {
                format!("64 B x vaesenc-zmm/s / {r}")
            }
            (Ceiling::Parallel(r), Some(_)) => format!("16 B x aesenc-xmm/s / {r}"),
            (Ceiling::Chained(r), Some(_)) => format!("16 B / ({r} x aesenc latency)"),
            (Ceiling::Sha1Latency, Some(_)) => "64 B / (20 x sha1rnds4 latency)".into(),
            (Ceiling::Sha1Throughput, Some(_)) => "64 B x sha1rnds4/s / 20".into(),
            (Ceiling::None, _) => "none (several threads)".into(),
            (_, None) => "none (instruction absent)".into(),
        }
    }
}

/// Whether this CPU's `vaesenc zmm` moves clearly more bytes per second than its `vaesenc
/// ymm` (decided once per process, by timing both probes briefly).
///
/// Where 512-bit AES runs as two 256-bit halves (AMD Zen 4) or on one port where ymm has two
/// (Intel Ice Lake to Emerald Rapids), both widths move about the same bytes per second and
/// the ymm figure stays the ceiling, as it always was; where 512-bit AES has full-width units
/// (AMD Zen 5: 7.2 G zmm/s against 7.3 G ymm/s, twice the bytes), a ymm ceiling would read
/// 145% for a zmm kernel, so the zmm figure is the ceiling.
fn zmm_moves_more() -> bool {
    use simdcrypt::cpu::{VaesAvx2Token, VaesAvx512Token};
    static ZMM: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ZMM.get_or_init(|| {
        let (Some(_), Some(_)) = (VaesAvx2Token::get(), VaesAvx512Token::get()) else {
            return false;
        };
        let rate = |i: Instr| {
            let mut p = i.probe().expect("the tokens above prove the instruction");
            let ops = i.ops_per_run() as f64;
            // Best of five short slices: a slice cut short by the scheduler only lowers a rate.
            (0..5)
                .map(|_| {
                    crate::measure::time_slice_with(
                        p.as_mut(),
                        ops,
                        Duration::from_millis(4),
                        false,
                    )
                })
                .fold(0.0, f64::max)
        };
        let (ymm, zmm) = (
            rate(Instr::VaesYmmThroughput),
            rate(Instr::VaesZmmThroughput),
        );
        wider_wins(ymm, zmm)
    })
}

/// Whether zmm's bytes per second (64 B per `vaesenc`) beat ymm's (32 B) by at least half:
/// a factor near 1 (Zen 4, Emerald Rapids) or near 2 (Zen 5), never near the threshold, so
/// noise cannot flip the choice from one run to the next.
fn wider_wins(ymm_ops_per_s: f64, zmm_ops_per_s: f64) -> bool {
    64.0 * zmm_ops_per_s >= 1.5 * 32.0 * ymm_ops_per_s
}

enum Probe {
    AesXmm(simdcrypt::cpu::AesNiToken),
    /// The chain value, carried from one run into the next.
    AesLatency(simdcrypt::cpu::AesNiToken, u64),
    /// The same, for the ten-key block chain.
    AesBlock(simdcrypt::cpu::AesNiToken, u64),
    AesRestarted(simdcrypt::cpu::AesNiToken),
    VaesYmm(simdcrypt::cpu::VaesAvx2Token),
    VaesZmm(simdcrypt::cpu::VaesAvx512Token),
    Sha(simdcrypt::cpu::ShaNiToken),
    /// The chain value (128 bits), carried from one run into the next.
    ShaLatency(simdcrypt::cpu::ShaNiToken, [u64; 2]),
}

impl Runner for Probe {
    fn run(&mut self) {
        let seed = black_box(0x0123_4567_89ab_cdef_u64);
        let r = match *self {
            Probe::AesLatency(_, ref mut x) => {
                // SAFETY: the token proves AES-NI and SSE4.1.
                *x = unsafe { x86::aes_latency(*x) };
                *x
            }
            Probe::AesBlock(_, ref mut x) => {
                // SAFETY: the token proves AES-NI and SSE4.1.
                *x = unsafe { x86::aes_block_chain(*x) };
                *x
            }
            Probe::AesRestarted(_) => {
                // SAFETY: the token proves AES-NI and SSE4.1.
                unsafe { x86::aes_restarted_chains(seed) }
            }
            Probe::AesXmm(_) => {
                // SAFETY: the token proves AES-NI and SSE4.1.
                unsafe { x86::aes_xmm_throughput(seed) }
            }
            Probe::VaesYmm(_) => {
                // SAFETY: the token proves AVX2 and VAES.
                unsafe { x86::vaes_ymm_throughput(seed) }
            }
            Probe::VaesZmm(_) => {
                // SAFETY: the token proves AVX-512F and VAES.
                unsafe { x86::vaes_zmm_throughput(seed) }
            }
            Probe::ShaLatency(_, ref mut x) => {
                // SAFETY: the token proves the SHA extensions and SSE4.1.
                *x = unsafe { x86::sha1rnds4_latency(*x) };
                x[0]
            }
            Probe::Sha(_) => {
                // SAFETY: the token proves the SHA extensions and SSE4.1.
                unsafe { x86::sha1rnds4_throughput(seed) }
            }
        };
        black_box(r);
    }

    fn output(&self) -> &[u8] {
        &[]
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;
    use std::hint::black_box;

    use super::{AES_BLOCKS, CHAINS, ITERS, LAT_ITERS, RESTARTS, SHA_CHAINS};

    /// `AES_BLOCKS` AES-128-shaped blocks as one chain continued from `x`: per block nine
    /// `aesenc` and one `aesenclast` with ten distinct round keys.
    #[target_feature(enable = "aes,sse4.1")]
    pub(super) fn aes_block_chain(x: u64) -> u64 {
        let k: [__m128i; 10] = black_box(core::array::from_fn(|i| {
            _mm_set1_epi32(0x0102_0304 * (i as i32 + 1))
        }));
        let mut s = _mm_cvtsi64_si128(x as i64);
        for _ in 0..AES_BLOCKS {
            for key in &k[..9] {
                s = _mm_aesenc_si128(s, *key);
            }
            s = _mm_aesenclast_si128(s, k[9]);
        }
        _mm_cvtsi128_si64(s) as u64
    }

    /// `RESTARTS` chains of 256 `aesenc`, each from the same starting value: independent
    /// of each other, so the core overlaps them.
    #[target_feature(enable = "aes,sse4.1")]
    pub(super) fn aes_restarted_chains(seed: u64) -> u64 {
        let k = black_box(_mm_set1_epi64x(seed as i64));
        let mut acc = 0;
        for _ in 0..RESTARTS {
            let mut s = black_box(_mm_set1_epi32(7));
            for _ in 0..256 {
                s = _mm_aesenc_si128(s, k);
            }
            acc ^= _mm_cvtsi128_si64(s) as u64;
        }
        acc
    }

    #[target_feature(enable = "sse4.1")]
    fn fold128(s: &[__m128i]) -> u64 {
        let mut acc = _mm_setzero_si128();
        for x in s {
            acc = _mm_xor_si128(acc, *x);
        }
        _mm_extract_epi64::<0>(acc) as u64
    }

    /// Continues the chain from `x` (the previous run's result), so consecutive runs are
    /// one dependent chain that the out-of-order core cannot overlap.
    #[target_feature(enable = "aes,sse4.1")]
    pub(super) fn aes_latency(x: u64) -> u64 {
        let k = black_box(_mm_set1_epi64x(0x0123_4567_89ab_cdef));
        let mut x = _mm_cvtsi64_si128(x as i64);
        for _ in 0..LAT_ITERS {
            x = _mm_aesenc_si128(x, k);
        }
        _mm_cvtsi128_si64(x) as u64
    }

    /// Continues the chain from `x` (the previous run's result): consecutive runs are one
    /// dependent chain.
    #[target_feature(enable = "sha,sse4.1")]
    pub(super) fn sha1rnds4_latency(x: [u64; 2]) -> [u64; 2] {
        let e = black_box(_mm_set1_epi64x(0x0123_4567_89ab_cdef));
        let mut v = _mm_set_epi64x(x[1] as i64, x[0] as i64);
        for _ in 0..LAT_ITERS {
            v = _mm_sha1rnds4_epu32::<0>(v, e);
        }
        [
            _mm_cvtsi128_si64(v) as u64,
            _mm_extract_epi64::<1>(v) as u64,
        ]
    }

    /// The throughput probes: `$chains` independent chains, each of the vector type that
    /// `$set1_32` makes, `x = $op(x, k)` `ITERS` times each; `$low` maps a vector to the
    /// 128 bits folded into the result (which only keeps the work alive).
    macro_rules! throughput {
        ($($name:ident(
            $features:literal, $chains:expr, $set1_64:ident, $set1_32:ident, $op:path, $low:expr
        );)*) => {$(
            #[target_feature(enable = $features)]
            pub(super) fn $name(seed: u64) -> u64 {
                let k = black_box($set1_64(seed as i64));
                let mut s: [_; $chains] =
                    core::array::from_fn(|i| $set1_32(i as i32 ^ seed as i32));
                for _ in 0..ITERS {
                    for x in s.iter_mut() {
                        *x = $op(*x, k);
                    }
                }
                fold128(&s.map($low))
            }
        )*};
    }
    throughput! {
        aes_xmm_throughput("aes,sse4.1", CHAINS,
            _mm_set1_epi64x, _mm_set1_epi32, _mm_aesenc_si128, |v| v);
        vaes_ymm_throughput("avx2,vaes,sse4.1", CHAINS,
            _mm256_set1_epi64x, _mm256_set1_epi32, _mm256_aesenc_epi128,
            |v| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)));
        vaes_zmm_throughput("avx512f,vaes,sse4.1", CHAINS,
            _mm512_set1_epi64, _mm512_set1_epi32, _mm512_aesenc_epi128, |v| _mm512_castsi512_si128(v));
        sha1rnds4_throughput("sha,sse4.1", SHA_CHAINS,
            _mm_set1_epi64x, _mm_set1_epi32, _mm_sha1rnds4_epu32::<0>, |v| v);
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod x86 {
    //! No probe runs here: no capability token can be made off x86-64.
    macro_rules! never {
        ($($name:ident)*) => {$(
            /// # Safety
            /// Never called: the probes need a capability token, which only x86-64 makes.
            pub(super) unsafe fn $name(_: u64) -> u64 {
                unreachable!("no instruction probe off x86-64")
            }
        )*};
    }
    never!(aes_latency aes_block_chain aes_restarted_chains aes_xmm_throughput
        vaes_ymm_throughput vaes_zmm_throughput sha1rnds4_throughput);

    /// # Safety
    /// Never called: the probes need a capability token, which only x86-64 makes.
    pub(super) unsafe fn sha1rnds4_latency(_: [u64; 2]) -> [u64; 2] {
        unreachable!("no instruction probe off x86-64")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the probe `$variant($token, $start)`, runs it twice and returns its chain value
    /// after each run.
    macro_rules! run_twice {
        ($variant:ident($token:expr, $start:expr)) => {{
            let mut p = Probe::$variant($token, $start);
            let mut after = || {
                p.run();
                let Probe::$variant(_, x) = p else {
                    unreachable!()
                };
                x
            };
            (after(), after())
        }};
    }

    /// The capability token `$t`, or, on a CPU without `$what`, a line on stderr and a return
    /// from the test: the probe is never built there (Instr::probe returns None).
    macro_rules! token_or_return {
        ($t:ident, $what:literal) => {
            match simdcrypt::cpu::$t::get() {
                Some(tok) => tok,
                None => {
                    eprintln!(concat!("skipped: no ", $what, " on this CPU"));
                    return;
                }
            }
        };
    }

    /// A latency probe is one chain across runs: each run starts from the previous run's
    /// result, so two runs of `$variant` give what one `$step` (its `$instr`'s loop) from
    /// the first result gives.
    macro_rules! latency_chain_continues {
        ($variant:ident($token:expr, $start:expr), $step:path, $instr:expr) => {{
            let (after_one, after_two) = run_twice!($variant($token, $start));
            assert_ne!(after_one, $start);
            // SAFETY: the probe's token proves the instructions `$step` runs, and SSE4.1.
            let want = unsafe { $step(after_one) };
            assert_eq!(after_two, want);
            assert_ne!(after_two, after_one);
            assert_eq!($instr.ops_per_run(), LAT_ITERS);
        }};
    }

    /// The `aesenc` latency probe's chain continues across runs.
    #[test]
    fn aes_latency_probe_continues_its_chain() {
        let tok = token_or_return!(AesNiToken, "AES-NI");
        latency_chain_continues!(AesLatency(tok, 0), x86::aes_latency, Instr::AesLatency);
    }

    /// The same for the ten-key block chain; and the restarted chains do restart (two runs
    /// give the same value).
    #[test]
    fn aes_block_chain_continues_and_restarted_chains_restart() {
        let tok = token_or_return!(AesNiToken, "AES-NI");
        let (one, two) = run_twice!(AesBlock(tok, 0));
        // SAFETY: the token proves AES-NI and SSE4.1.
        assert_eq!(two, unsafe { x86::aes_block_chain(one) });
        assert_ne!(two, one);
        // SAFETY: as above.
        let (a, b) = unsafe { (x86::aes_restarted_chains(5), x86::aes_restarted_chains(5)) };
        assert_eq!(a, b);
        assert_eq!(Instr::AesBlockChain.ops_per_run(), AES_BLOCKS * 10);
        assert_eq!(Instr::AesRestartedChains.ops_per_run(), RESTARTS * 256);
    }

    /// The width rule, on the rates measured so far (ops/s): Zen 5's full-width zmm counts,
    /// Zen 4's two halves and Emerald Rapids' single zmm port do not.
    #[test]
    fn zmm_is_the_ceiling_only_where_it_moves_more_bytes() {
        assert!(wider_wins(7.300e9, 7.221e9)); // AMD Zen 5 (26/2)
        assert!(!wider_wins(7.03e9, 3.55e9)); // AMD Zen 4 (25/17)
        assert!(!wider_wins(4.757e9, 2.548e9)); // Intel Emerald Rapids (6/207)
        assert!(!wider_wins(7.0e9, 5.0e9)); // 1.43x the bytes: under the threshold
        assert!(wider_wins(7.0e9, 5.3e9)); // 1.51x
    }

    /// The same for the `sha1rnds4` latency probe.
    #[test]
    fn sha1rnds4_latency_probe_continues_its_chain() {
        let tok = token_or_return!(ShaNiToken, "SHA-NI");
        latency_chain_continues!(
            ShaLatency(tok, [0; 2]),
            x86::sha1rnds4_latency,
            Instr::Sha1Rnds4Latency
        );
    }
}
