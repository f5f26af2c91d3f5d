//! The data of SHA-1 collision detection: the 32 disturbance vectors (DVs) with their
//! message differences, and the 156 unavoidable bit conditions of the filter.
//!
//! Provenance: both tables are transcribed from `lib/ubc_check.c` of Marc Stevens and Dan
//! Shumow's `sha1collisiondetection` (github.com/cr-marcstevens/sha1collisiondetection,
//! MIT licence, "Copyright 2017 Marc Stevens, Dan Shumow"), the code that accompanies
//! "Speeding up detection of SHA-1 collision attacks using unavoidable attack conditions"
//! (Stevens and Shumow, USENIX Security 2017). That file is itself generated from the
//! authors' data (`tools/data/3565`).
//!
//! - [`DVS`]: `sha1_dvs[]`, in its order; DV number `n` is bit `n` of a DV mask (the file's
//!   `maskb`). Each entry gives the family (I or II), `K` and `B` of `I(K,B)` / `II(K,B)`,
//!   the step whose saved state the recompression starts from (`testt`, 58 or 65), and
//!   the first 16 words of the expanded message difference `dm`: the file's 80 words
//!   satisfy the message expansion (`dm[t] = rol1(dm[t-3] ^ dm[t-8] ^ dm[t-14] ^ dm[t-16])`),
//!   so the other 64 are expanded from them here (tests compare words of the file's).
//! - [`CONDITIONS`]: each test of `ubc_check()`, in its order, as one row `(i, bi, j, bj,
//!   eq, dvs)`: where bit `bi` of `W[i]` XOR bit `bj` of `W[j]` differs from `eq`, the DVs
//!   in `dvs` are ruled out. The file writes each test as a shift-and-mask expression
//!   (and a DV's last conditions as a disjunction); the rows were read off those
//!   expressions by evaluating each on messages that differ in single bits, and checked
//!   against the compiled `ubc_check()` on 200,000 expanded messages, a quarter of them
//!   random and the rest built to meet most conditions of a DV (the mask agreed on
//!   every one). The order is the file's: its first tests rule out many DVs at once, so a
//!   random block's mask empties after a few rows.
#![forbid(unsafe_code)]

/// A disturbance vector's family: type I or type II of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// Type I.
    I,
    /// Type II.
    II,
}
use Family::{I, II};

/// One disturbance vector.
#[derive(Debug)]
pub(crate) struct Dv {
    /// The family, I or II.
    pub(crate) family: Family,
    /// `K` of `I(K,B)` / `II(K,B)`.
    pub(crate) k: u8,
    /// `B` of `I(K,B)` / `II(K,B)`.
    pub(crate) b: u8,
    /// The step (58 or 65) whose saved state the recompression test starts from.
    pub(crate) step: usize,
    /// The message difference over the 80 expanded words.
    pub(crate) dm: [u32; 80],
}

/// A DV from its first 16 difference words, expanded as the message is.
const fn dv(family: Family, k: u8, b: u8, step: usize, head: [u32; 16]) -> Dv {
    let mut dm = [0u32; 80];
    let mut t = 0;
    while t < 16 {
        dm[t] = head[t];
        t += 1;
    }
    while t < 80 {
        dm[t] = (dm[t - 3] ^ dm[t - 8] ^ dm[t - 14] ^ dm[t - 16]).rotate_left(1);
        t += 1;
    }
    Dv {
        family,
        k,
        b,
        step,
        dm,
    }
}

/// The 32 disturbance vectors; DV `n` is bit `n` of a mask.
#[rustfmt::skip]
pub(crate) static DVS: [Dv; 32] = [
    dv(I, 43, 0, 58, [0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010, 0xb8000014, 0x28000000, 0x20000010, 0x48000000, 0x08000018]),
    dv(I, 44, 0, 58, [0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010, 0xb8000014, 0x28000000, 0x20000010, 0x48000000]),
    dv(I, 45, 0, 58, [0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010, 0xb8000014, 0x28000000, 0x20000010]),
    dv(I, 46, 0, 58, [0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010, 0xb8000014, 0x28000000]),
    dv(I, 46, 2, 58, [0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020, 0x00000003, 0x40000052, 0x40000040, 0xe0000052, 0xa0000000]),
    dv(I, 47, 0, 58, [0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010, 0xb8000014]),
    dv(I, 47, 2, 58, [0x20000043, 0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020, 0x00000003, 0x40000052, 0x40000040, 0xe0000052]),
    dv(I, 48, 0, 58, [0xb800000a, 0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014, 0x10000010]),
    dv(I, 48, 2, 58, [0xe000002a, 0x20000043, 0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020, 0x00000003, 0x40000052, 0x40000040]),
    dv(I, 49, 0, 58, [0x18000000, 0xb800000a, 0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000, 0x90000014]),
    dv(I, 49, 2, 58, [0x60000000, 0xe000002a, 0x20000043, 0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020, 0x00000003, 0x40000052]),
    dv(I, 50, 0, 65, [0x0800000c, 0x18000000, 0xb800000a, 0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008, 0xc0000000]),
    dv(I, 50, 2, 65, [0x20000030, 0x60000000, 0xe000002a, 0x20000043, 0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020, 0x00000003]),
    dv(I, 51, 0, 65, [0xe8000000, 0x0800000c, 0x18000000, 0xb800000a, 0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000, 0x00000008]),
    dv(I, 51, 2, 65, [0xa0000003, 0x20000030, 0x60000000, 0xe000002a, 0x20000043, 0xb0000040, 0xd0000053, 0xd0000022, 0x20000000, 0x60000032, 0x60000043, 0x20000040, 0xe0000042, 0x60000002, 0x80000001, 0x00000020]),
    dv(I, 52, 0, 65, [0x04000010, 0xe8000000, 0x0800000c, 0x18000000, 0xb800000a, 0xc8000010, 0x2c000010, 0xf4000014, 0xb4000008, 0x08000000, 0x9800000c, 0xd8000010, 0x08000010, 0xb8000010, 0x98000000, 0x60000000]),
    dv(II, 45, 0, 58, [0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010, 0x08000014, 0x70000010, 0xb800001c, 0xe8000000, 0xb0000004]),
    dv(II, 46, 0, 58, [0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010, 0x08000014, 0x70000010, 0xb800001c, 0xe8000000]),
    dv(II, 46, 2, 58, [0x90000070, 0xb0000053, 0x30000008, 0x00000043, 0xd0000072, 0xb0000010, 0xf0000062, 0xc0000042, 0x00000030, 0xe0000042, 0x20000060, 0xe0000041, 0x20000050, 0xc0000041, 0xe0000072, 0xa0000003]),
    dv(II, 47, 0, 58, [0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010, 0x08000014, 0x70000010, 0xb800001c]),
    dv(II, 48, 0, 58, [0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010, 0x08000014, 0x70000010]),
    dv(II, 49, 0, 58, [0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010, 0x08000014]),
    dv(II, 49, 2, 58, [0xf0000010, 0xf000006a, 0x80000040, 0x90000070, 0xb0000053, 0x30000008, 0x00000043, 0xd0000072, 0xb0000010, 0xf0000062, 0xc0000042, 0x00000030, 0xe0000042, 0x20000060, 0xe0000041, 0x20000050]),
    dv(II, 50, 0, 65, [0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018, 0x78000010]),
    dv(II, 50, 2, 65, [0xd0000072, 0xf0000010, 0xf000006a, 0x80000040, 0x90000070, 0xb0000053, 0x30000008, 0x00000043, 0xd0000072, 0xb0000010, 0xf0000062, 0xc0000042, 0x00000030, 0xe0000042, 0x20000060, 0xe0000041]),
    dv(II, 51, 0, 65, [0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010, 0x08000018]),
    dv(II, 51, 2, 65, [0x00000043, 0xd0000072, 0xf0000010, 0xf000006a, 0x80000040, 0x90000070, 0xb0000053, 0x30000008, 0x00000043, 0xd0000072, 0xb0000010, 0xf0000062, 0xc0000042, 0x00000030, 0xe0000042, 0x20000060]),
    dv(II, 52, 0, 65, [0x0c000002, 0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c, 0xb8000010]),
    dv(II, 53, 0, 65, [0xcc000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010, 0x0000000c]),
    dv(II, 54, 0, 65, [0x0400001c, 0xcc000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018, 0xb0000010]),
    dv(II, 55, 0, 65, [0x00000010, 0x0400001c, 0xcc000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004, 0xbc000018]),
    dv(II, 56, 0, 65, [0x2600001a, 0x00000010, 0x0400001c, 0xcc000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x3c000004, 0xbc00001a, 0x20000010, 0x2400001c, 0xec000014, 0x0c000002, 0xc0000010, 0xb400001c, 0x2c000004]),
];

/// One unavoidable bit condition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Condition {
    /// The first word's index.
    pub(crate) i: u8,
    /// The first word's bit.
    pub(crate) bi: u8,
    /// The second word's index.
    pub(crate) j: u8,
    /// The second word's bit.
    pub(crate) bj: u8,
    /// What the two bits' XOR must be (0 or 1).
    pub(crate) eq: u8,
    /// The DVs ruled out where it is not.
    pub(crate) dvs: u32,
}

const fn c(i: u8, bi: u8, j: u8, bj: u8, eq: u8, dvs: u32) -> Condition {
    Condition {
        i,
        bi,
        j,
        bj,
        eq,
        dvs,
    }
}

// The DVs' mask bits, named as in the source (`DV_I_43_0_bit` is `I_43_0`).
const I_43_0: u32 = 1 << 0;
const I_44_0: u32 = 1 << 1;
const I_45_0: u32 = 1 << 2;
const I_46_0: u32 = 1 << 3;
const I_46_2: u32 = 1 << 4;
const I_47_0: u32 = 1 << 5;
const I_47_2: u32 = 1 << 6;
const I_48_0: u32 = 1 << 7;
const I_48_2: u32 = 1 << 8;
const I_49_0: u32 = 1 << 9;
const I_49_2: u32 = 1 << 10;
const I_50_0: u32 = 1 << 11;
const I_50_2: u32 = 1 << 12;
const I_51_0: u32 = 1 << 13;
const I_51_2: u32 = 1 << 14;
const I_52_0: u32 = 1 << 15;
const II_45_0: u32 = 1 << 16;
const II_46_0: u32 = 1 << 17;
const II_46_2: u32 = 1 << 18;
const II_47_0: u32 = 1 << 19;
const II_48_0: u32 = 1 << 20;
const II_49_0: u32 = 1 << 21;
const II_49_2: u32 = 1 << 22;
const II_50_0: u32 = 1 << 23;
const II_50_2: u32 = 1 << 24;
const II_51_0: u32 = 1 << 25;
const II_51_2: u32 = 1 << 26;
const II_52_0: u32 = 1 << 27;
const II_53_0: u32 = 1 << 28;
const II_54_0: u32 = 1 << 29;
const II_55_0: u32 = 1 << 30;
const II_56_0: u32 = 1 << 31;

/// The unavoidable bit conditions, in the source's order.
#[rustfmt::skip]
pub(crate) const CONDITIONS: [Condition; 156] = [
    c(44, 29, 45, 29, 0, I_48_0 | I_51_0 | I_52_0 | II_45_0 | II_46_0 | II_50_0 | II_51_0),
    c(49, 29, 50, 29, 0, I_46_0 | II_45_0 | II_50_0 | II_51_0 | II_55_0 | II_56_0),
    c(48, 29, 49, 29, 0, I_45_0 | I_52_0 | II_49_0 | II_50_0 | II_54_0 | II_55_0),
    c(47, 4, 50, 29, 0, I_47_0 | I_49_0 | I_51_0 | II_45_0 | II_51_0 | II_56_0),
    c(47, 29, 48, 29, 0, I_44_0 | I_51_0 | II_48_0 | II_49_0 | II_53_0 | II_54_0),
    c(46, 4, 49, 29, 0, I_46_0 | I_48_0 | I_50_0 | I_52_0 | II_50_0 | II_55_0),
    c(46, 29, 47, 29, 0, I_43_0 | I_50_0 | II_47_0 | II_48_0 | II_52_0 | II_53_0),
    c(45, 4, 48, 29, 0, I_45_0 | I_47_0 | I_49_0 | I_51_0 | II_49_0 | II_54_0),
    c(45, 29, 46, 29, 0, I_49_0 | I_52_0 | II_46_0 | II_47_0 | II_51_0 | II_52_0),
    c(44, 4, 47, 29, 0, I_44_0 | I_46_0 | I_48_0 | I_50_0 | II_48_0 | II_53_0),
    c(43, 4, 46, 29, 0, I_43_0 | I_45_0 | I_47_0 | I_49_0 | II_47_0 | II_52_0),
    c(43, 29, 44, 29, 0, I_47_0 | I_50_0 | I_51_0 | II_45_0 | II_49_0 | II_50_0),
    c(42, 4, 45, 29, 0, I_44_0 | I_46_0 | I_48_0 | I_52_0 | II_46_0 | II_51_0),
    c(41, 4, 44, 29, 0, I_43_0 | I_45_0 | I_47_0 | I_51_0 | II_45_0 | II_50_0),
    c(40, 29, 41, 29, 0, I_44_0 | I_47_0 | I_48_0 | II_46_0 | II_47_0 | II_56_0),
    c(54, 29, 55, 29, 0, I_51_0 | II_47_0 | II_50_0 | II_55_0 | II_56_0),
    c(53, 29, 54, 29, 0, I_50_0 | II_46_0 | II_49_0 | II_54_0 | II_55_0),
    c(52, 29, 53, 29, 0, I_49_0 | II_45_0 | II_48_0 | II_53_0 | II_54_0),
    c(50, 4, 53, 29, 0, I_50_0 | I_52_0 | II_46_0 | II_48_0 | II_54_0),
    c(50, 29, 51, 29, 0, I_47_0 | II_46_0 | II_51_0 | II_52_0 | II_56_0),
    c(49, 4, 52, 29, 0, I_49_0 | I_51_0 | II_45_0 | II_47_0 | II_53_0),
    c(48, 4, 51, 29, 0, I_48_0 | I_50_0 | I_52_0 | II_46_0 | II_52_0),
    c(42, 29, 43, 29, 0, I_46_0 | I_49_0 | I_50_0 | II_48_0 | II_49_0),
    c(41, 29, 42, 29, 0, I_45_0 | I_48_0 | I_49_0 | II_47_0 | II_48_0),
    c(40, 4, 43, 29, 0, I_44_0 | I_46_0 | I_50_0 | II_49_0 | II_56_0),
    c(39, 4, 42, 29, 0, I_43_0 | I_45_0 | I_49_0 | II_48_0 | II_55_0),
    c(38, 4, 41, 29, 0, I_44_0 | I_48_0 | II_47_0 | II_54_0 | II_56_0),
    c(37, 4, 40, 29, 0, I_43_0 | I_47_0 | II_46_0 | II_53_0 | II_55_0),
    c(55, 29, 56, 29, 0, I_52_0 | II_48_0 | II_51_0 | II_56_0),
    c(52, 4, 55, 29, 0, I_52_0 | II_48_0 | II_50_0 | II_56_0),
    c(51, 4, 54, 29, 0, I_51_0 | II_47_0 | II_49_0 | II_55_0),
    c(51, 29, 52, 29, 0, I_48_0 | II_47_0 | II_52_0 | II_53_0),
    c(36, 4, 40, 29, 0, I_46_0 | I_49_0 | II_45_0 | II_48_0),
    c(53, 29, 56, 29, 1, I_52_0 | II_48_0 | II_49_0),
    c(51, 29, 54, 29, 1, I_50_0 | II_46_0 | II_47_0),
    c(50, 29, 52, 29, 1, I_49_0 | I_51_0 | II_45_0),
    c(49, 29, 51, 29, 1, I_48_0 | I_50_0 | I_52_0),
    c(48, 29, 50, 29, 1, I_47_0 | I_49_0 | I_51_0),
    c(47, 29, 49, 29, 1, I_46_0 | I_48_0 | I_50_0),
    c(46, 29, 48, 29, 1, I_45_0 | I_47_0 | I_49_0),
    c(45, 6, 47, 6, 0, I_47_2 | I_49_2 | I_51_2),
    c(45, 29, 47, 29, 1, I_44_0 | I_46_0 | I_48_0),
    c(44, 6, 46, 6, 0, I_46_2 | I_48_2 | I_50_2),
    c(44, 29, 46, 29, 1, I_43_0 | I_45_0 | I_47_0),
    c(41, 1, 42, 6, 1, I_48_2 | II_46_2 | II_51_2),
    c(40, 1, 41, 6, 1, I_47_2 | I_51_2 | II_50_2),
    c(40, 4, 42, 4, 1, I_44_0 | I_46_0 | II_56_0),
    c(39, 1, 40, 6, 1, I_46_2 | I_50_2 | II_49_2),
    c(39, 4, 41, 4, 1, I_43_0 | I_45_0 | II_55_0),
    c(38, 4, 40, 4, 1, I_44_0 | II_54_0 | II_56_0),
    c(37, 4, 39, 4, 1, I_43_0 | II_53_0 | II_55_0),
    c(36, 1, 37, 6, 1, I_47_2 | I_50_2 | II_46_2),
    c(35, 4, 39, 29, 0, I_45_0 | I_48_0 | II_47_0),
    c(63, 0, 64, 5, 1, I_48_0 | II_48_0),
    c(63, 1, 64, 6, 1, I_45_0 | II_45_0),
    c(62, 0, 63, 5, 1, I_47_0 | II_47_0),
    c(61, 0, 62, 5, 1, I_46_0 | II_46_0),
    c(61, 2, 62, 7, 1, I_46_2 | II_46_2),
    c(60, 0, 61, 5, 1, I_45_0 | II_45_0),
    c(58, 29, 59, 29, 0, II_51_0 | II_54_0),
    c(57, 29, 58, 29, 0, II_50_0 | II_53_0),
    c(56, 4, 59, 29, 0, II_52_0 | II_54_0),
    c(56, 29, 59, 29, 1, II_51_0 | II_52_0),
    c(56, 29, 57, 29, 0, II_49_0 | II_52_0),
    c(55, 4, 58, 29, 0, II_51_0 | II_53_0),
    c(54, 4, 57, 29, 0, II_50_0 | II_52_0),
    c(53, 4, 56, 29, 0, II_49_0 | II_51_0),
    c(50, 6, 51, 1, 0, I_50_2 | II_46_2),
    c(48, 6, 50, 6, 0, I_50_2 | II_46_2),
    c(48, 29, 55, 29, 1, I_51_0 | I_52_0),
    c(47, 6, 49, 6, 0, I_49_2 | I_51_2),
    c(47, 6, 48, 1, 0, I_47_2 | II_51_2),
    c(46, 6, 48, 6, 0, I_48_2 | I_50_2),
    c(46, 6, 47, 1, 0, I_46_2 | II_50_2),
    c(44, 1, 45, 6, 1, I_51_2 | II_49_2),
    c(43, 6, 45, 6, 0, I_47_2 | I_49_2),
    c(42, 6, 44, 6, 0, I_46_2 | I_48_2),
    c(42, 6, 43, 1, 0, II_46_2 | II_51_2),
    c(41, 6, 42, 1, 0, I_51_2 | II_50_2),
    c(40, 6, 41, 1, 0, I_50_2 | II_49_2),
    c(39, 4, 43, 29, 0, I_52_0 | II_51_0),
    c(38, 4, 42, 29, 0, I_51_0 | II_50_0),
    c(37, 1, 38, 6, 1, I_48_2 | I_51_2),
    c(37, 4, 41, 29, 0, I_50_0 | II_49_0),
    c(36, 4, 38, 4, 1, II_52_0 | II_54_0),
    c(35, 1, 36, 6, 1, I_46_2 | I_49_2),
    c(35, 3, 39, 28, 0, I_51_0 | II_47_0),
    c(61, 1, 62, 6, 1, I_43_0),
    c(59, 5, 63, 30, 0, I_43_0),
    c(58, 0, 63, 30, 1, I_43_0),
    c(62, 1, 63, 6, 1, I_44_0),
    c(60, 5, 64, 30, 0, I_44_0),
    c(59, 0, 64, 30, 1, I_44_0),
    c(40, 6, 42, 6, 0, I_46_2),
    c(62, 2, 63, 7, 1, I_47_2),
    c(41, 6, 43, 6, 0, I_47_2),
    c(63, 2, 64, 7, 1, I_48_2),
    c(48, 6, 49, 1, 0, I_48_2),
    c(49, 6, 50, 1, 0, I_49_2),
    c(42, 1, 50, 1, 1, I_49_2),
    c(39, 6, 40, 1, 0, I_49_2),
    c(38, 1, 40, 1, 1, I_49_2),
    c(36, 4, 37, 4, 1, I_50_0),
    c(43, 1, 51, 1, 1, I_50_2),
    c(37, 4, 38, 4, 1, I_51_0),
    c(51, 6, 52, 1, 0, I_51_2),
    c(49, 6, 51, 6, 0, I_51_2),
    c(37, 1, 37, 6, 0, I_51_2),
    c(35, 5, 39, 30, 0, I_51_2),
    c(38, 4, 39, 4, 1, I_52_0),
    c(47, 1, 51, 1, 1, II_46_2),
    c(36, 3, 40, 28, 0, II_48_0),
    c(35, 30, 40, 28, 1, II_48_0),
    c(37, 3, 41, 28, 0, II_49_0),
    c(36, 30, 41, 28, 1, II_49_0),
    c(53, 6, 54, 1, 0, II_49_2),
    c(51, 6, 53, 6, 0, II_49_2),
    c(50, 1, 54, 1, 1, II_49_2),
    c(45, 6, 46, 1, 0, II_49_2),
    c(37, 5, 41, 30, 0, II_49_2),
    c(36, 0, 41, 30, 1, II_49_2),
    c(55, 29, 58, 29, 1, II_50_0),
    c(38, 3, 42, 28, 0, II_50_0),
    c(37, 30, 42, 28, 1, II_50_0),
    c(54, 6, 55, 1, 0, II_50_2),
    c(52, 6, 54, 6, 0, II_50_2),
    c(51, 1, 55, 1, 1, II_50_2),
    c(45, 1, 47, 1, 1, II_50_2),
    c(38, 5, 42, 30, 0, II_50_2),
    c(37, 0, 42, 30, 1, II_50_2),
    c(39, 3, 43, 28, 0, II_51_0),
    c(38, 30, 43, 28, 1, II_51_0),
    c(55, 6, 56, 1, 0, II_51_2),
    c(53, 6, 55, 6, 0, II_51_2),
    c(52, 1, 56, 1, 1, II_51_2),
    c(46, 1, 48, 1, 1, II_51_2),
    c(39, 5, 43, 30, 0, II_51_2),
    c(38, 0, 43, 30, 1, II_51_2),
    c(59, 29, 60, 29, 0, II_52_0),
    c(40, 3, 44, 28, 0, II_52_0),
    c(40, 4, 44, 29, 0, II_52_0),
    c(39, 30, 44, 28, 1, II_52_0),
    c(58, 29, 61, 29, 1, II_53_0),
    c(57, 4, 61, 29, 0, II_53_0),
    c(41, 3, 45, 28, 0, II_53_0),
    c(41, 4, 45, 29, 0, II_53_0),
    c(58, 4, 62, 29, 0, II_54_0),
    c(42, 3, 46, 28, 0, II_54_0),
    c(42, 4, 46, 29, 0, II_54_0),
    c(59, 4, 63, 29, 0, II_55_0),
    c(57, 4, 59, 29, 0, II_55_0),
    c(43, 3, 47, 28, 0, II_55_0),
    c(43, 4, 47, 29, 0, II_55_0),
    c(60, 4, 64, 29, 0, II_56_0),
    c(44, 3, 48, 28, 0, II_56_0),
    c(44, 4, 48, 29, 0, II_56_0),
];

/// The rows of [`CONDITIONS`] that the source tests on every block (outside any `if (mask
/// & ...)`): each DV has three to nine of them, so few DVs are left after them on data
/// that is no attack.
pub(crate) const UNGUARDED: [u8; 47] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    27, 40, 42, 44, 45, 47, 51, 57, 67, 68, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 85,
];

/// The most rows outside [`UNGUARDED`] that name one DV.
pub(crate) const MAX_GUARDED: usize = 10;

/// Each DV's rows of [`CONDITIONS`] outside [`UNGUARDED`], in order, and how many:
/// derived from the two tables when compiled.
pub(crate) static GUARDED: [([Condition; MAX_GUARDED], usize); 32] = guarded();

const fn guarded() -> [([Condition; MAX_GUARDED], usize); 32] {
    let none = c(0, 0, 0, 0, 0, 0);
    let mut out = [([none; MAX_GUARDED], 0); 32];
    let mut k = 0;
    while k < CONDITIONS.len() {
        let mut unguarded = false;
        let mut u = 0;
        while u < UNGUARDED.len() {
            unguarded |= UNGUARDED[u] as usize == k;
            u += 1;
        }
        let mut d = 0;
        while d < 32 {
            if !unguarded && CONDITIONS[k].dvs >> d & 1 == 1 {
                let n = out[d].1;
                assert!(n < MAX_GUARDED);
                out[d].0[n] = CONDITIONS[k];
                out[d].1 = n + 1;
            }
            d += 1;
        }
        k += 1;
    }
    out
}
