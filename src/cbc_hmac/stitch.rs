//! The stitched loops, written once over [`Stitch`]: what a backend interleaves (an AES
//! round of the CBC chain, a round of the four decryptions, a four-round SHA-1 step, the
//! ordering point between them, the loads and stores) are its methods; the loops over the
//! 64-byte groups, the spread of a group's `4R` AES rounds over its 20 SHA-1 steps and the
//! round-count dispatch are here. Each backend's `#[target_feature]` entry
//! ([`Stitch::enter`], in `src/arch`) runs [`call`], whose every function and method is
//! inlined into it: one frame per entry, the step indices and AES round ranges constants.
//!
//! ```text
//! seal, per 64-byte group P0..P3 (loaded once, used by both chains):
//!     ring = sha_start(state, P)                  the message words, the saved state
//!     for j in 0..20:
//!         sha_step::<j>(ring)                     four SHA-1 rounds      -- chain 1
//!         enc_op(t) for t in ops(j)               4R/20 AES rounds       -- chain 2
//!         pin_seal(chain, ring)                   no instruction: keeps the order
//!     state = sha_end(ring)
//! open: group g+1 decrypted (dec_op, four independent chains) while the plaintext of
//! group g is hashed; the first group decrypted alone, the last one hashed alone.
//! ```

use crate::aes::{Block, KeySchedule};
use crate::cbc::{CbcBlocks, steal_decrypt, steal_encrypt};
use crate::sha1::twenty;

/// A stitched backend: a value proves the CPU runs it (a capability token). The methods
/// are the pieces the loops interleave; every one is inlined into the backend's entry.
pub(crate) trait Stitch: Copy {
    /// One AES block in a register.
    type Aes: Copy;
    /// The round keys in registers (with whatever the backend derives from them).
    type Keys;
    /// The SHA-1 chaining value in registers.
    type Sha: Copy;
    /// One block's SHA-1 in flight: the saved chaining value, the ring of message vectors
    /// and the values carried from step to step.
    type Ring;
    /// A sealed group's blocks in flight (the plaintext the CBC chain folds in, the
    /// ciphertext not yet stored).
    type Seal;
    /// The four decryptions of an opened group in flight.
    type Open;
    /// Whether the backend has a 12-round (AES-192) copy; without one such a key runs CBC
    /// and SHA-1 one after the other.
    const TWELVE: bool;

    /// Runs [`call`] for `R` rounds in the backend's `#[target_feature]` entry.
    fn enter<const R: usize>(self, m: Msg<'_>) -> [u8; 20];

    /// All zero.
    fn zero(self) -> Self::Aes;
    /// `a ^ b`.
    fn xor(self, a: Self::Aes, b: Self::Aes) -> Self::Aes;
    /// One block encrypted (keys from [`Stitch::load_keys`] of the encryption keys).
    fn enc_block<const R: usize>(self, k: &Self::Keys, x: Self::Aes) -> Self::Aes;
    /// One block decrypted (keys from [`Stitch::load_keys`] of the decryption keys).
    fn dec_block<const R: usize>(self, k: &Self::Keys, x: Self::Aes) -> Self::Aes;
    /// Loads a block.
    fn load(self, b: &Block) -> Self::Aes;
    /// Stores a block.
    fn store(self, b: &mut Block, v: Self::Aes);
    /// The round keys `0..=R` (encryption or decryption keys) in registers.
    fn load_keys<const R: usize>(self, keys: &[Block; 15]) -> Self::Keys;
    /// Loads the chaining value.
    fn load_state(self, s: &[u32; 5]) -> Self::Sha;
    /// Stores the chaining value.
    fn store_state(self, s: &mut [u32; 5], h: Self::Sha);

    /// Starts a block's SHA-1 from `h` with the raw (big-endian) message blocks `p`.
    fn sha_start(self, h: Self::Sha, p: [Self::Aes; 4]) -> Self::Ring;
    /// Four rounds, step `J` of 20 (`F = J / 5`, the round function), with the schedule
    /// they need.
    fn sha_step<const J: usize, const F: i32>(self, r: &mut Self::Ring);
    /// The block's feed-forward: the next chaining value.
    fn sha_end(self, r: Self::Ring) -> Self::Sha;
    /// HMAC's tag of a message whose first `prefix_len` bytes (the inner key block
    /// included) are compressed into `inner`, and whose other bytes are `data`: `data`'s
    /// whole blocks, its padded tail, and the outer block from `outer`.
    fn finish(self, inner: &[u32; 5], outer: &[u32; 5], prefix_len: u64, data: &[u8]) -> [u8; 20];

    /// The CBC chain's register on entry to the seal, from the chaining block and the
    /// first plaintext block.
    fn seal_enter(self, k: &Self::Keys, chain: Self::Aes, p0: Self::Aes) -> Self::Aes;
    /// The last ciphertext block from the chain's register after the last group.
    fn seal_exit(self, k: &Self::Keys, st: Self::Aes) -> Self::Aes;
    /// A group to seal, its plaintext `p` loaded.
    fn seal_begin(self, p: [Self::Aes; 4]) -> Self::Seal;
    /// AES operation `t` (of `4R`, block `t / R`) of the CBC chain `st` in the group at
    /// `g`; `FOLD`: the group's last block folds in `next`, the next group's first
    /// plaintext block.
    fn enc_op<const R: usize, const FOLD: bool>(
        self,
        k: &Self::Keys,
        t: usize,
        st: &mut Self::Aes,
        grp: &mut Self::Seal,
        next: Self::Aes,
        g: &mut [u8; 64],
    );
    /// The end of a sealed group: its ciphertext stored over `g`.
    fn seal_finish(self, g: &mut [u8; 64], grp: Self::Seal);
    /// The compiler-only ordering point after a sealing step (no instruction).
    fn pin_seal(self, st: &mut Self::Aes, r: &mut Self::Ring);

    /// The four decryptions of the group at `g` (read, not yet written), whose predecessor
    /// ciphertext block is `prev`.
    fn open_begin(self, k: &Self::Keys, g: &[u8; 64], prev: Self::Aes) -> Self::Open;
    /// AES operation `t` (of `4R`, round `t / 4` of block `t % 4`) of the decryptions.
    fn dec_op<const R: usize>(self, k: &Self::Keys, t: usize, o: &mut Self::Open, g: &[u8; 64]);
    /// The group's plaintext and its last ciphertext block (`g` still the ciphertext).
    fn open_end(self, o: Self::Open, g: &[u8; 64]) -> ([Self::Aes; 4], Self::Aes);
    /// The compiler-only ordering point after an opening step (no instruction).
    fn pin_open(self, o: &mut Self::Open, r: &mut Self::Ring);
}

/// The AES operations spread over SHA-1 step `j` (of 20): `[lo, hi)` of a group's `4R`.
const fn ops(j: usize, r: usize) -> (usize, usize) {
    (j * 4 * r / 20, (j + 1) * 4 * r / 20)
}

/// Whether `S` stitches a key of `rounds` rounds: 10 and 14, and 12 where it has that copy.
pub(crate) fn stitches<S: Stitch>(rounds: usize) -> bool {
    matches!(rounds, 10 | 14) || (S::TWELVE && rounds == 12)
}

/// A message for a stitched call, passed by value to the entry: seal it (CBC-encrypt
/// `buf`, with stealing past `split`) or open it, from `iv`, and return the HMAC-SHA1 of
/// its plaintext, the inner and outer key blocks compressed into `starts`.
pub(crate) struct Msg<'a> {
    /// Seal (or open).
    pub(crate) seal: bool,
    /// The AES key's schedule.
    pub(crate) ks: &'a KeySchedule,
    /// The IV.
    pub(crate) iv: &'a Block,
    /// The message: whole blocks up to `split`, the CS3 tail (16 to 32 bytes, or nothing)
    /// after it.
    pub(crate) buf: &'a mut [u8],
    /// Where the whole blocks end.
    pub(crate) split: usize,
    /// The HMAC's inner and outer chaining values after the key blocks.
    pub(crate) starts: &'a [[u32; 5]; 2],
}

/// Runs a message ([`Msg`]): the round-count dispatch, the one `match` on a key's round
/// count in the stitch, to `S`'s entry for that count, which runs the whole message
/// ([`call`]). A key `S` does not stitch ([`stitches`]) is not passed here.
#[inline]
pub(crate) fn crypt<S: Stitch>(s: S, m: Msg<'_>) -> [u8; 20] {
    debug_assert!(stitches::<S>(m.ks.rounds));
    match m.ks.rounds {
        10 => s.enter::<10>(m),
        12 if S::TWELVE => s.enter::<12>(m),
        _ => s.enter::<14>(m),
    }
}

/// The entry's body, the whole message in one frame: the whole 64-byte groups of
/// `buf[..split]` stitched, then the blocks after them (CBC on single blocks), the CS3
/// tail `buf[split..]` and the HMAC's last blocks and outer block. The plaintext past the
/// groups is hashed before it is encrypted (after it is decrypted).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn call<S: Stitch, const R: usize>(s: S, m: Msg<'_>) -> [u8; 20] {
    let Msg {
        seal,
        ks,
        iv,
        buf,
        split,
        starts,
    } = m;
    debug_assert!(split <= buf.len() && split.is_multiple_of(16));
    let bulk = split / 64 * 64;
    let (groups, rest) = buf.split_at_mut(bulk);
    let groups = groups.as_chunks_mut::<64>().0;
    let mut h = s.load_state(&starts[0]);
    let c = s.load(iv);
    let mut inner = [0u32; 5];
    let mut chain = [0u8; 16];
    let prefix = 64 + bulk as u64;
    let keys = if seal { &ks.enc } else { &ks.dec };
    let last = {
        let k = s.load_keys::<R>(keys);
        if seal {
            seal_groups::<S, R>(s, &k, &mut h, c, groups)
        } else {
            open_groups::<S, R>(s, &k, &mut h, c, groups)
        }
    };
    s.store(&mut chain, last);
    // The keys loaded again for the blocks after the groups, so that the loops' key
    // registers end with the loops (docs/design.md, "Stitched CBC-HMAC-SHA1").
    let k = s.load_keys::<R>(keys);
    let single = Single::<S, R>(s, &k);
    if seal {
        s.store_state(&mut inner, h);
        let tag = s.finish(&inner, &starts[1], prefix, rest);
        let (mid, tail) = rest.split_at_mut(split - bulk);
        single.enc(&mut chain, mid.as_chunks_mut().0);
        if !tail.is_empty() {
            steal_encrypt(&single, &mut chain, tail);
        }
        tag
    } else {
        let (mid, tail) = rest.split_at_mut(split - bulk);
        single.dec(&mut chain, mid.as_chunks_mut().0);
        if !tail.is_empty() {
            steal_decrypt(&single, &mut chain, tail);
        }
        s.store_state(&mut inner, h);
        s.finish(&inner, &starts[1], prefix, rest)
    }
}

/// CBC on single blocks, for the blocks after the last group and the CS3 tail: `S`'s
/// round keys as loaded for the direction (encryption keys for [`CbcBlocks::enc`],
/// decryption keys for [`CbcBlocks::dec`]).
struct Single<'a, S: Stitch, const R: usize>(S, &'a S::Keys);

impl<S: Stitch, const R: usize> CbcBlocks for Single<'_, S, R> {
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn enc(&self, chain: &mut Block, blocks: &mut [Block]) {
        let (s, k) = (self.0, self.1);
        let mut c = s.load(chain);
        for b in blocks {
            c = s.enc_block::<R>(k, s.xor(s.load(b), c));
            s.store(b, c);
        }
        s.store(chain, c);
    }
    #[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
    fn dec(&self, chain: &mut Block, blocks: &mut [Block]) {
        let (s, k) = (self.0, self.1);
        let mut c = s.load(chain);
        for b in blocks {
            let x = s.load(b);
            s.store(b, s.xor(s.dec_block::<R>(k, x), c));
            c = x;
        }
        s.store(chain, c);
    }
}

/// Block `i` of a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn load_g<S: Stitch>(s: S, g: &[u8; 64], i: usize) -> S::Aes {
    s.load(g[16 * i..16 * i + 16].try_into().expect("16 bytes"))
}

/// The four blocks of a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn load_group<S: Stitch>(s: S, g: &[u8; 64]) -> [S::Aes; 4] {
    [
        load_g(s, g, 0),
        load_g(s, g, 1),
        load_g(s, g, 2),
        load_g(s, g, 3),
    ]
}

/// Stores four blocks as a 64-byte group.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn store_group<S: Stitch>(s: S, g: &mut [u8; 64], v: &[S::Aes; 4]) {
    for (i, v) in v.iter().enumerate() {
        s.store(
            (&mut g[16 * i..16 * i + 16]).try_into().expect("16 bytes"),
            *v,
        );
    }
}

/// One group of the seal: encrypts `g` in place and hashes its plaintext into `h`; `st`
/// is the CBC chain's register (`FOLD`: `next` is the next group's first plaintext
/// block, which the group's last block folds in).
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn seal_group<S: Stitch, const R: usize, const FOLD: bool>(
    s: S,
    k: &S::Keys,
    h: &mut S::Sha,
    st: &mut S::Aes,
    g: &mut [u8; 64],
    next: S::Aes,
) {
    let p = load_group(s, g);
    let mut ring = s.sha_start(*h, p);
    let mut grp = s.seal_begin(p);
    macro_rules! step {
        ($j:literal, $f:literal) => {
            s.sha_step::<$j, $f>(&mut ring);
            let (lo, hi) = const { ops($j, R) };
            for t in lo..hi {
                s.enc_op::<R, FOLD>(k, t, st, &mut grp, next, g);
            }
            s.pin_seal(st, &mut ring);
        };
    }
    twenty!(step);
    *h = s.sha_end(ring);
    s.seal_finish(g, grp);
}

/// The seal's loop over `groups` from the chaining block `chain`; returns the last
/// ciphertext block.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn seal_groups<S: Stitch, const R: usize>(
    s: S,
    k: &S::Keys,
    h: &mut S::Sha,
    chain: S::Aes,
    groups: &mut [[u8; 64]],
) -> S::Aes {
    let Some((last_g, first)) = groups.split_last_mut() else {
        return chain;
    };
    let head = match first.first() {
        Some(g) => g,
        None => &*last_g,
    };
    let mut st = s.seal_enter(k, chain, load_g(s, head, 0));
    for i in 0..first.len() {
        let (cur, rest) = first[i..].split_first_mut().expect("i < len");
        let next = match rest.first() {
            Some(n) => load_g(s, n, 0),
            None => load_g(s, last_g, 0),
        };
        seal_group::<S, R, true>(s, k, h, &mut st, cur, next);
    }
    seal_group::<S, R, false>(s, k, h, &mut st, last_g, s.zero());
    s.seal_exit(k, st)
}

/// Decrypts the group at `g` (whose predecessor ciphertext block is `prev`) while hashing
/// the plaintext `hp` of the group before into `h` (with `HASH`); returns the plaintext
/// (for the caller to store over `g`) and the group's last ciphertext block.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn open_group<S: Stitch, const R: usize, const HASH: bool>(
    s: S,
    k: &S::Keys,
    h: &mut S::Sha,
    prev: S::Aes,
    g: &[u8; 64],
    hp: [S::Aes; 4],
) -> ([S::Aes; 4], S::Aes) {
    let mut o = s.open_begin(k, g, prev);
    if HASH {
        let mut ring = s.sha_start(*h, hp);
        macro_rules! step {
            ($j:literal, $f:literal) => {
                let (lo, hi) = const { ops($j, R) };
                for t in lo..hi {
                    s.dec_op::<R>(k, t, &mut o, g);
                }
                s.sha_step::<$j, $f>(&mut ring);
                s.pin_open(&mut o, &mut ring);
            };
        }
        twenty!(step);
        *h = s.sha_end(ring);
    } else {
        macro_rules! step {
            ($j:literal, $f:literal) => {
                let (lo, hi) = const { ops($j, R) };
                for t in lo..hi {
                    s.dec_op::<R>(k, t, &mut o, g);
                }
            };
        }
        twenty!(step);
    }
    s.open_end(o, g)
}

/// One SHA-1 block of raw message blocks `p` into `h`, alone.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn hash_block<S: Stitch>(s: S, h: &mut S::Sha, p: [S::Aes; 4]) {
    let mut ring = s.sha_start(*h, p);
    macro_rules! step {
        ($j:literal, $f:literal) => {
            s.sha_step::<$j, $f>(&mut ring);
        };
    }
    twenty!(step);
    *h = s.sha_end(ring);
}

/// The open's loop over `groups` from the chaining block `chain`: group `g + 1` decrypted
/// while group `g` is hashed. Returns the last ciphertext block.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
fn open_groups<S: Stitch, const R: usize>(
    s: S,
    k: &S::Keys,
    h: &mut S::Sha,
    chain: S::Aes,
    groups: &mut [[u8; 64]],
) -> S::Aes {
    let Some((g0, rest)) = groups.split_first_mut() else {
        return chain;
    };
    // All four ciphertext blocks are read before the plaintext overwrites them.
    let z = s.zero();
    let (mut p, mut prev) = open_group::<S, R, false>(s, k, h, chain, g0, [z; 4]);
    store_group(s, g0, &p);
    for g in rest.iter_mut() {
        (p, prev) = open_group::<S, R, true>(s, k, h, prev, g, p);
        store_group(s, g, &p);
    }
    hash_block(s, h, p);
    prev
}
