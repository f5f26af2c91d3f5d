//! A vector of AES blocks: [`AesVec`], with one impl per register width.
//!
//! | type  | blocks | instructions            | token             |
//! |-------|-------:|-------------------------|-------------------|
//! | `Xmm` | 1      | AES-NI, PCLMULQDQ       | `AesNiToken`      |
//! | `Ymm` | 2      | VAES, VPCLMULQDQ, AVX2  | `VaesAvx2Token`   |
//! | `Zmm` | 4      | VAES, VPCLMULQDQ, AVX-512 | `VaesAvx512Token` |
//!
//! Every operation is `#[inline(always)]` and is meant to be inlined into a kernel entry
//! compiled with the token's features (`#[target_feature]`); the intrinsics it calls then
//! inline there. Holding a value proves the features (values are only made from a token),
//! which is the safety argument of every `unsafe` intrinsic call below.

use core::arch::x86_64::*;

use crate::block::Block;
use crate::cpu::{AesNiToken, VaesAvx2Token, VaesAvx512Token};

/// `LANES` AES blocks in one register; lane `l` is bytes `16 l .. 16 l + 16` in memory.
pub(crate) trait AesVec: Copy {
    /// Blocks per register.
    const LANES: usize;
    /// Vector registers the ISA of the type has (16 for SSE/AVX2, 32 with AVX-512): how
    /// many values a kernel may keep live without spills.
    const REGISTERS: usize;
    /// The capability token that makes values of this type.
    type Token: Copy;

    /// The AES-NI token the wider tokens imply (for single-block work on xmm).
    fn aesni(t: Self::Token) -> AesNiToken;
    /// All zero.
    fn zero(t: Self::Token) -> Self;
    /// `b` in every lane (a round key, a tweak): one broadcast load.
    #[inline(always)]
    fn splat(t: Self::Token, b: &Block) -> Self {
        Self::splat_reg(t, load128(b))
    }
    /// The block in `x` in every lane.
    fn splat_reg(t: Self::Token, x: __m128i) -> Self;
    /// Lane `l` from `b[l]` for `l < LANES` (the rest of `b` unused): blocks made in
    /// registers, put together without a trip through memory.
    fn from_blocks(t: Self::Token, b: [__m128i; 4]) -> Self;
    /// The 15 round-key slots, each in every lane.
    #[inline(always)]
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
    #[inline(always)]
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
    #[inline(always)]
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
    #[inline(always)]
    fn xor3(self, a: Self, b: Self) -> Self {
        self.xor(a).xor(b)
    }
    fn aesenc(self, k: Self) -> Self;
    fn aesenclast(self, k: Self) -> Self;
    fn aesdec(self, k: Self) -> Self;
    fn aesdeclast(self, k: Self) -> Self;
    /// A middle round of the direction.
    #[inline(always)]
    fn round<const DEC: bool>(self, k: Self) -> Self {
        if DEC { self.aesdec(k) } else { self.aesenc(k) }
    }
    /// The last round of the direction.
    #[inline(always)]
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
    /// [`AesVec::mul_x_lanes`] by carry-less multiplications alone (`k + LANES <= 64`):
    /// no vector shifts, which on Intel run on the port of 512-bit AES (port 0), where
    /// `vpclmulqdq` runs on port 5. For the fused multi-unit loop, which makes a unit's
    /// first tweaks under the AES rounds of the group before, where the AES port binds
    /// (`crate::tuning::FreshTweaks` says which CPUs take it). `mul_x_lanes` keeps the shorter
    /// latency (one multiplication deep, not two) for a call's first tweaks, which are on
    /// its critical path. The default: `mul_x_lanes` (the narrower registers' kernels have
    /// a single form).
    #[inline(always)]
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
    #[inline(always)]
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
    /// Keeps the compiler from reordering rounds block by block: all eight values exist
    /// at this point, so round `r + 1` of any register comes after round `r` of every
    /// register in program order, and the out-of-order core sees 8 independent chains in
    /// a short window. No instruction is emitted.
    fn barrier(s: &mut [Self; 8]);
}

/// A kernel's round keys, each in every lane: held in registers (`[V; 15]`, broadcast
/// once; where they do not fit beside the states the compiler keeps them in the kernel's
/// frame) or read from the key schedule where each is used ([`AtUse`]).
pub(crate) trait Keys<V: AesVec>: Copy {
    /// Round key `i` in every lane.
    fn at(&self, i: usize) -> V;
    /// For one pass of a loop: [`AtUse`] hides its schedule pointer here, so that the
    /// compiler reads the keys again in each pass instead of hoisting them out of the loop
    /// (and spilling them); held keys are left as they are.
    #[inline(always)]
    fn fence(&mut self) {}
}

impl<V: AesVec> Keys<V> for [V; 15] {
    #[inline(always)]
    fn at(&self, i: usize) -> V {
        self[i]
    }
}

/// Round keys read from the schedule where used: a broadcast load each (on xmm a memory
/// operand), and no frame of key copies. What a short call (no loop of 8-register
/// groups) takes: a frame of copies costs more than its stores, since the wipe after the
/// call writes over it (docs/design.md, "Stack and register wipes"). ECB and CBC decryption take it in their loops too where the ISA
/// has 16 vector registers (AES-NI, VAES-AVX2): 15 held keys beside 8 states spill to a
/// frame of copies there (0.5 KiB), which is a reload per round all the same, and then
/// more stack to wipe ([`Keys::fence`] in each group keeps the broadcasts where used).
#[derive(Clone, Copy)]
pub(crate) struct AtUse<'a, V: AesVec>(pub(crate) V::Token, pub(crate) &'a [Block; 15]);

impl<V: AesVec> Keys<V> for AtUse<'_, V> {
    #[inline(always)]
    fn at(&self, i: usize) -> V {
        V::splat(self.0, &self.1[i])
    }

    #[inline(always)]
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
#[inline(always)]
pub(crate) fn round_all<V: AesVec, const DEC: bool, const N: usize>(s: &mut [V; N], k: V) {
    for x in s.iter_mut() {
        *x = x.round::<DEC>(k);
    }
    if let Ok(s8) = <&mut [V; 8]>::try_from(&mut s[..]) {
        V::barrier(s8);
    }
}

/// `NV` registers of blocks at `p`, all full but the last, which holds `last` blocks
/// (`1 <= last <= L`; loaded and stored masked when fewer than `L`). Made by
/// [`each_group`], which makes `p` readable and writable for `16 (L (NV - 1) + last)`
/// bytes while the kernel's [`Group::run`] runs.
#[derive(Clone, Copy)]
pub(crate) struct Regs<const NV: usize> {
    pub(crate) p: *mut u8,
    pub(crate) last: usize,
}

impl<const NV: usize> Regs<NV> {
    /// `NV` full registers at the start of `blocks` (which holds at least `NV L` blocks).
    #[inline(always)]
    fn whole<V: AesVec>(blocks: &mut [Block]) -> Self {
        debug_assert!(blocks.len() >= NV * V::LANES);
        Regs {
            p: blocks.as_mut_ptr().cast(),
            last: V::LANES,
        }
    }

    /// Whether register `j` is full.
    #[inline(always)]
    pub(crate) fn full<V: AesVec>(self, j: usize) -> bool {
        j + 1 < NV || self.last == V::LANES
    }
    /// The blocks register `j` holds.
    #[inline(always)]
    fn blocks<V: AesVec>(self, j: usize) -> usize {
        if j + 1 < NV { V::LANES } else { self.last }
    }
    /// Loads register `j < NV`, masked when it is not full.
    ///
    /// # Safety
    /// Within the [`Group::run`] that got `self`.
    #[inline(always)]
    pub(crate) unsafe fn load<V: AesVec>(self, t: V::Token, j: usize) -> V {
        // SAFETY: register `j` is within the range the type's contract makes readable.
        unsafe { V::load_n(t, self.p.add(16 * V::LANES * j), self.blocks::<V>(j)) }
    }
    /// Loads register `j < NV` lane by lane, each block as two 8-byte loads
    /// ([`load_halves`]); the lanes past the blocks it holds are zero.
    ///
    /// # Safety
    /// Within the [`Group::run`] that got `self`.
    #[inline(always)]
    pub(crate) unsafe fn load_halves<V: AesVec>(self, t: V::Token, j: usize) -> V {
        // SAFETY: SSE2 is part of x86-64.
        let mut lanes = [unsafe { _mm_setzero_si128() }; 4];
        for (l, y) in lanes.iter_mut().enumerate().take(self.blocks::<V>(j)) {
            // SAFETY: block `l` of register `j` is within the range the type's contract
            // makes readable.
            *y = unsafe { load_halves(self.p.add(16 * (V::LANES * j + l))) };
        }
        V::from_blocks(t, lanes)
    }
    /// Stores `v` as register `j < NV`, masked when it is not full.
    ///
    /// # Safety
    /// Within the [`Group::run`] that got `self`.
    #[inline(always)]
    pub(crate) unsafe fn store<V: AesVec>(self, j: usize, v: V) {
        // SAFETY: register `j` is within the range the type's contract makes writable.
        unsafe { v.store_n(self.p.add(16 * V::LANES * j), self.blocks::<V>(j)) }
    }
}

/// The block at `p`, as two 8-byte loads. A block made with `u128` arithmetic in
/// general-purpose registers (an XTS sector's tweak) is stored as two 8-byte halves; one
/// 16-, 32- or 64-byte load of those cannot be forwarded from the store buffer and waits
/// until both stores reach the cache (the hottest instruction of a 512-byte XTS
/// `encrypt_sector`, about a tenth of the kernel's samples, Intel family 6 model 167). Each
/// 8-byte load forwards, from those stores or from a 16-byte one. Volatile, so that the
/// compiler does not merge them back into one 16-byte load (and of a packed `u64`: a
/// volatile `[u8; 8]` was read byte by byte).
///
/// # Safety
/// `p` readable for 16 bytes (at any alignment).
#[inline(always)]
pub(crate) unsafe fn load_halves(p: *const u8) -> __m128i {
    /// Eight bytes at any alignment, read by one volatile load.
    #[derive(Clone, Copy)]
    #[repr(C, packed)]
    struct Half(u64);
    let p = p.cast::<Half>();
    // SAFETY: `p` is 16 readable bytes (the caller's contract): two `Half`s, whose
    // alignment is 1. SSE2 is part of x86-64.
    unsafe {
        let lo = core::ptr::read_volatile(p).0;
        let hi = core::ptr::read_volatile(p.add(1)).0;
        _mm_set_epi64x(u64::from_le(hi) as i64, u64::from_le(lo) as i64)
    }
}

/// A kernel over groups of registers of blocks, which [`each_group`] runs over a slice.
pub(crate) trait Group<V: AesVec> {
    /// Runs over the registers `r`, in order over the slice; `carry` is what the group
    /// before returned (CBC decryption's previous ciphertext; ECB carries nothing).
    ///
    /// # Safety
    /// `r` made by [`each_group`] for this call.
    unsafe fn run<const NV: usize>(&self, r: Regs<NV>, carry: V) -> V;
}

/// Runs `g` over `blocks`, `carry` from one group to the next: groups of 8 registers
/// (8 L blocks), then [`each_group_rest`] for the rest.
#[inline(always)]
pub(crate) fn each_group<V: AesVec>(g: &impl Group<V>, blocks: &mut [Block], mut carry: V) {
    let mut chunks = blocks.chunks_exact_mut(8 * V::LANES);
    for c in &mut chunks {
        // SAFETY: eight full registers, exactly the chunk's blocks.
        carry = unsafe { g.run(Regs::<8>::whole::<V>(c), carry) };
    }
    each_group_rest(g, chunks.into_remainder(), carry);
}

/// Runs `g` over fewer than `8 L` blocks (with no loop, so that a short call's code has
/// none of the group loop's): a group of 4 registers if there are that many, then one of
/// 1 to 4 registers for the rest, the last one masked when it is not full.
#[inline(always)]
pub(crate) fn each_group_rest<V: AesVec>(g: &impl Group<V>, mut rest: &mut [Block], mut carry: V) {
    let l = V::LANES;
    debug_assert!(rest.len() < 8 * l);
    if rest.len() >= 4 * l {
        let (a, b) = rest.split_at_mut(4 * l);
        // SAFETY: four full registers, exactly `a`'s blocks.
        carry = unsafe { g.run(Regs::<4>::whole::<V>(a), carry) };
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
            1 => _ = g.run(Regs::<1> { p, last }, carry),
            2 => _ = g.run(Regs::<2> { p, last }, carry),
            3 => _ = g.run(Regs::<3> { p, last }, carry),
            _ => _ = g.run(Regs::<4> { p, last }, carry),
        }
    }
}

/// The per-width entries of an algorithm's generic kernel bodies, written once for every
/// width: for each width a module (`$m`) with its vector type `V` and token type `Token`,
/// and in it, for each `[unsafe] fn name<consts>(t: Token, args) => body::<generics>;`, a
/// function `name` that calls `body` inside a `#[target_feature]` function compiled with
/// the width's features (the token proves them; `unsafe` passes the body's own contract
/// on, stated in the entry's docs).
macro_rules! width_entries {
    (
        widths: [$($(#[$wd:meta])* $m:ident: $v:ident, $tok:ident, $feat:literal;)*]
        $fns:tt
    ) => {$(
        $(#[$wd])*
        pub(crate) mod $m {
            #[allow(unused_imports)]
            use super::*;
            /// This width's vector type.
            #[allow(dead_code)]
            pub(crate) type V = $crate::simd::aes::$v;
            /// This width's token.
            pub(crate) type Token = $crate::cpu::$tok;
            $crate::simd::aes::width_entries!(@fns $feat; $fns);
        }
    )*};
    (@fns $feat:literal; {}) => {};
    (@fns $feat:literal; {
        $(#[$mt:meta])* fn $name:ident $(<$(const $g:ident: $gt:ty),*>)?
            ($t:ident: Token $(, $a:ident: $ty:ty)* $(,)?)
            => $($k:ident)::+ <$($ga:tt),*>;
        $($rest:tt)*
    }) => {
        $(#[$mt])*
        #[inline]
        pub(crate) fn $name $(<$(const $g: $gt),*>)? ($t: Token $(, $a: $ty)*) {
            #[inline(never)]
            #[target_feature(enable = $feat)]
            fn inner $(<$(const $g: $gt),*>)? ($t: Token $(, $a: $ty)*) {
                $($k)::+::<$($ga),*>($t $(, $a)*)
            }
            // SAFETY: the token proves the CPU has the features `inner` is compiled with.
            unsafe { inner $(::<$($g),*>)? ($t $(, $a)*) }
        }
        $crate::simd::aes::width_entries!(@fns $feat; { $($rest)* });
    };
    (@fns $feat:literal; {
        $(#[$mt:meta])* unsafe fn $name:ident $(<$(const $g:ident: $gt:ty),*>)?
            ($t:ident: Token $(, $a:ident: $ty:ty)* $(,)?)
            => $($k:ident)::+ <$($ga:tt),*>;
        $($rest:tt)*
    }) => {
        $(#[$mt])*
        #[inline]
        pub(crate) unsafe fn $name $(<$(const $g: $gt),*>)? ($t: Token $(, $a: $ty)*) {
            #[inline(never)]
            #[target_feature(enable = $feat)]
            unsafe fn inner $(<$(const $g: $gt),*>)? ($t: Token $(, $a: $ty)*) {
                // SAFETY: the entry's contract, which its caller keeps.
                unsafe { $($k)::+::<$($ga),*>($t $(, $a)*) }
            }
            // SAFETY: the token proves the CPU has the features `inner` is compiled with;
            // the rest of the contract is the caller's.
            unsafe { inner $(::<$($g),*>)? ($t $(, $a)*) }
        }
        $crate::simd::aes::width_entries!(@fns $feat; { $($rest)* });
    };
}
pub(crate) use width_entries;

/// Methods `fn f(self, o: Self) -> Self` that are one intrinsic on the registers.
macro_rules! ops {
    ($w:ident: $($f:ident $i:ident),*) => {$(
        #[inline(always)]
        fn $f(self, o: Self) -> Self {
            // SAFETY: see the top of the impl.
            $w(unsafe { $i(self.0, o.0) })
        }
    )*};
}

/// `zero`, `load` and `store`, each one intrinsic. (`load` and `store`: the caller's
/// contract makes the bytes readable or writable; the rest as the top of the impl says.)
macro_rules! mem {
    ($w:ident: $tok:ty, $zero:ident, $load:ident, $store:ident) => {
        #[inline(always)]
        fn zero(_: $tok) -> Self {
            // SAFETY: see the top of the impl.
            $w(unsafe { $zero() })
        }
        #[inline(always)]
        unsafe fn load(_: $tok, p: *const u8) -> Self {
            // SAFETY: the caller's contract (`16 LANES` readable bytes); see the top of the impl.
            $w(unsafe { $load(p.cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut u8) {
            // SAFETY: the caller's contract (`16 LANES` writable bytes); see the top of the impl.
            unsafe { $store(p.cast(), self.0) }
        }
    };
}

/// [`AesVec::barrier`]: an empty `asm!` over the eight registers of `$s`, of class `$c`.
macro_rules! barrier {
    ($s:ident, $c:ident) => {
        // SAFETY: an empty template: it reads and writes only the eight registers named,
        // and touches no memory, stack or flags.
        unsafe {
            core::arch::asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
                inout($c) $s[0].0, inout($c) $s[1].0, inout($c) $s[2].0, inout($c) $s[3].0,
                inout($c) $s[4].0, inout($c) $s[5].0, inout($c) $s[6].0, inout($c) $s[7].0,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    };
}

/// A 128-bit register: one block (AES-NI).
#[derive(Clone, Copy)]
pub(crate) struct Xmm(__m128i);
/// A 256-bit register: two blocks (VAES on AVX2).
#[derive(Clone, Copy)]
pub(crate) struct Ymm(__m256i);
/// A 512-bit register: four blocks (VAES on AVX-512).
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

/// One block (unaligned); SSE2 is part of x86-64.
#[inline(always)]
fn load128(b: &Block) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

impl AesVec for Xmm {
    const LANES: usize = 1;
    const REGISTERS: usize = 16;
    type Token = AesNiToken;

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): an
    // `AesNiToken` or an `Xmm` exists, so the CPU has AES-NI and PCLMULQDQ (SSE2 is
    // x86-64's, but the intrinsics still ask for an `unsafe` outside `#[target_feature]`).

    #[inline(always)]
    fn aesni(t: AesNiToken) -> AesNiToken {
        t
    }
    #[inline(always)]
    fn splat_reg(_: AesNiToken, x: __m128i) -> Self {
        Xmm(x)
    }
    #[inline(always)]
    fn from_blocks(_: AesNiToken, b: [__m128i; 4]) -> Self {
        Xmm(b[0])
    }
    mem!(Xmm: AesNiToken, _mm_setzero_si128, _mm_loadu_si128, _mm_storeu_si128);
    #[inline(always)]
    unsafe fn load_part(t: AesNiToken, p: *const u8, n: usize) -> Self {
        debug_assert_eq!(n, 1);
        // SAFETY: `n == 1`: the caller's contract is `load`'s.
        unsafe { Self::load(t, p) }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, n: usize) {
        debug_assert_eq!(n, 1);
        // SAFETY: `n == 1`: the caller's contract is `store`'s.
        unsafe { self.store(p) }
    }
    #[inline(always)]
    unsafe fn gather(t: AesNiToken, p: &[*mut u8; 4], off: usize) -> Self {
        // SAFETY: the caller's contract for lane 0.
        unsafe { Self::load(t, p[0].add(off)) }
    }
    #[inline(always)]
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        // SAFETY: the caller's contract for lane 0.
        unsafe { self.store(p[0].add(off)) }
    }
    ops!(Xmm:
        xor _mm_xor_si128,
        aesenc _mm_aesenc_si128,
        aesenclast _mm_aesenclast_si128,
        aesdec _mm_aesdec_si128,
        aesdeclast _mm_aesdeclast_si128
    );
    #[inline(always)]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            // A shift by 64 gives zero, as needed when k = 0.
            let shifted = _mm_sll_epi64(t, _mm_cvtsi64_si128(k as i64));
            let carry = _mm_srl_epi64(t, _mm_cvtsi64_si128(64 - k as i64));
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm_slli_si128::<8>(carry);
            let poly = _mm_set_epi64x(0, 0x87);
            let red = _mm_clmulepi64_si128::<0x00>(_mm_srli_si128::<8>(carry), poly);
            Xmm(_mm_xor_si128(_mm_xor_si128(shifted, hi), red))
        }
    }
    #[inline(always)]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm_srli_si128::<15>(self.0);
            let red = _mm_clmulepi64_si128::<0x00>(top, _mm_set_epi64x(0, 0x87));
            Xmm(_mm_xor_si128(_mm_slli_si128::<1>(self.0), red)).xor(k)
        }
    }
    #[inline(always)]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (_mm_srli_si128::<15>(self.0), _mm_slli_si128::<1>(self.0)),
                2 => (_mm_srli_si128::<14>(self.0), _mm_slli_si128::<2>(self.0)),
                _ => (_mm_srli_si128::<13>(self.0), _mm_slli_si128::<3>(self.0)),
            };
            let red = _mm_clmulepi64_si128::<0x00>(top, _mm_set_epi64x(0, 0x87));
            Xmm(_mm_xor_si128(up, red)).xor(k)
        }
    }
    #[inline(always)]
    fn shift_in(a: Self, _: Self) -> Self {
        a
    }
    #[inline(always)]
    fn barrier(s: &mut [Self; 8]) {
        barrier!(s, xmm_reg);
    }
}

/// The `ymm_reg` operands need AVX enabled where the `asm!` stands; inlined into the
/// caller, which has it.
#[inline]
#[target_feature(enable = "avx")]
fn barrier_ymm(s: &mut [Ymm; 8]) {
    barrier!(s, ymm_reg);
}

impl AesVec for Ymm {
    const LANES: usize = 2;
    const REGISTERS: usize = 16;
    type Token = VaesAvx2Token;

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): a
    // `VaesAvx2Token` or a `Ymm` exists, so the CPU has AVX2, VAES and VPCLMULQDQ.
    #[inline(always)]
    fn aesni(t: VaesAvx2Token) -> AesNiToken {
        t.aesni()
    }
    #[inline(always)]
    fn splat_reg(_: VaesAvx2Token, x: __m128i) -> Self {
        // SAFETY: see the top of the impl.
        Ymm(unsafe { _mm256_broadcastsi128_si256(x) })
    }
    #[inline(always)]
    fn from_blocks(_: VaesAvx2Token, b: [__m128i; 4]) -> Self {
        // SAFETY: see the top of the impl.
        Ymm(unsafe { _mm256_set_m128i(b[1], b[0]) })
    }
    mem!(Ymm: VaesAvx2Token, _mm256_setzero_si256, _mm256_loadu_si256, _mm256_storeu_si256);
    #[inline(always)]
    unsafe fn load_part(t: VaesAvx2Token, p: *const u8, n: usize) -> Self {
        // Two lanes: a part is one block, moved as xmm (`vpmaskmovq` is slow on AMD cores:
        // an odd block count's one-block tail).
        if n >= 2 {
            // SAFETY: the caller's contract (two blocks readable).
            return unsafe { Self::load(t, p) };
        }
        // SAFETY: the caller's contract (one block readable); AVX as above.
        Ymm(unsafe { _mm256_zextsi128_si256(_mm_loadu_si128(p.cast())) })
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, n: usize) {
        if n >= 2 {
            // SAFETY: the caller's contract (two blocks writable).
            return unsafe { self.store(p) };
        }
        // SAFETY: the caller's contract (one block writable); AVX as above.
        unsafe { _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(self.0)) }
    }
    #[inline(always)]
    unsafe fn gather(_: VaesAvx2Token, p: &[*mut u8; 4], off: usize) -> Self {
        // SAFETY: the caller's contract for lanes 0 and 1; AVX as above.
        Ymm(unsafe { _mm256_loadu2_m128i(p[1].add(off).cast(), p[0].add(off).cast()) })
    }
    #[inline(always)]
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        // SAFETY: the caller's contract for lanes 0 and 1; AVX as above.
        unsafe { _mm256_storeu2_m128i(p[1].add(off).cast(), p[0].add(off).cast(), self.0) }
    }
    ops!(Ymm:
        xor _mm256_xor_si256,
        aesenc _mm256_aesenc_epi128,
        aesenclast _mm256_aesenclast_epi128,
        aesdec _mm256_aesdec_epi128,
        aesdeclast _mm256_aesdeclast_epi128
    );
    #[inline(always)]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            let up = _mm256_add_epi64(_mm256_set1_epi64x(k as i64), _mm256_set_epi64x(1, 1, 0, 0));
            let down = _mm256_sub_epi64(_mm256_set1_epi64x(64), up);
            // A shift by 64 gives zero, as needed for lane 0 when k = 0.
            let shifted = _mm256_sllv_epi64(t, up);
            let carry = _mm256_srlv_epi64(t, down);
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm256_bslli_epi128::<8>(carry);
            let poly = _mm256_set1_epi64x(0x87);
            let red = _mm256_clmulepi64_epi128::<0x00>(_mm256_bsrli_epi128::<8>(carry), poly);
            Ymm(_mm256_xor_si256(_mm256_xor_si256(shifted, hi), red))
        }
    }
    #[inline(always)]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm256_bsrli_epi128::<14>(self.0);
            let red = _mm256_clmulepi64_epi128::<0x00>(top, _mm256_set1_epi64x(0x87));
            Ymm(_mm256_xor_si256(_mm256_bslli_epi128::<2>(self.0), red)).xor(k)
        }
    }
    #[inline(always)]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (
                    _mm256_bsrli_epi128::<15>(self.0),
                    _mm256_bslli_epi128::<1>(self.0),
                ),
                2 => (
                    _mm256_bsrli_epi128::<14>(self.0),
                    _mm256_bslli_epi128::<2>(self.0),
                ),
                _ => (
                    _mm256_bsrli_epi128::<13>(self.0),
                    _mm256_bslli_epi128::<3>(self.0),
                ),
            };
            let red = _mm256_clmulepi64_epi128::<0x00>(top, _mm256_set1_epi64x(0x87));
            Ymm(_mm256_xor_si256(up, red)).xor(k)
        }
    }
    #[inline(always)]
    fn shift_in(a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl. (Low lane: `a`'s high; high lane: `b`'s low.)
        Ymm(unsafe { _mm256_permute2x128_si256::<0x21>(a.0, b.0) })
    }
    #[inline(always)]
    fn barrier(s: &mut [Self; 8]) {
        // SAFETY: see the top of the impl (AVX).
        unsafe { barrier_ymm(s) }
    }
}

/// As [`barrier_ymm`], for `zmm_reg` (AVX-512F).
#[inline]
#[target_feature(enable = "avx512f")]
fn barrier_zmm(s: &mut [Zmm; 8]) {
    barrier!(s, zmm_reg);
}

/// The 64-bit elements of the first `n` blocks (`n <= 4`) enabled.
#[inline(always)]
fn mask_zmm(n: usize) -> __mmask8 {
    ((1u32 << (2 * n)) - 1) as __mmask8
}

impl AesVec for Zmm {
    const LANES: usize = 4;
    const REGISTERS: usize = 32;
    type Token = VaesAvx512Token;

    // SAFETY (every `unsafe` intrinsic call in this impl without its own comment): a
    // `VaesAvx512Token` or a `Zmm` exists, so the CPU has AVX-512 F/BW/VL, VAES and
    // VPCLMULQDQ.
    #[inline(always)]
    fn aesni(t: VaesAvx512Token) -> AesNiToken {
        t.vaes_avx2().aesni()
    }
    #[inline(always)]
    fn splat_reg(_: VaesAvx512Token, x: __m128i) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe { _mm512_broadcast_i32x4(x) })
    }
    #[inline(always)]
    fn from_blocks(_: VaesAvx512Token, b: [__m128i; 4]) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe {
            let lo = _mm256_set_m128i(b[1], b[0]);
            let hi = _mm256_set_m128i(b[3], b[2]);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        })
    }
    mem!(Zmm: VaesAvx512Token, _mm512_setzero_si512, _mm512_loadu_si512, _mm512_storeu_si512);
    #[inline(always)]
    unsafe fn load_part(_: VaesAvx512Token, p: *const u8, n: usize) -> Self {
        // SAFETY: the mask enables only the `n` blocks the caller makes readable; masked
        // elements do not fault.
        Zmm(unsafe { _mm512_maskz_loadu_epi64(mask_zmm(n), p.cast()) })
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, n: usize) {
        // SAFETY: the mask enables only the `n` blocks the caller makes writable.
        unsafe { _mm512_mask_storeu_epi64(p.cast(), mask_zmm(n), self.0) }
    }
    #[inline(always)]
    unsafe fn gather(t: VaesAvx512Token, p: &[*mut u8; 4], off: usize) -> Self {
        let hi = [p[2], p[3], p[2], p[3]];
        // SAFETY: the caller's contract for lanes 0 to 3, two at a time; AVX-512F as above.
        unsafe {
            let (a, b) = (
                Ymm::gather(t.vaes_avx2(), p, off),
                Ymm::gather(t.vaes_avx2(), &hi, off),
            );
            Zmm(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(a.0), b.0))
        }
    }
    #[inline(always)]
    unsafe fn scatter(self, p: &[*mut u8; 4], off: usize) {
        let hi = [p[2], p[3], p[2], p[3]];
        // SAFETY: the caller's contract for lanes 0 to 3, two at a time; AVX-512F as above.
        unsafe {
            Ymm(_mm512_castsi512_si256(self.0)).scatter(p, off);
            Ymm(_mm512_extracti64x4_epi64::<1>(self.0)).scatter(&hi, off);
        }
    }
    #[inline(always)]
    fn xor3(self, a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl.
        Zmm(unsafe { _mm512_ternarylogic_epi64::<0x96>(self.0, a.0, b.0) })
    }
    ops!(Zmm:
        xor _mm512_xor_si512,
        aesenc _mm512_aesenc_epi128,
        aesenclast _mm512_aesenclast_epi128,
        aesdec _mm512_aesdec_epi128,
        aesdeclast _mm512_aesdeclast_epi128
    );
    #[inline(always)]
    fn mul_x_lanes(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            let up = _mm512_add_epi64(
                _mm512_set1_epi64(k as i64),
                _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0),
            );
            let down = _mm512_sub_epi64(_mm512_set1_epi64(64), up);
            // A shift by 64 gives zero, as needed for lane 0 when k = 0.
            let shifted = _mm512_sllv_epi64(t, up);
            let carry = _mm512_srlv_epi64(t, down);
            // The low half's carry moves up into the high half; the high half's is reduced.
            let hi = _mm512_bslli_epi128::<8>(carry);
            let poly = _mm512_set1_epi64(0x87);
            let red = _mm512_clmulepi64_epi128::<0x00>(_mm512_bsrli_epi128::<8>(carry), poly);
            Zmm(_mm512_ternarylogic_epi64::<0x96>(shifted, hi, red))
        }
    }
    #[inline(always)]
    fn mul_x_lanes_clmul(self, k: usize) -> Self {
        let t = self.0;
        // SAFETY: see the top of the impl.
        unsafe {
            // Lane l: T·x^s (s = k + l) = lo·x^s ⊕ (hi·x^s)·x^64, where hi·x^s's bits
            // above 64 (`b`'s high half) wrap round as times 0x87.
            let m = _mm512_set_epi64(0, 8 << k, 0, 4 << k, 0, 2 << k, 0, 1 << k);
            let a = _mm512_clmulepi64_epi128::<0x00>(t, m);
            let b = _mm512_clmulepi64_epi128::<0x01>(t, m);
            let red = _mm512_clmulepi64_epi128::<0x01>(b, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(
                a,
                _mm512_bslli_epi128::<8>(b),
                red,
            ))
        }
    }
    #[inline(always)]
    fn mul_x_group_xor(self, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let top = _mm512_bsrli_epi128::<12>(self.0);
            let red = _mm512_clmulepi64_epi128::<0x00>(top, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(
                _mm512_bslli_epi128::<4>(self.0),
                red,
                k.0,
            ))
        }
    }
    #[inline(always)]
    fn mul_x_bytes_xor(self, n: usize, k: Self) -> Self {
        // SAFETY: see the top of the impl.
        unsafe {
            let (top, up) = match n {
                1 => (
                    _mm512_bsrli_epi128::<15>(self.0),
                    _mm512_bslli_epi128::<1>(self.0),
                ),
                2 => (
                    _mm512_bsrli_epi128::<14>(self.0),
                    _mm512_bslli_epi128::<2>(self.0),
                ),
                _ => (
                    _mm512_bsrli_epi128::<13>(self.0),
                    _mm512_bslli_epi128::<3>(self.0),
                ),
            };
            let red = _mm512_clmulepi64_epi128::<0x00>(top, _mm512_set1_epi64(0x87));
            Zmm(_mm512_ternarylogic_epi64::<0x96>(up, red, k.0))
        }
    }
    #[inline(always)]
    fn shift_in(a: Self, b: Self) -> Self {
        // SAFETY: see the top of the impl. (`b:a` shifted down six 64-bit elements:
        // `a`'s lane 3, then `b`'s lanes 0..3.)
        Zmm(unsafe { _mm512_alignr_epi64::<6>(b.0, a.0) })
    }
    #[inline(always)]
    fn with_lane_of(self, _: VaesAvx512Token, lane: usize, from: Self, from_lane: usize) -> Self {
        // The two 64-bit elements of lane `lane` take `from`'s elements `2 from_lane` and
        // `2 from_lane + 1`; the others keep `self`'s.
        let k = (0b11u32 << (2 * lane)) as __mmask8;
        let i = 2 * from_lane as i64;
        // SAFETY: see the top of the impl (AVX-512F).
        Zmm(unsafe {
            _mm512_mask_permutexvar_epi64(
                self.0,
                k,
                _mm512_set_epi64(i + 1, i, i + 1, i, i + 1, i, i + 1, i),
                from.0,
            )
        })
    }
    #[inline(always)]
    fn barrier(s: &mut [Self; 8]) {
        // SAFETY: see the top of the impl (AVX-512F).
        unsafe { barrier_zmm(s) }
    }
}

#[cfg(test)]
#[path = "aes_tests.rs"]
mod tests;
