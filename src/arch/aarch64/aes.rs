//! AES on the ARMv8 Cryptography Extension: the vector type [`Neon`] (one block per NEON
//! register, 32 registers) that the generic ECB, CBC and XTS kernels run on
//! ([`crate::vector`]), its single-block work, and the key expansion.
//!
//! The rounds keep the round key pending in the value (`Neon { v, k }` is the block
//! `v ^ k`) until the next round's `AESE` adds it: docs/design.md, "AArch64".

use core::arch::aarch64::*;

use crate::aes::KeySchedule;
use crate::block::{Block, InOut};
use crate::cpu::Armv8AesToken;
use crate::vector::{AesOne, AesVec, Job, Keys, Site, cipher};
use crate::wipe::{depth, stack};

/// One round on `x ^ k` (`AESE` and `AESD` add their key before SubBytes), in a function
/// compiled with `aes` (the intrinsics inline into it, and it into the kernel entries,
/// which have it too): a middle round (`AESMC`/`AESIMC` after) or the last.
///
/// # Safety
/// The CPU has the AES instructions (an [`Armv8AesToken`] exists).
#[inline]
#[target_feature(enable = "aes")]
unsafe fn round_of<const DEC: bool, const LAST: bool>(x: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
    match (DEC, LAST) {
        (false, false) => vaesmcq_u8(vaeseq_u8(x, k)),
        (false, true) => vaeseq_u8(x, k),
        (true, false) => vaesimcq_u8(vaesdq_u8(x, k)),
        (true, true) => vaesdq_u8(x, k),
    }
}

/// One block in a NEON register (`Armv8AesToken`: the CPU has the AES instructions), as
/// `v ^ k`: `k` is a round key not yet added, which the next round's `AESE`/`AESD` adds
/// (its key operand; docs/design.md, "AArch64"). Anything else reads the block whole ([`Neon::get`]: one `EOR`, none where `k`
/// is zero, as for loaded blocks).
#[derive(Clone, Copy)]
pub(crate) struct Neon {
    v: uint8x16_t,
    k: uint8x16_t,
}

impl Neon {
    /// The block `x`, nothing pending.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn of(x: uint8x16_t) -> Neon {
        Neon { v: x, k: zero() }
    }
    /// The block: `v ^ k`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn get(self) -> uint8x16_t {
        xor(self.v, self.k)
    }
    /// A round of the direction with the key pending in `self`, then `next` pending.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn step<const DEC: bool, const LAST: bool>(self, next: Neon) -> Neon {
        // SAFETY: see the top of `impl AesVec for Neon`.
        let v = unsafe { round_of::<DEC, LAST>(self.v, self.k) };
        Neon { v, k: next.get() }
    }
}

/// All zero.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn zero() -> uint8x16_t {
    // SAFETY: NEON is part of the AArch64 base.
    unsafe { vdupq_n_u8(0) }
}

/// `a ⊕ b`.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn xor(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is part of the AArch64 base.
    unsafe { veorq_u8(a, b) }
}

/// `0x87` in the high 64-bit lane (`PMULL2`'s operand: the reduction of XTS's field).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn poly_hi() -> poly64x2_t {
    // SAFETY: NEON is part of the AArch64 base.
    unsafe { vreinterpretq_p64_u64(vcombine_u64(vcreate_u64(0), vcreate_u64(0x87))) }
}

/// `x` times `x^(8 N)` in GF(2^128) (XTS bit order, bytes little-endian), `1 <= N <= 3`:
/// the bytes shifted out of the top (`x >> (128 - 8 N)`, under 2^24) folded back by one
/// carry-less multiplication with 0x87 (a product under 2^32, so no second fold).
///
/// # Safety
/// The CPU has `PMULL` (an [`Armv8AesToken`] exists).
#[inline]
#[target_feature(enable = "aes")]
unsafe fn mul_x_bytes<const SHIFT: i32, const TOP: i32>(x: uint8x16_t) -> uint8x16_t {
    let shifted = vextq_u8::<SHIFT>(zero(), x);
    let top = vreinterpretq_p64_u64(vshrq_n_u64::<TOP>(vreinterpretq_u64_u8(x)));
    let fold = vreinterpretq_u8_p128(vmull_high_p64(top, poly_hi()));
    xor(shifted, fold)
}

/// `x` times `x^8` in GF(2^128) (XTS bit order): the block shifted up a byte, and the
/// byte shifted out times 0x87 (under 2^15) by the 8-bit polynomial multiply, all in
/// vector registers (`EXT`, `EXT`, `PMULL.8H`, `EOR`; not [`mul_x_bytes`]: docs/design.md,
/// "AArch64").
///
/// # Safety
/// The CPU has `PMULL` (an [`Armv8AesToken`] exists).
#[inline]
#[target_feature(enable = "aes")]
unsafe fn mul_x8(x: uint8x16_t) -> uint8x16_t {
    let shifted = vextq_u8::<15>(zero(), x);
    let top = vreinterpret_p8_u8(vget_low_u8(vextq_u8::<15>(x, zero())));
    let fold = vreinterpretq_u8_p16(vmull_p8(top, vdup_n_p8(0x87)));
    xor(shifted, fold)
}

/// `x` times `x^k` in GF(2^128), `k < 64`: both 64-bit halves shifted left by `k`, the
/// bits carried from the low half into the high one, the top `k` bits folded back by
/// carry-less multiplication with 0x87.
///
/// # Safety
/// The CPU has `PMULL` (an [`Armv8AesToken`] exists).
#[inline]
#[target_feature(enable = "aes")]
unsafe fn mul_x_k(x: uint8x16_t, k: usize) -> uint8x16_t {
    debug_assert!(k < 64);
    let v = vreinterpretq_u64_u8(x);
    let k = k as i64;
    let shifted = vshlq_u64(v, vdupq_n_s64(k));
    // Each half's top `k` bits (a shift by `k - 64`, to the right; by -64: zero).
    let out = vshlq_u64(v, vdupq_n_s64(k - 64));
    let carry = vextq_u64::<1>(vdupq_n_u64(0), out);
    let fold = vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(out), poly_hi()));
    vreinterpretq_u8_u64(veorq_u64(veorq_u64(shifted, carry), fold))
}

/// One block through `ks` (`DEC`: the equivalent inverse cipher).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn block<const DEC: bool>(t: Armv8AesToken, ks: &KeySchedule, x: uint8x16_t) -> uint8x16_t {
    cipher::<Neon, DEC>(t, ks, Neon::of(x)).get()
}

fn to_bytes(x: uint8x16_t) -> Block {
    let mut b = [0u8; 16];
    // SAFETY: `b` is 16 writable bytes.
    unsafe { vst1q_u8(b.as_mut_ptr(), x) };
    b
}

impl AesOne for Armv8AesToken {
    type Reg = uint8x16_t;

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero(self) -> uint8x16_t {
        zero()
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load(self, b: &Block) -> uint8x16_t {
        // SAFETY: `b` is 16 readable bytes.
        unsafe { vld1q_u8(b.as_ptr()) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load_halves(self, p: *const u8) -> uint8x16_t {
        // One 16-byte load (docs/design.md, "AArch64").
        // SAFETY: the caller's contract (16 readable bytes, any alignment).
        unsafe { vld1q_u8(p) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn encrypt_tweak(self, k2: &KeySchedule, t: &Block) -> uint8x16_t {
        block::<false>(self, k2, self.load(t))
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn steal<const DEC: bool>(self, k: &KeySchedule, t: &Block, io: InOut, rem: usize) {
        let ta = self.load(t);
        // SAFETY: the token proves PMULL.
        let tb = unsafe { mul_x_k(ta, 1) };
        let (first, second) = if DEC { (tb, ta) } else { (ta, tb) };
        // SAFETY: the full block is within the `16 + rem` readable bytes.
        let full = unsafe { vld1q_u8(io.src) };
        let cc = xor(block::<DEC>(self, k, xor(full, first)), first);
        // SAFETY: the caller's contract, which is `steal_one`'s.
        unsafe { self.steal_one::<DEC>(k, second, cc, io, rem) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn steal_one<const DEC: bool>(
        self,
        k: &KeySchedule,
        t: uint8x16_t,
        cc: uint8x16_t,
        io: InOut,
        rem: usize,
    ) {
        debug_assert!((1..16).contains(&rem));
        // The partial block, then the full block's output bytes after it (all read before
        // any write: the two may be the same bytes).
        let mut part = to_bytes(cc);
        let stolen = part;
        // SAFETY: the partial block is the `rem` bytes after the first 16, readable.
        unsafe { core::ptr::copy(io.src.add(16), part.as_mut_ptr(), rem) };
        let last = xor(block::<DEC>(self, k, xor(self.load(&part), t)), t);
        // SAFETY: `16 + rem` writable bytes: the output's `rem` bytes after the first 16,
        // then the merged block over the first 16.
        unsafe {
            core::ptr::copy_nonoverlapping(stolen.as_ptr(), io.dst.add(16), rem);
            vst1q_u8(io.dst, last);
        }
        crate::wipe::blocks(&mut [part, stolen]);
    }
}

/// `AesVec`'s round methods `$f` as [`Neon::step`] (`$dec`: a decryption round, `$last`:
/// the last round).
macro_rules! steps {
    ($($f:ident: $dec:literal, $last:literal;)*) => {$(
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        fn $f(self, k: Self) -> Self {
            self.step::<$dec, $last>(k)
        }
    )*};
}

// SAFETY (every `unsafe` block of AES or PMULL instructions in this impl): a value of
// `Neon` exists only inside a kernel entered with `Armv8AesToken` (its `enter`), compiled
// with the `aes` feature, where these helpers inline; the token proves the CPU has it.
impl AesVec for Neon {
    const LANES: usize = 1;
    const REGISTERS: usize = 32;
    const EARLY_TWEAKS: bool = false;
    type Token = Armv8AesToken;
    type One = Armv8AesToken;

    unsafe fn enter<J: Job, const SHORT: bool>(t: Armv8AesToken, job: &mut J) {
        crate::cpu::target_features! { Armv8AesToken,
            #[inline(never)]
            unsafe fn entry<J: Job, const SHORT: bool>(t: Armv8AesToken, job: &mut J) {
                job.simd::<Neon, SHORT>(t)
            }
        }
        // SAFETY: the token proves the CPU has the entry's features.
        unsafe { entry::<J, SHORT>(t, job) }
    }

    #[inline(always)]
    fn wipe(_: Armv8AesToken, site: Site, short: bool) {
        match (site, short) {
            (Site::Later, _) => {}
            // The short forms' frames (under a group of 8 blocks) are their own.
            (Site::Ecb, true) => stack::<{ depth([240, 240, 256, 256, 288, 3472]) }>(),
            (Site::Ecb, false) => stack::<{ depth([240, 240, 816, 1168, 1440, 6112]) }>(),
            (Site::CbcEncrypt, _) => stack::<{ depth([432, 432, 448, 448, 480, 8048]) }>(),
            (Site::CbcDecrypt, true) => stack::<{ depth([320, 320, 336, 448, 688, 4032]) }>(),
            (Site::CbcDecrypt, false) => stack::<{ depth([240, 240, 944, 1760, 2128, 6672]) }>(),
            (Site::XtsOne, true) => stack::<{ depth([416, 368, 416, 1232, 1072, 13072]) }>(),
            (Site::XtsOne, false) => stack::<{ depth([416, 432, 432, 1168, 1184, 14736]) }>(),
            (Site::XtsBlock, _) => stack::<{ depth([240, 240, 256, 256, 288, 2736]) }>(),
            // (Many units, and CBC's many streams: no short forms.)
            (Site::XtsMany | Site::CbcMany, _) => {
                stack::<{ depth([672, 768, 2080, 1936, 2352, 13632]) }>()
            }
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn one(t: Armv8AesToken) -> Armv8AesToken {
        t
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero(_: Armv8AesToken) -> Self {
        Neon::of(zero())
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat_reg(_: Armv8AesToken, x: uint8x16_t) -> Self {
        Neon::of(x)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn from_blocks(_: Armv8AesToken, b: [uint8x16_t; 4]) -> Self {
        Neon::of(b[0])
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load(_: Armv8AesToken, p: *const u8) -> Self {
        // SAFETY: the caller's contract (16 readable bytes).
        Neon::of(unsafe { vld1q_u8(p) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller's contract (16 writable bytes).
        unsafe { vst1q_u8(p, self.get()) }
    }
    crate::vector::one_lane_memory!(Armv8AesToken);
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor(self, o: Self) -> Self {
        // `o`'s block pending: a round key XORed into a block waits for the next round
        // (the whitening key `k0`: `AESE d, k0`), and so does a tweak.
        Neon {
            v: xor(self.get(), o.k),
            k: o.v,
        }
    }
    steps! {
        aesenc: false, false;
        aesenclast: false, true;
        aesdec: true, false;
        aesdeclast: true, true;
    }
    /// The middle rounds unrolled (a round's key read once for the registers, and no
    /// loop counter: 2 instructions a block-round), as on x86-64: rounds up to 9 always,
    /// 10-11 and 12-13 each behind a branch on the key's round count.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rounds<const DEC: bool, const N: usize, const FROM: usize>(
        s: &mut [Self; N],
        rk: &impl Keys<Self>,
        rounds: usize,
    ) {
        macro_rules! range {
            ($range:expr) => {
                for i in $range {
                    let k = rk.at(i);
                    for x in s.iter_mut() {
                        *x = x.step::<DEC, false>(k);
                    }
                    if let Ok(s8) = <&mut [Self; 8]>::try_from(&mut s[..]) {
                        Self::barrier(s8);
                    }
                }
            };
        }
        range!(FROM..10);
        if rounds > 10 {
            range!(10..12);
            if rounds > 12 {
                range!(12..14);
            }
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes(self, k: usize) -> Self {
        // SAFETY: see the top of the impl (PMULL).
        Neon::of(unsafe { mul_x_k(self.get(), k) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl (PMULL).
        Neon::of(unsafe { mul_x8(self.get()) }).xor(k)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl (PMULL).
        let x = unsafe {
            match n {
                1 => mul_x8(self.get()),
                2 => mul_x_bytes::<14, 48>(self.get()),
                _ => mul_x_bytes::<13, 40>(self.get()),
            }
        };
        Neon::of(x).xor(k)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn shift_in(a: Self, _: Self) -> Self {
        a
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn with_lane_of(self, _: Armv8AesToken, lane: usize, from: Self, from_lane: usize) -> Self {
        debug_assert!(lane == 0 && from_lane == 0);
        from
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn barrier(s: &mut [Self; 8]) {
        // SAFETY: an empty template: it reads and writes only the eight registers named,
        // and touches no memory, stack or flags.
        unsafe {
            core::arch::asm!(
                "/* {0:v} {1:v} {2:v} {3:v} {4:v} {5:v} {6:v} {7:v} */",
                inout(vreg) s[0].v, inout(vreg) s[1].v, inout(vreg) s[2].v, inout(vreg) s[3].v,
                inout(vreg) s[4].v, inout(vreg) s[5].v, inout(vreg) s[6].v, inout(vreg) s[7].v,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    }
}

/// SubWord of FIPS-197 §5.2 on one word: `AESE` with a zero key on the word in every
/// column (ShiftRows moves equal columns onto each other, so only SubBytes shows).
#[inline]
#[target_feature(enable = "aes")]
fn sub_word(w: u32) -> u32 {
    let x = vreinterpretq_u8_u32(vdupq_n_u32(w));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(x, vdupq_n_u8(0))))
}

/// Expands `key` (16, 24 or 32 bytes, of `rounds` 10, 12 or 14) into `*ks`, writing all
/// of it: `rounds`, the encryption keys (FIPS-197 §5.2, SubWord by `AESE`: no tables,
/// constant time), the decryption keys from them by `AESIMC`, and zeros in the slots past
/// `rounds` (so the caller need not zero it first).
///
/// # Safety
/// `ks` is valid for writes of a `KeySchedule` (it need not be initialised).
pub(crate) unsafe fn expand(t: Armv8AesToken, key: &[u8], rounds: usize, ks: *mut KeySchedule) {
    // SAFETY: the token proves the CPU has the AES instructions; `ks` is the caller's.
    unsafe { expand_ce(t, key, rounds, ks) }
}

/// The kernel entry of [`expand`]: a frame of its own, which the caller's stack wipe
/// covers.
///
/// # Safety
/// As [`expand`].
#[inline(never)]
#[target_feature(enable = "aes")]
unsafe fn expand_ce(_t: Armv8AesToken, key: &[u8], rounds: usize, ks: *mut KeySchedule) {
    // SAFETY: the caller's contract: `ks` is valid for writes, and once written it is a
    // valid schedule to borrow (the words are expanded in place, no copy on the stack).
    let ks = unsafe {
        ks.write(KeySchedule::EMPTY);
        &mut *ks
    };
    ks.rounds = rounds;
    let nk = key.len() / 4;
    let words = ks.enc.as_flattened_mut().as_chunks_mut::<4>().0;
    for (w, c) in words.iter_mut().zip(key.as_chunks::<4>().0) {
        *w = *c;
    }
    let mut rcon = 1u32;
    for i in nk..4 * (rounds + 1) {
        let mut temp = u32::from_le_bytes(words[i - 1]);
        if i % nk == 0 {
            temp = sub_word(temp.rotate_right(8)) ^ rcon;
            // xtime on the round constant (public): 0x1b after 0x80.
            rcon = (rcon << 1) ^ (0x11b & 0u32.wrapping_sub(rcon >> 7));
        } else if nk == 8 && i % nk == 4 {
            temp = sub_word(temp);
        }
        words[i] = (u32::from_le_bytes(words[i - nk]) ^ temp).to_le_bytes();
    }
    ks.dec[0] = ks.enc[rounds];
    ks.dec[rounds] = ks.enc[0];
    for i in 1..rounds {
        // SAFETY: 16 readable and 16 writable bytes (two blocks of the schedule).
        unsafe {
            vst1q_u8(
                ks.dec[i].as_mut_ptr(),
                vaesimcq_u8(vld1q_u8(ks.enc[rounds - i].as_ptr())),
            )
        };
    }
}
