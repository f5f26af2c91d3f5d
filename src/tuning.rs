//! Per-microarchitecture choices, in one table of data.
//!
//! Each algorithm's dispatch table lists its backends best first, and the automatic
//! choice is the first one this CPU runs. A CPU generation measured otherwise has a row
//! here, found by vendor, family and model ([`crate::cpu::signature`], looked up once):
//!
//! ```text
//! order(algorithm) = its default order, then for each (a, b) in the row's `prefer`:
//!                    if both are candidates and b comes before a, move a to just before b
//! knobs            = the row's `Tuning` (Tuning::DEFAULT without a row), read when a
//!                    value is keyed and kept in it (a kernel's token, a field)
//! ```
//! A CPU in no row gets the defaults; `SIMDCRYPT_BACKEND` and `with_backend` override
//! the order. Each row says why in a line; the figures behind it, and the parts its model
//! ranges cover, are in docs/design.md, "Dispatch and per-CPU tuning".

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
    /// The kernels' knobs on this CPU.
    pub(crate) knobs: Tuning,
    /// Why, in a line.
    #[allow(dead_code)] // documentation that the tests check is present
    reason: &'static str,
}

/// The knobs a kernel reads from its CPU's row, captured when a value is keyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// How `sha1_many` shares its messages between vector lanes and SHA-NI.
    pub(crate) sha1_many: Sha1Many,
    /// Where the SHA-NI intrinsics compute the message schedule (`crate::arch::x86_64::sha_ni::Form`).
    pub(crate) sha_ni_schedule: ShaNiSchedule,
    /// How the zmm XTS kernel's multi-unit loop makes each unit's first tweaks.
    pub(crate) fresh_tweaks: FreshTweaks,
    /// ECB and CBC decryption on VAES-AVX-512: calls of fewer blocks run the VAES-AVX2
    /// kernel. At least 16: VAES-AVX-512 ECB has no short entry of its own.
    pub(crate) zmm_from: usize,
}

impl Tuning {
    /// CPUs in no row, and Intel's (measured on the Sapphire Rapids-class Xeon).
    pub(crate) const DEFAULT: Tuning = Tuning {
        sha1_many: Sha1Many::DEFAULT,
        sha_ni_schedule: ShaNiSchedule::Vector,
        fresh_tweaks: FreshTweaks::Clmul,
        zmm_from: ZMM_FROM_DEFAULT,
    };

    /// AMD's: a latency-bound SHA unit (pairs of streams, the schedule on the unit) and
    /// vector shifts beside the AES pipes.
    const AMD: Tuning = Tuning {
        sha1_many: Sha1Many {
            pairs: true,
            one_stream_below: [0; 3],
        },
        sha_ni_schedule: ShaNiSchedule::ShaUnit,
        fresh_tweaks: FreshTweaks::Shifts,
        zmm_from: ZMM_FROM_DEFAULT,
    };
}

/// The rows, one per CPU generation measured.
pub(crate) static TABLE: &[Row] = &[
    Row {
        name: "Intel Emerald Rapids",
        vendor: Vendor::Intel,
        family: 6,
        models: &[(0xcf, 0xcf)],
        prefer: &[(Backend::ShaNi, Backend::ShaNiAsm)],
        knobs: Tuning::DEFAULT,
        reason: "The defaults (measured here and on the Sapphire Rapids-class Xeon, within 2%), but SHA-NI intrinsics before their asm (1.07-1.08x from 1 KiB, level at 64 B).",
    },
    Row {
        name: "Intel Xeon reporting family 6 model 167",
        vendor: Vendor::Intel,
        family: 6,
        models: &[(0xa7, 0xa7)],
        prefer: &[
            (Backend::VaesAvx512, Backend::VaesAvx2),
            (Backend::ShaNi, Backend::ShaNiAsm),
        ],
        knobs: Tuning {
            zmm_from: 32,
            ..Tuning::DEFAULT
        },
        reason: "zmm ECB and CBC decryption from 32 blocks (ymm below); SHA-NI beats its asm.",
    },
    Row {
        name: "AMD Zen 4",
        vendor: Vendor::Amd,
        family: 0x19,
        models: &[(0x10, 0x1f), (0x60, 0x7f), (0xa0, 0xaf)],
        prefer: &[(Backend::ShaNi, Backend::ShaNiAsm)],
        knobs: Tuning::AMD,
        reason: "SHA-NI intrinsics ahead on one-block calls; zmm XTS first despite split units.",
    },
    Row {
        name: "AMD Zen 3",
        vendor: Vendor::Amd,
        family: 0x19,
        models: &[(0x00, 0x0f), (0x20, 0x2f), (0x40, 0x5f)],
        prefer: &[(Backend::ShaNi, Backend::ShaNiAsm)],
        knobs: Tuning::AMD,
        reason: "SHA-NI intrinsics level with the assembly; no AVX-512: VAES-AVX2 leads.",
    },
    Row {
        name: "AMD Zen 5",
        vendor: Vendor::Amd,
        family: 0x1a,
        models: &[(0x00, 0x1f), (0x40, 0x4f)],
        prefer: &[
            (Backend::VaesAvx512, Backend::VaesAvx2),
            (Backend::ShaNi, Backend::ShaNiAsm),
        ],
        knobs: Tuning {
            sha1_many: Sha1Many {
                pairs: true,
                one_stream_below: [384, 384, 0],
            },
            ..Tuning::AMD
        },
        reason: "Full-width 512-bit AES: zmm ECB and CBC first; sha1_many pairs below 384 B.",
    },
];

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

/// How `sha1_many` shares its messages between vector lanes and SHA-NI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sha1Many {
    /// Two interleaved SHA-NI streams beat one (a latency-bound SHA unit): the messages
    /// SHA-NI takes go two at a time, else one at a time on the one-shot path.
    pub(crate) pairs: bool,
    /// Messages all shorter than `[0]` bytes (at most four messages), `[1]` (five to eight)
    /// or `[2]` (nine to sixteen) skip the lanes and hash on SHA-NI alone. 0: never.
    pub(crate) one_stream_below: [usize; 3],
}

impl Sha1Many {
    /// No pairs, one stream below 256 / 32 / 64 bytes for up to 4 / 5-8 / 9-16 messages,
    /// where the lanes' set-up costs more than they save (the peers' path, safe where
    /// nobody measured).
    pub(crate) const DEFAULT: Sha1Many = Sha1Many {
        pairs: false,
        one_stream_below: [256, 32, 64],
    };
}

/// Where the SHA-NI intrinsics kernels compute the message schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShaNiSchedule {
    /// All of it on the SHA unit: where the `sha1rnds4` chain binds, not the unit.
    ShaUnit,
    /// Off the unit where it can be (the `rol2` recurrence on the vector ALUs, and with
    /// AVX-512 VL the `sha1msg2` step of quads 4-7): where `sha1msg2` shares the unit.
    Vector,
}

/// How the zmm XTS kernel makes a new unit's first tweaks under the previous group's
/// rounds (the other widths always shift).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FreshTweaks {
    /// Per-lane variable shifts and one carry-less multiplication: where `vpclmulqdq`
    /// may share the AES pipes and shifts do not (AMD).
    Shifts,
    /// Carry-less multiplications alone: Intel runs 512-bit shifts on the port of
    /// 512-bit AES, and `vpclmulqdq` on another.
    Clmul,
}

/// [`Tuning::zmm_from`] without a row: the VAES-AVX2 short entry below 16 blocks.
pub(crate) const ZMM_FROM_DEFAULT: usize = 16;

/// This CPU's knobs ([`Tuning::DEFAULT`] in no row).
#[inline]
pub(crate) fn tuning() -> Tuning {
    #[cfg(all(test, feature = "std"))]
    if let Some(k) = KNOBS.with(core::cell::Cell::get) {
        return k;
    }
    current().map_or(Tuning::DEFAULT, |r| r.knobs)
}

#[cfg(all(test, feature = "std"))]
std::thread_local! {
    /// Test builds: knobs that stand in for this CPU's row on this thread, so that the
    /// leak tests measure the frames of the kernels every row picks, on any CPU.
    pub(crate) static KNOBS: core::cell::Cell<Option<Tuning>> = const { core::cell::Cell::new(None) };
}

/// The row for this CPU, if any; looked up once (CPUID traps to the hypervisor in a VM).
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
mod tests;
