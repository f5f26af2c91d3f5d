//! The stitched kernels: AES-NI CBC and SHA-NI SHA-1 over the same 64-byte groups, in
//! one loop (128-bit registers, the AES round count a constant).
//!
//! The loops are `crate::cbc_hmac::stitch`'s; this is the backend's half: the AES-NI
//! rounds (the last round of each sealed block folds in the next plaintext block,
//! [`AesShaNi`]'s `enc_op`), the `sha1rnds4` steps in the schedule form the CPU's row
//! picks, and the entries.
//!
//! The two dependency chains share no data, so the AES rounds fill the latency gaps of
//! the `sha1rnds4` chain (and the other way round): on a CPU where CBC encryption is the
//! longer chain, sealing costs about what CBC encryption alone costs.

use core::arch::x86_64::*;

use crate::Backend;
use crate::aes::{Block, KeySchedule};
use crate::arch::x86_64::aes_ni::{load, load_keys, store};
use crate::arch::x86_64::sha_ni::{
    Form, bswap128, finish_impl, forms, load_state, quad, ring, store_state,
};
use crate::cbc_hmac::stitch::{self, Msg, Stitch};
use crate::cpu::{AesNiToken, ShaNiToken};

/// The stitched kernel as `crate::cbc_hmac` holds it (`crate::arch::Stitched`): the
/// AES-NI token and the SHA-NI form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stitched(AesNiToken, Form);

impl Stitched {
    /// From the row's tokens.
    #[inline]
    pub(crate) fn new((a, s): (AesNiToken, ShaNiToken)) -> Stitched {
        Stitched(a, Form::new(s))
    }

    /// The CBC backend and the SHA-1 kernel (with its backend) of the keyed value: what
    /// the parts of a message outside whole 64-byte groups run on, and all of it where the
    /// key has no stitched form ([`Stitched::stitches`]).
    #[inline]
    pub(crate) fn parts(self) -> (Backend, (crate::sha1::Kernel, Backend)) {
        (
            Backend::AesNi,
            (crate::sha1::Kernel::ShaNi(self.1), Backend::ShaNi),
        )
    }

    /// Whether the stitch runs this key ([`stitches`]).
    #[inline]
    pub(crate) fn stitches(ks: &KeySchedule) -> bool {
        stitches(ks)
    }

    /// Runs a message ([`stitch::crypt`]) in this schedule form.
    #[inline]
    pub(crate) fn crypt(self, m: Msg<'_>) -> [u8; 20] {
        let a = self.0;
        match self.1 {
            Form::Vector(s, _) => stitch::crypt(AesShaNi::<{ forms::VECTOR }>(a, s), m),
            Form::Rol2(s) => stitch::crypt(AesShaNi::<{ forms::ROL2 }>(a, s), m),
            Form::ShaUnit(s) => stitch::crypt(AesShaNi::<{ forms::SHA_UNIT }>(a, s), m),
        }
    }

    /// Zeroes the stack the stitched kernel used, where its compiled code left round keys
    /// and chaining values (spilled): in bytes, the deepest it wrote below the caller over
    /// the builds optimised for speed (docs/design.md, "Stack and register wipes").
    #[inline(always)]
    pub(crate) fn wipe() {
        crate::wipe::stack::<{ crate::wipe::depth([560, 832, 1072, 1232, 1936, 40960]) }>();
    }
}

/// The stitch on AES-NI and SHA-NI with the SHA-1 schedule in form `FORM`
/// (`crate::arch::x86_64::sha_ni`'s forms): a value is made only from the tokens that run
/// it ([`Stitched::crypt`]), the AVX-512 VL token with them for [`forms::VECTOR`].
#[derive(Clone, Copy)]
pub(crate) struct AesShaNi<const FORM: u8>(AesNiToken, ShaNiToken);

/// The SHA-1 chaining value: ABCD and E.
#[derive(Clone, Copy)]
pub(crate) struct Sha {
    abcd: __m128i,
    e: __m128i,
}

/// One block's SHA-1 in flight: the ring of message vectors [`quad!`] extends, the running
/// ABCD, the next `X`, the last step's ABCD and the saved chaining value.
pub(crate) struct Ring {
    m: [__m128i; 8],
    h: __m128i,
    x: __m128i,
    last: __m128i,
    abcd0: __m128i,
    e0: __m128i,
}

/// A sealed group: its plaintext (the chain folds in the next block) and its ciphertext.
pub(crate) struct Seal {
    p: [__m128i; 4],
    c: [__m128i; 4],
}

/// The four decryptions of an opened group: their states, the group's ciphertext and the
/// block before it.
pub(crate) struct Open {
    st: [__m128i; 4],
    c: [__m128i; 4],
    prev: __m128i,
}

/// A compiler-only ordering point: the registers named pass through an empty `asm!`, so
/// everything that uses them afterwards is ordered after everything that produced them
/// before. It emits no instruction (the CPU sees no dependency); it keeps LLVM's
/// scheduler from gathering the AES rounds in one place, which undoes the interleaving.
macro_rules! pin {
    ($($r:ident),+) => {
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no flags.
        unsafe {
            core::arch::asm!(
                concat!($("/* {", stringify!($r), "} */"),+),
                $($r = inout(xmm_reg) $r,)+
                options(pure, nomem, nostack, preserves_flags)
            )
        }
    };
}

// SAFETY (every `unsafe` block in this impl without its own comment): a value of the type
// holds the `AesNiToken` and `ShaNiToken`, so the CPU has AES-NI, SHA, SSSE3 and SSE4.1
// (the intrinsics still ask for an `unsafe` outside `#[target_feature]`); the methods are
// inlined into the entries ([`call_sse`], [`call_vec`]), which are compiled with them.
impl<const FORM: u8> Stitch for AesShaNi<FORM> {
    type Aes = __m128i;
    type Keys = [__m128i; 15];
    type Sha = Sha;
    type Ring = Ring;
    type Seal = Seal;
    type Open = Open;
    const TWELVE: bool = false;

    #[inline(always)]
    fn enter<const R: usize>(self, m: Msg<'_>) -> [u8; 20] {
        if FORM == forms::VECTOR {
            // SAFETY: the tokens prove AES-NI, SHA, SSSE3 and SSE4.1, and a value of the
            // vector form is made only with an `Avx512Token` ([`Stitched::crypt`]): AVX,
            // AVX2 and AVX-512 F/VL.
            unsafe { call_vec::<R>(self.0, self.1, m) }
        } else {
            // SAFETY: the tokens prove AES-NI, SHA, SSSE3 and SSE4.1.
            unsafe { call_sse::<R, FORM>(self.0, self.1, m) }
        }
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn zero(self) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_setzero_si128() }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn xor(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_xor_si128(a, b) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn enc_block<const R: usize>(self, rk: &[__m128i; 15], x: __m128i) -> __m128i {
        block::<R, false>(self.0, rk, x)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn dec_block<const R: usize>(self, rk: &[__m128i; 15], x: __m128i) -> __m128i {
        block::<R, true>(self.0, rk, x)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load(self, b: &Block) -> __m128i {
        load(b)
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn store(self, b: &mut Block, v: __m128i) {
        store(b, v);
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn load_keys<const R: usize>(self, keys: &[Block; 15]) -> [__m128i; 15] {
        load_keys(keys)
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
    fn sha_start(self, h: Sha, p: [__m128i; 4]) -> Ring {
        unsafe {
            let m = ring([
                bswap128(p[0]),
                bswap128(p[1]),
                bswap128(p[2]),
                bswap128(p[3]),
            ]);
            Ring {
                x: _mm_add_epi32(h.e, m[0]),
                m,
                h: h.abcd,
                last: h.abcd,
                abcd0: h.abcd,
                e0: h.e,
            }
        }
    }
    #[allow(unused_assignments)] // the last step's "next X" is dead code the lint sees
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sha_step<const J: usize, const F: i32>(self, r: &mut Ring) {
        let (mut h, mut x, mut m, mut last) = (r.h, r.x, r.m, r.last);
        unsafe { quad!(J, F, h, x, m, last, FORM) };
        (r.h, r.x, r.m, r.last) = (h, x, m, last);
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn sha_end(self, r: Ring) -> Sha {
        unsafe {
            Sha {
                e: _mm_sha1nexte_epu32(r.last, r.e0),
                abcd: _mm_add_epi32(r.h, r.abcd0),
            }
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn finish(self, inner: &[u32; 5], outer: &[u32; 5], prefix_len: u64, data: &[u8]) -> [u8; 20] {
        unsafe { finish_impl::<FORM, true>(inner, outer, prefix_len, data, 0) }
    }

    /// The round-0 state of the first block: `P0 ^ C[-1] ^ K0`.
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_enter(self, k: &[__m128i; 15], chain: __m128i, p0: __m128i) -> __m128i {
        unsafe { _mm_xor_si128(_mm_xor_si128(chain, p0), k[0]) }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_exit(self, _: &[__m128i; 15], st: __m128i) -> __m128i {
        st
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_begin(self, p: [__m128i; 4]) -> Seal {
        Seal {
            p,
            c: [self.zero(); 4],
        }
    }
    /// Rounds `1..R` are `aesenc`; the last round of block `b` folds in the next block:
    /// `u = P[b+1] ^ K0`, `s = aesenclast(s, K[R] ^ u)`, `C[b] = s ^ u` (no XOR on the
    /// chain).
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn enc_op<const R: usize, const FOLD: bool>(
        self,
        rk: &[__m128i; 15],
        t: usize,
        st: &mut __m128i,
        grp: &mut Seal,
        next: __m128i,
        _: &mut [u8; 64],
    ) {
        let (b, r) = (t / R, t % R + 1);
        unsafe {
            if r < R {
                *st = _mm_aesenc_si128(*st, rk[r]);
            } else if b < 3 || FOLD {
                let n = if b < 3 { grp.p[b + 1] } else { next };
                let u = _mm_xor_si128(n, rk[0]);
                *st = _mm_aesenclast_si128(*st, _mm_xor_si128(rk[R], u));
                grp.c[b] = _mm_xor_si128(*st, u);
            } else {
                *st = _mm_aesenclast_si128(*st, rk[R]);
                grp.c[b] = *st;
            }
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn seal_finish(self, g: &mut [u8; 64], grp: Seal) {
        for (i, v) in grp.c.iter().enumerate() {
            store(
                (&mut g[16 * i..16 * i + 16]).try_into().expect("16 bytes"),
                *v,
            );
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn pin_seal(self, st: &mut __m128i, r: &mut Ring) {
        let (mut st_, mut h, mut x) = (*st, r.h, r.x);
        pin!(st_, h, x);
        (*st, r.h, r.x) = (st_, h, x);
    }

    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn open_begin(self, rk: &[__m128i; 15], g: &[u8; 64], prev: __m128i) -> Open {
        let c: [__m128i; 4] =
            core::array::from_fn(|i| load(g[16 * i..16 * i + 16].try_into().expect("16 bytes")));
        let mut st = c;
        for x in &mut st {
            *x = unsafe { _mm_xor_si128(*x, rk[0]) };
        }
        Open { st, c, prev }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn dec_op<const R: usize>(self, rk: &[__m128i; 15], t: usize, o: &mut Open, _: &[u8; 64]) {
        let (r, b) = (t / 4 + 1, t % 4);
        unsafe {
            if r < R {
                o.st[b] = _mm_aesdec_si128(o.st[b], rk[r]);
            } else {
                let p = if b == 0 { o.prev } else { o.c[b - 1] };
                o.st[b] = _mm_aesdeclast_si128(o.st[b], _mm_xor_si128(rk[R], p));
            }
        }
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn open_end(self, o: Open, _: &[u8; 64]) -> ([__m128i; 4], __m128i) {
        (o.st, o.c[3])
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn pin_open(self, o: &mut Open, r: &mut Ring) {
        let [mut s0, mut s1, mut s2, mut s3] = o.st;
        let (mut h, mut x) = (r.h, r.x);
        pin!(s0, s1, s2, s3, h, x);
        o.st = [s0, s1, s2, s3];
        (r.h, r.x) = (h, x);
    }
}

/// One block through round keys `rk` in registers: [`Stitch::enc_block`] and (`DEC`)
/// [`Stitch::dec_block`] of [`AesShaNi`] (inlined into its entries, compiled with AES-NI).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn block<const R: usize, const DEC: bool>(
    _: AesNiToken,
    rk: &[__m128i; 15],
    x: __m128i,
) -> __m128i {
    // SAFETY: the token proves the CPU has AES-NI.
    unsafe {
        let mut s = _mm_xor_si128(x, rk[0]);
        for k in &rk[1..R] {
            s = if DEC {
                _mm_aesdec_si128(s, *k)
            } else {
                _mm_aesenc_si128(s, *k)
            };
        }
        if DEC {
            _mm_aesdeclast_si128(s, rk[R])
        } else {
            _mm_aesenclast_si128(s, rk[R])
        }
    }
}

/// The stitched call ([`stitch::call`]) compiled for SSE: the SHA-1 schedule in the
/// SHA-unit form or (`FORM` = `forms::ROL2`, where the row picks the vector form and
/// AVX-512 is out of reach) with its quads from 8 on by the `rol2` recurrence
/// (`crate::arch::x86_64::sha_ni`'s forms).
#[inline(never)]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn call_sse<const R: usize, const FORM: u8>(a: AesNiToken, s: ShaNiToken, m: Msg<'_>) -> [u8; 20] {
    stitch::call::<AesShaNi<FORM>, R>(AesShaNi(a, s), m)
}

/// The stitched call in the vector form, compiled with AVX-512 VL (`vprold`,
/// `vpternlogd`): `crate::arch::x86_64::sha_ni`'s forms, where the CPU's row picks it:
/// where the SHA unit binds SHA-1 alone it binds the stitched loop too (docs/design.md,
/// "Stitched CBC-HMAC-SHA1").
#[inline(never)]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl")]
fn call_vec<const R: usize>(a: AesNiToken, s: ShaNiToken, m: Msg<'_>) -> [u8; 20] {
    stitch::call::<AesShaNi<{ forms::VECTOR }>, R>(AesShaNi(a, s), m)
}

/// Whether the stitch runs a key: AES-128 and AES-256 (no 12-round copy: an AES-192 key
/// runs CBC and SHA-1 one after the other, which keeps a third of the crate's largest
/// kernels out of every build; AES-128 and AES-256 are the keys of the TLS and IPsec
/// suites, as OpenSSL's stitched ciphers take).
pub(crate) fn stitches(ks: &KeySchedule) -> bool {
    stitch::stitches::<AesShaNi<{ forms::SHA_UNIT }>>(ks.rounds)
}

#[cfg(test)]
mod tests;
