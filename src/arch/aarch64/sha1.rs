//! SHA-1 on the ARMv8 Cryptography Extension (`SHA1C`, `SHA1P`, `SHA1M`, `SHA1H`,
//! `SHA1SU0`, `SHA1SU1`), as `crate::sha1::Kernel::Armv8` runs it: one stream, two
//! interleaved streams, and a whole message (with HMAC's outer block) in one call.
//!
//! The round groups: docs/design.md, "AArch64". One stream is the chain of 20 dependent `op`s a block; the schedule, the `W + K` adds
//! and `SHA1H` run beside it. Two streams ([`compress2`]) interleave two such chains, for
//! cores whose SHA-1 unit takes a new instruction before the last one's result is out.
//! The one-call kernel ([`finish`]) builds the padded tail in registers (a table lookup
//! shifts the message's last bytes into place, a compare places the 0x80 marker) and, for
//! HMAC, hashes the outer block from the inner digest without leaving registers.

use core::arch::aarch64::*;

use crate::cpu::Armv8Sha1Token;
use crate::sha1::Run;

/// The round constants, one per 20 rounds.
pub(crate) const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

/// The round constants in every lane.
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn k_vectors() -> [uint32x4_t; 4] {
    K.map(|k| vdupq_n_u32(k))
}

/// The four message vectors of a block: its words, byte-swapped, word `4j` in lane 0 of
/// vector `j`.
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn words(b: &[u8; 64]) -> [uint32x4_t; 4] {
    core::array::from_fn(|j| {
        let c: &[u8; 16] = b[16 * j..16 * j + 16].try_into().expect("16 bytes");
        // SAFETY: `c` is 16 readable bytes; `LD1` has no alignment requirement.
        rev32(unsafe { vld1q_u8(c.as_ptr()) })
    })
}

/// Big-endian words from bytes: each 32-bit lane byte-swapped.
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn rev32(v: uint8x16_t) -> uint32x4_t {
    vreinterpretq_u32_u8(vrev32q_u8(v))
}

/// The state as the instructions want it: `(ABCD, E)`, e in lane 0 of E (a vector, so
/// that the compiler keeps it in a NEON register from block to block: see [`add_e`]).
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn load_state(s: &[u32; 5]) -> (uint32x4_t, uint32x2_t) {
    let abcd: &[u32; 4] = s[..4].try_into().expect("4 words");
    // SAFETY: `abcd` is 16 readable bytes, `s[4]` 4.
    unsafe { (vld1q_u32(abcd.as_ptr()), vld1_dup_u32(&s[4])) }
}

/// Writes `(ABCD, e)` back into the state.
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn store_state(s: &mut [u32; 5], abcd: uint32x4_t, e: uint32x2_t) {
    let (head, tail) = s.split_at_mut(4);
    let head: &mut [u32; 4] = head.try_into().expect("4 words");
    // SAFETY: `head` is 16 writable bytes.
    unsafe { vst1q_u32(head.as_mut_ptr(), abcd) };
    tail[0] = vget_lane_u32::<0>(e);
}

/// A compiler-only ordering point for two NEON registers (places: a vector and a scalar,
/// say): they pass through an empty `asm!`, so everything that uses them afterwards is
/// ordered after everything that produced them before. It emits no instruction.
macro_rules! order {
    ($a:expr, $b:expr) => {
        // SAFETY: a template of comments only: no instructions, no memory, no stack, no
        // flags.
        unsafe {
            core::arch::asm!(
                "/* {0:v} {1:v} */",
                inout(vreg) $a,
                inout(vreg) $b,
                options(pure, nomem, nostack, preserves_flags)
            )
        }
    };
}
pub(crate) use order;

/// Four rounds, group `$g` (a constant, 0..20) of a block with the round function `$op`
/// (`vsha1cq_u32`, `vsha1pq_u32`, `vsha1mq_u32`), on one stream's registers: `$abcd`, the
/// two E registers `$e` (`$e[g % 2]` is this group's, `$e[(g + 1) % 2]` gets the next
/// one's), the ring of message vectors `$w` (`W[g]` in `$w[g % 4]`, overwritten with
/// `W[g + 4]`), and `$wk` (this group's `W + K` in, the next group's out). Every index is
/// a constant: the arrays live in registers.
macro_rules! group {
    ($g:expr, $op:ident, $k:ident, $abcd:ident, $e:expr, $w:expr, $wk:expr) => {{
        // (A binding, not a `const` item: `$g` may be a const parameter.)
        #[allow(non_snake_case)]
        let G: usize = $g;
        if G < 16 {
            $w[G % 4] = vsha1su0q_u32($w[G % 4], $w[(G + 1) % 4], $w[(G + 2) % 4]);
        }
        let wk = $wk;
        if G < 19 {
            $wk = vaddq_u32($w[(G + 1) % 4], $k[((G + 1) / 5) % 4]);
        }
        $e[(G + 1) % 2] = vsha1h_u32(vgetq_lane_u32::<0>($abcd));
        // SHA1H reads ABCD before the round function overwrites it: ordered so for the
        // compiler (`order!`), which otherwise may place it after, on a copy of ABCD.
        $crate::arch::aarch64::sha1::order!($abcd, $e[(G + 1) % 2]);
        $abcd = $op($abcd, $e[G % 2], wk);
        if G < 16 {
            $w[G % 4] = vsha1su1q_u32($w[G % 4], $w[(G + 3) % 4]);
        }
    }};
}
pub(crate) use group;

/// Calls `$step!(g, op)` for the 20 groups of a block in order, `op` the group's round
/// function.
macro_rules! twenty {
    ($step:ident) => {
        $step!(0, vsha1cq_u32);
        $step!(1, vsha1cq_u32);
        $step!(2, vsha1cq_u32);
        $step!(3, vsha1cq_u32);
        $step!(4, vsha1cq_u32);
        $step!(5, vsha1pq_u32);
        $step!(6, vsha1pq_u32);
        $step!(7, vsha1pq_u32);
        $step!(8, vsha1pq_u32);
        $step!(9, vsha1pq_u32);
        $step!(10, vsha1mq_u32);
        $step!(11, vsha1mq_u32);
        $step!(12, vsha1mq_u32);
        $step!(13, vsha1mq_u32);
        $step!(14, vsha1mq_u32);
        $step!(15, vsha1pq_u32);
        $step!(16, vsha1pq_u32);
        $step!(17, vsha1pq_u32);
        $step!(18, vsha1pq_u32);
        $step!(19, vsha1pq_u32);
    };
}
pub(crate) use twenty;

/// One stream's registers through a block: `stream!(start ..)` before the 20 groups (from
/// the block's message vectors), `stream!(step ..)` in each, `stream!(end ..)` after (the
/// feed-forward).
macro_rules! stream {
    (start $k:ident, $abcd:ident, $e:ident, $words:expr => $s:ident) => {
        let mut $s = {
            let w: [uint32x4_t; 4] = $words;
            $crate::arch::aarch64::sha1::Stream {
                abcd0: $abcd,
                e0: $e,
                e: [vget_lane_u32::<0>($e), 0],
                wk: vaddq_u32(w[0], $k[0]),
                w,
            }
        };
    };
    (step $g:expr, $op:ident, $k:ident, $abcd:ident, $s:ident) => {
        $crate::arch::aarch64::sha1::group!($g, $op, $k, $abcd, $s.e, $s.w, $s.wk)
    };
    (end $abcd:ident, $e:ident, $s:ident) => {
        $abcd = vaddq_u32($abcd, $s.abcd0);
        $e = $crate::arch::aarch64::sha1::add_e($s.e0, $s.e[0]);
    };
}
pub(crate) use stream;

/// E's feed-forward, `a + b` in lane 0 (wrapping), on the vector unit, where e lives
/// (docs/design.md, "AArch64"): an `asm!` addition, since the compiler turns a vector
/// addition of one lane back into a scalar one. Lane 1 is unused.
#[inline(always)]
pub(crate) fn add_e(a: uint32x2_t, b: u32) -> uint32x2_t {
    let mut a = a;
    // SAFETY: one vector addition of the two registers named into the first: no memory,
    // no stack, no flags.
    unsafe {
        core::arch::asm!(
            "add {a:v}.2s, {a:v}.2s, {b:v}.2s",
            a = inout(vreg) a,
            b = in(vreg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    a
}

/// What one stream keeps beside `ABCD` through a block ([`stream!`]): the saved state, the
/// two E registers, the ring of message vectors and the next `W + K`.
pub(crate) struct Stream {
    pub(crate) abcd0: uint32x4_t,
    pub(crate) e0: uint32x2_t,
    pub(crate) e: [u32; 2],
    pub(crate) w: [uint32x4_t; 4],
    pub(crate) wk: uint32x4_t,
}

/// Compresses one block (its message vectors `$words`) into `$abcd`, `$e`.
macro_rules! block {
    ($k:ident, $abcd:ident, $e:ident, $words:expr) => {{
        $crate::arch::aarch64::sha1::stream!(start $k, $abcd, $e, $words => s);
        macro_rules! step {
            ($g:literal, $op:ident) => {
                $crate::arch::aarch64::sha1::stream!(step $g, $op, $k, $abcd, s)
            };
        }
        $crate::arch::aarch64::sha1::twenty!(step);
        $crate::arch::aarch64::sha1::stream!(end $abcd, $e, s);
    }};
}

/// Compresses `blocks` into `state`.
pub(crate) fn compress(t: Armv8Sha1Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the token proves the CPU has the SHA-1 instructions.
    unsafe { compress_ce(t, state, blocks) }
}

/// The kernel entry of [`compress`]: a frame of its own, which the caller's wipe covers.
#[inline(never)]
#[target_feature(enable = "sha2")]
fn compress_ce(_t: Armv8Sha1Token, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let k = k_vectors();
    let (mut abcd, mut e) = load_state(state);
    for b in blocks {
        block!(k, abcd, e, words(b));
    }
    store_state(state, abcd, e);
}

/// Compresses two independent streams of equally many blocks at once (two interleaved
/// dependency chains). Unequal lengths compress only the common prefix: callers pass
/// equal lengths.
pub(crate) fn compress2(t: Armv8Sha1Token, a: Run, b: Run) {
    debug_assert_eq!(a.1.len(), b.1.len());
    // SAFETY: the token proves the CPU has the SHA-1 instructions.
    unsafe { compress2_ce(t, a, b) }
}

/// The kernel entry of [`compress2`].
#[inline(never)]
#[target_feature(enable = "sha2")]
fn compress2_ce(_t: Armv8Sha1Token, (a, blocks_a): Run, (b, blocks_b): Run) {
    let k = k_vectors();
    let (mut abcd_a, mut e_a) = load_state(a);
    let (mut abcd_b, mut e_b) = load_state(b);
    for (ba, bb) in blocks_a.iter().zip(blocks_b) {
        stream!(start k, abcd_a, e_a, words(ba) => sa);
        stream!(start k, abcd_b, e_b, words(bb) => sb);
        macro_rules! step {
            ($g:literal, $op:ident) => {
                stream!(step $g, $op, k, abcd_a, sa);
                stream!(step $g, $op, k, abcd_b, sb);
            };
        }
        twenty!(step);
        stream!(end abcd_a, e_a, sa);
        stream!(end abcd_b, e_b, sb);
    }
    store_state(a, abcd_a, e_a);
    store_state(b, abcd_b, e_b);
}

/// Lane `i` holds `i`.
const IOTA: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The last `r` (1..=15) bytes of `b` (at least 16 long) as the low bytes of a register,
/// the rest zero: one load of `b`'s last 16 bytes and a table lookup (`TBL` gives zero
/// for an index past 15, which every lane from `r` on has).
#[inline]
#[target_feature(enable = "sha2")]
fn load_end(b: &[u8], r: usize) -> uint8x16_t {
    debug_assert!(b.len() >= 16 && (1..16).contains(&r));
    let last: &[u8; 16] = b[b.len() - 16..].try_into().expect("16 bytes");
    // SAFETY: `last` and `IOTA` are 16 readable bytes.
    let (v, iota) = unsafe { (vld1q_u8(last.as_ptr()), vld1q_u8(IOTA.as_ptr())) };
    vqtbl1q_u8(v, vaddq_u8(iota, vdupq_n_u8((16 - r) as u8)))
}

/// The digest bytes of a final state.
#[inline]
#[target_feature(enable = "sha2")]
fn digest_out(abcd: uint32x4_t, e: uint32x2_t) -> [u8; 20] {
    let mut out = [0u8; 20];
    // SAFETY: `out` has 16 writable bytes at 0.
    unsafe { vst1q_u8(out.as_mut_ptr(), vrev32q_u8(vreinterpretq_u8_u32(abcd))) };
    out[16..].copy_from_slice(&vget_lane_u32::<0>(e).to_be_bytes());
    out
}

/// The digest of a message that follows `prefix_len` bytes already compressed into
/// `inner`: `data`'s whole blocks, then its padded tail built in registers (no buffer, no
/// stores and reloads of the tail; the chaining value never leaves registers), all in
/// one call; with `HMAC`, then the outer block from `outer` (HMAC's tag, `prefix_len` 64
/// after the key block), the inner digest never leaving registers either.
pub(crate) fn one_call<const HMAC: bool>(
    t: Armv8Sha1Token,
    inner: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    // SAFETY: the token proves the CPU has the SHA-1 instructions.
    unsafe { finish::<HMAC>(t, inner, outer, prefix_len, data) }
}

/// The kernel entry of [`one_call`].
#[inline(never)]
#[target_feature(enable = "sha2")]
fn finish<const HMAC: bool>(
    _t: Armv8Sha1Token,
    state: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    finish_impl::<HMAC>(state, outer, prefix_len, data)
}

/// [`one_call`]'s body, inlined into its entry and into the stitched kernel's
/// (`crate::arch::aarch64::aes_sha1`).
#[inline]
#[target_feature(enable = "sha2")]
pub(crate) fn finish_impl<const HMAC: bool>(
    state: &[u32; 5],
    outer: &[u32; 5],
    prefix_len: u64,
    data: &[u8],
) -> [u8; 20] {
    let k = k_vectors();
    let (mut abcd, mut e) = load_state(state);
    let (blocks, tail) = data.as_chunks::<64>();
    for b in blocks {
        block!(k, abcd, e, words(b));
    }
    // The tail, the 0x80 marker and the length, built in registers: four 16-byte pieces
    // of the tail (whole pieces loaded, the partial one by `load_end` or from a `u128`).
    let n = tail.len();
    let mut m = crate::sha1::tail_pieces(
        data,
        vdupq_n_u8(0),
        // SAFETY: `c` is 16 readable bytes.
        |c| unsafe { vld1q_u8(c.as_ptr()) },
        |r| load_end(data, r),
        |v| {
            vreinterpretq_u8_u64(vcombine_u64(
                vcreate_u64(v as u64),
                vcreate_u64((v >> 64) as u64),
            ))
        },
    );
    // SAFETY: `IOTA` is 16 readable bytes.
    let iota = unsafe { vld1q_u8(IOTA.as_ptr()) };
    let at = vdupq_n_u8(n as u8);
    for (j, v) in m.iter_mut().enumerate() {
        let pos = vaddq_u8(iota, vdupq_n_u8(16 * j as u8));
        *v = vorrq_u8(*v, vandq_u8(vceqq_u8(pos, at), vdupq_n_u8(0x80)));
    }
    let mut w = m.map(|v| rev32(v));
    // The bit length, big-endian in words 14 (high half) and 15 (low half): lanes 2 and 3.
    let bits = prefix_len.wrapping_add(data.len() as u64).wrapping_mul(8);
    let len = vreinterpretq_u32_u64(vcombine_u64(
        vcreate_u64(0),
        vcreate_u64(bits.rotate_left(32)),
    ));
    if n < 56 {
        w[3] = vorrq_u32(w[3], len);
        block!(k, abcd, e, w);
    } else {
        block!(k, abcd, e, w);
        let z = vdupq_n_u32(0);
        block!(k, abcd, e, [z, z, z, len]);
    }
    if !HMAC {
        return digest_out(abcd, e);
    }
    // The outer message as words: the inner digest a..d (ABCD as it is), e, the 0x80
    // marker, zeros, and the bit length (64 + 20) * 8 in word 15.
    let z = vdupq_n_u32(0);
    let w1 = vsetq_lane_u32::<1>(0x8000_0000, vsetq_lane_u32::<0>(vget_lane_u32::<0>(e), z));
    let w3 = vsetq_lane_u32::<3>((64 + 20) * 8, z);
    let (mut oabcd, mut oe) = load_state(outer);
    block!(k, oabcd, oe, [abcd, w1, z, w3]);
    digest_out(oabcd, oe)
}

#[cfg(test)]
mod tests;
