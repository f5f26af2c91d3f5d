//! The stitched loops, written once over [`Stitch`]: what a backend interleaves (an AES
//! round of the CBC chain, a round of the four decryptions, a four-round SHA-1 step, the
//! ordering point between them, the loads and stores) are its methods; the loops over the
//! 64-byte groups, the spread of a group's `4R` AES rounds over its 20 SHA-1 steps and the
//! round-count dispatch are here. Each backend's `#[target_feature]` entry
//! ([`Stitch::enter`], in `src/arch`) runs [`groups`], whose every function and method is
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

    /// Runs [`groups`] for `R` rounds in the backend's `#[target_feature]` entry.
    fn enter<const R: usize>(
        self,
        seal: bool,
        ks: &KeySchedule,
        chain: &mut Block,
        state: &mut [u32; 5],
        groups: &mut [[u8; 64]],
    );

    /// All zero.
    fn zero(self) -> Self::Aes;
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

/// CBC-encrypts (`seal`) or CBC-decrypts whole 64-byte groups in place from `chain`
/// (updated to the last ciphertext block) and compresses their plaintext into `state`: the
/// round-count dispatch, the one `match` on a key's round count in the stitch, to `S`'s
/// entry for that count. A key `S` does not stitch ([`stitches`]) is not passed here.
#[inline]
pub(crate) fn crypt_groups<S: Stitch>(
    s: S,
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    debug_assert!(stitches::<S>(ks.rounds));
    match ks.rounds {
        10 => s.enter::<10>(seal, ks, chain, state, groups),
        12 if S::TWELVE => s.enter::<12>(seal, ks, chain, state, groups),
        _ => s.enter::<14>(seal, ks, chain, state, groups),
    }
}

/// The entry's body: loads the round keys, the chain and the state, runs the direction's
/// loop, and stores the chain and the state back.
#[cfg_attr(not(simdcrypt_unoptimised), inline(always))]
pub(crate) fn groups<S: Stitch, const R: usize>(
    s: S,
    seal: bool,
    ks: &KeySchedule,
    chain: &mut Block,
    state: &mut [u32; 5],
    groups: &mut [[u8; 64]],
) {
    let mut h = s.load_state(state);
    let c = s.load(chain);
    let out = if seal {
        let k = s.load_keys::<R>(&ks.enc);
        seal_groups::<S, R>(s, &k, &mut h, c, groups)
    } else {
        let k = s.load_keys::<R>(&ks.dec);
        open_groups::<S, R>(s, &k, &mut h, c, groups)
    };
    s.store(chain, out);
    s.store_state(state, h);
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
