//! The vector traits the mode kernels are written over, free of any ISA's types: a
//! vector of AES blocks ([`AesVec`]), the single-block work beside it ([`AesOne`]), the
//! round keys a kernel holds or reads ([`Keys`]), the walk over groups of registers
//! ([`each_group`]) and a mode's kernel call ([`Job`]), which the width handle
//! (`crate::aes::Width::run_job`) runs on the vector type of its width. The ISAs implement
//! them in `src/arch` (x86-64: `Xmm`, `Ymm`, `Zmm`; AArch64: `Neon`); the call path is
//! in docs/design.md, "The width handle".

// Without a backend's vector types (`pure`, or a target without one) only the job and
// site types are used.
#![cfg_attr(
    not(any(simdcrypt_x86_64, simdcrypt_aarch64)),
    allow(dead_code, unused_imports)
)]

use crate::block::KeySchedule;
use crate::block::{Block, InOut};

/// One AES block in a register of the ISA, and the single-block work the modes do on it:
/// XTS's tweak and ciphertext stealing, on the ISA's shortest-latency registers. A value
/// proves the ISA's AES instructions exist (it is a capability token).
pub(crate) trait AesOne: Copy {
    /// The ISA's register of one block.
    type Reg: Copy;
    /// All zero.
    fn zero(self) -> Self::Reg;
    /// Loads a block.
    fn load(self, b: &Block) -> Self::Reg;
    /// The block at `p` as two 8-byte loads (which forward from two 8-byte stores).
    ///
    /// # Safety
    /// `p` readable for 16 bytes (at any alignment).
    unsafe fn load_halves(self, p: *const u8) -> Self::Reg;
    /// The raw tweak `t` encrypted with `k2`: `T_0`.
    fn encrypt_tweak(self, k2: &KeySchedule, t: &Block) -> Self::Reg;
    /// Ciphertext stealing at the end of a unit: the last full block at `io.src` and
    /// the `rem` bytes after it (`1 <= rem <= 15`), `t` the full block's tweak.
    ///
    /// # Safety
    /// `io.src` readable and `io.dst` writable for `16 + rem` bytes, equal or disjoint.
    unsafe fn steal<const DEC: bool>(self, k: &KeySchedule, t: &Block, io: InOut, rem: usize);
    /// The end of ciphertext stealing: `cc` the last full block's output, `t` the tweak
    /// of the merged block.
    ///
    /// # Safety
    /// As [`AesOne::steal`].
    unsafe fn steal_one<const DEC: bool>(
        self,
        k: &KeySchedule,
        t: Self::Reg,
        cc: Self::Reg,
        io: InOut,
        rem: usize,
    );
}

/// The single-block register of a vector type's ISA.
pub(crate) type Reg<V> = <<V as AesVec>::One as AesOne>::Reg;

/// Where a kernel call's stack wipe stands: each width's [`AesVec::wipe`] (and the
/// portable code's) has the depth each site needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Site {
    /// ECB blocks.
    Ecb,
    /// CBC encryption of one stream.
    CbcEncrypt,
    /// CBC decryption.
    CbcDecrypt,
    /// CBC encryption of many streams.
    CbcMany,
    /// One XTS data unit.
    XtsOne,
    /// One XTS data unit of one block.
    XtsBlock,
    /// Consecutive XTS data units (and the tweak encryption before them).
    XtsMany,
    /// No wipe: a later call's wipe covers this one (XTS's tweak encryption, before the
    /// units).
    Later,
}

/// A mode's kernel call, written once over the vector type: what the width handle
/// (`crate::aes::Width::run_job`) runs. A job holds its validated arguments (slices, or
/// pointers whose contract its constructor took), so running it is safe. The entry takes
/// it by reference (docs/design.md, "XTS kernel shape").
pub(crate) trait Job: Sized {
    /// The wipe after the call.
    const SITE: Site;
    /// The most blocks per register the body gains from (1: CBC's chained encryption, a
    /// chain of single blocks; 2: many CBC streams, where 16 lanes are already more than
    /// callers pass; 4: no limit).
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    const MAX_LANES: usize = 4;
    /// Whether the 512-bit registers take a call only from the CPU's `zmm_from` blocks
    /// (`crate::tuning::Tuning::zmm_from`), handing shorter ones to the 256-bit kernel
    /// (docs/design.md, "Dispatch and per-CPU tuning").
    #[cfg_attr(not(simdcrypt_x86_64), allow(dead_code))]
    const HANDS_OVER: bool = false;
    /// Whether the body has a short form ([`AesVec::GROUP`]).
    const HAS_SHORT: bool = true;
    /// The blocks the call covers: under [`AesVec::GROUP`] it runs the short form, an entry
    /// of its own with no group loop and a shallower frame (so a shallower wipe).
    fn blocks(&self) -> usize;
    /// The call on the portable backend.
    fn portable(&mut self);
    /// The call on `V`; `SHORT`: fewer than [`AesVec::GROUP`] blocks.
    fn simd<V: AesVec, const SHORT: bool>(&mut self, t: V::Token);
}

/// `LANES` AES blocks in one register; lane `l` is bytes `16 l .. 16 l + 16` in memory.
/// The width's facts are its associated items: its lanes and registers, the blocks of a
/// group, the `#[target_feature]` entry ([`AesVec::enter`]) and the wipe after it
/// ([`AesVec::wipe`]).
pub(crate) trait AesVec: Copy {
    /// Blocks per register.
    const LANES: usize;
    /// Vector registers the ISA of the type has (16 for SSE/AVX2, 32 with AVX-512): how
    /// many values a kernel may keep live without spills.
    const REGISTERS: usize;
    /// Whether XTS makes a group's next tweaks between its first rounds, into registers of
    /// their own (24 values live), rather than after its stores (docs/design.md, "XTS
    /// kernel shape"; off on AArch64).
    const EARLY_TWEAKS: bool = Self::REGISTERS >= 32;
    /// Blocks per group of 8 registers (8 independent chains cover `aesenc`'s latency
    /// times its throughput): a call of fewer runs a kernel's short form, with no group
    /// loop; one XTS unit of at most `16 GROUP` bytes likewise.
    const GROUP: usize = 8 * Self::LANES;
    /// The capability token that makes values of this type.
    type Token: Copy;

    /// Runs `job` in a function compiled with the features the token proves (the job's
    /// body inlines there, so its intrinsics do): one frame per job and `SHORT`.
    ///
    /// # Safety
    /// None beyond the token's: a `#[target_feature]` function, which the token makes
    /// sound to call.
    unsafe fn enter<J: Job, const SHORT: bool>(t: Self::Token, job: &mut J);
    /// Zeroes the stack that a call of `site` left (in bytes, the deepest its kernels
    /// wrote below the caller: docs/design.md, "Stack and register wipes"), and the
    /// registers the width uses. `short`: the short form ran, whose frames are shallower.
    fn wipe(t: Self::Token, site: Site, short: bool);

    /// The single-block work of the ISA (the tweak, ciphertext stealing), with the proof
    /// that it runs: what the token implies.
    type One: AesOne;
    /// The single-block token the vector's token implies.
    fn one(t: Self::Token) -> Self::One;
    /// All zero.
    fn zero(t: Self::Token) -> Self;
    /// `b` in every lane (a round key, a tweak): one broadcast load.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn splat(t: Self::Token, b: &Block) -> Self {
        Self::splat_reg(t, Self::one(t).load(b))
    }
    /// The block in `x` in every lane.
    fn splat_reg(t: Self::Token, x: Reg<Self>) -> Self;
    /// Lane `l` from `b[l]` for `l < LANES` (the rest of `b` unused): blocks made in
    /// registers, put together without a trip through memory.
    fn from_blocks(t: Self::Token, b: [Reg<Self>; 4]) -> Self;
    /// The 15 round-key slots, each in every lane.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn keys(t: Self::Token, k: &[Block; 15]) -> [Self; 15] {
        // A loop, not `array::from_fn`: a closure is a function of its own, without the
        // entry's target features, and its intrinsics would not inline.
        let mut v = [Self::zero(t); 15];
        for (x, b) in v.iter_mut().zip(k) {
            *x = Self::splat(t, b);
        }
        v
    }
    /// Loads `LANES` blocks.
    ///
    /// # Safety
    /// `p` readable for `16 * LANES` bytes.
    unsafe fn load(t: Self::Token, p: *const u8) -> Self;
    /// Stores `LANES` blocks.
    ///
    /// # Safety
    /// `p` writable for `16 * LANES` bytes.
    unsafe fn store(self, p: *mut u8);
    /// Loads the first `n` blocks (`1 <= n <= LANES`); the other lanes are zero. Nothing
    /// past the `n` blocks is read (a masked load).
    ///
    /// # Safety
    /// `p` readable for `16 * n` bytes.
    unsafe fn load_part(t: Self::Token, p: *const u8, n: usize) -> Self;
    /// Stores the first `n` blocks (`1 <= n <= LANES`) and nothing else.
    ///
    /// # Safety
    /// `p` writable for `16 * n` bytes.
    unsafe fn store_part(self, p: *mut u8, n: usize);
    /// Loads the first `n` blocks (`1 <= n <= LANES`): a plain load when they fill the
    /// register, else [`AesVec::load_part`] (masked moves are slow on some CPUs:
    /// `vpmaskmovq` on AMD; the ymm parts are xmm moves).
    ///
    /// # Safety
    /// `p` readable for `16 * n` bytes.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn load_n(t: Self::Token, p: *const u8, n: usize) -> Self {
        // SAFETY: the caller's contract, for `n` blocks.
        unsafe {
            if n == Self::LANES {
                Self::load(t, p)
            } else {
                Self::load_part(t, p, n)
            }
        }
    }
    /// Stores the first `n` blocks (`1 <= n <= LANES`), plainly when they fill the
    /// register, as [`AesVec::load_n`].
    ///
    /// # Safety
    /// `p` writable for `16 * n` bytes.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    unsafe fn store_n(self, p: *mut u8, n: usize) {
        // SAFETY: the caller's contract, for `n` blocks.
        unsafe {
            if n == Self::LANES {
                self.store(p)
            } else {
                self.store_part(p, n)
            }
        }
    }
    /// Loads lane `l` from `p[l] + off` (`l < LANES`): a block of each of `LANES` streams.
    ///
    /// # Safety
    /// `p[l] + off` readable for 16 bytes for each `l < LANES`.
    unsafe fn gather(t: Self::Token, p: &[*mut u8; 4], off: usize) -> Self;
    /// Stores lane `l` to `p[l] + off` (`l < LANES`), in lane order.
    ///
    /// # Safety
    /// `p[l] + off` writable for 16 bytes for each `l < LANES`.
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize);

    fn xor(self, o: Self) -> Self;
    /// `self ⊕ a ⊕ b` (one `vpternlogq` where the ISA has it).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor3(self, a: Self, b: Self) -> Self {
        self.xor(a).xor(b)
    }
    fn aesenc(self, k: Self) -> Self;
    fn aesenclast(self, k: Self) -> Self;
    fn aesdec(self, k: Self) -> Self;
    fn aesdeclast(self, k: Self) -> Self;
    /// A middle round of the direction.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn round<const DEC: bool>(self, k: Self) -> Self {
        if DEC { self.aesdec(k) } else { self.aesenc(k) }
    }
    /// The last round of the direction.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn last<const DEC: bool>(self, k: Self) -> Self {
        if DEC {
            self.aesdeclast(k)
        } else {
            self.aesenclast(k)
        }
    }

    /// Lane `l` times `x^(k + l)` in GF(2^128) (XTS bit order), `k + LANES <= 64`: from one
    /// broadcast tweak, the tweaks `k .. k + LANES` of a unit, each straight from it.
    fn mul_x_lanes(self, k: usize) -> Self;
    /// [`AesVec::mul_x_lanes`] by carry-less multiplications alone (`k + LANES <= 64`), no
    /// vector shifts: for the fused multi-unit loop, where `crate::tuning::FreshTweaks`
    /// takes it (docs/design.md, "XTS kernel shape"). The default: `mul_x_lanes`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn mul_x_lanes_clmul(self, k: usize) -> Self {
        self.mul_x_lanes(k)
    }
    /// Every lane times `x^(8 LANES)`, XORed with `k`: a shift by `LANES` bytes, the bytes
    /// shifted out folded back by carry-less multiplication with 0x87 (the step of 8
    /// registers), and `k` (in one three-way XOR where the ISA has it).
    fn mul_x_group_xor(self, k: Self) -> Self;
    /// Every lane times `x^(8 n)` for `n` in 1..=3 (a shift by `n` bytes, the bytes
    /// shifted out folded back by carry-less multiplication with 0x87), XORed with `k`:
    /// register `j` of a unit's first group from the tweaks of register `j % (8 / LANES)`
    /// (`n = j / (8 / LANES)`; never needed on xmm, where `8 / LANES` is 8).
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self;
    /// The blocks one lane earlier in a stream: `(a`'s last lane, `b`'s lanes `0 ..
    /// LANES - 1)` (CBC's previous ciphertext).
    fn shift_in(a: Self, b: Self) -> Self;
    /// `self` with lane `lane` replaced by lane `from_lane` of `from` (both `< LANES`,
    /// public). Through memory here; AVX-512 overrides it with one masked permute.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn with_lane_of(self, t: Self::Token, lane: usize, from: Self, from_lane: usize) -> Self {
        let (mut a, mut b) = ([[0u8; 16]; 4], [[0u8; 16]; 4]);
        // SAFETY: each array has room for the (at most 4) lanes, and is read back whole.
        unsafe {
            self.store(a.as_mut_ptr().cast());
            from.store(b.as_mut_ptr().cast());
        }
        a[lane] = b[from_lane];
        // SAFETY: as above.
        let out = unsafe { Self::load(t, a.as_ptr().cast()) };
        crate::wipe::blocks(&mut a);
        crate::wipe::blocks(&mut b);
        out
    }
    /// Middle rounds `FROM..rounds` over `s` (`1 <= FROM <= 10`; `rounds` 10, 12 or 14,
    /// the schedule's), each followed by [`AesVec::barrier`] when there are 8 registers.
    /// The ISAs write it over their instructions: rounds up to 9 always, 10-11 and 12-13
    /// each behind a branch (docs/design.md, "Build time and binary size"). This default
    /// runs [`round_all`] to the schedule's last middle round.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rounds<const DEC: bool, const N: usize, const FROM: usize>(
        s: &mut [Self; N],
        rk: &impl Keys<Self>,
        rounds: usize,
    ) {
        for i in FROM..rounds.min(14) {
            round_all::<Self, DEC, N>(s, rk.at(i));
        }
    }
    /// Keeps the compiler from reordering rounds block by block: all eight values exist
    /// at this point, so round `r + 1` of any register comes after round `r` of every
    /// register in program order, and the out-of-order core sees 8 independent chains in
    /// a short window. No instruction is emitted.
    fn barrier(s: &mut [Self; 8]);
}

/// The masked and per-stream memory methods of a one-lane vector (`load_part`,
/// `store_part`, `gather`, `scatter`): with one lane, each is the plain `load` or `store`
/// of that lane (x86-64's `Xmm`, AArch64's `Neon`).
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
macro_rules! one_lane_memory {
    ($tok:ty) => {
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn load_part(t: $tok, p: *const u8, n: usize) -> Self {
            debug_assert_eq!(n, 1);
            // SAFETY: `n == 1`: the caller's contract is `load`'s.
            unsafe { Self::load(t, p) }
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn store_part(self, p: *mut u8, n: usize) {
            debug_assert_eq!(n, 1);
            // SAFETY: `n == 1`: the caller's contract is `store`'s.
            unsafe { self.store(p) }
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn gather(t: $tok, p: &[*mut u8; 4], off: usize) -> Self {
            // SAFETY: the caller's contract for lane 0.
            unsafe { Self::load(t, p[0].add(off)) }
        }
        #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
        unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
            // SAFETY: the caller's contract for lane 0.
            unsafe { self.store(p[0].add(off)) }
        }
    };
}
#[cfg(any(simdcrypt_x86_64, simdcrypt_aarch64))]
pub(crate) use one_lane_memory;

/// A kernel's round keys, each in every lane: held in registers (`[V; 15]`, broadcast
/// once; where they do not fit beside the states the compiler keeps them in the kernel's
/// frame) or read from the key schedule where each is used ([`AtUse`]).
pub(crate) trait Keys<V: AesVec>: Copy {
    /// Round key `i` in every lane.
    fn at(&self, i: usize) -> V;
    /// For one pass of a loop: [`AtUse`] hides its schedule pointer here, so that the
    /// compiler reads the keys again in each pass instead of hoisting them out of the loop
    /// (and spilling them); held keys are left as they are.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn fence(&mut self) {}
    /// The last round key of a `rounds`-round schedule (10, 12 or 14): one of three
    /// registers when held (a run-time index would put them in memory).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn last(&self, rounds: usize) -> V {
        match rounds {
            10 => self.at(10),
            12 => self.at(12),
            _ => self.at(14),
        }
    }
}

impl<V: AesVec> Keys<V> for [V; 15] {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn at(&self, i: usize) -> V {
        self[i]
    }
}

/// Round keys read from the schedule where used: a broadcast load each (on xmm a memory
/// operand), and no frame of key copies. Short calls take it, and the loops of ECB and
/// CBC decryption on 16 vector registers ([`Keys::fence`] in each group; docs/design.md,
/// "XTS kernel shape").
#[derive(Clone, Copy)]
pub(crate) struct AtUse<'a, V: AesVec>(pub(crate) V::Token, pub(crate) &'a [Block; 15]);

impl<V: AesVec> Keys<V> for AtUse<'_, V> {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn at(&self, i: usize) -> V {
        V::splat(self.0, &self.1[i])
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn last(&self, rounds: usize) -> V {
        V::splat(self.0, &self.1[rounds.min(14)])
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    // The pointer goes through the block as a value only: nothing is read or written.
    #[allow(clippy::pointers_in_nomem_asm_block)]
    fn fence(&mut self) {
        let mut p: *const [Block; 15] = self.1;
        // SAFETY: an empty instruction string: `p` is left as it was, and nothing else is
        // touched (no memory, no stack, no flags).
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) p, options(nomem, nostack, preserves_flags))
        };
        // SAFETY: `p` is `self.1`, a reference valid for the lifetime.
        self.1 = unsafe { &*p };
    }
}

/// One middle round of the direction over `s`, then the [`AesVec::barrier`] when there
/// are 8 registers (without it the compiler may run the chains one after another to
/// spare registers, spilling the states).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn round_all<V: AesVec, const DEC: bool, const N: usize>(s: &mut [V; N], k: V) {
    for x in s.iter_mut() {
        *x = x.round::<DEC>(k);
    }
    if let Ok(s8) = <&mut [V; 8]>::try_from(&mut s[..]) {
        V::barrier(s8);
    }
}

/// Middle rounds `1..rounds` over `s` ([`AesVec::rounds`]).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn middle_rounds<V: AesVec, const DEC: bool, const N: usize>(
    s: &mut [V; N],
    rk: &impl Keys<V>,
    rounds: usize,
) {
    V::rounds::<DEC, N, 1>(s, rk, rounds);
}

/// One register through the whole cipher of `ks` (`DEC`: the equivalent inverse cipher),
/// the keys read where used: the latency-bound single blocks of XTS's tweak and
/// ciphertext stealing on each ISA.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn cipher<V: AesVec, const DEC: bool>(tok: V::Token, ks: &KeySchedule, x: V) -> V {
    let rk = AtUse::<V>(tok, if DEC { &ks.dec } else { &ks.enc });
    let mut s = [x.xor(rk.at(0))];
    middle_rounds::<V, DEC, 1>(&mut s, &rk, ks.rounds);
    s[0].last::<DEC>(rk.last(ks.rounds))
}

/// Middle rounds `1..rounds` over `s` as a loop over the rounds, the keys read where used:
/// one round's code where [`middle_rounds`] has thirteen, for the latency-bound short
/// groups at the end of a call.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn middle_rounds_looped<V: AesVec, const DEC: bool, const N: usize>(
    s: &mut [V; N],
    rk: &AtUse<'_, V>,
    rounds: usize,
) {
    for i in 1..rounds.min(14) {
        round_all::<V, DEC, N>(s, rk.at(i));
    }
}

/// `NV` registers of blocks at `p`, all full but the last, which holds `last` blocks
/// (`1 <= last <= L`; loaded and stored masked when fewer than `L`). Made by
/// [`each_group`], which makes `p` readable and writable for `16 (L (NV - 1) + last)`
/// bytes while the kernel's [`Group::body`] runs.
#[derive(Clone, Copy)]
pub(crate) struct Regs<const NV: usize> {
    pub(crate) p: *mut u8,
    pub(crate) last: usize,
}

impl<const NV: usize> Regs<NV> {
    /// `NV` full registers at the start of `blocks` (which holds at least `NV L` blocks).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn whole<V: AesVec>(blocks: &mut [Block]) -> Self {
        debug_assert!(blocks.len() >= NV * V::LANES);
        Regs {
            p: blocks.as_mut_ptr().cast(),
            last: V::LANES,
        }
    }

    /// Whether register `j` is full.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    pub(crate) fn full<V: AesVec>(self, j: usize) -> bool {
        j + 1 < NV || self.last == V::LANES
    }
    /// The blocks register `j` holds.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn blocks<V: AesVec>(self, j: usize) -> usize {
        if j + 1 < NV { V::LANES } else { self.last }
    }
    /// Loads register `j < NV`, masked when it is not full.
    ///
    /// # Safety
    /// Within the [`Group::body`] that got `self`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    pub(crate) unsafe fn load<V: AesVec>(self, t: V::Token, j: usize) -> V {
        // SAFETY: register `j` is within the range the type's contract makes readable.
        unsafe { V::load_n(t, self.p.add(16 * V::LANES * j), self.blocks::<V>(j)) }
    }
    /// Loads register `j < NV` lane by lane, each block as two 8-byte loads
    /// ([`AesOne::load_halves`]); the lanes past the blocks it holds are zero.
    ///
    /// # Safety
    /// Within the [`Group::body`] that got `self`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    pub(crate) unsafe fn load_halves<V: AesVec>(self, t: V::Token, j: usize) -> V {
        let one = V::one(t);
        let mut lanes = [one.zero(); 4];
        for (l, y) in lanes.iter_mut().enumerate().take(self.blocks::<V>(j)) {
            // SAFETY: block `l` of register `j` is within the range the type's contract
            // makes readable.
            *y = unsafe { one.load_halves(self.p.add(16 * (V::LANES * j + l))) };
        }
        V::from_blocks(t, lanes)
    }
    /// Stores `v` as register `j < NV`, masked when it is not full.
    ///
    /// # Safety
    /// Within the [`Group::body`] that got `self`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    pub(crate) unsafe fn store<V: AesVec>(self, j: usize, v: V) {
        // SAFETY: register `j` is within the range the type's contract makes writable.
        unsafe { v.store_n(self.p.add(16 * V::LANES * j), self.blocks::<V>(j)) }
    }
}

/// A kernel over groups of registers of blocks, which [`each_group`] runs over a slice.
pub(crate) trait Group<V: AesVec> {
    /// Runs over the registers `r`, in order over the slice; `carry` is what the group
    /// before returned (CBC decryption's previous ciphertext; ECB carries nothing).
    ///
    /// # Safety
    /// `r` made by [`each_group`] for this call.
    unsafe fn body<const NV: usize>(&self, r: Regs<NV>, carry: V) -> V;
}

/// Runs `g` over `blocks`, `carry` from one group to the next: groups of 8 registers
/// (8 L blocks), then [`each_group_rest`] for the rest.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn each_group<V: AesVec>(g: &impl Group<V>, blocks: &mut [Block], mut carry: V) {
    let mut chunks = blocks.chunks_exact_mut(8 * V::LANES);
    for c in &mut chunks {
        // SAFETY: eight full registers, exactly the chunk's blocks.
        carry = unsafe { g.body(Regs::<8>::whole::<V>(c), carry) };
    }
    each_group_rest(g, chunks.into_remainder(), carry);
}

/// Runs `g` over fewer than `8 L` blocks (with no loop, so that a short call's code has
/// none of the group loop's): a group of 4 registers if there are that many, then one of
/// 1 to 4 registers for the rest, the last one masked when it is not full.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn each_group_rest<V: AesVec>(g: &impl Group<V>, mut rest: &mut [Block], mut carry: V) {
    let l = V::LANES;
    debug_assert!(rest.len() < 8 * l);
    if rest.len() >= 4 * l {
        let (a, b) = rest.split_at_mut(4 * l);
        // SAFETY: four full registers, exactly `a`'s blocks.
        carry = unsafe { g.body(Regs::<4>::whole::<V>(a), carry) };
        rest = b;
    }
    let (n, p) = (rest.len(), rest.as_mut_ptr().cast());
    let nv = n.div_ceil(l);
    let last = n.wrapping_sub(l * nv.saturating_sub(1));
    // SAFETY: `nv` registers, the last holding `last` (1 to L) blocks: exactly `rest`
    // (fewer than `8 L` blocks and at most 4 L after the group of 4, so `nv <= 4`).
    unsafe {
        match nv {
            0 => {}
            1 => _ = g.body(Regs::<1> { p, last }, carry),
            2 => _ = g.body(Regs::<2> { p, last }, carry),
            3 => _ = g.body(Regs::<3> { p, last }, carry),
            _ => _ = g.body(Regs::<4> { p, last }, carry),
        }
    }
}
