//! SHA-1 compression with the SHA extensions (`sha1rnds4`, `sha1nexte`, `sha1msg1`,
//! `sha1msg2`), one stream and two interleaved streams.
//!
//! ```text
//! ABCD = (a, b, c, d) with a in the top lane; E = (e, 0, 0, 0) in the top lane
//! for each block:
//!     M[j] = the block's words 4j..4j+4, byte-swapped, word 4j in the top lane   j < 4
//!     M[j] = sha1msg2(sha1msg1(M[j-4], M[j-3]) ^ M[j-2], M[j-1])   4 <= j < 20 (other forms below)
//!     X = E + M[0]                      (W + e for the first four rounds)
//!     for j in 0..20:
//!         P = ABCD
//!         ABCD = sha1rnds4(ABCD, X, j / 5)            (four rounds: the critical chain)
//!         X = sha1nexte(P, M[j+1])      (rol30 of the old a, plus the next four words)
//!     E = sha1nexte(P_19, E_saved); ABCD += ABCD_saved
//! ```
//!
//! One stream is a chain of 20 dependent `sha1rnds4` per block; two independent streams
//! ([`compress2`]) fill the gaps the chain leaves. The schedule has three forms
//! ([`forms`]), which the tuning table picks per CPU ([`crate::tuning::ShaNiSchedule`]),
//! captured in the kernel's token when it is keyed ([`Form`]); why: docs/design.md,
//! "SHA-1 schedule forms":
//!
//! ```text
//! SHA unit: as above, every M[j] from sha1msg1 and sha1msg2
//! rol2:     M[4..8] so; from M[8] on (words t >= 32) the recurrence applied to itself,
//!           W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]), whose four words of a
//!           quad do not depend on each other:
//!           M[j] = rol2(palignr(M[j-2], M[j-1], 8) ^ M[j-4] ^ M[j-7] ^ M[j-8])
//! vector:   rol2's M[8..20], and M[4..8] with the sha1msg2 step on the vector ALUs:
//!           X    = sha1msg1(M[j-4], M[j-3]) ^ M[j-2]            (W[t-16] ^ W[t-14] ^ W[t-8])
//!           T    = X ^ (M[j-1] shifted up one word)             (+ W[t-3] for three words)
//!           R    = rol1(T)
//!           M[j] = R ^ rol1(top word of R, moved to the bottom) (the fourth word's W[t-3])
//! ```
//!
//! The vector form is the same source compiled with AVX-512 VL ([`vector`]); without it
//! quads 4-7 stay on the unit ([`rol2`]). The ring of message vectors is eight long (`M[j-8]` is read); the SHA-unit form keeps
//! four of them live.

use core::arch::x86_64::*;

use crate::cpu::{Avx512Token, ShaNiToken};
use crate::sha1::Run;
use crate::sha1::twenty;

/// Loads 16 bytes (unaligned).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn load(b: &[u8; 64], i: usize) -> __m128i {
    let c: &[u8; 16] = b[16 * i..16 * i + 16].try_into().expect("16 bytes");
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement; SSE2 is part
    // of x86-64.
    unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
}

/// Byte-reverses the whole register: big-endian words, first word in the top lane.
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) fn bswap128(v: __m128i) -> __m128i {
    _mm_shuffle_epi8(
        v,
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    )
}

/// The state as the instructions want it: `(ABCD, E)`.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn load_state(s: &[u32; 5]) -> (__m128i, __m128i) {
    let abcd: &[u32; 4] = s[..4].try_into().expect("4 words");
    // SAFETY: `abcd` is 16 readable bytes; `loadu` has no alignment requirement.
    let v = unsafe { _mm_loadu_si128(abcd.as_ptr().cast()) };
    // One load and a shuffle (a in the top lane), not four inserts in a dependent chain.
    let abcd = _mm_shuffle_epi32::<0x1b>(v);
    let e = _mm_slli_si128::<12>(_mm_cvtsi32_si128(s[4] as i32));
    (abcd, e)
}

#[inline]
#[target_feature(enable = "sse4.1")]
pub(crate) fn store_state(s: &mut [u32; 5], abcd: __m128i, e: __m128i) {
    s[0] = _mm_extract_epi32::<3>(abcd) as u32;
    s[1] = _mm_extract_epi32::<2>(abcd) as u32;
    s[2] = _mm_extract_epi32::<1>(abcd) as u32;
    s[3] = _mm_extract_epi32::<0>(abcd) as u32;
    s[4] = _mm_extract_epi32::<3>(e) as u32;
}

/// The forms of the message schedule (the module's notes), a const parameter of the
/// kernel bodies: each has its entries ([`sha_unit`], [`rol2`], [`vector`]) and the CPU's
/// row and features pick one ([`Form`]).
pub(crate) mod forms {
    /// `sha1msg1` and `sha1msg2` for every quad from 4 on.
    pub(crate) const SHA_UNIT: u8 = 0;
    /// Those for quads 4-7, the `rol2` recurrence for 8-19 (SSE).
    pub(crate) const ROL2: u8 = 1;
    /// `sha1msg1` and the `sha1msg2` step on the vector ALUs for quads 4-7, the `rol2`
    /// recurrence for 8-19 (AVX-512 VL: `vprold`, `vpternlogd`).
    pub(crate) const VECTOR: u8 = 2;
}

/// The next message vector `M[j]` (`4 <= j < 8`, or any `j >= 4` in the SHA-unit form)
/// from `M[j-4]`, `M[j-3]`, `M[j-2]`, `M[j-1]`: with `sha1msg2` on the SHA unit, or (the
/// vector form) its step on the vector ALUs (the module's notes; written in SSE, which the
/// [`vector`] entries' AVX-512 VL turns into `vprold` and `vpternlogd`).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3")]
pub(crate) fn next_quad<const FORM: u8>(
    m4: __m128i,
    m3: __m128i,
    m2: __m128i,
    m1: __m128i,
) -> __m128i {
    let x = _mm_xor_si128(_mm_sha1msg1_epu32(m4, m3), m2);
    if FORM != forms::VECTOR {
        return _mm_sha1msg2_epu32(x, m1);
    }
    // Word i of a vector lies in lane 3 - i: shifting `m1` up one lane puts W[t-3] beside
    // W[t] for the first three words (the fourth's W[t-3] is the first's result).
    let t = _mm_xor_si128(x, _mm_slli_si128::<4>(m1));
    let r = _mm_or_si128(_mm_slli_epi32::<1>(t), _mm_srli_epi32::<31>(t));
    let first = _mm_srli_si128::<12>(r);
    _mm_xor_si128(
        r,
        _mm_or_si128(_mm_slli_epi32::<1>(first), _mm_srli_epi32::<31>(first)),
    )
}

/// `M[k]` for `k >= 8` (words `t = 4k..4k+4`, `t >= 32`) by the recurrence
/// `W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])` (the `sha1msg2` recurrence
/// `rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])` applied to itself): no word of a quad
/// depends on another, so no SHA instruction. `W[t-6..t-2]` is the low half of `M[k-2]`
/// and the high half of `M[k-1]` (word `i` of a quad in lane `3 - i`): one `palignr`.
#[inline]
#[target_feature(enable = "sse2,ssse3")]
pub(crate) fn rol2_quad(
    m8: __m128i,
    m7: __m128i,
    m4: __m128i,
    m2: __m128i,
    m1: __m128i,
) -> __m128i {
    let w6 = _mm_alignr_epi8::<8>(m2, m1);
    let t = _mm_xor_si128(_mm_xor_si128(w6, m4), _mm_xor_si128(m7, m8));
    _mm_or_si128(_mm_slli_epi32::<2>(t), _mm_srli_epi32::<30>(t))
}

/// Four rounds `j` of the block (`$j` and the round function `$f`, literals or const
/// parameters): consumes `x`, produces the next `x`, extends the schedule
/// (in the form `$form` says: [`next_quad`], and [`rol2_quad`] from `M[8]` on in the
/// forms that take it). `m` is a ring of the last eight message vectors (`M[j]` lives in
/// `m[j % 8]`; the SHA-unit form keeps only four of them live).
macro_rules! quad {
    ($j:tt, $f:tt, $abcd:ident, $x:ident, $m:ident, $last:ident, $form:expr) => {{
        let p = $abcd;
        $abcd = _mm_sha1rnds4_epu32::<$f>($abcd, $x);
        if $j < 19 {
            if $j >= 3 {
                let k = $j + 1;
                if k >= 8 && $form != $crate::arch::x86_64::sha_ni::forms::SHA_UNIT {
                    $m[k % 8] = $crate::arch::x86_64::sha_ni::rol2_quad(
                        $m[(k - 8) % 8],
                        $m[(k - 7) % 8],
                        $m[(k - 4) % 8],
                        $m[(k - 2) % 8],
                        $m[(k - 1) % 8],
                    );
                } else {
                    // M[j+1] from M[j-3], M[j-2], M[j-1], M[j].
                    $m[k % 8] = $crate::arch::x86_64::sha_ni::next_quad::<{ $form }>(
                        $m[(k - 4) % 8],
                        $m[(k - 3) % 8],
                        $m[(k - 2) % 8],
                        $m[(k - 1) % 8],
                    );
                }
            }
            $x = _mm_sha1nexte_epu32(p, $m[($j + 1) % 8]);
        } else {
            $last = p;
        }
    }};
}

pub(crate) use quad;

/// The ring of message vectors [`quad!`] extends, from the block's first four.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn ring(first: [__m128i; 4]) -> [__m128i; 8] {
    let [a, b, c, d] = first;
    // SAFETY: SSE2 is part of x86-64.
    let z = unsafe { _mm_setzero_si128() };
    [a, b, c, d, z, z, z, z]
}

/// A block's four 16-byte pieces, raw (big-endian) as loaded.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn pieces(b: &[u8; 64]) -> [__m128i; 4] {
    [load(b, 0), load(b, 1), load(b, 2), load(b, 3)]
}

/// One block given as four registers of raw (big-endian) message bytes: the whole 80
/// rounds on the state `$abcd`, `$e` (mutable locals), the schedule in the form `$form`.
/// A macro, expanded in each kernel (docs/design.md, "SHA-1 schedule forms").
macro_rules! block_regs {
    ($form:expr, $abcd:ident, $e:ident, $raw:expr) => {{
        let raw: [__m128i; 4] = $raw;
        let mut m = ring(raw.map(|v| bswap128(v)));
        let (abcd0, e0) = ($abcd, $e);
        let mut s = $abcd;
        let mut x = _mm_add_epi32(e0, m[0]);
        let mut last = s;
        macro_rules! step {
            ($j:literal, $f:literal) => {
                quad!($j, $f, s, x, m, last, $form)
            };
        }
        twenty!(step);
        $e = _mm_sha1nexte_epu32(last, e0);
        $abcd = _mm_add_epi32(s, abcd0);
    }};
}

#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_impl<const FORM: u8>(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let (mut abcd, mut e) = load_state(state);
    for b in blocks {
        block_regs!(FORM, abcd, e, pieces(b));
    }
    store_state(state, abcd, e);
}

/// Two blocks of two streams, the steps of one interleaved with the other's.
#[allow(unused_assignments)]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn block2<const FORM: u8>(
    abcd_a: &mut __m128i,
    e_a: &mut __m128i,
    ba: &[u8; 64],
    abcd_b: &mut __m128i,
    e_b: &mut __m128i,
    bb: &[u8; 64],
) {
    let mut ma = ring(pieces(ba).map(|v| bswap128(v)));
    let mut mb = ring(pieces(bb).map(|v| bswap128(v)));
    let (abcd0a, e0a, abcd0b, e0b) = (*abcd_a, *e_a, *abcd_b, *e_b);
    let (mut sa, mut sb) = (abcd0a, abcd0b);
    let mut xa = _mm_add_epi32(e0a, ma[0]);
    let mut xb = _mm_add_epi32(e0b, mb[0]);
    let (mut la, mut lb) = (sa, sb);
    macro_rules! step {
        ($j:literal, $f:literal) => {
            quad!($j, $f, sa, xa, ma, la, FORM);
            quad!($j, $f, sb, xb, mb, lb, FORM);
        };
    }
    twenty!(step);
    *e_a = _mm_sha1nexte_epu32(la, e0a);
    *abcd_a = _mm_add_epi32(sa, abcd0a);
    *e_b = _mm_sha1nexte_epu32(lb, e0b);
    *abcd_b = _mm_add_epi32(sb, abcd0b);
}

#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress2_impl<const FORM: u8>((a, blocks_a): Run, (b, blocks_b): Run) {
    let (mut abcd_a, mut e_a) = load_state(a);
    let (mut abcd_b, mut e_b) = load_state(b);
    for (ba, bb) in blocks_a.iter().zip(blocks_b) {
        block2::<FORM>(&mut abcd_a, &mut e_a, ba, &mut abcd_b, &mut e_b, bb);
    }
    store_state(a, abcd_a, e_a);
    store_state(b, abcd_b, e_b);
}

/// The SHA-NI kernels' token: proof of SHA-NI (and, for the vector form, of AVX-512 VL)
/// with the schedule form this CPU's tuning row picks ([`form_for`]), decided when the
/// dispatch table grants the kernel and carried in the kernel value from there.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Form {
    /// [`forms::SHA_UNIT`].
    ShaUnit(ShaNiToken),
    /// [`forms::ROL2`].
    Rol2(ShaNiToken),
    /// [`forms::VECTOR`], with the AVX-512 F/VL token that lets it run.
    Vector(ShaNiToken, Avx512Token),
}

impl Form {
    /// The form for this CPU's row and the automatic choice's feature cap: made when a
    /// dispatch table grants the kernel (the automatic choice's once, `crate::dispatch`).
    pub(crate) fn new(t: ShaNiToken) -> Form {
        let form = form_for(
            crate::tuning::tuning().sha_ni_schedule,
            crate::backend::automatic_features(),
        );
        match form {
            forms::SHA_UNIT => Form::ShaUnit(t),
            // (The cap lies within the detected features, so the token is there.)
            forms::VECTOR => Avx512Token::get().map_or(Form::Rol2(t), |v| Form::Vector(t, v)),
            _ => Form::Rol2(t),
        }
    }

    /// The SHA-NI token (for the assembly twin's entries).
    #[cfg(simdcrypt_asm)]
    pub(crate) fn token(self) -> ShaNiToken {
        match self {
            Form::ShaUnit(t) | Form::Rol2(t) | Form::Vector(t, _) => t,
        }
    }
}

/// The form ([`forms`]) for the row's choice and the features the automatic choice may
/// use: the row's `ShaUnit` keeps every quad on the SHA unit; its `Vector` takes the
/// vector form where the cap allows AVX-512, else the `rol2` form (SSSE3 alone).
fn form_for(row: crate::tuning::ShaNiSchedule, cap: crate::cpu::Features) -> u8 {
    use crate::tuning::ShaNiSchedule;
    match row {
        ShaNiSchedule::ShaUnit => forms::SHA_UNIT,
        ShaNiSchedule::Vector if cap.contains(Avx512Token::FEATURES) => forms::VECTOR,
        ShaNiSchedule::Vector => forms::ROL2,
    }
}

/// A module of entries for one form: each generic body instantiated with `$form` and
/// compiled with `$features`. Each body has its entry as its only caller, so it is
/// inlined into it (and compiled with those features), and the forms have the same
/// shape of frames.
macro_rules! form_entries {
    ($(#[$doc:meta])* $name:ident, $form:expr, $features:literal) => {
        $(#[$doc])*
        mod $name {
            use super::*;

            #[inline(never)]
            #[target_feature(enable = $features)]
            pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
                compress_impl::<{ $form }>(state, blocks);
            }

            #[inline(never)]
            #[target_feature(enable = $features)]
            pub(super) fn compress2(a: Run, b: Run) {
                compress2_impl::<{ $form }>(a, b);
            }

            /// The digest (`HMAC` false: `outer` unused) or HMAC tag.
            #[inline(never)]
            #[target_feature(enable = $features)]
            pub(super) fn finish<const HMAC: bool>(
                inner: &[u32; 5],
                outer: &[u32; 5],
                prefix_len: u64,
                data: &[u8],
                done: usize,
            ) -> [u8; 20] {
                finish_impl::<{ $form }, HMAC>(inner, outer, prefix_len, data, done)
            }
        }
    };
}

form_entries!(
    /// The kernels in the vector form, compiled with AVX-512 VL (`vprold`, `vpternlogd`).
    vector,
    forms::VECTOR,
    "sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl"
);

form_entries!(
    /// The kernels in the `rol2` form (SSE).
    rol2,
    forms::ROL2,
    "sha,sse2,ssse3,sse4.1"
);

form_entries!(
    /// The kernels with the whole schedule on the SHA unit.
    sha_unit,
    forms::SHA_UNIT,
    "sha,sse2,ssse3,sse4.1"
);

/// Runs `$f($args)` from the entries of the form `$form`.
macro_rules! in_form {
    ($form:expr, $f:ident $(::<$g:tt>)? ($($arg:expr),*)) => {
        match $form {
            // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1, and the
            // `Avx512Token` AVX, AVX2 and AVX-512 F/VL.
            Form::Vector(..) => unsafe { vector::$f $(::<$g>)? ($($arg),*) },
            // SAFETY: the `ShaNiToken` proves the CPU has SHA, SSSE3 and SSE4.1.
            Form::Rol2(_) => unsafe { rol2::$f $(::<$g>)? ($($arg),*) },
            // SAFETY: as for `Rol2`.
            Form::ShaUnit(_) => unsafe { sha_unit::$f $(::<$g>)? ($($arg),*) },
        }
    };
}

/// Compresses whole blocks into the state.
pub(crate) fn compress(form: Form, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    in_form!(form, compress(state, blocks))
}

/// The last `r` (1..=15) bytes of `b` (at least 16 long) as the low bytes of a register,
/// the rest zero: one load of `b`'s last 16 bytes and a byte shuffle.
#[inline]
#[target_feature(enable = "ssse3")]
fn load_end(b: &[u8], r: usize) -> __m128i {
    debug_assert!(b.len() >= 16 && (1..16).contains(&r));
    let last: &[u8; 16] = b[b.len() - 16..].try_into().expect("16 bytes");
    // SAFETY: `last` is 16 readable bytes; `loadu` has no alignment requirement.
    let v = unsafe { _mm_loadu_si128(last.as_ptr().cast()) };
    let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // Lane i < r takes byte 16 - r + i; lanes i >= r get an index with the top bit set,
    // which the shuffle turns into zero.
    let keep = _mm_cmplt_epi8(iota, _mm_set1_epi8(r as i8));
    let idx = _mm_or_si128(
        _mm_add_epi8(iota, _mm_set1_epi8((16 - r) as i8)),
        _mm_andnot_si128(keep, _mm_set1_epi8(-1)),
    );
    _mm_shuffle_epi8(v, idx)
}

/// The digest bytes of a final state.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn digest_out(abcd: __m128i, e: __m128i) -> [u8; 20] {
    let mut out = [0u8; 20];
    // SAFETY: `out` has 16 writable bytes at 0.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), bswap128(abcd)) };
    out[16..].copy_from_slice(&(_mm_extract_epi32::<3>(e) as u32).to_be_bytes());
    out
}

/// The digest of a message that follows `prefix_len` bytes already compressed into
/// `state`: `data`'s whole blocks from block `done` on, then its padded tail built in
/// registers. With `HMAC`, HMAC's tag in the same call: the outer block built in registers
/// from that digest (the 20 digest bytes, the marker, the length of 84 bytes) and
/// compressed from `outer` (the inner digest never leaves registers). One function for
/// both, so that each instance has one caller and is inlined into its entry.
// (`block_regs!`'s last step's "next X" is dead code the lint still sees.)
#[allow(unused_assignments)]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn finish_impl<const FORM: u8, const HMAC: bool>(
    state: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
    done: usize,
) -> [u8; 20] {
    let (mut abcd, mut e) = load_state(state);
    let (blocks, tail) = data.as_chunks::<64>();
    for b in &blocks[done..] {
        block_regs!(FORM, abcd, e, pieces(b));
    }
    // The tail, the 0x80 marker and the length, built in registers: four 16-byte pieces
    // of the tail (whole pieces loaded, the partial one by `load_end` or from a `u128`).
    let t = tail.len();
    let mut m = crate::sha1::tail_pieces(
        data,
        _mm_setzero_si128(),
        // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
        |c| unsafe { _mm_loadu_si128(c.as_ptr().cast()) },
        |r| load_end(data, r),
        |v| _mm_set_epi64x((v >> 64) as i64, v as i64),
    );
    let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let at = _mm_set1_epi8(t as i8);
    for (k, v) in m.iter_mut().enumerate() {
        let pos = _mm_add_epi8(iota, _mm_set1_epi8(16 * k as i8));
        let mark = _mm_and_si128(_mm_cmpeq_epi8(pos, at), _mm_set1_epi8(0x80u8 as i8));
        *v = _mm_or_si128(*v, mark);
    }
    let total = prefix_len.wrapping_add(data.len() as u64);
    let bits = total.wrapping_mul(8);
    let len = _mm_insert_epi64::<1>(_mm_setzero_si128(), bits.swap_bytes() as i64);
    if t < 56 {
        m[3] = _mm_or_si128(m[3], len);
        block_regs!(FORM, abcd, e, m);
    } else {
        block_regs!(FORM, abcd, e, m);
        let z = _mm_setzero_si128();
        block_regs!(FORM, abcd, e, [z, z, z, len]);
    }
    if !HMAC {
        return digest_out(abcd, e);
    }
    // The outer message as raw (big-endian) bytes: digest words a..d, then e, 0x80, zeros,
    // and the bit length (64 + 20) * 8 in the last 8 bytes.
    let raw0 = bswap128(abcd);
    let ew = _mm_extract_epi32::<3>(e) as u32;
    let raw1 = _mm_set_epi32(0, 0, 0x80, ew.swap_bytes() as i32);
    let bits = (64u64 + 20) * 8;
    let raw3 = _mm_insert_epi64::<1>(_mm_setzero_si128(), bits.swap_bytes() as i64);
    let (mut oabcd, mut oe) = load_state(outer);
    block_regs!(FORM, oabcd, oe, [raw0, raw1, _mm_setzero_si128(), raw3]);
    digest_out(oabcd, oe)
}

/// The digest of a message that follows `prefix_len` bytes already compressed into
/// `inner`: `data`'s whole blocks from block `done` on (the first `done` are already in
/// `inner`), then its padded tail built in registers (no buffer, no stores and reloads of
/// the tail; the chaining value never leaves registers), all in one call; with `HMAC`,
/// then the outer block from `outer` (HMAC's tag, `prefix_len` 64 after the key block).
pub(crate) fn one_call<const HMAC: bool>(
    form: Form,
    inner: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
    done: usize,
) -> [u8; 20] {
    debug_assert!(done <= data.len() / 64);
    in_form!(form, finish::<HMAC>(inner, outer, prefix_len, data, done))
}

/// Compresses two independent streams of equally many blocks at once (two interleaved
/// dependency chains). Unequal lengths compress only the common prefix: callers must pass
/// equal lengths.
pub(crate) fn compress2(form: Form, a: Run, b: Run) {
    debug_assert_eq!(a.1.len(), b.1.len());
    in_form!(form, compress2(a, b))
}

#[cfg(test)]
mod tests;
