//! SHA-1 collision detection's oracle: the authors' algorithm (the
//! `sha1collisiondetection` crate, Sequoia's port of their C) in its safe-hash and plain
//! modes, as one verdict that simdcrypt's results are compared with.

/// The reference's verdict and digests: `Ok(plain)`, or `Err((plain, safe))` for a
/// flagged input (its plain SHA-1 and the safe-hash mode's digest).
pub type Verdict = Result<[u8; 20], ([u8; 20], [u8; 20])>;

/// The reference's verdict on `data`; panics if its two modes disagree on the flag.
pub fn reference(data: &[u8]) -> Verdict {
    use sha1collisiondetection::{Output, Sha1CD};
    let mut safe = Sha1CD::default();
    safe.update(data);
    let mut s = Output::default();
    let hit = safe.finalize_into_dirty_cd(&mut s).is_err();
    let mut plain = Sha1CD::configure().safe_hash(false).build();
    plain.update(data);
    let mut p = Output::default();
    let hit_plain = plain.finalize_into_dirty_cd(&mut p).is_err();
    assert_eq!(hit, hit_plain, "the reference's two modes disagree");
    let (s, p): ([u8; 20], [u8; 20]) = (s.into(), p.into());
    if hit { Err((p, s)) } else { Ok(p) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_input_is_plain_sha1() {
        // FIPS 180-2 "abc".
        assert_eq!(
            reference(b"abc"),
            Ok(hex_literal::hex!(
                "a9993e364706816aba3e25717850c26c9cd0d89d"
            ))
        );
    }
}
