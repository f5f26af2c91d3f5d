//! A minimal AArch64 implementation of the vector traits ([`crate::vector`]): one AES
//! block per NEON register, on the Cryptography Extension (`AESE`, `AESMC`, `AESD`,
//! `AESIMC`). Behind `cfg(simdcrypt_neon_check)`, for `cargo check --target
//! aarch64-unknown-linux-gnu` only: it shows that the generic mode kernels are written over
//! the traits alone ([`kernels`] instantiates them), so an ARM backend is this folder, a
//! token, and the dispatch rows. No ARM backend ships.
//!
//! x86's `aesenc` (ShiftRows, SubBytes, MixColumns, then the round key) is `AESE` with a
//! zero key, `AESMC`, then the key; `aesdec` likewise with `AESD` and `AESIMC`.

use core::arch::aarch64::*;

use crate::aes::KeySchedule;
use crate::block::Block;
use crate::block::InOut;
use crate::vector::{AesOne, AesVec, Job, Site, cipher};

/// Proof of the Cryptography Extension's AES instructions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NeonAesToken(());

impl NeonAesToken {
    /// The token where the build targets the `aes` feature.
    #[allow(dead_code)]
    pub(crate) fn get() -> Option<NeonAesToken> {
        cfg!(target_feature = "aes").then_some(NeonAesToken(()))
    }
}

/// `a ⊕ b`.
fn xor(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is part of the AArch64 base.
    unsafe { veorq_u8(a, b) }
}

/// All zero.
fn zero() -> uint8x16_t {
    // SAFETY: NEON is part of the AArch64 base.
    unsafe { vdupq_n_u8(0) }
}

/// The rounds without their key: x86's `aesenc`, `aesenclast`, `aesdec`, `aesdeclast`
/// are these, then the round key XORed.
#[target_feature(enable = "neon,aes")]
fn round_of<const DEC: bool, const LAST: bool>(x: uint8x16_t) -> uint8x16_t {
    match (DEC, LAST) {
        (false, false) => vaesmcq_u8(vaeseq_u8(x, vdupq_n_u8(0))),
        (false, true) => vaeseq_u8(x, vdupq_n_u8(0)),
        (true, false) => vaesimcq_u8(vaesdq_u8(x, vdupq_n_u8(0))),
        (true, true) => vaesdq_u8(x, vdupq_n_u8(0)),
    }
}

/// One block in a NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

fn to_u128(x: uint8x16_t) -> u128 {
    let mut b = [0u8; 16];
    // SAFETY: `b` is 16 writable bytes.
    unsafe { vst1q_u8(b.as_mut_ptr(), x) };
    u128::from_le_bytes(b)
}

fn from_u128(v: u128) -> uint8x16_t {
    let b = v.to_le_bytes();
    // SAFETY: `b` is 16 readable bytes.
    unsafe { vld1q_u8(b.as_ptr()) }
}

/// `x` times `x^n` in GF(2^128), XTS bit order.
fn mul_x_n(x: uint8x16_t, n: usize) -> uint8x16_t {
    let mut v = to_u128(x);
    for _ in 0..n {
        v = crate::block::mul_x(v);
    }
    from_u128(v)
}

/// One block through `ks` (`DEC`: the equivalent inverse cipher).
fn block<const DEC: bool>(ks: &KeySchedule, x: uint8x16_t) -> uint8x16_t {
    cipher::<Neon, DEC>(NeonAesToken(()), ks, Neon(x)).0
}

impl AesOne for NeonAesToken {
    type Reg = uint8x16_t;

    fn zero(self) -> uint8x16_t {
        zero()
    }
    fn load(self, b: &Block) -> uint8x16_t {
        // SAFETY: `b` is 16 readable bytes.
        unsafe { vld1q_u8(b.as_ptr()) }
    }
    unsafe fn load_halves(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's contract (16 readable bytes, any alignment).
        let (lo, hi) = unsafe {
            (
                core::ptr::read_unaligned(p.cast::<u64>()),
                core::ptr::read_unaligned(p.add(8).cast::<u64>()),
            )
        };
        from_u128(u128::from(u64::from_le(lo)) | u128::from(u64::from_le(hi)) << 64)
    }
    fn encrypt_tweak(self, k2: &KeySchedule, t: &Block) -> uint8x16_t {
        block::<false>(k2, self.load(t))
    }
    unsafe fn steal<const DEC: bool>(self, k: &KeySchedule, t: &Block, io: InOut, rem: usize) {
        let ta = u128::from_le_bytes(*t);
        let (ta, tb) = (from_u128(ta), from_u128(crate::block::mul_x(ta)));
        let (first, second) = if DEC { (tb, ta) } else { (ta, tb) };
        // SAFETY: the full block is within the `16 + rem` readable bytes.
        let full = unsafe { vld1q_u8(io.src) };
        let cc = xor(block::<DEC>(k, xor(full, first)), first);
        // SAFETY: the caller's contract, which is `steal_one`'s.
        unsafe { self.steal_one::<DEC>(k, second, cc, io, rem) }
    }
    unsafe fn steal_one<const DEC: bool>(
        self,
        k: &KeySchedule,
        t: uint8x16_t,
        cc: uint8x16_t,
        io: InOut,
        rem: usize,
    ) {
        debug_assert!((1..16).contains(&rem));
        let c = to_u128(cc).to_le_bytes();
        // The partial block, then the output's bytes after it (read before any write).
        let mut part = c;
        // SAFETY: the partial block is the `rem` bytes after the first 16, readable.
        unsafe { core::ptr::copy(io.src.add(16), part.as_mut_ptr(), rem) };
        let last = xor(block::<DEC>(k, xor(self.load(&part), t)), t);
        // SAFETY: `16 + rem` writable bytes: the output's first `rem` bytes after the
        // first 16, then the merged block over the first 16.
        unsafe {
            core::ptr::copy(c.as_ptr(), io.dst.add(16), rem);
            vst1q_u8(io.dst, last);
        }
    }
}

impl AesVec for Neon {
    const LANES: usize = 1;
    const REGISTERS: usize = 32;
    type Token = NeonAesToken;
    type One = NeonAesToken;

    /// (The check build targets the `aes` feature: the body runs as compiled.)
    unsafe fn enter<J: Job, const SHORT: bool>(t: NeonAesToken, job: &mut J) {
        job.run::<Neon, SHORT>(t)
    }
    /// (No wipe: nothing ships on this vector.)
    fn burn(_: NeonAesToken, _: Site, _: bool) {}

    fn one(t: NeonAesToken) -> NeonAesToken {
        t
    }
    fn zero(_: NeonAesToken) -> Self {
        Neon(zero())
    }
    fn splat_reg(_: NeonAesToken, x: uint8x16_t) -> Self {
        Neon(x)
    }
    fn from_blocks(_: NeonAesToken, b: [uint8x16_t; 4]) -> Self {
        Neon(b[0])
    }
    unsafe fn load(_: NeonAesToken, p: *const u8) -> Self {
        // SAFETY: the caller's contract (16 readable bytes).
        Neon(unsafe { vld1q_u8(p) })
    }
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller's contract (16 writable bytes).
        unsafe { vst1q_u8(p, self.0) }
    }
    unsafe fn load_part(t: NeonAesToken, p: *const u8, _: usize) -> Self {
        // SAFETY: one lane: `n` is 1, the whole register.
        unsafe { Self::load(t, p) }
    }
    unsafe fn store_part(self, p: *mut u8, _: usize) {
        // SAFETY: as `load_part`.
        unsafe { self.store(p) }
    }
    unsafe fn gather(t: NeonAesToken, p: &[*mut u8; 4], off: usize) -> Self {
        // SAFETY: the caller's contract, for the one lane.
        unsafe { Self::load(t, p[0].add(off)) }
    }
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        // SAFETY: the caller's contract, for the one lane.
        unsafe { self.store(p[0].add(off)) }
    }
    fn xor(self, o: Self) -> Self {
        Neon(xor(self.0, o.0))
    }
    fn aesenc(self, k: Self) -> Self {
        // SAFETY: a value exists, so a token does: the CPU has the AES instructions.
        Neon(xor(unsafe { round_of::<false, false>(self.0) }, k.0))
    }
    fn aesenclast(self, k: Self) -> Self {
        // SAFETY: as `aesenc`.
        Neon(xor(unsafe { round_of::<false, true>(self.0) }, k.0))
    }
    fn aesdec(self, k: Self) -> Self {
        // SAFETY: as `aesenc`.
        Neon(xor(unsafe { round_of::<true, false>(self.0) }, k.0))
    }
    fn aesdeclast(self, k: Self) -> Self {
        // SAFETY: as `aesenc`.
        Neon(xor(unsafe { round_of::<true, true>(self.0) }, k.0))
    }
    fn mul_x_lanes(self, k: usize) -> Self {
        Neon(mul_x_n(self.0, k))
    }
    fn mul_x_group_xor(self, k: Self) -> Self {
        Neon(mul_x_n(self.0, 8)).xor(k)
    }
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        Neon(mul_x_n(self.0, 8 * n)).xor(k)
    }
    fn shift_in(a: Self, _: Self) -> Self {
        a
    }
    fn barrier(s: &mut [Self; 8]) {
        let _ = s;
    }
}

/// Runs the generic ECB kernels and the tweak encryption on [`Neon`] (CBC's and XTS's: the
/// crate root's `neon_check`, which calls this, runs them, so that this module imports no
/// mode).
pub(crate) fn check_aes(key: &[u8], data: &mut [u8]) -> Option<(NeonAesToken, crate::Aes)> {
    let t = NeonAesToken::get()?;
    let aes = crate::Aes::new(key).ok()?;
    let ks = &aes.ks;
    let (blocks, _) = data.as_chunks_mut::<16>();
    crate::aes::kernel::blocks::<Neon, false, false>(t, ks, blocks);
    crate::aes::kernel::blocks::<Neon, true, true>(t, ks, blocks);
    crate::aes::kernel::encrypt_halves::<Neon>(t, ks, blocks);
    Some((t, aes))
}
