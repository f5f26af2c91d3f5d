//! Unit tests of `src/tuning.rs` (left out of the package).

use super::*;

fn row_for(sig: Signature) -> Option<&'static Row> {
    index_for(sig).map(|i| &TABLE[i])
}

fn sig(vendor: Vendor, family: u32, model: u32) -> Signature {
    Signature {
        vendor,
        family,
        model,
        stepping: 0,
    }
}

#[test]
fn rows_match_the_machines_seen() {
    let name = |s| row_for(s).map(|r| r.name);
    assert_eq!(
        name(sig(Vendor::Intel, 6, 207)),
        Some("Intel Emerald Rapids")
    );
    assert_eq!(name(sig(Vendor::Amd, 25, 17)), Some("AMD Zen 4"));
    assert_eq!(name(sig(Vendor::Amd, 25, 1)), Some("AMD Zen 3"));
    assert_eq!(name(sig(Vendor::Amd, 25, 0x61)), Some("AMD Zen 4"));
    assert_eq!(name(sig(Vendor::Amd, 26, 2)), Some("AMD Zen 5"));
    assert_eq!(name(sig(Vendor::Amd, 26, 0x44)), Some("AMD Zen 5"));
    assert_eq!(name(sig(Vendor::Amd, 26, 0x24)), None); // Strix Point: not measured
    assert_eq!(name(sig(Vendor::Intel, 25, 17)), None);
    assert_eq!(
        name(sig(Vendor::Intel, 6, 167)),
        Some("Intel Xeon reporting family 6 model 167")
    );
    assert_eq!(name(sig(Vendor::Intel, 6, 143)), None); // Sapphire Rapids' own number
    // The zmm hand-over: 32 blocks on that Xeon only (ZMM_FROM_DEFAULT, 16, is the
    // short entry's bound, so no other row hands zmm calls to the ymm loop).
    for r in TABLE {
        let want = if r.family == 6 && r.models == [(0xa7, 0xa7)] {
            32
        } else {
            ZMM_FROM_DEFAULT
        };
        assert_eq!(r.knobs.zmm_from, want, "{}", r.name);
    }
    assert_eq!(ZMM_FROM_DEFAULT, 16);
    for r in TABLE {
        assert!(r.reason.len() > 40, "{}: say why", r.name);
        // Only short messages skip the lanes (from 512 bytes up the lanes measured
        // ahead on every CPU, 1.08-2.75x). (Not monotonic in the count: eight messages
        // fill the ymm lanes, twelve leave a quarter of the zmm lanes idle.)
        assert!(
            r.knobs.sha1_many.one_stream_below.iter().all(|&b| b <= 512),
            "{}",
            r.name
        );
    }
    assert!(Sha1Many::DEFAULT.one_stream_below.iter().all(|&b| b <= 512));
    assert!(TABLE.len() < 254, "current() keeps the index in a u8");
    // The cached row is the row.
    assert_eq!(
        current().map(|r| r.name),
        crate::cpu::signature().and_then(row_for).map(|r| r.name)
    );
}

#[test]
fn order_is_a_permutation_that_honours_the_row() {
    let defaults = [
        Backend::ShaNiAsm,
        Backend::ShaNi,
        Backend::Avx2Asm,
        Backend::Portable,
    ];
    let zen4 = row_for(sig(Vendor::Amd, 25, 17));
    let (o, n) = order(&defaults, zen4);
    assert_eq!(
        &o[..n],
        [
            Backend::ShaNi,
            Backend::ShaNiAsm,
            Backend::Avx2Asm,
            Backend::Portable
        ]
    );
    // The Xeon reporting family 6 model 167: zmm before ymm in ECB and CBC's order,
    let xeon = row_for(sig(Vendor::Intel, 6, 167));
    let cbc = [
        Backend::VaesAvx2,
        Backend::VaesAvx512,
        Backend::AesNi,
        Backend::Portable,
    ];
    assert_eq!(
        &order(&cbc, xeon).0[..4],
        [
            Backend::VaesAvx512,
            Backend::VaesAvx2,
            Backend::AesNi,
            Backend::Portable
        ]
    );
    // And the SHA-NI intrinsics before their assembly twin.
    assert_eq!(
        &order(&defaults, xeon).0[..n],
        [
            Backend::ShaNi,
            Backend::ShaNiAsm,
            Backend::Avx2Asm,
            Backend::Portable
        ]
    );
    // Without a row, or where the pair is absent or already in order: unchanged.
    assert_eq!(&order(&defaults, None).0[..n], defaults);
    let xts = [Backend::VaesAvx512, Backend::AesNi, Backend::Portable];
    assert_eq!(&order(&xts, zen4).0[..3], xts);
    // Further apart: a moves to just before b, the rest keep their order.
    let spread = [
        Backend::ShaNiAsm,
        Backend::Avx512,
        Backend::Avx2,
        Backend::ShaNi,
        Backend::Portable,
    ];
    assert_eq!(
        &order(&spread, zen4).0[..5],
        [
            Backend::ShaNi,
            Backend::ShaNiAsm,
            Backend::Avx512,
            Backend::Avx2,
            Backend::Portable
        ]
    );
}
