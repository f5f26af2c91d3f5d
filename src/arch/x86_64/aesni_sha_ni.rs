//! The stitched kernels: AES-NI CBC and SHA-NI SHA-1 over the same 64-byte groups, in
//! one loop (128-bit registers, the AES round count a constant).
//!
//! ```text
//! seal, per 64-byte group (P0..P3 loaded once, used by both):
//!     M = byte-swapped P0..P3 (the SHA-1 message words)
//!     s = P0 ^ C[-1] ^ K0   (from the previous group)
//!     for j in 0..20:
//!         four SHA-1 rounds (sha1rnds4 step j)              -- chain 1
//!         the next 4R/20 AES rounds of the CBC chain        -- chain 2
//!     (AES-128: 2 rounds per step; AES-256: 2.8)
//!     the last round of block b folds in the next block: u = P[b+1] ^ K0,
//!     s = aesenclast(s, K[R] ^ u), C[b] = s ^ u  (no XOR on the chain)
//!
//! open: group g+1 is decrypted (four independent aesdec chains) while the recovered
//! plaintext of group g is hashed; the first group is decrypted alone.
//! ```
//!
//! The two dependency chains share no data, so the AES rounds fill the latency gaps of
//! the `sha1rnds4` chain (and the other way round): on a CPU where CBC encryption is the
//! longer chain, sealing costs about what CBC encryption alone costs.

use core::arch::x86_64::*;

use crate::Backend;
use crate::aes::{Block, KeySchedule};
use crate::arch::x86_64::aes_ni::{load, load_keys, store};
use crate::arch::x86_64::sha_ni::{Form, bswap128, forms, load_state, quad, store_state, twenty};
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

    /// [`run`] on these tokens.
    #[inline]
    pub(crate) fn run(
        self,
        seal: bool,
        ks: &KeySchedule,
        chain: &mut Block,
        state: &mut [u32; 5],
        groups: &mut [[u8; 64]],
    ) {
        run(self.0, self.1, seal, ks, chain, state, groups);
    }

    /// Zeroes the stack the stitched kernel used, where its compiled code left round keys
    /// and chaining values (spilled): in bytes, the deepest it wrote below the caller over
    /// the builds optimised for speed (docs/design.md, "Stack and register wipes").
    #[inline(always)]
    pub(crate) fn burn() {
        crate::wipe::stack::<{ crate::wipe::depth([336, 560, 816, 704, 1088, 23760]) }>();
    }
}

/// Loads block `i` of a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn load_g(g: &[u8; 64], i: usize) -> __m128i {
    let b: &Block = g[16 * i..16 * i + 16].try_into().expect("16 bytes");
    load(b)
}

/// Stores block `i` of a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn store_g(g: &mut [u8; 64], i: usize, v: __m128i) {
    let b: &mut Block = (&mut g[16 * i..16 * i + 16]).try_into().expect("16 bytes");
    store(b, v);
}

/// Loads the four blocks of a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn load_group(g: &[u8; 64]) -> [__m128i; 4] {
    [load_g(g, 0), load_g(g, 1), load_g(g, 2), load_g(g, 3)]
}

/// Stores four blocks as a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn store_group(g: &mut [u8; 64], v: &[__m128i; 4]) {
    for (i, v) in v.iter().enumerate() {
        store_g(g, i, *v);
    }
}

/// The SHA-1 message words of a group of plaintext blocks (each byte-swapped).
#[inline]
#[target_feature(enable = "sse2,ssse3")]
fn words(p: &[__m128i; 4]) -> [__m128i; 4] {
    [
        bswap128(p[0]),
        bswap128(p[1]),
        bswap128(p[2]),
        bswap128(p[3]),
    ]
}

/// Whether the stitch runs a key: AES-128 and AES-256 ([`with_rounds`]).
pub(crate) fn stitches(ks: &KeySchedule) -> bool {
    matches!(ks.rounds, 10 | 14)
}

/// The round-count dispatch, the one `match` on a key's round count in the crate: the
/// stitch places each of the `4R` AES rounds of a group between SHA-1 steps at compile
/// time, so it is a copy per round count, where the mode kernels take the count at run
/// time (`crate::vector::AesVec::rounds`). Copies for 10 and 14 rounds only (AES-128 and
/// AES-256, the keys of the TLS and IPsec suites, as OpenSSL's stitched ciphers): an
/// AES-192 key runs CBC and SHA-1 one after the other ([`stitches`]), which keeps a
/// third of the crate's largest kernels out of every build. Calls `f` with the round
/// count as its first const parameter.
macro_rules! with_rounds {
    ($rounds:expr, $f:ident $(::<_, $c:path>)? ( $($arg:expr),* )) => {
        if $rounds == 10 {
            $f::<10 $(, { $c })?>($($arg),*)
        } else {
            $f::<14 $(, { $c })?>($($arg),*)
        }
    };
}

/// The AES operations spread over SHA-1 step `j` (of 20): `[lo, hi)` of `4R`.
const fn ops(j: usize, r: usize) -> (usize, usize) {
    (j * 4 * r / 20, (j + 1) * 4 * r / 20)
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

/// One group of the seal: encrypts `g` in place and hashes its plaintext.
///
/// `s` enters as the round-0 state of the group's first block (`P0 ^ C[-1] ^ K0`); it
/// leaves as the next group's round-0 state when `FOLD` (with `next` that group's first
/// plaintext block), else as the group's last ciphertext block.
#[allow(unused_assignments)] // the last SHA-1 step's "next X" is dead code the lint sees
#[inline]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn seal_group<const R: usize, const FOLD: bool, const FORM: u8>(
    rk: &[__m128i; 15],
    s: &mut __m128i,
    abcd: &mut __m128i,
    e: &mut __m128i,
    g: &mut [u8; 64],
    next: __m128i,
) {
    let p = load_group(g);
    let mut m = crate::arch::x86_64::sha_ni::ring(words(&p));
    let (abcd0, e0) = (*abcd, *e);
    let mut h = *abcd;
    let mut x = _mm_add_epi32(e0, m[0]);
    let mut last = h;
    let mut c = [_mm_setzero_si128(); 4];
    let mut st = *s;
    macro_rules! aes_ops {
        ($j:literal) => {
            let (lo, hi) = const { ops($j, R) };
            for t in lo..hi {
                let (b, r) = (t / R, t % R + 1);
                if r < R {
                    st = _mm_aesenc_si128(st, rk[r]);
                } else if b < 3 {
                    let u = _mm_xor_si128(p[b + 1], rk[0]);
                    st = _mm_aesenclast_si128(st, _mm_xor_si128(rk[R], u));
                    c[b] = _mm_xor_si128(st, u);
                } else if FOLD {
                    let u = _mm_xor_si128(next, rk[0]);
                    st = _mm_aesenclast_si128(st, _mm_xor_si128(rk[R], u));
                    c[b] = _mm_xor_si128(st, u);
                } else {
                    st = _mm_aesenclast_si128(st, rk[R]);
                    c[b] = st;
                }
            }
        };
    }
    macro_rules! step {
        ($j:literal, $f:literal) => {
            quad!($j, $f, h, x, m, last, FORM);
            aes_ops!($j);
            pin!(st, h, x);
        };
    }
    twenty!(step);
    *e = _mm_sha1nexte_epu32(last, e0);
    *abcd = _mm_add_epi32(h, abcd0);
    *s = st;
    store_group(g, &c);
}

/// The seal's loop over `groups` (at least one) from the chaining block `chain`; returns
/// the last ciphertext block.
#[inline]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn seal_groups<const R: usize, const FORM: u8>(
    k: &mut Regs,
    chain: __m128i,
    groups: &mut [[u8; 64]],
) -> __m128i {
    let Some((last_g, first)) = groups.split_last_mut() else {
        return chain;
    };
    let head = match first.first() {
        Some(g) => g,
        None => &*last_g,
    };
    let mut s = _mm_xor_si128(_mm_xor_si128(chain, load_g(head, 0)), k.rk[0]);
    for i in 0..first.len() {
        let (cur, rest) = first[i..].split_first_mut().expect("i < len");
        let next = match rest.first() {
            Some(n) => load_g(n, 0),
            None => load_g(last_g, 0),
        };
        seal_group::<R, true, FORM>(&k.rk, &mut s, &mut k.abcd, &mut k.e, cur, next);
    }
    seal_group::<R, false, FORM>(
        &k.rk,
        &mut s,
        &mut k.abcd,
        &mut k.e,
        last_g,
        _mm_setzero_si128(),
    );
    s
}

/// Decrypts the four blocks `c` (whose predecessor ciphertext is `prev`) while hashing
/// the plaintext `hp` of the group before (when `HASH`); returns the plaintext.
#[allow(unused_assignments)]
#[inline]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn open_step<const R: usize, const HASH: bool, const DEC: bool, const FORM: u8>(
    rk: &[__m128i; 15],
    prev: __m128i,
    c: [__m128i; 4],
    abcd: &mut __m128i,
    e: &mut __m128i,
    hp: [__m128i; 4],
) -> [__m128i; 4] {
    let mut st = [_mm_setzero_si128(); 4];
    if DEC {
        for (x, y) in st.iter_mut().zip(c.iter()) {
            *x = _mm_xor_si128(*y, rk[0]);
        }
    }
    macro_rules! aes_ops {
        ($j:literal) => {
            if DEC {
                let (lo, hi) = const { ops($j, R) };
                for t in lo..hi {
                    let (r, b) = (t / 4 + 1, t % 4);
                    if r < R {
                        st[b] = _mm_aesdec_si128(st[b], rk[r]);
                    } else {
                        let p = if b == 0 { prev } else { c[b - 1] };
                        st[b] = _mm_aesdeclast_si128(st[b], _mm_xor_si128(rk[R], p));
                    }
                }
            }
        };
    }
    if HASH {
        let mut m = crate::arch::x86_64::sha_ni::ring(words(&hp));
        let (abcd0, e0) = (*abcd, *e);
        let mut h = *abcd;
        let mut x = _mm_add_epi32(e0, m[0]);
        let mut last = h;
        let [mut s0, mut s1, mut s2, mut s3] = st;
        macro_rules! step {
            ($j:literal, $f:literal) => {
                st = [s0, s1, s2, s3];
                aes_ops!($j);
                [s0, s1, s2, s3] = st;
                quad!($j, $f, h, x, m, last, FORM);
                pin!(s0, s1, s2, s3, h, x);
            };
        }
        twenty!(step);
        st = [s0, s1, s2, s3];
        *e = _mm_sha1nexte_epu32(last, e0);
        *abcd = _mm_add_epi32(h, abcd0);
    } else {
        macro_rules! step {
            ($j:literal, $f:literal) => {
                aes_ops!($j);
            };
        }
        twenty!(step);
    }
    st
}

/// The open's loop over `groups` from the chaining block `chain`; returns the last
/// ciphertext block.
#[inline]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn open_groups<const R: usize, const FORM: u8>(
    k: &mut Regs,
    chain: __m128i,
    groups: &mut [[u8; 64]],
) -> __m128i {
    let Some((g0, rest)) = groups.split_first_mut() else {
        return chain;
    };
    let zero = [_mm_setzero_si128(); 4];
    // All four ciphertext blocks are read before the plaintext overwrites them.
    let c = load_group(g0);
    let mut p = open_step::<R, false, true, FORM>(&k.rk, chain, c, &mut k.abcd, &mut k.e, zero);
    let mut prev = c[3];
    store_group(g0, &p);
    for g in rest.iter_mut() {
        let c = load_group(g);
        p = open_step::<R, true, true, FORM>(&k.rk, prev, c, &mut k.abcd, &mut k.e, p);
        prev = c[3];
        store_group(g, &p);
    }
    open_step::<R, true, false, FORM>(&k.rk, prev, zero, &mut k.abcd, &mut k.e, p);
    prev
}

/// The registers both directions keep: the round keys and the SHA-1 state.
struct Regs {
    rk: [__m128i; 15],
    abcd: __m128i,
    e: __m128i,
}

/// Seals (`seal`) or opens whole 64-byte groups in place: loads the round keys, the chain
/// and the state, runs the direction's loop, and stores the chain and the state back.
/// Inlined into its entries, [`groups_sse`] (two forms) and [`groups_vec`].
#[inline]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn groups_r<const R: usize, const FORM: u8>(
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    let (abcd, e) = load_state(state);
    let mut k = Regs {
        rk: load_keys(if seal { &ks.enc } else { &ks.dec }),
        abcd,
        e,
    };
    let c = if seal {
        seal_groups::<R, FORM>(&mut k, load(chain), groups)
    } else {
        open_groups::<R, FORM>(&mut k, load(chain), groups)
    };
    store(chain, c);
    store_state(state, k.abcd, k.e);
}

/// [`groups_r`] compiled for SSE: the SHA-1 schedule in the SHA-unit form or (`FORM` =
/// `forms::ROL2`, where the row picks the vector form and AVX-512 is out of reach) with its
/// quads from 8 on by the `rol2` recurrence (`crate::arch::x86_64::sha_ni`'s forms).
#[inline(never)]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1")]
fn groups_sse<const R: usize, const FORM: u8>(
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    groups_r::<R, FORM>(seal, ks, chain, state, groups);
}

/// [`groups_r`] in the vector form, compiled with AVX-512 VL (`vprold`, `vpternlogd`):
/// `crate::arch::x86_64::sha_ni`'s forms, where the CPU's row picks it: where the SHA unit binds
/// SHA-1 alone it binds the stitched loop too (docs/design.md, "Stitched CBC-HMAC-SHA1").
#[inline(never)]
#[target_feature(enable = "aes,sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl")]
fn groups_vec<const R: usize>(
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    groups_r::<R, { forms::VECTOR }>(seal, ks, chain, state, groups);
}

/// CBC-encrypts (`seal`) or CBC-decrypts whole 64-byte groups in place from `chain`
/// (updated to the last ciphertext block) and compresses their plaintext (the recovered
/// plaintext when opening) into `state`.
pub(crate) fn run(
    _: AesNiToken,
    form: Form,
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    match form {
        // SAFETY: the tokens prove the CPU has AES-NI, SHA, SSSE3 and SSE4.1, and the
        // `Avx512Token` AVX, AVX2 and AVX-512 F/VL.
        Form::Vector(..) => unsafe {
            with_rounds!(ks.rounds, groups_vec(seal, ks, chain, state, groups))
        },
        // SAFETY: the tokens prove the CPU has AES-NI, SHA, SSSE3 and SSE4.1.
        Form::Rol2(_) => unsafe {
            with_rounds!(
                ks.rounds,
                groups_sse::<_, forms::ROL2>(seal, ks, chain, state, groups)
            )
        },
        // SAFETY: as for `Rol2`.
        Form::ShaUnit(_) => unsafe {
            with_rounds!(
                ks.rounds,
                groups_sse::<_, forms::SHA_UNIT>(seal, ks, chain, state, groups)
            )
        },
    }
}

#[cfg(test)]
mod tests;
