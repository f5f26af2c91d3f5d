//! The stitched kernel on AArch64: CBC with the ARMv8 AES instructions and SHA-1 with its
//! SHA-1 instructions over the same 64-byte groups, in one loop. The cores run the two in
//! separate pipelines side by side, so each chain fills the other's latency gaps.
//!
//! The loops are `crate::cbc_hmac::stitch`'s; this is the backend's half: the rounds of
//! a sealed block keep their last key pending (`2R - 1` instructions on the chain, no
//! EOR: [`AesSha1`]'s `enc_ce`), the four decryptions use the equivalent inverse cipher's
//! keys (`dec_ce`), and the SHA-1 groups run on `SHA1C`/`SHA1P`/`SHA1M`.
//!
//! Sealing is latency bound: the CBC chain is `4 (2R - 1)` dependent AES instructions a
//! group, the SHA-1 chain 20 dependent `SHA1C`/`SHA1P`/`SHA1M`; the other's work goes in
//! their gaps. Opening's four decryptions are independent, so there the two units'
//! throughput binds.
//!
//! Registers: the round keys stay in NEON registers for the whole call. To leave them
//! room, SHA-1's round constant is made where its five groups start (`fresh_k!`, one
//! `DUP`), not held, and the plaintext (ciphertext) blocks that the AES rounds need later
//! in a group are loaded again when needed (`reload`) rather than held from the group's
//! start. Empty `asm!` ordering points (`pin!`) keep the compiler from gathering either
//! chain's instructions in one place: each group's AES rounds sit between its SHA-1
//! instructions, for cores that issue in order.

use core::arch::aarch64::*;

use super::sha1::{Stream, finish_impl, load_state, rev32, store_state, stream};
use crate::Backend;
use crate::aes::{Block, KeySchedule};
use crate::cbc_hmac::stitch::{self, Msg, Stitch};
use crate::cpu::{Armv8AesToken, Armv8Sha1Token};
use crate::wipe::{depth, stack};

/// The stitched kernel as `crate::cbc_hmac` holds it (`crate::arch::Stitched`): the AES and
/// SHA-1 tokens.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stitched(Armv8AesToken, Armv8Sha1Token);

impl Stitched {
    /// From the row's tokens.
    #[inline]
    pub(crate) fn new((a, s): (Armv8AesToken, Armv8Sha1Token)) -> Stitched {
        Stitched(a, s)
    }

    /// The CBC backend and the SHA-1 kernel (with its backend) of the keyed value: what
    /// the parts of a message outside whole 64-byte groups run on.
    #[inline]
    pub(crate) fn parts(self) -> (Backend, (crate::sha1::Kernel, Backend)) {
        (
            Backend::Armv8Aes,
            (crate::sha1::Kernel::Armv8(self.1), Backend::Armv8Sha1),
        )
    }

    /// Whether the stitch runs this key: every key size (a copy per round count).
    #[inline]
    pub(crate) fn stitches(ks: &KeySchedule) -> bool {
        stitch::stitches::<AesSha1>(ks.rounds)
    }

    /// Runs a message ([`stitch::crypt`]) on these tokens.
    #[inline]
    pub(crate) fn crypt(self, m: Msg<'_>) -> [u8; 20] {
        stitch::crypt(AesSha1(self.0, self.1), m)
    }

    /// Zeroes the stack the stitched kernel used and the registers, where round keys and
    /// chaining values stay: in bytes, the deepest it wrote below the caller over the
    /// builds optimised for speed (docs/design.md, "Stack and register wipes").
    #[inline(always)]
    pub(crate) fn wipe() {
        stack::<{ depth([576, 864, 864, 1072, 2464, 36400]) }>();
    }
}

/// A compiler-only ordering point: the registers named pass through an empty `asm!`, so
/// everything that uses them afterwards is ordered after everything that produced them
/// before. It emits no instruction (the CPU sees no dependency); it keeps the compiler's
/// scheduler from gathering one chain's instructions in one place, which undoes the
/// interleaving an in-order core needs.
macro_rules! pin {
    ($($r:ident),+) => {
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no
        // flags.
        unsafe {
            core::arch::asm!(
                concat!($("/* {", stringify!($r), ":v} */"),+),
                $($r = inout(vreg) $r,)+
                options(pure, nomem, nostack, preserves_flags)
            )
        }
    };
}

/// SHA-1's round constant `K[$i]` in every lane, made where it is used: a `DUP` from a
/// general-purpose register whose value the compiler cannot see (an empty `asm!` that it
/// may not move or merge), so it does not keep the four constants in NEON registers from
/// block to block, which the round keys need.
macro_rules! fresh_k {
    ($i:expr) => {{
        let mut k: u32 = $crate::arch::aarch64::sha1::K[$i];
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no
        // flags.
        unsafe {
            core::arch::asm!("/* {0:w} */", inout(reg) k, options(nomem, nostack, preserves_flags))
        };
        vdupq_n_u32(k)
    }};
}

/// Block `i` of the 64-byte group at `g`, loaded again: the offset passes through an
/// empty `asm!`, so the compiler neither reuses an earlier load of the same bytes (which
/// would keep it in a register all along) nor moves this one above the stores before it.
///
/// # Safety
/// `g` points to 64 readable bytes, and `i < 4`.
#[inline]
#[target_feature(enable = "aes,sha2")]
unsafe fn reload(g: *const u8, i: usize) -> uint8x16_t {
    let mut off = 16 * i;
    // SAFETY: a template of comments only: no instructions, no memory, no stack, no flags.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) off, options(pure, nomem, nostack, preserves_flags))
    };
    // SAFETY: the caller's contract: 16 readable bytes at `16 i` (which `off` is).
    unsafe { vld1q_u8(g.add(off)) }
}

/// Stores `v` as block `i` of a 64-byte group.
#[inline]
#[target_feature(enable = "aes,sha2")]
fn store_g(g: &mut [u8; 64], i: usize, v: uint8x16_t) {
    let b: &mut Block = (&mut g[16 * i..16 * i + 16]).try_into().expect("16 bytes");
    // SAFETY: `b` is 16 writable bytes.
    unsafe { vst1q_u8(b.as_mut_ptr(), v) }
}

/// The stitch on the ARMv8 AES and SHA-1 instructions: a value holds the tokens.
#[derive(Clone, Copy)]
pub(crate) struct AesSha1(Armv8AesToken, Armv8Sha1Token);

/// The round keys `0..=R` (the slots past `R` zero), the last one `K[R]`, and round 1's
/// key of every sealed block but for its plaintext: the previous block's last key (the
/// EOR the chain skips) and the first key, `K[R] ^ K[0]`.
pub(crate) struct Keys {
    k: [uint8x16_t; 15],
    last: uint8x16_t,
    kr0: uint8x16_t,
}

/// The SHA-1 state: ABCD and E (e in lane 0).
#[derive(Clone, Copy)]
pub(crate) struct Sha {
    abcd: uint32x4_t,
    e: uint32x2_t,
}

/// One block's SHA-1 in flight: the round constants made so far ([`fresh_k!`]), ABCD and
/// the stream ([`stream!`]).
pub(crate) struct Ring {
    kc: [uint32x4_t; 4],
    abcd: uint32x4_t,
    s: Stream,
}

/// The four decryptions of an opened group and the ciphertext block before it.
pub(crate) struct Open {
    st: [uint8x16_t; 4],
    prev: uint8x16_t,
}

// SAFETY (every `unsafe` block in this impl without its own comment): a value holds the
// `Armv8AesToken` and `Armv8Sha1Token`, so the CPU has the AES and SHA-1 instructions
// (and NEON, AArch64's), which still ask for an `unsafe` outside `#[target_feature]`. The
// methods are inlined into the entry ([`call_ce`]), compiled with them; those that use
// the AES and SHA-1 instructions call `#[target_feature]` functions of their own
// ([`AesSha1::step_ce`], ...), which inline there too.
impl Stitch for AesSha1 {
    type Aes = uint8x16_t;
    type Keys = Keys;
    type Sha = Sha;
    type Ring = Ring;
    /// The group's first plaintext block (the others loaded again where needed).
    type Seal = uint8x16_t;
    type Open = Open;
    const TWELVE: bool = true;

    #[inline(always)]
    fn enter<const R: usize>(self, m: Msg<'_>) -> [u8; 20] {
        // SAFETY: the tokens prove the CPU has the AES and the SHA-1 instructions.
        unsafe { call_ce::<R>(self.0, self.1, m) }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero(self) -> uint8x16_t {
        unsafe { vdupq_n_u8(0) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        unsafe { veorq_u8(a, b) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn enc_block<const R: usize>(self, k: &Keys, x: uint8x16_t) -> uint8x16_t {
        unsafe { self.block_ce::<R, false>(k, x) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn dec_block<const R: usize>(self, k: &Keys, x: uint8x16_t) -> uint8x16_t {
        unsafe { self.block_ce::<R, true>(k, x) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load(self, b: &Block) -> uint8x16_t {
        // SAFETY: `b` is 16 readable bytes; `LD1` has no alignment requirement.
        unsafe { vld1q_u8(b.as_ptr()) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store(self, b: &mut Block, v: uint8x16_t) {
        // SAFETY: `b` is 16 writable bytes.
        unsafe { vst1q_u8(b.as_mut_ptr(), v) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load_keys<const R: usize>(self, keys: &[Block; 15]) -> Keys {
        // A loop, not `array::from_fn`: a closure is a function of its own, without the
        // entry's target features.
        let mut k = [self.zero(); 15];
        for (x, b) in k.iter_mut().zip(keys).take(R + 1) {
            *x = self.load(b);
        }
        Keys {
            last: k[R],
            kr0: unsafe { veorq_u8(k[R], k[0]) },
            k,
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load_state(self, s: &[u32; 5]) -> Sha {
        let (abcd, e) = unsafe { load_state(s) };
        Sha { abcd, e }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store_state(self, s: &mut [u32; 5], h: Sha) {
        unsafe { store_state(s, h.abcd, h.e) }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sha_start(self, h: Sha, p: [uint8x16_t; 4]) -> Ring {
        unsafe { self.start_ce(h, p) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sha_step<const J: usize, const F: i32>(self, r: &mut Ring) {
        unsafe { self.step_ce::<J, F>(r) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sha_end(self, r: Ring) -> Sha {
        unsafe { self.end_ce(r) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn finish(self, inner: &[u32; 5], outer: &[u32; 5], prefix_len: u64, data: &[u8]) -> [u8; 20] {
        unsafe { finish_impl::<true>(inner, outer, prefix_len, data) }
    }

    /// `C[-1] ^ K[R]`: the chain's register holds each block's output before its last
    /// key's EOR.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_enter(self, k: &Keys, chain: uint8x16_t, _: uint8x16_t) -> uint8x16_t {
        unsafe { veorq_u8(chain, k.last) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_exit(self, k: &Keys, st: uint8x16_t) -> uint8x16_t {
        unsafe { veorq_u8(st, k.last) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_begin(self, p: [uint8x16_t; 4]) -> uint8x16_t {
        p[0]
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn enc_op<const R: usize, const FOLD: bool>(
        self,
        k: &Keys,
        t: usize,
        st: &mut uint8x16_t,
        p0: &mut uint8x16_t,
        _: uint8x16_t,
        g: &mut [u8; 64],
    ) {
        unsafe { self.enc_ce::<R>(k, t, st, *p0, g) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_finish(self, _: &mut [u8; 64], _: uint8x16_t) {}
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn pin_seal(self, st: &mut uint8x16_t, r: &mut Ring) {
        let (mut y, mut abcd) = (*st, r.abcd);
        pin!(y, abcd);
        (*st, r.abcd) = (y, abcd);
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn open_begin(self, _: &Keys, g: &[u8; 64], prev: uint8x16_t) -> Open {
        let mut st = [self.zero(); 4];
        for (b, x) in st.iter_mut().enumerate() {
            // SAFETY: `g` is 64 readable bytes (the group's ciphertext, which the caller
            // overwrites only after the group's decryption); `b < 4`; the CPU has the
            // AES and SHA-1 instructions (the tokens).
            *x = unsafe { reload(g.as_ptr(), b) };
        }
        Open { st, prev }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn dec_op<const R: usize>(self, k: &Keys, t: usize, o: &mut Open, g: &[u8; 64]) {
        unsafe { self.dec_ce::<R>(k, t, o, g) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn open_end(self, o: Open, g: &[u8; 64]) -> ([uint8x16_t; 4], uint8x16_t) {
        // SAFETY: as in `open_begin`.
        (o.st, unsafe { reload(g.as_ptr(), 3) })
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn pin_open(self, o: &mut Open, r: &mut Ring) {
        let [mut s0, mut s1, mut s2, mut s3] = o.st;
        let mut abcd = r.abcd;
        pin!(s0, s1, s2, s3, abcd);
        (o.st, r.abcd) = ([s0, s1, s2, s3], abcd);
    }
}

/// The pieces of [`Stitch`] that use the AES and SHA-1 instructions, compiled with them
/// (inlined into the entry).
impl AesSha1 {
    /// [`Stitch::sha_start`].
    #[allow(unused_mut)] // `stream!` makes its stream `mut` for the steps it runs in place
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn start_ce(self, h: Sha, p: [uint8x16_t; 4]) -> Ring {
        let mut kc = [vdupq_n_u32(0); 4];
        kc[0] = fresh_k!(0);
        let (abcd, e) = (h.abcd, h.e);
        let w = [rev32(p[0]), rev32(p[1]), rev32(p[2]), rev32(p[3])];
        stream!(start kc, abcd, e, w => s);
        Ring { kc, abcd, s }
    }

    /// [`Stitch::sha_step`]: SHA-1 group `J` with its round function (`F = J / 5`), the
    /// constant of the next five groups made where it is first needed.
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn step_ce<const J: usize, const F: i32>(self, r: &mut Ring) {
        let (mut kc, mut abcd) = (r.kc, r.abcd);
        let s = &mut r.s;
        // The constant the `W + K` add of group `J + 1` needs ([`fresh_k!`]), made before
        // group `J` makes that add: only the constant of the current five groups is live.
        if J % 5 == 4 && J < 19 {
            kc[(J / 5 + 1) % 4] = fresh_k!((J / 5 + 1) % 4);
        }
        match F {
            0 => stream!(step J, vsha1cq_u32, kc, abcd, s),
            2 => stream!(step J, vsha1mq_u32, kc, abcd, s),
            _ => stream!(step J, vsha1pq_u32, kc, abcd, s),
        }
        (r.kc, r.abcd) = (kc, abcd);
    }

    /// [`Stitch::sha_end`].
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn end_ce(self, r: Ring) -> Sha {
        let (mut abcd, s) = (r.abcd, r.s);
        let e;
        stream!(end abcd, e, s);
        Sha { abcd, e }
    }

    /// [`Stitch::enc_block`] and (`DEC`) [`Stitch::dec_block`]: `AESMC(AESE(x, K[r]))`
    /// for `r` in `0..R-1`, then `AESE(x, K[R-1]) ^ K[R]` (`AESD` and `AESIMC` with the
    /// equivalent inverse cipher's keys).
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn block_ce<const R: usize, const DEC: bool>(self, k: &Keys, x: uint8x16_t) -> uint8x16_t {
        let mut y = x;
        for kr in &k.k[..R - 1] {
            y = if DEC {
                vaesimcq_u8(vaesdq_u8(y, *kr))
            } else {
                vaesmcq_u8(vaeseq_u8(y, *kr))
            };
        }
        let last = if DEC {
            vaesdq_u8(y, k.k[R - 1])
        } else {
            vaeseq_u8(y, k.k[R - 1])
        };
        veorq_u8(last, k.last)
    }

    /// [`Stitch::enc_op`]: the rounds of block `b = t / R`, `2R - 1` instructions on the
    /// chain and no EOR: `AESMC(AESE(y, P[b] ^ K[R] ^ K[0]))`, `AESMC(AESE(y, K[r]))` for
    /// `r` in `1..R-1`, `AESE(y, K[R-1])`, and `C[b] = y ^ K[R]` stored off the chain.
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn enc_ce<const R: usize>(
        self,
        k: &Keys,
        t: usize,
        st: &mut uint8x16_t,
        p0: uint8x16_t,
        g: &mut [u8; 64],
    ) {
        let (b, r) = (t / R, t % R);
        if r == 0 {
            // Blocks 1..3 loaded again, after the block before is stored: not held in
            // registers from the group's start.
            let pb = if b == 0 {
                p0
            } else {
                // SAFETY: `g` is 64 readable bytes; `b < 4`.
                unsafe { reload(g.as_ptr(), b) }
            };
            *st = vaesmcq_u8(vaeseq_u8(*st, veorq_u8(pb, k.kr0)));
        } else if r < R - 1 {
            *st = vaesmcq_u8(vaeseq_u8(*st, k.k[r]));
        } else {
            *st = vaeseq_u8(*st, k.k[R - 1]);
            store_g(g, b, veorq_u8(*st, k.last));
        }
    }

    /// [`Stitch::dec_op`]: round `r = t / 4` of block `b = t % 4`,
    /// `P[b] = AESD(AESIMC(AESD(..AESIMC(AESD(C[b], D[0]))..)), D[R-1]) ^ (D[R] ^ C[b-1])`.
    #[inline]
    #[target_feature(enable = "aes,sha2")]
    fn dec_ce<const R: usize>(self, k: &Keys, t: usize, o: &mut Open, g: &[u8; 64]) {
        let (r, b) = (t / 4, t % 4);
        if r < R - 1 {
            o.st[b] = vaesimcq_u8(vaesdq_u8(o.st[b], k.k[r]));
        } else {
            // The ciphertext block before, loaded again (not held in a register since the
            // group's start).
            let before = if b == 0 {
                o.prev
            } else {
                // SAFETY: `g` is 64 readable bytes; `b - 1 < 4`.
                unsafe { reload(g.as_ptr(), b - 1) }
            };
            o.st[b] = veorq_u8(vaesdq_u8(o.st[b], k.k[R - 1]), veorq_u8(k.last, before));
        }
    }
}

/// The stitched call ([`stitch::call`]) for `R` rounds, compiled with the AES and SHA-1
/// instructions: one entry per round count.
#[inline(never)]
#[target_feature(enable = "aes,sha2")]
fn call_ce<const R: usize>(a: Armv8AesToken, s: Armv8Sha1Token, m: Msg<'_>) -> [u8; 20] {
    stitch::call::<AesSha1, R>(AesSha1(a, s), m)
}

#[cfg(test)]
mod tests;
