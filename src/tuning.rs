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
//! The reasons are in each row; the measurements behind them in speed/RESULTS.md.

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
    /// Why, measured how.
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

/// The table. Machines measured so far: Intel Emerald Rapids, AMD Zen 4, AMD Zen 3, AMD
/// Zen 5, and an Intel Xeon reporting family 6 model 167 (Sapphire Rapids-class, behind a
/// hypervisor's model number): its measurements set [`Sha1Many::DEFAULT`],
/// [`ShaNiSchedule::DEFAULT`] and [`FreshTweaks::DEFAULT`], and the default orders,
/// measured on Emerald Rapids, held there but for ECB and CBC decryption (its row).
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
        reason: "The default orders were measured here (the comments of crate::dispatch's tables): \
                 zmm XTS first, ymm AES and CBC, the SHA-NI assembly first for SHA-1. \
                 sha1_many's defaults and the SHA-NI schedule form were measured on an Intel \
                 Xeon that reports family 6 model 167 (Sapphire Rapids-class: AMX, \
                 AVX512-FP16; the same instruction probes as here within 2%, and the same \
                 4-cycle sha1msg2 on the SHA unit): see Sha1Many::DEFAULT and \
                 ShaNiSchedule::DEFAULT. So was the XTS fresh-tweak form \
                 (FreshTweaks::DEFAULT: carry-less multiplications, off port 0, which \
                 512-bit AES and vector shifts share on Intel's cores with AVX-512).",
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
        reason: "ECB and CBC decryption: the zmm kernels ran 1.03-1.16x the ymm ones from \
                 1 KiB up (0.99-1.20x at 512 B), once the ymm loops read their keys \
                 where used; below one zmm group (32 blocks) the ymm kernel, which runs \
                 8 registers of 2 blocks where zmm has 4 of 4, ran 1.25-1.53x the zmm one \
                 at 256 B, so zmm hands calls under 32 blocks to it. XTS was zmm first \
                 already. SHA-1: with the rol2 schedule the SHA-NI intrinsics ran \
                 1.08-1.27x the assembly twin at 1-64 KiB (one process, three runs), \
                 so they go first (the twin hands short runs to them anyway). The SHA-1 \
                 and sha1_many defaults and the XTS fresh-tweak form were measured here \
                 (see their DEFAULTs).",
    },
    Row::family_19h_sha_ni_first(
        "AMD Zen 4",
        // Genoa/Genoa-X (10h-1Fh), Raphael (60h-6Fh), Phoenix (70h-7Fh), Bergamo/Siena (A0h-AFh).
        &[(0x10, 0x1f), (0x60, 0x7f), (0xa0, 0xaf)],
        "SHA-1: the SHA-NI intrinsics kernel runs a one-block call about 20 ns faster \
         than the assembly twin here (HMAC-SHA1 with a key set up once: 1.00-1.05x \
         RustCrypto on sha-ni against 0.77-0.98x on sha-ni-asm, 16 B to 4 KiB). XTS \
         keeps zmm first: 512-bit VAES runs as two halves but the zmm kernel still \
         measured 83-87% of the ceiling at 64 KiB against 65-73% for the ymm ones \
         (86-92% against 60-73% after the fixed-cost work).",
    ),
    Row::family_19h_sha_ni_first(
        "AMD Zen 3",
        // Milan (00h-0Fh), Vermeer (20h-2Fh), Rembrandt (40h-4Fh), Cezanne (50h-5Fh).
        &[(0x00, 0x0f), (0x20, 0x2f), (0x40, 0x5f)],
        "SHA-1: as on Zen 4, the SHA-NI intrinsics kernel is at least as fast as the \
         assembly twin at every size (the assembly 0.72-0.94x on 64- and 512-byte \
         messages and HMACs, 0.96-1.00x at 4 and 64 KiB; two runs, family 25 model 1, \
         under load). No AVX-512, so the defaults fall through to VAES-AVX2 for the \
         AES modes; the XTS assembly twin stays explicit (0.74-0.91x the intrinsics \
         kernel on 512 B to 64 KiB sectors, 0.78-1.26x on single units); the AVX2 \
         assembly twin stays before the AVX2 intrinsics (1.15-1.69x). Re-measured \
         (family 25 model 1, 3 runs at 333cff3): sha-ni 1.25x sha-ni-asm on \
         16-byte messages, 1.07-1.10x on 16- and 64-byte keyed HMACs, 0.97x on 64-byte \
         messages; vaes-avx2 XTS 1.14-1.28x its assembly twin on 16-96-byte units, \
         0.96x at 4 KiB.",
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
        reason: "Full-width 512-bit AES: vaesenc zmm 7.22 G/s against ymm 7.30 G/s, twice \
                 the bytes (family 26 model 2), so zmm goes first for ECB (0.92-0.98 of \
                 the zmm ceiling from 1 KiB up, the ymm kernel 0.43-0.53) and CBC \
                 decryption (the zmm kernel, which exists for this CPU: 0.90-1.04 against \
                 0.42-0.53); both run the ymm short entry below 16 blocks. SHA-1: as on \
                 Zen 3 and Zen 4, the SHA-NI intrinsics at least match the assembly twin \
                 from 256 B up (0.99-1.03x RustCrypto at 1-64 KiB against 0.97-0.98x; \
                 HMAC-SHA1 with a key set up once 1.01-1.79x against 0.99-1.67x). \
                 sha1_many: SHA-NI pairs beat the AVX-512 lanes (with their stragglers \
                 on SHA-NI, as sha1_many runs them) on 8 messages below 384 bytes \
                 (1.87x at 16 B, 1.72x at 64 B, 1.08-1.16x at 256 B, 1.01x at 320-352 \
                 B; the lanes ahead from 384 B); on 16 messages they gain nothing \
                 (0.96-1.02x at 16-64 B), so no hand-over there.",
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
    /// CPUs in no row, and Intel's: measured on an Intel Xeon reporting family 6 model 167
    /// (Sapphire Rapids-class), whose SHA unit binds rather than the `sha1rnds4` chain
    /// (latency 1.52 ns, one per 1.16 ns): two interleaved SHA-NI streams ran 0.91-0.94x
    /// two one-shot digests in a row (two messages of 4-64 KiB), so no pairs. The one-shot
    /// digest (its padded tail built in registers) against the AVX-512 lanes (with their
    /// padding written in place), time per message, 9 interleaved rounds, lanes / one-shot:
    /// 4 messages 0.67-0.81x to 100 B, 0.88-0.92x at 128 B, 0.96-1.08x at 200-256 B;
    /// 6 messages 0.93-0.99x at 16-32 B, 1.12-1.15x from 64 B; 8 messages 1.10-1.20x from
    /// 16 B; 12 messages 0.79-0.85x at 16-32 B, 0.98-1.04x at 64-100 B; 16 messages
    /// 0.98-1.08x at 16-32 B, 1.26-1.38x from 64 B. So one stream below 256 bytes for up to
    /// four messages, below 32 for five to eight, below 64 for nine to sixteen. The
    /// one-shot path is what the peers run, one message at a time, so it is also the safe
    /// choice for a CPU nobody measured.
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
    /// CPUs in no row, and Intel's: measured on an Intel Xeon reporting family 6 model 167
    /// (Sapphire Rapids-class), whose SHA unit binds (`sha1msg2` about 1.2x the unit time
    /// of a `sha1rnds4`): the `sha1msg2` step on the vector ALUs made the `sha-ni` kernels
    /// 1.14-1.25x faster at 16 B to 16 KiB, HMAC-SHA1 keyed per message 1.08-1.17x at
    /// 16-256 B (its key blocks are a one-block pair: 1.2-1.5x), three alternating runs of
    /// the speed tool; the `rol2` quads a further 1.11-1.19x at 64 B to 4 KiB (SHA-1,
    /// HMAC-SHA1, CBC-HMAC seal and open), and without AVX-512 the `rol2` form 1.05-1.32x
    /// the SHA-unit one, each in one process switching forms. (On a CPU whose chain binds
    /// the schedule goes to ALUs the chain leaves idle; not measured on one.)
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
    /// multiplication: what AMD Zen 4 and Zen 5 were measured with (512-byte sectors
    /// 1.03-1.09x on zmm once the first registers were made from `T_0` directly,
    /// speed/RESULTS.md); the other form is not measured there, and there `vpclmulqdq`
    /// may share the AES pipes (as shifts do not).
    Shifts,
    /// Carry-less multiplications alone (`AesVec::mul_x_lanes_clmul`): Intel runs 512-bit
    /// vector shifts on port 0, the port of 512-bit AES, and `vpclmulqdq` on port 5.
    Clmul,
}

impl FreshTweaks {
    /// CPUs in no row, and Intel's: measured on an Intel Xeon reporting family 6 model 167
    /// (Sapphire Rapids-class). Time of `encrypt_sectors` with 512-byte sectors over that
    /// of one unit of the same length, in one process, medians of 5 alternating runs of
    /// the two builds: 0.871 -> 0.909 at 16 KiB, 0.886 -> 0.932 at 64 KiB, 0.825 -> 0.844
    /// at 4 KiB (1.02-1.05x). Intel's other AVX-512 cores share the port layout.
    pub(crate) const DEFAULT: FreshTweaks = FreshTweaks::Clmul;
}

/// [`Row::zmm_from`] for CPUs in no row: VAES-AVX-512 runs the VAES-AVX2 short entry below
/// 16 blocks (measured on AMD Zen 5, `crate::aes::Impl::short`) and its own kernel above.
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
