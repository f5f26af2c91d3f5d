//! Per-microarchitecture choices, in one table.
//!
//! Each algorithm lists its backends in a default order, best first (its table in
//! `crate::dispatch`), and the automatic choice is the first one this CPU runs. Where a CPU
//! generation measured a different order, its row here says which backend goes before
//! which; the row is found by the CPU's vendor, family and model
//! ([`crate::cpu::signature`]), once per algorithm (the choice is cached). A CPU in no row gets the defaults, and `SIMDCRYPT_BACKEND` and
//! `with_backend` override the table as they override the defaults.
//!
//! ```text
//! order(algorithm) = its default order, then for each (a, b) in the row's `prefer`:
//!                    if both are candidates and b comes before a, move a to just before b
//! ```
//! Each row gives its reason in a line; the measurements behind it are in docs/design.md,
//! "Dispatch and per-CPU tuning".

use crate::Backend;
use crate::cpu::{Signature, Vendor};

/// One CPU generation and what it prefers.
pub(crate) struct Row {
    /// The generation's name, for tools and reports.
    pub(crate) name: &'static str,
    vendor: Vendor,
    family: u32,
    /// Inclusive model ranges.
    models: &'static [(u32, u32)],
    /// `(a, b)`: on this CPU `a` goes before `b`, in every algorithm that has both.
    prefer: &'static [(Backend, Backend)],
    /// How `sha1_many` shares its messages between vector lanes and SHA-NI.
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    pub(crate) sha1_many: Sha1Many,
    /// Where the SHA-NI intrinsics compute the message schedule's `sha1msg2` step.
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    pub(crate) sha_ni_schedule: ShaNiSchedule,
    /// How the XTS kernels' multi-unit loop makes each unit's first tweaks.
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    pub(crate) fresh_tweaks: FreshTweaks,
    /// ECB and CBC decryption on VAES-AVX-512: calls of fewer blocks than this run the
    /// VAES-AVX2 kernel (its short entry below 16 blocks, its group loop from there). At
    /// least 16: VAES-AVX-512 ECB has no short entry of its own.
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    pub(crate) zmm_from: usize,
    /// Why, in a line (the figures: docs/design.md).
    #[allow(dead_code)] // documentation that the tests check is present
    reason: &'static str,
}

impl Row {
    /// An AMD family 19h row (Zen 3 and Zen 4 share the family; the models tell them
    /// apart) that puts the SHA-NI intrinsics before their assembly twin.
    const fn family_19h_sha_ni_first(
        name: &'static str,
        models: &'static [(u32, u32)],
        reason: &'static str,
    ) -> Row {
        Row {
            name,
            vendor: Vendor::Amd,
            family: 0x19,
            models,
            prefer: &[(Backend::ShaNi, Backend::ShaNiAsm)],
            sha1_many: Sha1Many {
                pairs: true,
                one_stream_below: [0; 3],
            },
            sha_ni_schedule: ShaNiSchedule::ShaUnit,
            fresh_tweaks: FreshTweaks::Shifts,
            zmm_from: ZMM_FROM_DEFAULT,
            reason,
        }
    }
}

/// The table: Intel Emerald Rapids, the Intel Xeon reporting family 6 model 167
/// (Sapphire Rapids-class, behind a hypervisor's model number), AMD Zen 4, Zen 3, Zen 5.
pub(crate) static TABLE: &[Row] = &[
    Row {
        name: "Intel Emerald Rapids",
        vendor: Vendor::Intel,
        family: 6,
        models: &[(0xcf, 0xcf)],
        prefer: &[],
        sha1_many: Sha1Many::DEFAULT,
        sha_ni_schedule: ShaNiSchedule::DEFAULT,
        fresh_tweaks: FreshTweaks::DEFAULT,
        zmm_from: ZMM_FROM_DEFAULT,
        reason: "The default orders were measured here; the SHA-1 and XTS defaults on the \
                 Sapphire Rapids-class Xeon (same probes within 2%).",
    },
    Row {
        name: "Intel Xeon reporting family 6 model 167",
        vendor: Vendor::Intel,
        family: 6,
        // A Sapphire Rapids-class Xeon behind a hypervisor's model number (AMX,
        // AVX512-FP16); real Rocket Lake parts report the same number (not measured).
        models: &[(0xa7, 0xa7)],
        prefer: &[
            (Backend::VaesAvx512, Backend::VaesAvx2),
            (Backend::ShaNi, Backend::ShaNiAsm),
        ],
        sha1_many: Sha1Many::DEFAULT,
        sha_ni_schedule: ShaNiSchedule::DEFAULT,
        fresh_tweaks: FreshTweaks::DEFAULT,
        zmm_from: 32,
        reason: "zmm ECB and CBC decryption ahead from 512 B, ymm below 32 blocks; SHA-NI \
                 intrinsics ahead of the assembly with the rol2 schedule.",
    },
    Row::family_19h_sha_ni_first(
        "AMD Zen 4",
        // Genoa/Genoa-X (10h-1Fh), Raphael (60h-6Fh), Phoenix (70h-7Fh), Bergamo/Siena (A0h-AFh).
        &[(0x10, 0x1f), (0x60, 0x7f), (0xa0, 0xaf)],
        "SHA-NI intrinsics ahead on one-block calls; XTS keeps zmm first despite split \
         512-bit units.",
    ),
    Row::family_19h_sha_ni_first(
        "AMD Zen 3",
        // Milan (00h-0Fh), Vermeer (20h-2Fh), Rembrandt (40h-4Fh), Cezanne (50h-5Fh).
        &[(0x00, 0x0f), (0x20, 0x2f), (0x40, 0x5f)],
        "SHA-NI intrinsics at least level with the assembly; no AVX-512, so VAES-AVX2 \
         leads the AES modes.",
    ),
    Row {
        name: "AMD Zen 5",
        vendor: Vendor::Amd,
        family: 0x1a,
        // Turin and Turin Dense (00h-1Fh), Granite Ridge (40h-4Fh): the server and
        // desktop parts, with full-width 512-bit units. (The mobile parts, 20h-2Fh and
        // 60h-7Fh, some of which split 512-bit work in two halves as Zen 4 does, are not
        // measured and keep the defaults.)
        models: &[(0x00, 0x1f), (0x40, 0x4f)],
        prefer: &[
            (Backend::VaesAvx512, Backend::VaesAvx2),
            (Backend::ShaNi, Backend::ShaNiAsm),
        ],
        sha1_many: Sha1Many {
            pairs: true,
            one_stream_below: [384, 384, 0],
        },
        sha_ni_schedule: ShaNiSchedule::ShaUnit,
        fresh_tweaks: FreshTweaks::Shifts,
        zmm_from: ZMM_FROM_DEFAULT,
        reason: "Full-width 512-bit AES: zmm first for ECB and CBC decryption; SHA-NI pairs \
                 for sha1_many below 384 B on 8 messages.",
    },
];

/// The row for a signature, if any.
#[cfg(test)]
pub(crate) fn row_for(sig: Signature) -> Option<&'static Row> {
    index_for(sig).map(|i| &TABLE[i])
}

/// The index in [`TABLE`] of the row for a signature, if any.
fn index_for(sig: Signature) -> Option<usize> {
    TABLE.iter().position(|r| {
        r.vendor == sig.vendor
            && r.family == sig.family
            && r.models
                .iter()
                .any(|&(lo, hi)| (lo..=hi).contains(&sig.model))
    })
}

/// How `sha1_many` shares its messages between vector lanes and SHA-NI, per CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sha1Many {
    /// Two interleaved SHA-NI streams beat one (a latency-bound SHA unit, as AMD's): the
    /// messages that SHA-NI takes (stragglers, or all of a few short ones) go two at a time;
    /// otherwise one at a time, each on the one-shot path.
    pub(crate) pairs: bool,
    /// Where the one-stream choice is SHA-NI: messages all shorter than `[0]` bytes (at most
    /// four messages), `[1]` (five to eight) or `[2]` (nine to sixteen) skip the vector lanes
    /// and hash on SHA-NI alone. 0: never.
    pub(crate) one_stream_below: [usize; 3],
}

impl Sha1Many {
    /// CPUs in no row, and Intel's (measured on the Sapphire Rapids-class Xeon, whose SHA
    /// unit binds): no pairs, and one stream below 256 / 32 / 64 bytes for up to 4 / 5-8 /
    /// 9-16 messages, where the lanes' set-up costs more than they save. The one-shot path
    /// is what the peers run, so it is also the safe choice for a CPU nobody measured.
    pub(crate) const DEFAULT: Sha1Many = Sha1Many {
        pairs: false,
        one_stream_below: [256, 32, 64],
    };
}

/// Where the SHA-NI intrinsics kernels (`sha-ni`, the short work of `sha-ni-asm`, and the
/// stitched CBC-HMAC kernel) compute the message schedule, per CPU
/// (`crate::sha1::shani`'s notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShaNiSchedule {
    /// All of it on the SHA unit (`sha1msg1`, `sha1msg2`): where the `sha1rnds4` chain
    /// binds, not the unit (AMD Zen 3, 4 and 5, whose kernels, pairs of streams and HMAC
    /// keying were measured this way; the other forms are not measured there).
    ShaUnit,
    /// Off the unit where it can be: quads 8-19 by the `rol2` recurrence on the vector
    /// ALUs, and with AVX-512 VL (where a `SIMDCRYPT_BACKEND` cap leaves it in) quads
    /// 4-7's `sha1msg2` step too, with AVX-512 VL rotates and three-input XORs (in SSE
    /// that step measured slower, so without AVX-512 VL those quads stay on the unit).
    Vector,
}

impl ShaNiSchedule {
    /// CPUs in no row, and Intel's: where `sha1msg2` shares the SHA unit with the rounds,
    /// the schedule moves to the vector ALUs (docs/design.md, "SHA-1 schedule forms").
    pub(crate) const DEFAULT: ShaNiSchedule = ShaNiSchedule::Vector;
}

/// [`Row::sha_ni_schedule`] for this CPU ([`ShaNiSchedule::DEFAULT`] in no row).
#[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
#[inline]
pub(crate) fn sha_ni_schedule() -> ShaNiSchedule {
    current().map_or(ShaNiSchedule::DEFAULT, |r| r.sha_ni_schedule)
}

/// How the XTS kernels' multi-unit loop (`crate::xts::kernel`) makes a new unit's first
/// tweaks, `T_0·x^l` for the lanes of its first registers, under the AES rounds of the
/// group before, per CPU. Only the zmm kernel has two forms; the others always shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FreshTweaks {
    /// Per-lane variable shifts (`vpsllvq`, `vpsrlvq`) and one carry-less
    /// multiplication: what AMD Zen 4 and Zen 5 were measured with, where `vpclmulqdq`
    /// may share the AES pipes (as shifts do not).
    Shifts,
    /// Carry-less multiplications alone (`AesVec::mul_x_lanes_clmul`): Intel runs 512-bit
    /// vector shifts on port 0, the port of 512-bit AES, and `vpclmulqdq` on port 5.
    Clmul,
}

impl FreshTweaks {
    /// CPUs in no row, and Intel's (measured on the Sapphire Rapids-class Xeon; Intel's
    /// other AVX-512 cores share its port layout).
    pub(crate) const DEFAULT: FreshTweaks = FreshTweaks::Clmul;
}

/// [`Row::zmm_from`] for CPUs in no row: VAES-AVX-512 runs the VAES-AVX2 short entry below
/// 16 blocks (measured on AMD Zen 5, `crate::aes::Kernel::short`) and its own kernel above.
pub(crate) const ZMM_FROM_DEFAULT: usize = 16;

/// [`Row::zmm_from`] for this CPU ([`ZMM_FROM_DEFAULT`] in no row).
#[inline]
#[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
pub(crate) fn zmm_from() -> usize {
    current().map_or(ZMM_FROM_DEFAULT, |r| r.zmm_from)
}

/// [`Row::fresh_tweaks`] for this CPU ([`FreshTweaks::DEFAULT`] in no row).
#[inline]
pub(crate) fn fresh_tweaks() -> FreshTweaks {
    current().map_or(FreshTweaks::DEFAULT, |r| r.fresh_tweaks)
}

/// The row for this CPU, if any; looked up once (CPUID traps to the hypervisor in a VM,
/// too slow for every `sha1_many` call).
pub(crate) fn current() -> Option<&'static Row> {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    const UNSET: u8 = u8::MAX;
    const NONE: u8 = u8::MAX - 1;
    static CACHE: AtomicU8 = AtomicU8::new(UNSET);
    let mut i = CACHE.load(Relaxed);
    if i == UNSET {
        // (The table has far fewer than 254 rows: a unit test says so.)
        i = crate::cpu::signature()
            .and_then(index_for)
            .map_or(NONE, |i| i as u8);
        CACHE.store(i, Relaxed);
    }
    TABLE.get(usize::from(i))
}

/// [`Row::sha1_many`] for this CPU ([`Sha1Many::DEFAULT`] in no row).
#[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
pub(crate) fn sha1_many() -> Sha1Many {
    current().map_or(Sha1Many::DEFAULT, |r| r.sha1_many)
}

/// Backends at most (every algorithm has fewer).
pub(crate) const MAX: usize = 12;

/// `candidates` in the order `row` prefers (the defaults without a row): a permutation.
pub(crate) fn order(candidates: &[Backend], row: Option<&Row>) -> ([Backend; MAX], usize) {
    let n = candidates.len();
    assert!(n <= MAX, "more than {MAX} backends");
    let mut out = [Backend::Portable; MAX];
    out[..n].copy_from_slice(candidates);
    for &(a, b) in row.map_or(&[][..], |r| r.prefer) {
        let pos = |x: Backend, o: &[Backend]| o.iter().position(|&y| y == x);
        if let (Some(ia), Some(ib)) = (pos(a, &out[..n]), pos(b, &out[..n]))
            && ib < ia
        {
            out[ib..=ia].rotate_right(1);
        }
    }
    (out, n)
}

#[cfg(test)]
#[path = "tuning_tests.rs"]
mod tests;
