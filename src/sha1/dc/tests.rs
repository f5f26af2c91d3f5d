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

/// FNV-1a over the masks' little-endian bytes.
fn fold(h: u64, mask: u32) -> u64 {
    mask.to_le_bytes().iter().fold(h, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

const FNV: u64 = 0xcbf2_9ce4_8422_2325;

/// The filter's masks against the authors' `ubc_check()` (compiled from `lib/ubc_check.c`):
/// on every block of the attack files, unchanged and with each of its 512 bits flipped
/// (blocks that meet many conditions), folded into one FNV-1a hash per file, with the
/// number of non-zero masks; and the masks of each unchanged block. Both attacks follow
/// DV II(52,0) (bit 27), which the filter keeps on their blocks.
#[test]
fn filter_masks_match_the_reference() {
    const II_52_0: u32 = 1 << 27;
    let cases: [(&[u8], &[u32], u64, usize); 5] = [
        (
            include_bytes!("../../../vectors/sha1dc/shattered-1-first320.bin"),
            &[0, 0, 0, II_52_0, II_52_0],
            0x29b6_9957_a0c6_88c8,
            506,
        ),
        (
            include_bytes!("../../../vectors/sha1dc/shattered-2-first320.bin"),
            &[0, 0, 0, II_52_0, II_52_0],
            0x449f_c724_1520_2fc7,
            505,
        ),
        (
            include_bytes!("../../../vectors/sha1dc/sha-mbles-1.bin"),
            &[
                0, II_52_0, II_52_0, II_52_0, II_52_0, II_52_0, II_52_0, II_52_0, II_52_0, II_52_0,
            ],
            0x36f8_85ec_1f46_6c55,
            2126,
        ),
        (
            include_bytes!("../../../vectors/sha1dc/sha-mbles-2.bin"),
            &[
                0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0,
                II_52_0 | 1 << 25,
            ],
            0x1b46_c207_265a_1845,
            2184,
        ),
        (
            include_bytes!("../../../vectors/sha1dc/sha1_reducedsha_coll.bin"),
            &[0, II_52_0],
            0x469f_8637_fbe9_63fc,
            256,
        ),
    ];
    for (n, (data, plain, hash, nonzero)) in cases.into_iter().enumerate() {
        let (blocks, _) = data.as_chunks::<64>();
        let masks: std::vec::Vec<u32> = blocks
            .iter()
            .map(|b| soft::ubc_mask(&soft::schedule(b)))
            .collect();
        assert_eq!(masks, plain, "file {n}");
        let (mut h, mut nz) = (FNV, 0);
        for b in blocks {
            let mut b = *b;
            for flip in core::iter::once(None).chain((0..512).map(Some)) {
                if let Some(i) = flip {
                    b[i / 8] ^= 1 << (i % 8);
                }
                let m = soft::ubc_mask(&soft::schedule(&b));
                h = fold(h, m);
                nz += usize::from(m != 0);
                if let Some(i) = flip {
                    b[i / 8] ^= 1 << (i % 8);
                }
            }
        }
        assert_eq!((h, nz), (hash, nonzero), "file {n}");
    }
}

/// The same on 20,000 random blocks (splitmix64 from seed 58, the low byte of each
/// output): about one in 20 leaves a non-zero mask.
#[test]
fn filter_masks_of_random_blocks_match_the_reference() {
    let mut s: u64 = 58;
    let mut next = || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let (mut h, mut nz) = (FNV, 0);
    for _ in 0..20_000 {
        let b: [u8; 64] = core::array::from_fn(|_| next() as u8);
        let m = soft::ubc_mask(&soft::schedule(&b));
        h = fold(h, m);
        nz += usize::from(m != 0);
    }
    assert_eq!((h, nz), (0x1beb_cce8_f637_a198, 976));
}

/// Without the filter (every DV's recompression test on every block) the attack files'
/// flagged blocks and DVs are those with it: the filter rules out no DV that hits.
#[test]
fn the_filter_loses_no_hit() {
    for data in [
        &include_bytes!("../../../vectors/sha1dc/shattered-1-first320.bin")[..],
        include_bytes!("../../../vectors/sha1dc/shattered-2-first320.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-1.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-2.bin"),
        include_bytes!("../../../vectors/sha1dc/sha1_reducedsha_coll.bin"),
    ] {
        let (blocks, _) = data.as_chunks::<64>();
        let (mut a, mut b) = (crate::sha1::IV, crate::sha1::IV);
        let mut hits = std::vec::Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            let w = soft::schedule(block);
            let unfiltered = soft::compress_flagged(&mut a, &w, u32::MAX);
            let filtered = soft::compress(&mut b, core::slice::from_ref(block));
            assert_eq!(unfiltered.map(|dv| (0, dv)), filtered, "block {i}");
            assert_eq!(a, b);
            hits.extend(unfiltered.map(|dv| (i, dv)));
        }
        let want: &[(usize, u8)] = match blocks.len() {
            5 => &[(4, 27)],
            10 => &[(9, 27)],
            _ => &[],
        };
        assert_eq!(hits, want);
    }
}

/// The two passes of the filter take every row once for each of its DVs: the unguarded
/// rows for all, each other row in the list of each DV it names.
#[test]
fn guarded_lists_partition_the_rows() {
    use super::data::{GUARDED, UNGUARDED};
    let mut want = [0usize; 32];
    for (k, c) in CONDITIONS.iter().enumerate() {
        if UNGUARDED.contains(&(k as u8)) {
            continue;
        }
        for (d, n) in want.iter_mut().enumerate() {
            if c.dvs >> d & 1 == 1 {
                let (rows, len) = &GUARDED[d];
                let r = &rows[*n];
                assert!(*n < *len, "DV {d}");
                assert_eq!(
                    (r.i, r.bi, r.j, r.bj, r.eq, r.dvs),
                    (c.i, c.bi, c.j, c.bj, c.eq, c.dvs)
                );
                *n += 1;
            }
        }
    }
    for (d, (_, len)) in GUARDED.iter().enumerate() {
        assert_eq!(*len, want[d], "DV {d}");
    }
}

/// The attack files' blocks and each of their one-bit neighbours, then 20,003 random
/// blocks (a count that leaves a partial last group of every width).
#[cfg(simdcrypt_x86_64)]
fn filter_test_blocks() -> std::vec::Vec<[u8; 64]> {
    let mut blocks = std::vec::Vec::new();
    for data in [
        &include_bytes!("../../../vectors/sha1dc/shattered-1-first320.bin")[..],
        include_bytes!("../../../vectors/sha1dc/shattered-2-first320.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-1.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-2.bin"),
        include_bytes!("../../../vectors/sha1dc/sha1_reducedsha_coll.bin"),
    ] {
        for b in data.as_chunks::<64>().0 {
            blocks.push(*b);
            for i in 0..512 {
                let mut n = *b;
                n[i / 8] ^= 1 << (i % 8);
                blocks.push(n);
            }
        }
    }
    let mut s: u64 = 65;
    for _ in 0..20_003 {
        let b: [u8; 64] = core::array::from_fn(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = (s ^ (s >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            (z ^ (z >> 27)) as u8
        });
        blocks.push(b);
    }
    blocks
}

/// Every vector filter this CPU runs gives the portable masks on [`filter_test_blocks`].
#[cfg(simdcrypt_x86_64)]
#[test]
fn vector_filters_give_the_portable_masks() {
    use soft::Filter;
    let blocks = filter_test_blocks();
    let mut want = std::vec![0; blocks.len()];
    Filter::Portable.masks(&blocks, &mut want);
    assert!(want.iter().filter(|&&m| m != 0).count() > 1000);
    let mut filters = std::vec::Vec::new();
    if let Some(t) = crate::cpu::Avx2Token::get() {
        filters.push(Filter::Avx2(t));
    }
    if let Some(t) = crate::cpu::Avx512Token::get() {
        filters.push(Filter::Avx512(t));
    }
    let required = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
    for name in ["avx2", "avx512"] {
        let has = filters.iter().any(|f| match f {
            Filter::Avx2(_) => name == "avx2",
            Filter::Avx512(_) => name == "avx512",
            Filter::Portable => false,
        });
        assert!(
            has || !required.split(',').any(|r| r == name),
            "{name} required, missing"
        );
    }
    for f in filters {
        for len in [blocks.len(), 1, 7, 9, 17, 64] {
            let mut got = std::vec![0; len];
            f.masks(&blocks[..len], &mut got);
            assert_eq!(got, want[..len], "{f:?}, {len} blocks");
        }
    }
}

/// The SHA-NI kernels' windows (rows of one shape on four or eight consecutive words
/// each), of each width this CPU runs, on [`filter_test_blocks`]: all of a table's give
/// the portable masks (each row is in one), the prefix that runs on every block gives its
/// table's mask, never rules out a DV the portable mask keeps, leaves a DV in under 14% of
/// the random blocks (the rest of the rows run out of line, for the DVs it leaves) and in
/// no padding block of a length below 4 KiB, and the prefix with that rest gives the
/// portable masks.
#[cfg(simdcrypt_x86_64)]
#[test]
fn sha_ni_windows_give_the_portable_masks() {
    use crate::arch::x86_64::sha1dc_shani::{window_counts, windows_masks};
    let blocks = filter_test_blocks();
    let random = blocks.len() - 20_003..;
    let avx512 = crate::cpu::Avx512Token::get().is_some();
    let required = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
    assert!(
        avx512 || !required.split(',').any(|r| r == "avx512"),
        "avx512 required, missing"
    );
    for eight in [false, true] {
        if eight && !avx512 {
            continue;
        }
        let (mut nonzero, mut left) = (0, 0);
        for (n, b) in blocks.iter().enumerate() {
            let w = soft::schedule(b);
            let want = soft::ubc_mask(&w);
            let [prefix, table_prefix, all, kernel] = windows_masks(eight, &w);
            assert_eq!(all, want, "eight {eight}: all windows, {b:02x?}");
            assert_eq!(prefix, table_prefix, "eight {eight}: prefix, {b:02x?}");
            assert_eq!(prefix & want, want, "eight {eight}: prefix, {b:02x?}");
            assert_eq!(kernel, want, "eight {eight}: prefix and rest, {b:02x?}");
            if random.contains(&n) {
                nonzero += usize::from(want != 0);
                left += usize::from(prefix != 0);
            }
        }
        let (windows, prefix) = window_counts(eight);
        assert!(nonzero > 800, "{nonzero}");
        assert!(
            left * 100 < 14 * 20_003,
            "eight {eight}: the prefix of {prefix} of {windows} windows leaves {left} random blocks"
        );
        // The padding block that ends every message of a length that is a multiple of 64
        // bytes (the marker and the length) or leaves 56 to 63 in its last block (the
        // length alone): the prefix leaves no DV on it, for every length below 4 KiB.
        for len in 0u64..4096 {
            for marker in [0x80, 0] {
                let mut b = [0; 64];
                b[0] = marker;
                b[56..].copy_from_slice(&(8 * len).to_be_bytes());
                let w = soft::schedule(&b);
                let [prefix, ..] = windows_masks(eight, &w);
                assert_eq!(
                    prefix, 0,
                    "eight {eight}: padding of {len} bytes, marker {marker:#x}"
                );
            }
        }
    }
}

/// `sha1dc_many`'s lane kernels: over eight lanes of those blocks (each lane its own run,
/// some lanes idle), every call stops at the first block whose portable mask is non-zero
/// in a busy lane, with every lane's masks of that block and the lanes' states before it,
/// and the states are plain SHA-1's compression throughout.
#[cfg(simdcrypt_x86_64)]
#[test]
fn lane_kernels_stop_at_the_filters_blocks() {
    use crate::arch::x86_64::sha1dc_lanes::Lanes8;
    let blocks = filter_test_blocks();
    let mut kernels = std::vec::Vec::new();
    if let Some(t) = crate::cpu::Avx2Token::get() {
        kernels.push(Lanes8::Avx2(t));
    }
    if let Some(t) = crate::cpu::Avx512Token::get() {
        kernels.push(Lanes8::Avx512(t));
    }
    let required = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
    assert!(
        !kernels.is_empty() || !required.split(',').any(|r| r == "avx2"),
        "avx2 required, missing"
    );
    let n = 300;
    let lanes: [&[[u8; 64]]; 8] =
        core::array::from_fn(|l| &blocks[(2000 * l) % (blocks.len() - n)..][..n]);
    let masks: std::vec::Vec<[u32; 8]> = (0..n)
        .map(|i| core::array::from_fn(|l| soft::ubc_mask(&soft::schedule(&lanes[l][i]))))
        .collect();
    for kernel in kernels {
        for busy in [0xff_u32, 0x01, 0x80, 0x5a] {
            let mut states = [crate::sha1::IV; 8];
            let mut want = [crate::sha1::IV; 8];
            let mut at = 0;
            let mut hits = 0;
            loop {
                let rest: [&[[u8; 64]]; 8] = core::array::from_fn(|l| &lanes[l][at..]);
                let hit = kernel.compress(&mut states, rest, busy);
                let stop =
                    (at..n).find(|&i| (0..8).any(|l| busy >> l & 1 == 1 && masks[i][l] != 0));
                match (hit, stop) {
                    (None, None) => {
                        for (w, l) in want.iter_mut().zip(lanes) {
                            crate::sha1::soft::compress(w, &l[at..]);
                        }
                        assert_eq!(states, want, "{busy:#x}: the states at the end");
                        break;
                    }
                    (Some(h), Some(i)) => {
                        assert_eq!(at + h.at, i, "{busy:#x}: the block it stopped at");
                        assert_eq!(h.masks, masks[i], "{busy:#x}: block {i}'s masks");
                        for (w, l) in want.iter_mut().zip(lanes) {
                            crate::sha1::soft::compress(w, &l[at..i]);
                        }
                        assert_eq!(h.before, want, "{busy:#x}: the states before block {i}");
                        for (w, l) in want.iter_mut().zip(lanes) {
                            crate::sha1::soft::compress(w, &l[i..=i]);
                        }
                        assert_eq!(states, want, "{busy:#x}: the states after block {i}");
                        at = i + 1;
                        hits += 1;
                    }
                    (h, s) => panic!(
                        "{busy:#x} from {at}: stopped at {:?}, the masks say {s:?}",
                        h.map(|h| at + h.at)
                    ),
                }
            }
            assert!(hits > 3, "{busy:#x}: only {hits} stops");
        }
    }
}

/// The one-stream SHA-NI kernel (`sha1dc_shani`, the filter one block behind the rounds)
/// in every schedule form this CPU runs gives the portable kernel's result and state: on
/// the attack files from the IV and two blocks after them, cut into calls at every block
/// (so that the flagged block comes first, in the middle and last in a call), and on runs of the filter's test blocks
/// (attack blocks, their neighbours, random blocks) from a fixed state.
#[cfg(simdcrypt_x86_64)]
#[test]
fn sha_ni_kernel_gives_the_portable_verdicts() {
    use crate::arch::x86_64::sha_ni::Form;
    use crate::arch::x86_64::sha1dc_shani::compress as compress_dc;
    let Some(t) = crate::cpu::ShaNiToken::get() else {
        let required = std::env::var("SIMDCRYPT_REQUIRE").unwrap_or_default();
        assert!(
            !required.split(',').any(|r| r == "sha-ni"),
            "sha-ni required, missing"
        );
        return;
    };
    let mut forms = std::vec![Form::ShaUnit(t), Form::Rol2(t)];
    if let Some(v) = crate::cpu::Avx512Token::get() {
        forms.push(Form::Vector(t, v));
    }
    /// A detecting compression kernel: the portable one or SHA-NI in one form.
    type Kernel<'a> = &'a dyn Fn(&mut [u32; 5], &[[u8; 64]]) -> Option<(usize, u8)>;
    let run = |kernel: Kernel, state: [u32; 5], blocks: &[[u8; 64]]| {
        let mut s = state;
        let r = kernel(&mut s, blocks);
        (r, s)
    };
    let mut hits = 0;
    for data in [
        &include_bytes!("../../../vectors/sha1dc/shattered-1-first320.bin")[..],
        include_bytes!("../../../vectors/sha1dc/shattered-2-first320.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-1.bin"),
        include_bytes!("../../../vectors/sha1dc/sha-mbles-2.bin"),
    ] {
        // Two blocks after the attack's, so that the flagged block is not always the last.
        let mut blocks = data.as_chunks::<64>().0.to_vec();
        blocks.extend_from_slice(&[[0x5a; 64], [0xa5; 64]]);
        for from in 0..blocks.len() {
            let mut state = crate::sha1::IV;
            crate::sha1::soft::compress(&mut state, &blocks[..from]);
            for to in from + 1..=blocks.len() {
                let part = &blocks[from..to];
                let want = run(&soft::compress, state, part);
                hits += usize::from(want.0.is_some());
                for &form in &forms {
                    let got = run(&|s, b| compress_dc(form, s, b), state, part);
                    assert_eq!(got, want, "{form:?}, blocks {from}..{to}");
                }
            }
        }
    }
    assert!(hits >= 8, "{hits}");
    let blocks = filter_test_blocks();
    let state = [
        0x6745_2301,
        0xefcd_ab89,
        0x98ba_dcfe,
        0x1032_5476,
        0xc3d2_e1f0,
    ];
    for len in [1, 2, 3, 17, 64, 1000] {
        for part in blocks.chunks(len).take(40) {
            let want = run(&soft::compress, state, part);
            for &form in &forms {
                let got = run(&|s, b| compress_dc(form, s, b), state, part);
                assert_eq!(got, want, "{form:?}, {len} blocks");
            }
        }
    }
}
/// The SHA-NI kernels' window orders are the greedy ones (`greedy_order`: the padding
/// blocks first, then random blocks), as written into the source.
#[cfg(simdcrypt_x86_64)]
#[test]
fn sha_ni_window_orders_are_the_greedy_ones() {
    use crate::arch::x86_64::sha1dc_shani::window_orders;
    for eight in [false, true] {
        let (greedy, used) = window_orders(eight);
        assert_eq!(
            used,
            greedy,
            "eight lanes {eight}: ORDER_{}",
            if eight { 8 } else { 4 }
        );
    }
}
