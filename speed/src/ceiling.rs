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
//!             SHA-1, 1 stream  = 64 B / (20 * max(sha1rnds4 latency, step recurrence)):
//!                                a step is sha1nexte of the ABCD before the previous
//!                                sha1rnds4 feeding this one's E (see `sha1_step_binds`)
//!             SHA-1, n streams = min(n * the one-stream ceiling,
//!                                    64 B / (20 * sha1rnds4 reciprocal throughput)):
//!                                n chains until they fill the unit (see `sha1_lanes_fill`)
//! AArch64:    parallel AES     = 16 B * (aese+aesmc)/s / rounds
//!             chained CBC enc  = 16 B / (rounds * aese+aesmc latency)
//!             SHA-1, 1 stream  = 64 B / (20 * sha1c recurrence: sha1c, sha1h feeding E)
//!             SHA-1, n streams = min(n * the one-stream ceiling,
//!                                    64 B / (20 * sha1c reciprocal throughput))
//! ```
//! An AArch64 AES round is an `AESE` (AddRoundKey, SubBytes, ShiftRows) and an `AESMC`
//! (MixColumns), which many cores fuse into one operation, so the probes time the pair
//! (decryption's `AESD`+`AESIMC` is taken to run at the same rate). One `SHA1C` is four
//! rounds, 20 of them a 64-byte block; in one stream each `SHA1C` waits for the previous
//! one's ABCD and for `SHA1H` of the ABCD before it (the next four rounds' E), as in the
//! kernels.
//!
//! Every probe is a safe `#[target_feature]` function reached only through a capability
//! token from `simdcrypt::cpu`, so it runs only where detection found its instructions.

use std::hint::black_box;
use std::time::Duration;

use crate::measure::Runner;

/// How many times each probe body repeats per `process_one`.
const ITERS: u64 = 256;
/// `aesenc`, `sha1rnds4` or SHA-1 steps per `process_one` of their latency probes: long, so that
/// moving the chain value between runs (a few cycles, on the chain) is under 0.1% of the time.
const LAT_ITERS: u64 = 4096;
/// AES blocks (10 rounds each) per `process_one` of the block-chain probe.
const AES_BLOCKS: u64 = 512;
/// 256-long restarted chains per `process_one` of that probe.
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
    /// SHA-1's four-round step as one stream runs it on the SHA extensions: each
    /// `sha1rnds4` takes the previous one's ABCD, and as E the `sha1nexte` of the ABCD
    /// before that (per step; the one-stream ceiling where it is slower than
    /// [`Instr::Sha1Rnds4Latency`]).
    Sha1StepLatency,
    /// AArch64 `AESE`+`AESMC`, 12 independent chains (the parallel-AES ceiling there).
    AeseThroughput,
    /// AArch64 `AESE`+`AESMC`, one chain (the CBC-encrypt ceiling there).
    AeseLatency,
    /// AArch64 `SHA1C` as one SHA-1 stream runs it: each `SHA1C` takes the previous one's
    /// ABCD, and as E the `SHA1H` of the ABCD before that (the one-stream ceiling there).
    Sha1cLatency,
    /// AArch64 `SHA1C`, 8 independent chains.
    Sha1cThroughput,
}

impl Instr {
    /// Every probe, in display order (a CPU runs those of its architecture).
    pub const ALL: [Instr; 13] = [
        Instr::AesXmmThroughput,
        Instr::VaesYmmThroughput,
        Instr::VaesZmmThroughput,
        Instr::AesLatency,
        Instr::AesBlockChain,
        Instr::AesRestartedChains,
        Instr::Sha1Rnds4Latency,
        Instr::Sha1Rnds4Throughput,
        Instr::Sha1StepLatency,
        Instr::AeseThroughput,
        Instr::AeseLatency,
        Instr::Sha1cLatency,
        Instr::Sha1cThroughput,
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
            Instr::Sha1StepLatency => "sha1nexte+sha1rnds4 step",
            Instr::AeseThroughput => "aese+aesmc throughput",
            Instr::AeseLatency => "aese+aesmc latency",
            Instr::Sha1cLatency => "sha1c recurrence",
            Instr::Sha1cThroughput => "sha1c throughput",
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
                | Instr::Sha1StepLatency
                | Instr::AeseLatency
                | Instr::Sha1cLatency
        )
    }

    /// Instructions executed per `process_one` of the probe.
    pub fn ops_per_run(self) -> u64 {
        ITERS
            * match self {
                Instr::AesLatency => LAT_ITERS / ITERS,
                Instr::AesBlockChain => AES_BLOCKS * 10 / ITERS,
                Instr::AesRestartedChains => RESTARTS * 256 / ITERS,
                Instr::Sha1Rnds4Latency | Instr::Sha1StepLatency => LAT_ITERS / ITERS,
                Instr::Sha1Rnds4Throughput => SHA_CHAINS as u64,
                Instr::AeseLatency | Instr::Sha1cLatency => LAT_ITERS / ITERS,
                Instr::Sha1cThroughput => SHA_CHAINS as u64,
                _ => CHAINS as u64,
            }
    }

    /// The probe, if this CPU has the instruction.
    pub fn probe(self) -> Option<Box<dyn Runner>> {
        use simdcrypt::cpu::{
            AesNiToken, Armv8AesToken, Armv8Sha1Token, ShaNiToken, VaesAvx2Token, VaesAvx512Token,
        };
        Some(match self {
            Instr::AesXmmThroughput => Box::new(Probe::AesXmm(AesNiToken::get()?)),
            Instr::AesLatency => Box::new(Probe::AesLatency(AesNiToken::get()?, 0)),
            Instr::AesBlockChain => Box::new(Probe::AesBlock(AesNiToken::get()?, 0)),
            Instr::AesRestartedChains => Box::new(Probe::AesRestarted(AesNiToken::get()?)),
            Instr::VaesYmmThroughput => Box::new(Probe::VaesYmm(VaesAvx2Token::get()?)),
            Instr::VaesZmmThroughput => Box::new(Probe::VaesZmm(VaesAvx512Token::get()?)),
            Instr::Sha1Rnds4Latency => Box::new(Probe::ShaLatency(ShaNiToken::get()?, [0; 2])),
            Instr::Sha1Rnds4Throughput => Box::new(Probe::Sha(ShaNiToken::get()?)),
            Instr::Sha1StepLatency => Box::new(Probe::ShaStep(ShaNiToken::get()?, [0; 4])),
            Instr::AeseThroughput => Box::new(Probe::Aese(Armv8AesToken::get()?)),
            Instr::AeseLatency => Box::new(Probe::AeseLatency(Armv8AesToken::get()?, 0)),
            Instr::Sha1cThroughput => Box::new(Probe::Sha1c(Armv8Sha1Token::get()?)),
            Instr::Sha1cLatency => Box::new(Probe::Sha1cLatency(Armv8Sha1Token::get()?, [0; 5])),
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
    /// This many independent SHA-1 streams (lanes) at once: each a one-stream chain, the
    /// chains together at most the SHA-1 instruction's throughput.
    Sha1Lanes(u32),
    /// No instruction: plain SHA-1 of the same messages (this many at once) on simdcrypt's
    /// automatic backend, measured beside the contenders (`simdcrypt::sha1`, or
    /// `sha1_many` for several; `algs::plain_sha1_probe`). What collision detection adds
    /// to SHA-1 shows as the share of it that a `sha1dc` row reaches.
    PlainSha1(u32),
    /// None measured (several threads: the one-core ceilings do not apply).
    None,
}

impl Ceiling {
    /// The instruction whose rate sets the ceiling here, and the bytes one such instruction
    /// is worth; `None` if this CPU lacks the instruction.
    pub fn resolve(self) -> Option<(Instr, f64)> {
        self.resolve_with(Have::here(self))
    }

    /// [`Ceiling::resolve`] on a CPU with the instructions `have`.
    fn resolve_with(self, have: Have) -> Option<(Instr, f64)> {
        let per_round = |bytes: f64, rounds: u32| bytes / f64::from(rounds);
        match self {
            Ceiling::Parallel(rounds) => {
                if have.armv8_aes {
                    Some((Instr::AeseThroughput, per_round(16.0, rounds)))
                } else if have.zmm_wins {
                    Some((Instr::VaesZmmThroughput, per_round(64.0, rounds)))
                } else if have.vaes_avx2 {
                    Some((Instr::VaesYmmThroughput, per_round(32.0, rounds)))
                } else if have.aes_ni {
                    Some((Instr::AesXmmThroughput, per_round(16.0, rounds)))
                } else {
                    None
                }
            }
            Ceiling::Chained(rounds) => {
                if have.armv8_aes {
                    Some((Instr::AeseLatency, per_round(16.0, rounds)))
                } else {
                    have.aes_ni
                        .then(|| (Instr::AesLatency, per_round(16.0, rounds)))
                }
            }
            Ceiling::Sha1Latency => {
                if have.armv8_sha1 {
                    Some((Instr::Sha1cLatency, 64.0 / 20.0))
                } else {
                    let per_step = if have.sha1_step_binds {
                        Instr::Sha1StepLatency
                    } else {
                        Instr::Sha1Rnds4Latency
                    };
                    have.sha_ni.then_some((per_step, 64.0 / 20.0))
                }
            }
            Ceiling::Sha1Lanes(n) => {
                let throughput = if have.armv8_sha1 {
                    Instr::Sha1cThroughput
                } else if have.sha_ni {
                    Instr::Sha1Rnds4Throughput
                } else {
                    return None;
                };
                if have.sha1_lanes_fill {
                    Some((throughput, 64.0 / 20.0))
                } else {
                    let (chain, bytes) = Ceiling::Sha1Latency.resolve_with(have)?;
                    Some((chain, f64::from(n) * bytes))
                }
            }
            Ceiling::PlainSha1(_) | Ceiling::None => None,
        }
    }

    /// The formula, for the table and the JSON.
    pub fn describe(self) -> String {
        self.describe_with(Have::here(self))
    }

    /// [`Ceiling::describe`] on a CPU with the instructions `have`.
    fn describe_with(self, have: Have) -> String {
        let instr = self.resolve_with(have).map(|(i, _)| i);
        match (self, instr) {
            (Ceiling::None, _) => "none (several threads)".into(),
            (Ceiling::PlainSha1(1), _) => "plain SHA-1 (simdcrypt::sha1, automatic backend)".into(),
            (Ceiling::PlainSha1(n), _) => {
                format!("plain SHA-1 of {n} messages (simdcrypt::sha1_many, automatic backend)")
            }
            (_, None) => "none (instruction absent)".into(),
            (Ceiling::Parallel(r), Some(Instr::VaesYmmThroughput)) => {
                format!("32 B x vaesenc-ymm/s / {r}")
            }
            (Ceiling::Parallel(r), Some(Instr::VaesZmmThroughput)) => {
                format!("64 B x vaesenc-zmm/s / {r}")
            }
            (Ceiling::Parallel(r), Some(Instr::AeseThroughput)) => {
                format!("16 B x aese+aesmc/s / {r}")
            }
            (Ceiling::Parallel(r), Some(_)) => format!("16 B x aesenc-xmm/s / {r}"),
            (Ceiling::Chained(r), Some(Instr::AeseLatency)) => {
                format!("16 B / ({r} x aese+aesmc latency)")
            }
            (Ceiling::Chained(r), Some(_)) => format!("16 B / ({r} x aesenc latency)"),
            (Ceiling::Sha1Latency, Some(Instr::Sha1cLatency)) => {
                "64 B / (20 x sha1c recurrence)".into()
            }
            (Ceiling::Sha1Latency, Some(Instr::Sha1StepLatency)) => {
                "64 B / (20 x sha1nexte+sha1rnds4 step)".into()
            }
            (Ceiling::Sha1Latency, Some(_)) => "64 B / (20 x sha1rnds4 latency)".into(),
            (Ceiling::Sha1Lanes(_), Some(Instr::Sha1cThroughput)) => "64 B x sha1c/s / 20".into(),
            (Ceiling::Sha1Lanes(_), Some(Instr::Sha1Rnds4Throughput)) => {
                "64 B x sha1rnds4/s / 20".into()
            }
            (Ceiling::Sha1Lanes(n), Some(_)) => {
                format!("{n} x {}", Ceiling::Sha1Latency.describe_with(have))
            }
        }
    }
}

/// The instructions that choose a ceiling, as detection found them (plain data, so that
/// the choice and its formula are tested for every architecture on any host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Have {
    /// `aesenc xmm` (AES-NI).
    aes_ni: bool,
    /// `vaesenc ymm` (VAES on AVX2).
    vaes_avx2: bool,
    /// `vaesenc zmm`, and it moves clearly more bytes per second than ymm
    /// ([`zmm_moves_more`]).
    zmm_wins: bool,
    /// `sha1rnds4` (the SHA extensions).
    sha_ni: bool,
    /// With `sha_ni`: SHA-1's step recurrence (`sha1nexte` feeding the next `sha1rnds4`'s
    /// E) is clearly slower than `sha1rnds4`'s latency ([`sha1_step_binds`]).
    sha1_step_binds: bool,
    /// For [`Ceiling::Sha1Lanes`]: its lanes, each a one-stream chain, issue at least the
    /// SHA-1 instruction's throughput ([`sha1_lanes_fill`]).
    sha1_lanes_fill: bool,
    /// AArch64 `AESE`/`AESMC`.
    armv8_aes: bool,
    /// AArch64 `SHA1C`/`SHA1H`.
    armv8_sha1: bool,
}

impl Have {
    /// This CPU's, from the capability tokens; the zmm-against-ymm timing only for a
    /// parallel ceiling and the SHA-1 step timing only for the one-stream SHA-1 ceiling
    /// (the one ceiling each decides).
    fn here(ceiling: Ceiling) -> Have {
        use simdcrypt::cpu::{
            AesNiToken, Armv8AesToken, Armv8Sha1Token, ShaNiToken, VaesAvx2Token,
        };
        Have {
            aes_ni: AesNiToken::get().is_some(),
            vaes_avx2: VaesAvx2Token::get().is_some(),
            zmm_wins: matches!(ceiling, Ceiling::Parallel(_)) && zmm_moves_more(),
            sha_ni: ShaNiToken::get().is_some(),
            sha1_step_binds: matches!(ceiling, Ceiling::Sha1Latency | Ceiling::Sha1Lanes(_))
                && sha1_step_binds(),
            sha1_lanes_fill: match ceiling {
                Ceiling::Sha1Lanes(n) => sha1_lanes_fill(n),
                _ => false,
            },
            armv8_aes: Armv8AesToken::get().is_some(),
            armv8_sha1: Armv8Sha1Token::get().is_some(),
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
        let (ymm, zmm) = (
            brief_rate(Instr::VaesYmmThroughput),
            brief_rate(Instr::VaesZmmThroughput),
        );
        wider_wins(ymm, zmm)
    })
}

/// Whether this CPU's SHA-1 step recurrence is clearly slower than its `sha1rnds4`
/// latency (decided once per process, by timing both probes briefly), so that the step,
/// not `sha1rnds4` alone, bounds one SHA-1 stream.
///
/// A step is never faster than the latency (the recurrence contains the `sha1rnds4` chain),
/// and where `sha1nexte` fits beside the previous `sha1rnds4` the two are equal: AMD Zen 4
/// runs both at 1.64 ns, and the ceiling stays the `sha1rnds4` latency, as it always was.
/// Intel Emerald Rapids takes 1.6 ns a step against 1.34 ns for `sha1rnds4`, so there the
/// step is the ceiling.
fn sha1_step_binds() -> bool {
    use simdcrypt::cpu::ShaNiToken;
    static STEP: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STEP.get_or_init(|| {
        if ShaNiToken::get().is_none() {
            return false;
        }
        let (rnds4, step) = (
            brief_rate(Instr::Sha1Rnds4Latency),
            brief_rate(Instr::Sha1StepLatency),
        );
        slower_step_binds(rnds4, step)
    })
}

/// Whether `lanes` independent SHA-1 streams, each issuing at the one-stream chain's rate
/// (the slower of `sha1rnds4`'s latency and the step recurrence; `SHA1C`'s recurrence on
/// AArch64), issue at least the instruction's throughput, so that the throughput, not
/// `lanes` chains, bounds them (the chain and throughput rates timed briefly once per
/// process). A SHA-NI or `SHA1C` chain issues at a third to a quarter of the throughput,
/// so 8 lanes fill the unit and 1 or 2 do not.
fn sha1_lanes_fill(lanes: u32) -> bool {
    use simdcrypt::cpu::{Armv8Sha1Token, ShaNiToken};
    static RATES: std::sync::OnceLock<Option<(f64, f64)>> = std::sync::OnceLock::new();
    let rates = *RATES.get_or_init(|| {
        if Armv8Sha1Token::get().is_some() {
            Some((
                brief_rate(Instr::Sha1cLatency),
                brief_rate(Instr::Sha1cThroughput),
            ))
        } else if ShaNiToken::get().is_some() {
            let chain = if sha1_step_binds() {
                Instr::Sha1StepLatency
            } else {
                Instr::Sha1Rnds4Latency
            };
            Some((brief_rate(chain), brief_rate(Instr::Sha1Rnds4Throughput)))
        } else {
            None
        }
    });
    rates.is_some_and(|(chain, throughput)| lanes_fill(lanes, chain, throughput))
}

/// Whether `lanes` chains of `chain_per_s` instructions per second each reach
/// `throughput_per_s`.
fn lanes_fill(lanes: u32, chain_per_s: f64, throughput_per_s: f64) -> bool {
    f64::from(lanes) * chain_per_s >= throughput_per_s
}

/// The probe's rate (instructions per second) over five short slices, the best of them: a
/// slice cut short by the scheduler only lowers a rate. The probe must exist here.
fn brief_rate(i: Instr) -> f64 {
    let mut p = i
        .probe()
        .expect("the caller's token proves the instruction");
    let ops = i.ops_per_run() as f64;
    (0..5)
        .map(|_| crate::measure::time_slice_with(p.as_mut(), ops, Duration::from_millis(4), false))
        .fold(0.0, f64::max)
}

/// Whether a SHA-1 step (`step_per_s` steps per second) takes at least 5% longer than a
/// `sha1rnds4` in one chain (`rnds4_per_s`): the larger of the two per-step times is the
/// ceiling, and the margin keeps noise from flipping the choice (and the formula the
/// records name) from one run to the next where the two are equal (AMD Zen 4); Intel
/// Emerald Rapids' step is 19% longer.
fn slower_step_binds(rnds4_per_s: f64, step_per_s: f64) -> bool {
    rnds4_per_s >= 1.05 * step_per_s
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
    /// The step recurrence's ABCD and previous ABCD, carried from one run into the next.
    ShaStep(simdcrypt::cpu::ShaNiToken, [u64; 4]),
    Aese(simdcrypt::cpu::Armv8AesToken),
    /// The chain value, carried from one run into the next.
    AeseLatency(simdcrypt::cpu::Armv8AesToken, u128),
    Sha1c(simdcrypt::cpu::Armv8Sha1Token),
    /// The chain value (ABCD and E), carried from one run into the next.
    Sha1cLatency(simdcrypt::cpu::Armv8Sha1Token, [u32; 5]),
}

impl Runner for Probe {
    fn process_one(&mut self) {
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
            Probe::ShaStep(_, ref mut x) => {
                // SAFETY: the token proves the SHA extensions and SSE4.1.
                *x = unsafe { x86::sha1_step_latency(*x) };
                x[0]
            }
            Probe::Sha(_) => {
                // SAFETY: the token proves the SHA extensions and SSE4.1.
                unsafe { x86::sha1rnds4_throughput(seed) }
            }
            Probe::Aese(_) => {
                // SAFETY: the token proves the ARMv8 AES instructions.
                unsafe { arm::aese_throughput(seed) }
            }
            Probe::AeseLatency(_, ref mut x) => {
                // SAFETY: the token proves the ARMv8 AES instructions.
                *x = unsafe { arm::aese_latency(*x) };
                *x as u64
            }
            Probe::Sha1c(_) => {
                // SAFETY: the token proves the ARMv8 SHA-1 instructions.
                unsafe { arm::sha1c_throughput(seed) }
            }
            Probe::Sha1cLatency(_, ref mut x) => {
                // SAFETY: the token proves the ARMv8 SHA-1 instructions.
                *x = unsafe { arm::sha1c_latency(*x) };
                u64::from(x[0])
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

    /// Continues the SHA-1 four-round step recurrence from `x` (ABCD, then the ABCD before
    /// it; the previous run's result), as one SHA-1 stream runs it: per step
    ///
    /// ```text
    /// e    = sha1nexte(prev, w)      (rol30 of the a before the previous step, plus W)
    /// prev = abcd
    /// abcd = sha1rnds4(abcd, e)
    /// ```
    ///
    /// with the message words `w` off the chain (fixed here, as a kernel computes them
    /// beside it). Each `sha1rnds4` waits for the previous one's ABCD and, through E, for
    /// the `sha1nexte` of the ABCD one step older: where `sha1nexte`'s latency and
    /// `sha1rnds4`'s from its E input exceed two `sha1rnds4` latencies, a step costs more
    /// than [`sha1rnds4_latency`] measures.
    ///
    /// In `asm!`, two steps at a time with `prev` alternating between two registers: the
    /// instructions are destructive, so `prev = abcd` is a register copy, and compiled from
    /// the intrinsics the copy lands on the ABCD chain (`sha1rnds4` then works on the copy),
    /// where it would be timed as part of the step wherever the core does not eliminate it.
    /// Here `sha1rnds4` updates ABCD in place and the copy feeds `sha1nexte` (the E path,
    /// which has a step to spare), as a kernel's schedule places it.
    /// `sha1_step_recurrence` (built for the tests) is the same loop in intrinsics.
    #[target_feature(enable = "sha,sse4.1")]
    pub(super) fn sha1_step_latency(x: [u64; 4]) -> [u64; 4] {
        const { assert!(LAT_ITERS.is_multiple_of(2)) };
        let w = black_box(step_words());
        let mut abcd = _mm_set_epi64x(x[1] as i64, x[0] as i64);
        let mut prev = _mm_set_epi64x(x[3] as i64, x[2] as i64);
        for _ in 0..LAT_ITERS / 2 {
            // SAFETY: `sha1nexte`, `sha1rnds4` (the `sha` feature of this function) and
            // `movdqa` on registers alone.
            unsafe {
                core::arch::asm!(
                    "sha1nexte {prev}, {w}",
                    "movdqa {prev1}, {abcd}",
                    "sha1rnds4 {abcd}, {prev}, 0",
                    "sha1nexte {prev1}, {w}",
                    "movdqa {prev}, {abcd}",
                    "sha1rnds4 {abcd}, {prev1}, 0",
                    abcd = inout(xmm_reg) abcd,
                    prev = inout(xmm_reg) prev,
                    prev1 = out(xmm_reg) _,
                    w = in(xmm_reg) w,
                    options(pure, nomem, nostack),
                );
            }
        }
        step_state(abcd, prev)
    }

    /// [`sha1_step_latency`] in intrinsics: the reference that the `asm!` must agree with.
    #[cfg(test)]
    #[target_feature(enable = "sha,sse4.1")]
    pub(super) fn sha1_step_recurrence(x: [u64; 4]) -> [u64; 4] {
        let w = step_words();
        let mut abcd = _mm_set_epi64x(x[1] as i64, x[0] as i64);
        let mut prev = _mm_set_epi64x(x[3] as i64, x[2] as i64);
        for _ in 0..LAT_ITERS {
            let e = _mm_sha1nexte_epu32(prev, w);
            prev = abcd;
            abcd = _mm_sha1rnds4_epu32::<0>(abcd, e);
        }
        step_state(abcd, prev)
    }

    /// The four message words of every step of the recurrence probe.
    #[target_feature(enable = "sse4.1")]
    fn step_words() -> __m128i {
        _mm_set_epi32(0x5a82_7999, 0x6ed9_eba1, 0x0123_4567, 0x7654_3210)
    }

    /// The recurrence's state as the probe carries it: ABCD, then the ABCD before it.
    #[target_feature(enable = "sse4.1")]
    fn step_state(abcd: __m128i, prev: __m128i) -> [u64; 4] {
        [
            _mm_cvtsi128_si64(abcd) as u64,
            _mm_extract_epi64::<1>(abcd) as u64,
            _mm_cvtsi128_si64(prev) as u64,
            _mm_extract_epi64::<1>(prev) as u64,
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

    /// # Safety
    /// As above.
    pub(super) unsafe fn sha1_step_latency(_: [u64; 4]) -> [u64; 4] {
        unreachable!("no instruction probe off x86-64")
    }

    /// # Safety
    /// As above.
    #[cfg(test)]
    pub(super) unsafe fn sha1_step_recurrence(_: [u64; 4]) -> [u64; 4] {
        unreachable!("no instruction probe off x86-64")
    }
}

#[cfg(target_arch = "aarch64")]
mod arm {
    use core::arch::aarch64::*;
    use std::hint::black_box;

    use super::{CHAINS, ITERS, LAT_ITERS, SHA_CHAINS};

    #[inline]
    #[target_feature(enable = "neon")]
    fn to_vec(x: u128) -> uint8x16_t {
        let v = vsetq_lane_u64::<1>((x >> 64) as u64, vdupq_n_u64(x as u64));
        vreinterpretq_u8_u64(v)
    }

    #[inline]
    #[target_feature(enable = "neon")]
    fn from_vec(v: uint8x16_t) -> u128 {
        let v = vreinterpretq_u64_u8(v);
        u128::from(vgetq_lane_u64::<0>(v)) | (u128::from(vgetq_lane_u64::<1>(v)) << 64)
    }

    /// One AES round as AArch64 spells it: `AESE` (AddRoundKey, SubBytes, ShiftRows),
    /// then `AESMC` (MixColumns).
    #[inline]
    #[target_feature(enable = "aes")]
    fn round(x: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
        vaesmcq_u8(vaeseq_u8(x, k))
    }

    /// Continues the chain from `x` (the previous run's result): consecutive runs are one
    /// dependent chain of `LAT_ITERS` `AESE`+`AESMC` pairs.
    #[target_feature(enable = "aes")]
    pub(super) fn aese_latency(x: u128) -> u128 {
        let k = black_box(vreinterpretq_u8_u64(vdupq_n_u64(0x0123_4567_89ab_cdef)));
        let mut s = to_vec(x);
        for _ in 0..LAT_ITERS {
            s = round(s, k);
        }
        from_vec(s)
    }

    /// `CHAINS` independent chains of `ITERS` `AESE`+`AESMC` pairs each.
    #[target_feature(enable = "aes")]
    pub(super) fn aese_throughput(seed: u64) -> u64 {
        let k = black_box(vreinterpretq_u8_u64(vdupq_n_u64(seed)));
        let mut s: [uint8x16_t; CHAINS] =
            core::array::from_fn(|i| vreinterpretq_u8_u32(vdupq_n_u32(i as u32 ^ seed as u32)));
        for _ in 0..ITERS {
            for x in s.iter_mut() {
                *x = round(*x, k);
            }
        }
        let acc = s.iter().fold(vdupq_n_u8(0), |a, x| veorq_u8(a, *x));
        vgetq_lane_u64::<0>(vreinterpretq_u64_u8(acc))
    }

    /// Continues the SHA-1 recurrence from `x` (ABCD, then E; the previous run's result):
    /// per step E for the next four rounds is `SHA1H` of lane 0 of ABCD, taken before
    /// `SHA1C` replaces ABCD, as a kernel's round loop runs it.
    ///
    /// In `asm!`, two steps at a time with E alternating between two registers: compiled
    /// from the intrinsics, E (a `u32`) goes through a general register and back (two
    /// `fmov`s on the recurrence), and the probe would time those moves, not the
    /// instructions. `sha1c_recurrence` (built for the tests) is the same loop in intrinsics.
    #[target_feature(enable = "sha2")]
    pub(super) fn sha1c_latency(x: [u32; 5]) -> [u32; 5] {
        const { assert!(LAT_ITERS.is_multiple_of(2)) };
        let wk = black_box(vdupq_n_u32(0x5a82_7999));
        let mut abcd = vdupq_n_u32(x[0]);
        abcd = vsetq_lane_u32::<1>(x[1], abcd);
        abcd = vsetq_lane_u32::<2>(x[2], abcd);
        abcd = vsetq_lane_u32::<3>(x[3], abcd);
        // E in lane 0.
        let mut e = vdupq_n_u32(x[4]);
        for _ in 0..LAT_ITERS / 2 {
            // SAFETY: `SHA1H` and `SHA1C` (the `sha2` feature of this function) on
            // registers alone.
            unsafe {
                core::arch::asm!(
                    "sha1h {e1:s}, {abcd:s}",
                    "sha1c {abcd:q}, {e:s}, {wk:v}.4s",
                    "sha1h {e:s}, {abcd:s}",
                    "sha1c {abcd:q}, {e1:s}, {wk:v}.4s",
                    abcd = inout(vreg) abcd,
                    e = inout(vreg) e,
                    e1 = out(vreg) _,
                    wk = in(vreg) wk,
                    options(pure, nomem, nostack),
                );
            }
        }
        [
            vgetq_lane_u32::<0>(abcd),
            vgetq_lane_u32::<1>(abcd),
            vgetq_lane_u32::<2>(abcd),
            vgetq_lane_u32::<3>(abcd),
            vgetq_lane_u32::<0>(e),
        ]
    }

    /// [`sha1c_latency`] in intrinsics: the reference that the `asm!` must agree with.
    #[cfg(test)]
    #[target_feature(enable = "sha2")]
    pub(super) fn sha1c_recurrence(x: [u32; 5]) -> [u32; 5] {
        let wk = vdupq_n_u32(0x5a82_7999);
        let mut abcd = vdupq_n_u32(x[0]);
        abcd = vsetq_lane_u32::<1>(x[1], abcd);
        abcd = vsetq_lane_u32::<2>(x[2], abcd);
        abcd = vsetq_lane_u32::<3>(x[3], abcd);
        let mut e = x[4];
        for _ in 0..LAT_ITERS {
            let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            abcd = vsha1cq_u32(abcd, e, wk);
            e = e_next;
        }
        [
            vgetq_lane_u32::<0>(abcd),
            vgetq_lane_u32::<1>(abcd),
            vgetq_lane_u32::<2>(abcd),
            vgetq_lane_u32::<3>(abcd),
            e,
        ]
    }

    /// `SHA_CHAINS` independent chains of `ITERS` `SHA1C` each (E fixed per chain).
    #[target_feature(enable = "sha2")]
    pub(super) fn sha1c_throughput(seed: u64) -> u64 {
        let wk = black_box(vdupq_n_u32(seed as u32));
        let e = black_box((seed >> 32) as u32);
        let mut s: [uint32x4_t; SHA_CHAINS] =
            core::array::from_fn(|i| vdupq_n_u32(i as u32 ^ seed as u32));
        for _ in 0..ITERS {
            for x in s.iter_mut() {
                *x = vsha1cq_u32(*x, e, wk);
            }
        }
        let acc = s.iter().fold(vdupq_n_u32(0), |a, x| veorq_u32(a, *x));
        vgetq_lane_u64::<0>(vreinterpretq_u64_u32(acc))
    }
}

#[cfg(not(target_arch = "aarch64"))]
mod arm {
    //! No probe runs here: no ARMv8 capability token can be made off AArch64.

    /// # Safety
    /// Never called: the probes need a capability token, which only AArch64 makes.
    pub(super) unsafe fn aese_throughput(_: u64) -> u64 {
        unreachable!("no ARMv8 instruction probe off AArch64")
    }

    /// # Safety
    /// As above.
    pub(super) unsafe fn sha1c_throughput(_: u64) -> u64 {
        unreachable!("no ARMv8 instruction probe off AArch64")
    }

    /// # Safety
    /// As above.
    pub(super) unsafe fn aese_latency(_: u128) -> u128 {
        unreachable!("no ARMv8 instruction probe off AArch64")
    }

    /// # Safety
    /// As above.
    pub(super) unsafe fn sha1c_latency(_: [u32; 5]) -> [u32; 5] {
        unreachable!("no ARMv8 instruction probe off AArch64")
    }

    /// # Safety
    /// As above.
    #[cfg(test)]
    pub(super) unsafe fn sha1c_recurrence(_: [u32; 5]) -> [u32; 5] {
        unreachable!("no ARMv8 instruction probe off AArch64")
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
                p.process_one();
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

    /// The same for the SHA-1 step recurrence (`sha1nexte` feeding `sha1rnds4`).
    #[test]
    fn sha1_step_probe_continues_its_chain() {
        let tok = token_or_return!(ShaNiToken, "SHA-NI");
        latency_chain_continues!(
            ShaStep(tok, [0; 4]),
            x86::sha1_step_latency,
            Instr::Sha1StepLatency
        );
    }

    /// The `asm!` SHA-1 step recurrence computes what the same loop in intrinsics does.
    #[test]
    fn sha1_step_asm_matches_the_intrinsics() {
        let _sha = token_or_return!(ShaNiToken, "SHA-NI");
        for x in [
            [0; 4],
            [1, 2, 3, 4],
            [u64::MAX, 0x6745_2301_efcd_ab89, 0, 0x98ba_dcfe_1032_5476],
        ] {
            // SAFETY: the token proves the SHA extensions and SSE4.1.
            let (asm, reference) =
                unsafe { (x86::sha1_step_latency(x), x86::sha1_step_recurrence(x)) };
            assert_eq!(asm, reference);
        }
    }

    /// The ARMv8 probes continue their chains across runs, as the x86 ones do (AArch64
    /// with the Cryptography Extension only; under qemu `-cpu max` too).
    #[test]
    fn armv8_latency_probes_continue_their_chains() {
        let aes = token_or_return!(Armv8AesToken, "ARMv8 AES");
        latency_chain_continues!(AeseLatency(aes, 0), arm::aese_latency, Instr::AeseLatency);
        let sha = token_or_return!(Armv8Sha1Token, "ARMv8 SHA-1");
        latency_chain_continues!(
            Sha1cLatency(sha, [0; 5]),
            arm::sha1c_latency,
            Instr::Sha1cLatency
        );
    }

    /// The `asm!` SHA-1 recurrence computes what the same loop in intrinsics does.
    #[test]
    fn sha1c_recurrence_asm_matches_the_intrinsics() {
        let _sha = token_or_return!(Armv8Sha1Token, "ARMv8 SHA-1");
        for x in [
            [0; 5],
            [1, 2, 3, 4, 5],
            [u32::MAX, 0x6745_2301, 0, 0xefcd_ab89, 7],
        ] {
            // SAFETY: the token proves the ARMv8 SHA-1 instructions.
            let (asm, reference) = unsafe { (arm::sha1c_latency(x), arm::sha1c_recurrence(x)) };
            assert_eq!(asm, reference);
        }
    }

    /// The throughput probes compute the same from the same seed (their chains are fixed
    /// work, not carried over), and something else from another.
    #[test]
    fn armv8_throughput_probes_are_fixed_work() {
        let _aes = token_or_return!(Armv8AesToken, "ARMv8 AES");
        // SAFETY: the token proves the ARMv8 AES instructions.
        let (a, b, c) = unsafe {
            (
                arm::aese_throughput(5),
                arm::aese_throughput(5),
                arm::aese_throughput(6),
            )
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
        let _sha = token_or_return!(Armv8Sha1Token, "ARMv8 SHA-1");
        // SAFETY: the token proves the ARMv8 SHA-1 instructions.
        let (a, b, c) = unsafe {
            (
                arm::sha1c_throughput(5),
                arm::sha1c_throughput(5),
                arm::sha1c_throughput(6),
            )
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    /// Where the probes exist, every instruction of this CPU has one and the ceilings name
    /// an instruction probed.
    #[test]
    fn the_ceilings_resolve_to_probes_here() {
        for c in [
            Ceiling::Parallel(10),
            Ceiling::Chained(14),
            Ceiling::Sha1Latency,
            Ceiling::Sha1Lanes(1),
            Ceiling::Sha1Lanes(8),
        ] {
            if let Some((instr, bytes)) = c.resolve() {
                assert!(
                    instr.probe().is_some(),
                    "{c:?}: {instr:?} has no probe here"
                );
                assert!(bytes > 0.0);
            }
        }
    }

    const NONE: Have = Have {
        aes_ni: false,
        vaes_avx2: false,
        zmm_wins: false,
        sha_ni: false,
        sha1_step_binds: false,
        sha1_lanes_fill: false,
        armv8_aes: false,
        armv8_sha1: false,
    };
    /// An AArch64 core with the Cryptography Extension (Neoverse, Apple, Cortex-A7x).
    const ARMV8: Have = Have {
        armv8_aes: true,
        armv8_sha1: true,
        ..NONE
    };

    /// Per algorithm kind, the AArch64 probe and the bytes one of its instructions is
    /// worth: 16 B per `AESE`+`AESMC` pair over the rounds, 64 B per 20 `SHA1C`.
    #[test]
    fn armv8_ceilings_and_their_bytes_per_instruction() {
        let full = Have {
            sha1_lanes_fill: true,
            ..ARMV8
        };
        let r = |c: Ceiling| {
            let have = if matches!(c, Ceiling::Sha1Lanes(_)) {
                full
            } else {
                ARMV8
            };
            c.resolve_with(have)
        };
        assert_eq!(r(Ceiling::Parallel(10)), Some((Instr::AeseThroughput, 1.6)));
        assert_eq!(
            r(Ceiling::Parallel(14)),
            Some((Instr::AeseThroughput, 16.0 / 14.0))
        );
        assert_eq!(r(Ceiling::Chained(10)), Some((Instr::AeseLatency, 1.6)));
        assert_eq!(
            r(Ceiling::Chained(12)),
            Some((Instr::AeseLatency, 16.0 / 12.0))
        );
        assert_eq!(r(Ceiling::Sha1Latency), Some((Instr::Sha1cLatency, 3.2)));
        assert_eq!(
            r(Ceiling::Sha1Lanes(8)),
            Some((Instr::Sha1cThroughput, 3.2))
        );
        // Two lanes that do not fill the unit: two chains.
        assert_eq!(
            Ceiling::Sha1Lanes(2).resolve_with(ARMV8),
            Some((Instr::Sha1cLatency, 6.4))
        );
        assert_eq!(
            Ceiling::Sha1Lanes(2).describe_with(ARMV8),
            "2 x 64 B / (20 x sha1c recurrence)"
        );
        assert_eq!(r(Ceiling::None), None);
        // AES without SHA-1 (some Cortex-A cores ship one extension without the other).
        let aes_only = Have {
            armv8_sha1: false,
            ..ARMV8
        };
        assert_eq!(Ceiling::Sha1Latency.resolve_with(aes_only), None);
        assert_eq!(
            Ceiling::Sha1Latency.describe_with(aes_only),
            "none (instruction absent)"
        );

        let d = |c: Ceiling| {
            let have = if matches!(c, Ceiling::Sha1Lanes(_)) {
                full
            } else {
                ARMV8
            };
            c.describe_with(have)
        };
        assert_eq!(d(Ceiling::Parallel(10)), "16 B x aese+aesmc/s / 10");
        assert_eq!(d(Ceiling::Chained(14)), "16 B / (14 x aese+aesmc latency)");
        assert_eq!(d(Ceiling::Sha1Latency), "64 B / (20 x sha1c recurrence)");
        assert_eq!(d(Ceiling::Sha1Lanes(8)), "64 B x sha1c/s / 20");
        assert_eq!(d(Ceiling::None), "none (several threads)");
    }

    /// A ceiling in bytes per second is the probe's rate times the bytes per instruction
    /// (what `make_probe` times: `ops_per_run` instructions worth that many bytes each).
    /// For an AArch64 core at 3 GHz with two fused `AESE`+`AESMC` per cycle and a 2-cycle
    /// pair latency, and `SHA1C` of 4-cycle latency and one per cycle:
    #[test]
    fn armv8_ceiling_arithmetic() {
        assert_eq!(Instr::AeseThroughput.ops_per_run(), CHAINS as u64 * ITERS);
        assert_eq!(Instr::AeseLatency.ops_per_run(), LAT_ITERS);
        assert_eq!(Instr::Sha1cLatency.ops_per_run(), LAT_ITERS);
        assert_eq!(
            Instr::Sha1cThroughput.ops_per_run(),
            SHA_CHAINS as u64 * ITERS
        );
        assert!(Instr::AeseLatency.is_latency() && Instr::Sha1cLatency.is_latency());
        assert!(!Instr::AeseThroughput.is_latency() && !Instr::Sha1cThroughput.is_latency());

        let full = Have {
            sha1_lanes_fill: true,
            ..ARMV8
        };
        let bps = |c: Ceiling, ops_per_s: f64| {
            let (_, bytes) = c.resolve_with(full).unwrap();
            ops_per_s * bytes
        };
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-12;
        // ECB/XTS/CBC-decrypt AES-128: 6 G pairs/s / 10 rounds x 16 B.
        assert!(close(bps(Ceiling::Parallel(10), 6e9), 9.6e9));
        // AES-256: 14 rounds.
        assert!(close(bps(Ceiling::Parallel(14), 6e9), 6e9 * 16.0 / 14.0));
        // CBC-128 encrypt: one pair per 2 cycles, 10 pairs a block.
        assert!(close(bps(Ceiling::Chained(10), 1.5e9), 2.4e9));
        // SHA-1, one stream: a `SHA1C` per 4 cycles, 20 per 64-byte block.
        assert!(close(bps(Ceiling::Sha1Latency, 0.75e9), 2.4e9));
        // SHA-1, many streams: one `SHA1C` per cycle.
        assert!(close(bps(Ceiling::Sha1Lanes(8), 3e9), 9.6e9));
    }

    /// One SHA-1 stream on x86-64: the step recurrence where it is clearly slower than
    /// `sha1rnds4`'s latency, else that latency; the formula names the one used, and the
    /// many-stream ceiling stays `sha1rnds4` throughput.
    #[test]
    fn x86_one_stream_sha1_ceiling_is_the_slower_step() {
        // Per step: Emerald Rapids 1.34 ns (sha1rnds4) against 1.6 ns (the recurrence);
        // Zen 4 1.64 ns for both; a step 3% longer is noise.
        assert!(slower_step_binds(1.0 / 1.34e-9, 1.0 / 1.6e-9));
        assert!(!slower_step_binds(1.0 / 1.64e-9, 1.0 / 1.64e-9));
        assert!(!slower_step_binds(1.0 / 1.64e-9, 1.0 / 1.69e-9));
        assert!(!slower_step_binds(1.0 / 1.6e-9, 1.0 / 1.34e-9));

        let step = Have {
            aes_ni: true,
            vaes_avx2: true,
            sha_ni: true,
            sha1_step_binds: true,
            sha1_lanes_fill: true,
            ..NONE
        };
        assert_eq!(
            Ceiling::Sha1Latency.resolve_with(step),
            Some((Instr::Sha1StepLatency, 3.2))
        );
        assert_eq!(
            Ceiling::Sha1Latency.describe_with(step),
            "64 B / (20 x sha1nexte+sha1rnds4 step)"
        );
        assert_eq!(
            Ceiling::Sha1Lanes(8).resolve_with(step),
            Some((Instr::Sha1Rnds4Throughput, 3.2))
        );
        assert_eq!(
            Ceiling::Sha1Lanes(8).describe_with(step),
            "64 B x sha1rnds4/s / 20"
        );
        // Without the SHA extensions, no ceiling, whatever the flag says.
        let no_sha = Have {
            sha_ni: false,
            ..step
        };
        assert_eq!(Ceiling::Sha1Latency.resolve_with(no_sha), None);
        // AArch64 keeps its recurrence.
        let arm = Have {
            sha1_step_binds: true,
            ..ARMV8
        };
        assert_eq!(
            Ceiling::Sha1Latency.resolve_with(arm),
            Some((Instr::Sha1cLatency, 3.2))
        );
        // The per-step probes count steps: LAT_ITERS a run, as the latency probes do.
        assert_eq!(Instr::Sha1StepLatency.ops_per_run(), LAT_ITERS);
        assert!(Instr::Sha1StepLatency.is_latency());
        assert_eq!(Instr::Sha1StepLatency.name(), "sha1nexte+sha1rnds4 step");
    }

    /// The x86-64 choice is as before: zmm where it moves more, else ymm, else xmm; and
    /// an x86 CPU never picks an ARMv8 probe (nor the reverse).
    #[test]
    fn x86_ceilings_are_unchanged() {
        let aesni = Have {
            aes_ni: true,
            sha_ni: true,
            ..NONE
        };
        let vaes = Have {
            vaes_avx2: true,
            ..aesni
        };
        let zen5 = Have {
            zmm_wins: true,
            ..vaes
        };
        let p = Ceiling::Parallel(14);
        assert_eq!(
            p.resolve_with(aesni),
            Some((Instr::AesXmmThroughput, 16.0 / 14.0))
        );
        assert_eq!(
            p.resolve_with(vaes),
            Some((Instr::VaesYmmThroughput, 32.0 / 14.0))
        );
        assert_eq!(
            p.resolve_with(zen5),
            Some((Instr::VaesZmmThroughput, 64.0 / 14.0))
        );
        assert_eq!(p.describe_with(vaes), "32 B x vaesenc-ymm/s / 14");
        assert_eq!(p.describe_with(aesni), "16 B x aesenc-xmm/s / 14");
        assert_eq!(
            Ceiling::Chained(10).describe_with(vaes),
            "16 B / (10 x aesenc latency)"
        );
        assert_eq!(
            Ceiling::Sha1Latency.describe_with(vaes),
            "64 B / (20 x sha1rnds4 latency)"
        );
        assert_eq!(
            Ceiling::Sha1Latency.resolve_with(vaes),
            Some((Instr::Sha1Rnds4Latency, 3.2))
        );
        // Two lanes: two one-stream chains; eight that fill the unit: its throughput.
        assert_eq!(
            Ceiling::Sha1Lanes(2).resolve_with(vaes),
            Some((Instr::Sha1Rnds4Latency, 6.4))
        );
        assert_eq!(
            Ceiling::Sha1Lanes(2).describe_with(vaes),
            "2 x 64 B / (20 x sha1rnds4 latency)"
        );
        let full = Have {
            sha1_lanes_fill: true,
            ..vaes
        };
        assert_eq!(
            Ceiling::Sha1Lanes(8).describe_with(full),
            "64 B x sha1rnds4/s / 20"
        );
        // A chain at a quarter of the throughput: 4 lanes and more fill it, 3 do not.
        assert!(lanes_fill(4, 0.5e9, 2e9) && lanes_fill(8, 0.5e9, 2e9));
        assert!(!lanes_fill(3, 0.5e9, 2e9) && !lanes_fill(1, 0.5e9, 2e9));
        assert_eq!(p.resolve_with(NONE), None);
        assert_eq!(p.describe_with(NONE), "none (instruction absent)");
    }
}
