//! The XTS unit kernel, written once over [`AesVec`] (`L` blocks per register): the jobs
//! [`One`], [`OneBlock`], [`Units`] and [`EncryptTweaks`], which the width handle
//! (`crate::aes::Width::run_job`) runs.
//!
//! The tweaks are kept XORed with the last round key, `w = T ⊕ rk[R]`, and stepped in that
//! form, a group of 8 registers at a time; stealing is [`steal`] (the `w` form and the
//! group loop: docs/design.md, "XTS kernel shape").
//!
//! Multi-unit calls whose unit is a whole number of groups run as one stream of groups:
//! the next unit's first tweaks are made from its T_0 in the current unit's last group
//! (instead of the x^(8L) step: 8 / L registers from T_0, the others whole-byte steps of
//! those), so a unit boundary does not stall the pipeline on the next unit's tweak
//! set-up. Where the next tweaks are made: between the first rounds with 32 registers,
//! after the stores with 16 ([`group`] says why); the 8 / L registers from T_0 by
//! per-lane shifts or, where the tuning table says, carry-less multiplications alone
//! (`FreshTweaks`). A multi-unit call's T_0s come from [`tweaks`] first:
//! ```text
//! for each register of L raw tweaks: lanes from two 8-byte loads each, then AES(k2)
//! ```
//! Decryption is the same with `aesdec` and the equivalent-inverse-cipher keys.

use core::marker::PhantomData;

use super::soft;
use crate::aes::{Block, KeySchedule};
use crate::block::InOut;
use crate::tuning::FreshTweaks;
use crate::vector::{
    AesOne, AesVec, AtUse, Job, Keys, Site, cipher, middle_rounds, middle_rounds_looped, round_all,
};

/// Registers per group: 8 independent chains cover `aesenc`'s latency (4) times its
/// throughput (2 per cycle).
const G: usize = 8;

/// What a group computes into `w` for the group after it.
#[derive(Clone, Copy)]
enum Next<V> {
    /// The next group of the same unit: `f(w) ⊕ kf` (also computed, unused, after the
    /// last group of a call).
    Step,
    /// The first group of the next unit, from its `T_0` (broadcast), in the CPU's form
    /// ([`crate::tuning`]).
    Fresh(V, FreshTweaks),
}

impl<V: AesVec> Next<V> {
    /// What [`next_tweaks`] makes a new unit's registers from: [`Consts::fresh_bases`] of
    /// its `T_0` (made once per group, where it is called), in the CPU's form; for a step,
    /// `w` (unused).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn bases(self, w: &[V; G]) -> [V; G] {
        match self {
            Next::Fresh(t, FreshTweaks::Clmul) => Consts::fresh_bases::<true>(t),
            Next::Fresh(t, FreshTweaks::Shifts) => Consts::fresh_bases::<false>(t),
            Next::Step => *w,
        }
    }
}

/// The round keys: with 32 registers broadcast from the key schedule where each is used;
/// with 16 held where a loop of groups runs, broadcast where used in the short entry
/// (docs/design.md, "XTS kernel shape").
#[derive(Clone, Copy)]
struct RoundKeys<'a, V: AesVec> {
    /// The schedule of the direction's keys, read where used ([`AtUse`]).
    sched: AtUse<'a, V>,
    /// The key schedule (its round count, and the single AES-NI blocks of stealing).
    ks: &'a KeySchedule,
    /// Whether the keys are broadcast where used (a constant once inlined).
    at_use: bool,
    /// The broadcasts, when held (else unused, and never made).
    held: [V; 15],
}

impl<'a, V: AesVec> RoundKeys<'a, V> {
    /// `looped`: whether a loop of groups uses them.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn new<const DEC: bool>(tok: V::Token, ks: &'a KeySchedule, looped: bool) -> Self {
        let keys = if DEC { &ks.dec } else { &ks.enc };
        let at_use = V::REGISTERS >= 32 || !looped;
        let held = if at_use {
            [V::zero(tok); 15]
        } else {
            V::keys(tok, keys)
        };
        RoundKeys {
            sched: AtUse(tok, keys),
            ks,
            at_use,
            held,
        }
    }

    /// The round count (10 or 14).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn rounds(&self) -> usize {
        self.ks.rounds
    }

    /// Broadcasting where used: the schedule behind a pointer the compiler cannot see
    /// through ([`Keys::fence`]), so that it broadcasts the keys again in each group
    /// instead of hoisting them out of the loop (and spilling them).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn opaque(mut self) -> Self {
        self.fence();
        self
    }
}

impl<V: AesVec> Keys<V> for RoundKeys<'_, V> {
    /// Round key `i` in every lane.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn at(&self, i: usize) -> V {
        if self.at_use {
            self.sched.at(i)
        } else {
            self.held[i]
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn fence(&mut self) {
        if self.at_use {
            self.sched.fence();
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn last(&self, rounds: usize) -> V {
        if self.at_use {
            self.sched.last(rounds)
        } else {
            self.held.last(rounds)
        }
    }
}

/// The key-derived constants of the `w` form (docs/design.md, "XTS kernel shape").
#[derive(Clone, Copy)]
struct Consts<V> {
    /// `rk[R]`: `w = T ⊕ kr`.
    kr: V,
    /// `rk[0] ⊕ rk[R]`: the whitening of `w`.
    k0r: V,
    /// `f(rk[R]) ⊕ rk[R]`: the group step of `w`.
    kf: V,
}

impl<V: AesVec> Consts<V> {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn new(rk: RoundKeys<'_, V>) -> Self {
        let kr = rk.last(rk.rounds());
        Consts {
            kr,
            k0r: rk.at(0).xor(kr),
            kf: kr.mul_x_group_xor(kr),
        }
    }

    /// The first `8 / L` registers of a unit's first group without `kr` (`T_0·x^(L j +
    /// l)`: zmm 2, ymm 4, xmm all 8), from which [`Consts::fresh_from`] makes the group;
    /// the other entries are `t`, unused.
    ///
    /// `CLMUL`: by [`AesVec::mul_x_lanes_clmul`] (the fused loop's, under AES rounds),
    /// else [`AesVec::mul_x_lanes`] (a call's first, on its critical path).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn fresh_bases<const CLMUL: bool>(t: V) -> [V; G] {
        let mut b = [t; G];
        for (j, x) in b.iter_mut().enumerate().take(8 / V::LANES) {
            *x = if CLMUL {
                t.mul_x_lanes_clmul(V::LANES * j)
            } else {
                t.mul_x_lanes(V::LANES * j)
            };
        }
        b
    }

    /// Register `j` of a unit's first group: base `j % (8 / L)` times `x^(8 (j / (8 /
    /// L)))`, a whole number of bytes, each register one step from a base, the bases made
    /// once per group (docs/design.md, "XTS kernel shape").
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn fresh_from(&self, bases: &[V; G], j: usize) -> V {
        let m = 8 / V::LANES;
        if j < m {
            bases[j].xor(self.kr)
        } else {
            bases[j % m].mul_x_bytes_xor(j / m, self.kr)
        }
    }

    /// `w` for a unit's first group ([`Consts::fresh_from`]), for the first `need` registers
    /// (the rest are left as they are).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn first(&self, t: V, w: &mut [V; G], need: usize) {
        let bases = Self::fresh_bases::<false>(t);
        for (j, x) in w.iter_mut().enumerate().take(need) {
            *x = self.fresh_from(&bases, j);
        }
    }
}

/// A call's source and destination: `src` (equal to `dst` in place) readable and `dst`
/// writable for the call's bytes, equal or disjoint; the lengths validated by `Xts`.
#[derive(Clone, Copy)]
struct Io<'a> {
    io: InOut,
    len: usize,
    _dst: PhantomData<&'a mut [u8]>,
}

impl<'a> Io<'a> {
    /// # Safety
    /// `src` (if any) has `dst`'s length and `MIN_UNIT <= unit <= MAX_UNIT` divides it.
    unsafe fn new(src: Option<&'a [u8]>, dst: &'a mut [u8]) -> Io<'a> {
        let d = dst.as_mut_ptr();
        let s = src.map_or(d.cast_const(), <[u8]>::as_ptr);
        Io {
            io: InOut { src: s, dst: d },
            len: dst.len(),
            _dst: PhantomData,
        }
    }

    /// The call's bytes on the portable path: copied from `src` to `dst` (when distinct),
    /// then worked in place.
    fn portable(self) -> &'a mut [u8] {
        // SAFETY: `Io::new`'s contract: `src` readable and `dst` writable for `len` bytes,
        // equal or disjoint (`copy` allows both); `dst` is the call's exclusive borrow,
        // used through this slice alone until the call returns.
        unsafe {
            core::ptr::copy(self.io.src, self.io.dst, self.len);
            core::slice::from_raw_parts_mut(self.io.dst, self.len)
        }
    }
}

/// One data unit (`MIN_UNIT` to `MAX_UNIT` bytes) under the raw tweak `t`, which the
/// kernel encrypts with `k2` (a chain of AES-NI rounds that the key set-up and the first
/// loads overlap): `Xts`'s single-sector call. At most a group of blocks runs the short
/// form (the unit is all tail: a 512-byte unit on zmm).
pub(crate) struct One<'a, const DEC: bool> {
    k1: &'a KeySchedule,
    k2: &'a KeySchedule,
    t: &'a Block,
    io: Io<'a>,
}

impl<'a, const DEC: bool> One<'a, DEC> {
    /// # Safety
    /// `src` (if any) has `dst`'s length, from `MIN_UNIT` to `MAX_UNIT` bytes; both keys
    /// have the same round count.
    pub(crate) unsafe fn new(
        k1: &'a KeySchedule,
        k2: &'a KeySchedule,
        t: &'a Block,
        src: Option<&'a [u8]>,
        dst: &'a mut [u8],
    ) -> Self {
        // SAFETY: the caller's contract, for one unit of `dst.len()` bytes.
        let io = unsafe { Io::new(src, dst) };
        One { k1, k2, t, io }
    }
}

impl<const DEC: bool> Job for One<'_, DEC> {
    const SITE: Site = Site::XtsOne;

    /// A unit of at most a group of blocks runs short: `(len - 1) / 16 < GROUP`.
    fn blocks(&self) -> usize {
        (self.io.len - 1) / 16
    }

    fn portable(&mut self) {
        let mut t0 = [*self.t];
        crate::aes::soft::encrypt_blocks(self.k2, &mut t0);
        let unit = self.io.portable();
        if DEC {
            soft::decrypt_unit(self.k1, &t0[0], unit);
        } else {
            soft::encrypt_unit(self.k1, &t0[0], unit);
        }
        crate::wipe::blocks(&mut t0);
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, tok: V::Token) {
        let (k1, k2, t, io) = (self.k1, self.k2, self.t, self.io);
        let Io {
            io: InOut { src, dst },
            len,
            ..
        } = io;
        let rk = RoundKeys::new::<DEC>(tok, k1, !SHORT);
        let c = Consts::new(rk);
        let t = V::splat_reg(tok, V::one(tok).encrypt_tweak(k2, t));
        // SAFETY: one unit of `len` bytes, a valid length (`One::new`); at most a group
        // when `SHORT`.
        unsafe { unit::<V, DEC, SHORT>(tok, rk, &c, t, src, dst, len) };
    }
}

/// A unit of exactly one block (16 bytes, no stealing): `C = E_k1(P ⊕ T) ⊕ T` with
/// `T = E_k2(t)`, two serial blocks on the single-block registers, the round keys read
/// where used: no vector set-up (docs/design.md, "XTS kernel shape").
/// Made from a [`One`] of 16 bytes.
pub(crate) struct OneBlock<'a, const DEC: bool>(pub(crate) One<'a, DEC>);

impl<const DEC: bool> Job for OneBlock<'_, DEC> {
    const SITE: Site = Site::XtsBlock;
    const MAX_LANES: usize = 1;
    const HAS_SHORT: bool = false;

    fn blocks(&self) -> usize {
        1
    }

    fn portable(&mut self) {
        self.0.portable();
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, tok: V::Token) {
        let (k1, k2, t, io) = (self.0.k1, self.0.k2, self.0.t, self.0.io);
        debug_assert_eq!(io.len, 16);
        let tw = V::splat_reg(tok, V::one(tok).encrypt_tweak(k2, t));
        // SAFETY: 16 bytes each way, equal or disjoint (`One::new`); `V` holds one block
        // (`MAX_LANES` 1).
        unsafe {
            let p = V::load(tok, io.io.src);
            cipher::<V, DEC>(tok, k1, p.xor(tw))
                .xor(tw)
                .store(io.io.dst);
        }
    }
}

/// Consecutive data units of `len` bytes, the `i`-th under the encrypted tweak
/// `tweaks[i]`, with the round keys loaded once; units of a whole number of groups run as
/// one stream of groups, the tweaks of the group after the current one (the next group of
/// this unit, or the first of the next unit) computed between its first rounds. `fresh`:
/// how a next unit's first tweaks are made.
pub(crate) struct Units<'a, const DEC: bool> {
    k1: &'a KeySchedule,
    tweaks: &'a [Block],
    io: Io<'a>,
    unit: usize,
    fresh: FreshTweaks,
}

impl<'a, const DEC: bool> Units<'a, DEC> {
    /// # Safety
    /// `src` (if any) has `dst`'s length, `tweaks.len()` units of `unit` bytes, from
    /// `MIN_UNIT` to `MAX_UNIT`.
    pub(crate) unsafe fn new(
        k1: &'a KeySchedule,
        tweaks: &'a [Block],
        src: Option<&'a [u8]>,
        dst: &'a mut [u8],
        unit: usize,
        fresh: FreshTweaks,
    ) -> Self {
        debug_assert_eq!(dst.len(), tweaks.len() * unit);
        Units {
            k1,
            tweaks,
            // SAFETY: the caller's contract.
            io: unsafe { Io::new(src, dst) },
            unit,
            fresh,
        }
    }
}

impl<const DEC: bool> Job for Units<'_, DEC> {
    const SITE: Site = Site::XtsMany;
    const HAS_SHORT: bool = false;

    fn blocks(&self) -> usize {
        self.io.len / 16
    }

    fn portable(&mut self) {
        let buf = self.io.portable();
        for (t, unit) in self.tweaks.iter().zip(buf.chunks_exact_mut(self.unit)) {
            if DEC {
                soft::decrypt_unit(self.k1, t, unit);
            } else {
                soft::encrypt_unit(self.k1, t, unit);
            }
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, tok: V::Token) {
        let (k1, tweaks, io, len, fresh) = (self.k1, self.tweaks, self.io, self.unit, self.fresh);
        let InOut { src, dst } = io.io;
        let rk = RoundKeys::new::<DEC>(tok, k1, true);
        let c = Consts::new(rk);
        let bytes = 16 * G * V::LANES;
        if !len.is_multiple_of(bytes) {
            for (i, t0) in tweaks.iter().enumerate() {
                // SAFETY: unit `i` lies within the call's ranges (`i < tweaks.len()`),
                // with the same aliasing (equal or disjoint) and a valid length.
                unsafe {
                    let (s, d) = (src.add(i * len), dst.add(i * len));
                    unit::<V, DEC, false>(tok, rk, &c, V::splat(tok, t0), s, d, len)
                };
            }
            return;
        }
        let per_unit = len / bytes;
        let total = tweaks.len() * per_unit;
        let Some(t0) = tweaks.first() else {
            return;
        };
        let first = V::splat(tok, t0);
        let mut w = [first; G];
        c.first(first, &mut w, G);
        // A countdown to the unit's last group, rather than a division per group.
        let mut left_in_unit = per_unit;
        let mut next_unit = 0;
        for g in 0..total {
            left_in_unit -= 1;
            let next = if left_in_unit == 0 && g + 1 < total {
                // The next group starts a new unit: its tweaks come from that unit's T_0.
                left_in_unit = per_unit;
                next_unit += 1;
                Next::Fresh(V::splat(tok, &tweaks[next_unit]), fresh)
            } else {
                Next::Step
            };
            let off = g * bytes;
            // SAFETY: off + bytes <= total * bytes = tweaks.len() * len, within the
            // call's ranges.
            unsafe { group::<V, DEC>(tok, rk, &c, &mut w, src.add(off), dst.add(off), next) };
        }
    }
}

/// A multi-unit call's raw tweaks encrypted in place with `k2`: `tw[i]` becomes unit
/// `i`'s `T_0`. The AES block kernel's walk over groups of registers, keys read where
/// used, with each raw tweak read as two 8-byte loads ([`AesOne::load_halves`]), as
/// `Tweaks::fill` stored them (docs/design.md, "XTS kernel shape"). The units' wipe after
/// it covers its frame.
pub(crate) struct EncryptTweaks<'a>(pub(crate) &'a KeySchedule, pub(crate) &'a mut [Block]);

impl Job for EncryptTweaks<'_> {
    const SITE: Site = Site::Later;
    const HAS_SHORT: bool = false;

    fn blocks(&self) -> usize {
        self.1.len()
    }

    fn portable(&mut self) {
        crate::aes::soft::encrypt_blocks(self.0, self.1);
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn simd<V: AesVec, const SHORT: bool>(&mut self, tok: V::Token) {
        crate::aes::kernel::encrypt_halves::<V>(tok, self.0, self.1);
    }
}

/// One group of `8 L` full blocks at `src` → `dst` under the tweaks `w` (in the `w` form);
/// `w` becomes the next group's (as `next` says) after the stores.
///
/// # Safety
/// `src` readable and `dst` writable for `128 L` bytes, equal or disjoint.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
unsafe fn group<V: AesVec, const DEC: bool>(
    tok: V::Token,
    rk: RoundKeys<'_, V>,
    c: &Consts<V>,
    w: &mut [V; G],
    src: *const u8,
    dst: *mut u8,
    next: Next<V>,
) {
    let step = 16 * V::LANES;
    let rk = rk.opaque();
    let mut s = *w;
    for j in 0..G {
        // SAFETY: register `j < 8` is within the group's bytes.
        let d = unsafe { V::load(tok, src.add(step * j)) };
        s[j] = d.xor3(w[j], c.k0r);
    }
    // With 32 registers the next tweaks are made between the first rounds (24 live), with
    // 16 after the stores (16 live; docs/design.md, "XTS kernel shape").
    let early = V::EARLY_TWEAKS;
    let mut nw = *w;
    if early {
        round_all::<V, DEC, G>(&mut s, rk.at(1));
        let bases = next.bases(&nw);
        next_tweaks(&mut nw, 0, next, c, &bases);
        round_all::<V, DEC, G>(&mut s, rk.at(2));
        next_tweaks(&mut nw, G / 2, next, c, &bases);
        V::rounds::<DEC, G, 3>(&mut s, &rk, rk.rounds());
    } else {
        middle_rounds::<V, DEC, G>(&mut s, &rk, rk.rounds());
    }
    for j in 0..G {
        // SAFETY: the same bytes are writable at `dst` (src == dst or disjoint, and every
        // load of this group is done).
        unsafe { s[j].last::<DEC>(w[j]).store(dst.add(step * j)) };
    }
    if early {
        *w = nw;
    } else {
        let bases = next.bases(w);
        next_tweaks(w, 0, next, c, &bases);
        next_tweaks(w, G / 2, next, c, &bases);
    }
}

/// `w[from..from + 4]` for the next group, from themselves (or, for a new unit, from
/// `bases`: [`Consts::fresh_bases`] of its `T_0`).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn next_tweaks<V: AesVec>(
    w: &mut [V; G],
    from: usize,
    next: Next<V>,
    c: &Consts<V>,
    bases: &[V; G],
) {
    for (j, x) in w.iter_mut().enumerate().skip(from).take(G / 2) {
        *x = match next {
            Next::Step => x.mul_x_group_xor(c.kf),
            Next::Fresh(..) => c.fresh_from(bases, j),
        };
    }
}

/// One data unit of `len` bytes under the tweak `t` (`T_0` in every lane). `SHORT`: `len`
/// is at most a group (all of it runs as the tail).
///
/// # Safety
/// As [`units`] for one unit.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
unsafe fn unit<V: AesVec, const DEC: bool, const SHORT: bool>(
    tok: V::Token,
    rk: RoundKeys<'_, V>,
    c: &Consts<V>,
    t: V,
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    let lanes = V::LANES;
    // (Per unit: in a loop of units the tail's broadcasts would be hoisted and spilled.)
    let rk = rk.opaque();
    let rem = len % 16;
    // A unit of at most a group on zmm, with at least two full blocks: the last full block
    // runs with the others (decrypting, under the partial block's tweak, swapped into its
    // lane) and stealing is one serial block (the merged last one), not two. Elsewhere the
    // last full block is left to [`steal`] (docs/design.md, "XTS kernel shape").
    let one_serial = SHORT && V::LANES == 4 && rem != 0 && len >= 32;
    let bulk = if rem == 0 || one_serial {
        len / 16
    } else {
        len / 16 - 1
    };
    let mut w = [t; G];
    // A unit shorter than a group needs only the registers its blocks (and the stealing
    // block's tweak) fall in.
    let need = if bulk >= G * lanes {
        G
    } else {
        bulk / lanes + 1
    };
    c.first(t, &mut w, need);
    let bytes = 16 * G * lanes;
    let mut off = 0;
    // (`SHORT`: the unit is at most one group, which runs as the tail below, and this
    // function has none of the group code.)
    for _ in 0..if SHORT { 0 } else { bulk / (G * lanes) } {
        // SAFETY: off + bytes <= bulk * 16 <= len: within the caller's ranges.
        unsafe { group::<V, DEC>(tok, rk, c, &mut w, src.add(off), dst.add(off), Next::Step) };
        off += bytes;
    }
    // The full blocks after the last group (fewer than 8 L): one group of as many
    // registers as they need. Their tweaks are the first lanes of `w`.
    let left = if SHORT { bulk } else { bulk % (G * lanes) };
    // Decrypting with `one_serial`: block m - 1 (block `left - 1` of the tail) takes the
    // tweak of block m (`left`) into its lane (OpenSSL's lane swap), so that the tail gives
    // PP = D(C_{m-1} ⊕ T_m) ⊕ T_m directly.
    let mut wt = w;
    if DEC && one_serial {
        let (r, l) = ((left - 1) / lanes, (left - 1) % lanes);
        let swapped = pick(&w, r).with_lane_of(tok, l, pick(&w, left / lanes), left % lanes);
        put(&mut wt, r, swapped);
    }
    // The tail's last register of output (its first lane when no tail ran; unused then).
    let mut last = w[0];
    if left > 0 {
        // SAFETY: blocks `off / 16 .. off / 16 + left` are within `bulk`, so within the
        // caller's ranges.
        last = unsafe {
            let (s, d) = (src.add(off), dst.add(off));
            match left.div_ceil(lanes) {
                1 => tail::<V, DEC, 1>(tok, rk, c, &wt, s, d, left),
                2 => tail::<V, DEC, 2>(tok, rk, c, &wt, s, d, left),
                3 => tail::<V, DEC, 3>(tok, rk, c, &wt, s, d, left),
                4 => tail::<V, DEC, 4>(tok, rk, c, &wt, s, d, left),
                5 => tail::<V, DEC, 5>(tok, rk, c, &wt, s, d, left),
                6 => tail::<V, DEC, 6>(tok, rk, c, &wt, s, d, left),
                7 => tail::<V, DEC, 7>(tok, rk, c, &wt, s, d, left),
                _ => tail::<V, DEC, 8>(tok, rk, c, &wt, s, d, left),
            }
        };
        off += 16 * left;
    }
    if off == len {
        return;
    }
    // Ciphertext stealing: the tweak of block `at` of the set, lane `at % L` of
    // `w[at / L] ⊕ kr` (a public position): the first block the bulk left (the last full
    // block, or, encrypting with `one_serial`, the partial one), or, decrypting with
    // `one_serial`, the last full block (its tweak goes with the merged block).
    let at = if DEC && one_serial { left - 1 } else { left };
    let mut spill = [[0u8; 16]; 4];
    // SAFETY: `spill` has room for the (at most 4) lanes.
    unsafe {
        pick(&w, at / lanes)
            .xor(c.kr)
            .store(spill.as_mut_ptr().cast())
    };
    let t = spill[at % lanes];
    if one_serial {
        // The last full block's output (CC, or PP decrypting): lane `(left - 1) % L` of
        // the tail's last register (`left >= 1`: a unit has a full block), taken from the
        // register since reading it back from `dst` would wait for the masked store.
        // SAFETY: as for the tweak.
        unsafe { last.store(spill.as_mut_ptr().cast()) };
        let cc = spill[(left - 1) % lanes];
        crate::wipe::blocks(&mut spill);
        // SAFETY: `16 <= off` (the tail wrote block m - 1 ending at `off`) and
        // `off + rem == len`: the 16 + rem bytes from `off - 16` are within the caller's
        // ranges, equal or disjoint; the token implies the single-block work.
        return unsafe {
            let one = V::one(tok);
            let io = InOut {
                src: src.add(off - 16),
                dst: dst.add(off - 16),
            };
            one.steal_one::<DEC>(rk.ks, one.load(&t), one.load(&cc), io, rem)
        };
    }
    crate::wipe::blocks(&mut spill);
    // SAFETY: `off <= len`; the rest (one full block and 1 to 15 bytes) is within the
    // caller's ranges, equal or disjoint; the token implies the single-block work.
    unsafe {
        let io = InOut {
            src: src.add(off),
            dst: dst.add(off),
        };
        V::one(tok).steal::<DEC>(rk.ks, &t, io, rem)
    }
}

/// `w[i]` (`i < 8`, public) by a branch per value: indexed with a run-time `i`, the whole
/// array would be kept in memory (a 512-byte spill on zmm, in every frame to wipe).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn pick<V: AesVec>(w: &[V; G], i: usize) -> V {
    match i {
        0 => w[0],
        1 => w[1],
        2 => w[2],
        3 => w[3],
        4 => w[4],
        5 => w[5],
        6 => w[6],
        _ => w[7],
    }
}

/// `w[i] = v` (`i < 8`, public), by a branch per value (see [`pick`]).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn put<V: AesVec>(w: &mut [V; G], i: usize, v: V) {
    match i {
        0 => w[0] = v,
        1 => w[1] = v,
        2 => w[2] = v,
        3 => w[3] = v,
        4 => w[4] = v,
        5 => w[5] = v,
        6 => w[6] = v,
        _ => w[7] = v,
    }
}

/// `n` full blocks (`L (NV - 1) < n <= L NV`, fewer than `8 L`) at `src` → `dst` with the
/// tweaks in the first lanes of `w` (in the `w` form); returns the last register's output.
/// Every register is loaded and stored masked to its blocks: no byte past the range is
/// touched, and no pointer past it is formed.
///
/// # Safety
/// `src` readable and `dst` writable for `16 * n` bytes, equal or disjoint.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
unsafe fn tail<V: AesVec, const DEC: bool, const NV: usize>(
    tok: V::Token,
    rk: RoundKeys<'_, V>,
    c: &Consts<V>,
    w: &[V; G],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) -> V {
    let lanes = V::LANES;
    debug_assert!(n.div_ceil(lanes) == NV);
    let mut s = [c.k0r; NV];
    for (j, x) in s.iter_mut().enumerate() {
        // SAFETY: register `j < NV` starts at block `L j < n`, inside the range, and
        // holds its `min(L, n - L j) >= 1` blocks (masked only when it is not full).
        let d = unsafe { V::load_n(tok, src.add(16 * lanes * j), (n - lanes * j).min(lanes)) };
        *x = d.xor3(w[j], c.k0r);
    }
    // (A loop over the rounds: a tail is one short group, latency-bound; thirteen rounds
    // written out for each of the 8 register counts were 4-5 KB of each kernel.)
    middle_rounds_looped::<V, DEC, NV>(&mut s, &rk.sched, rk.rounds());
    let mut out = w[0];
    for (j, x) in s.iter().enumerate() {
        out = x.last::<DEC>(w[j]);
        // SAFETY: as for the loads; every load is done.
        unsafe { out.store_n(dst.add(16 * lanes * j), (n - lanes * j).min(lanes)) };
    }
    // The last register's output: blocks `L (NV - 1) .. n`.
    out
}
