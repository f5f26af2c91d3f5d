//! SHA-1 with collision detection: `Sha1Dc` on every available backend, with the data
//! split into `update` chunks, the one-shot `sha1dc_with` and `sha1dc`, and `sha1dc_many`
//! (and `sha1dc_many_with` on every backend) over the data and its pieces,
//! against the authors' algorithm (the `sha1collisiondetection` crate) in its safe-hash and
//! plain modes: the same verdict, `Ok` with the plain digest, or a `Collision` whose
//! `digest()` is the plain digest and `safe_digest()` the safe-hash one. The backend the
//! selector picks is also cloned after the first chunk and finished from the clone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::sha1::{Collision, sha1dc_many_with, sha1dc_with};
use simdcrypt::{Backend, Sha1Dc};
use simdcrypt_fuzz::sha1dc::Input;
use simdcrypt_testkit::sha1dc::{Verdict, reference};

fn verdict(r: Result<[u8; 20], Collision>) -> Verdict {
    r.map_err(|c| (c.digest(), c.safe_digest()))
}

/// `data` cut at the `splits` (each a length, capped at what is left) then the rest.
fn pieces<'a>(data: &'a [u8], splits: &[u16]) -> Vec<&'a [u8]> {
    let mut rest = data;
    let mut out = Vec::with_capacity(splits.len() + 1);
    for s in splits {
        let n = usize::from(*s).min(rest.len());
        out.push(&rest[..n]);
        rest = &rest[n..];
    }
    out.push(rest);
    out
}

fuzz_target!(|inp: Input| {
    let want = reference(&inp.data);
    let backends: Vec<Backend> = Sha1Dc::available_backends().collect();
    let chosen = backends[usize::from(inp.backend) % backends.len()];
    let pieces = pieces(&inp.data, &inp.splits);
    for &b in &backends {
        let mut h = Sha1Dc::with_backend(b).unwrap();
        assert_eq!(h.backend(), b);
        h.update(pieces[0]);
        let copy = (b == chosen).then(|| h.clone());
        for p in &pieces[1..] {
            h.update(p);
        }
        assert_eq!(verdict(h.finalize()), want, "{b} in {} pieces", pieces.len());
        if let Some(mut c) = copy {
            for p in &pieces[1..] {
                c.update(p);
            }
            assert_eq!(verdict(c.finalize()), want, "{b} cloned after the first piece");
        }
        assert_eq!(verdict(sha1dc_with(b, &inp.data).unwrap()), want, "{b} one-shot");
    }
    assert_eq!(verdict(simdcrypt::sha1dc(&inp.data)), want, "automatic");
    // Many messages: the data four times (lanes that end together) and each piece (lanes
    // that end apart, stragglers), on the lanes where the CPU has them.
    let mut msgs: Vec<&[u8]> = vec![&inp.data; 4];
    msgs.extend(&pieces);
    let wants: Vec<Verdict> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| if i < 4 { want } else { reference(m) })
        .collect();
    let mut out = vec![Ok([0u8; 20]); msgs.len()];
    simdcrypt::sha1dc_many(&msgs, &mut out).unwrap();
    let got: Vec<Verdict> = out.iter().map(|&r| verdict(r)).collect();
    assert_eq!(got, wants, "sha1dc_many");
    for &b in &backends {
        sha1dc_many_with(b, &msgs, &mut out).unwrap();
        let got: Vec<Verdict> = out.iter().map(|&r| verdict(r)).collect();
        assert_eq!(got, wants, "sha1dc_many_with({b})");
    }
});
