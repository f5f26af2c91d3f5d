//! Unit tests of the collision-detection data and the portable kernel (left out of the
//! package).

use super::data::{CONDITIONS, DVS, Family};
use super::soft;

/// Words of the authors' `dm` tables past the first 16 (which the table holds), from
/// `lib/ubc_check.c`: `(DV, t, dm[t])`.
#[test]
fn expanded_differences_match_the_source() {
    for (n, t, want) in [
        (0, 16, 0x6000_0000),
        (0, 40, 0x2000_0000),
        (0, 65, 0x8000_0080),
        (0, 79, 0x8000_0599),
        (4, 16, 0x8000_0040),
        (4, 40, 0x8000_0040),
        (4, 65, 0x0000_0101),
        (4, 79, 0x0000_0132),
        (16, 16, 0x5800_0010),
        (16, 40, 0xa000_0000),
        (16, 65, 0x4000_0022),
        (16, 79, 0x0000_0967),
        (27, 16, 0x0800_0018),
        (27, 40, 0x0000_0018),
        (27, 65, 0),
        (27, 79, 0x0000_0014),
        (31, 16, 0xbc00_0018),
        (31, 40, 0x2000_0010),
        (31, 79, 0xc000_0046),
    ] {
        assert_eq!(DVS[n].dm[t], want, "DV {n} word {t}");
    }
}

/// The DVs in the source's order: I(43..=52, 0) with I(46..=51, 2) among them, then
/// II(45..=56, 0) with II(46, 49, 50, 51; 2); those with K up to 49 tested from step 58,
/// the later ones from step 65.
#[test]
fn dv_list() {
    let names: std::vec::Vec<(Family, u8, u8, usize)> =
        DVS.iter().map(|d| (d.family, d.k, d.b, d.step)).collect();
    use Family::{I, II};
    let want = [
        (I, 43, 0, 58),
        (I, 44, 0, 58),
        (I, 45, 0, 58),
        (I, 46, 0, 58),
        (I, 46, 2, 58),
        (I, 47, 0, 58),
        (I, 47, 2, 58),
        (I, 48, 0, 58),
        (I, 48, 2, 58),
        (I, 49, 0, 58),
        (I, 49, 2, 58),
        (I, 50, 0, 65),
        (I, 50, 2, 65),
        (I, 51, 0, 65),
        (I, 51, 2, 65),
        (I, 52, 0, 65),
        (II, 45, 0, 58),
        (II, 46, 0, 58),
        (II, 46, 2, 58),
        (II, 47, 0, 58),
        (II, 48, 0, 58),
        (II, 49, 0, 58),
        (II, 49, 2, 58),
        (II, 50, 0, 65),
        (II, 50, 2, 65),
        (II, 51, 0, 65),
        (II, 51, 2, 65),
        (II, 52, 0, 65),
        (II, 53, 0, 65),
        (II, 54, 0, 65),
        (II, 55, 0, 65),
        (II, 56, 0, 65),
    ];
    assert_eq!(names, want);
}

/// Every condition names words of the schedule and bits of a word, and rules out some
/// DV; every DV has conditions.
#[test]
fn conditions_are_well_formed() {
    let mut seen = 0u32;
    for c in &CONDITIONS {
        assert!(
            c.i < 80 && c.j < 80 && c.bi < 32 && c.bj < 32 && c.eq <= 1,
            "{c:?}"
        );
        assert_ne!(c.dvs, 0);
        seen |= c.dvs;
    }
    assert_eq!(seen, u32::MAX);
}

fn blocks(seed: u64, n: usize) -> std::vec::Vec<[u8; 64]> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            core::array::from_fn(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
        })
        .collect()
}

/// The detecting compression gives plain SHA-1's chaining value on blocks that are no
/// attack, flagged by the filter or not; about one random block in 20 passes the filter.
#[test]
fn compression_is_plain_sha1() {
    let bs = blocks(7, 4000);
    let mut flagged_by_filter = 0;
    for b in &bs {
        if soft::ubc_mask(&soft::schedule(b)) != 0 {
            flagged_by_filter += 1;
        }
    }
    assert!(
        (100..400).contains(&flagged_by_filter),
        "{flagged_by_filter}"
    );
    let mut a = crate::sha1::IV;
    let mut b = crate::sha1::IV;
    assert_eq!(soft::compress(&mut a, &bs), None);
    crate::sha1::soft::compress(&mut b, &bs);
    assert_eq!(a, b);
}

/// A block flagged by the filter, compressed with saved states, gives the plain chaining
/// value, and its recompressions find nothing.
#[test]
fn flagged_path_is_plain_sha1() {
    let mut n = 0;
    for b in blocks(11, 3000) {
        let w = soft::schedule(&b);
        let mask = soft::ubc_mask(&w);
        if mask == 0 {
            continue;
        }
        n += 1;
        let mut a = [1, 2, 3, 4, 5];
        let mut p = a;
        assert_eq!(soft::compress_flagged(&mut a, &w, u32::MAX), None);
        crate::sha1::soft::compress(&mut p, core::slice::from_ref(&b));
        assert_eq!(a, p);
    }
    assert!(n > 50, "{n}");
}
