//! SHA-1 with collision detection on real content: every object of the git repository this
//! crate is checked out in, hashed in its git form (`"<type> <size>\0" || content`) through
//! `sha1dc_many`, through `Sha1Dc::update` in odd chunk sizes on every backend, and through
//! `sha1dc_with` on every backend: each digest is the object id git printed, and no object
//! is flagged. The objects are those of `git cat-file --batch-all-objects --batch`, as many
//! as `--batch-check` lists. Without `git`, or outside a git repository, the tests fail
//! (the package leaves `tests/` out, so they run in a clone).
#![cfg(feature = "sha1")]

simdcrypt_testkit::backend_helpers!();
simdcrypt_testkit::algorithm_helpers!(Sha1Dc);

use std::process::{Command, Output};
use std::sync::OnceLock;

use simdcrypt::sha1::sha1dc_with;
use simdcrypt::{Collision, Sha1Dc, sha1dc_many};

/// One object: its id as git printed it, its type and its git form.
struct Object {
    oid: [u8; 20],
    kind: String,
    form: Vec<u8>,
}

/// `git -C <the crate's directory> <args>`; panics, with git's message, unless it succeeds.
fn git(args: &[&str]) -> Vec<u8> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let out: Output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run git (is it installed?): {e}"));
    assert!(
        out.status.success(),
        "git {} in {dir} failed ({}): {} (these tests need a git clone of the repository)",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    );
    out.stdout
}

/// The objects of `git cat-file --batch` output: `<oid> SP <type> SP <size> LF <contents>
/// LF` each (a `<name> missing` line is an error: every object listed must be there).
fn parse(mut out: &[u8]) -> Vec<Object> {
    let mut objects = Vec::new();
    while !out.is_empty() {
        let nl = out.iter().position(|&b| b == b'\n').expect("a header line");
        let line = std::str::from_utf8(&out[..nl]).expect("an ASCII header");
        let [oid, kind, size] = line.split(' ').collect::<Vec<_>>()[..] else {
            panic!("unexpected header {line:?}");
        };
        let size: usize = size.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
        let content = &out[nl + 1..nl + 1 + size];
        assert_eq!(out[nl + 1 + size], b'\n', "no LF after {oid}");
        out = &out[nl + 2 + size..];
        let mut form = format!("{kind} {size}\0").into_bytes();
        form.extend_from_slice(content);
        let oid = simdcrypt_testkit::hex(oid).try_into().expect("a SHA-1 id");
        objects.push(Object {
            oid,
            kind: kind.to_owned(),
            form,
        });
    }
    objects
}

/// Every object of the repository, read once.
fn objects() -> &'static [Object] {
    static OBJECTS: OnceLock<Vec<Object>> = OnceLock::new();
    OBJECTS.get_or_init(|| parse(&git(&["cat-file", "--batch-all-objects", "--batch"])))
}

/// The digest, or the object's id and the collision reported.
fn check(o: &Object, r: Result<[u8; 20], Collision>, what: &str) {
    match r {
        Ok(d) => assert_eq!(d, o.oid, "{what}: object {}", hex(&o.oid)),
        Err(c) => panic!("{what}: object {} flagged: {c}", hex(&o.oid)),
    }
}

fn hex(d: &[u8; 20]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn every_object_is_read() {
    let listed = git(&["cat-file", "--batch-all-objects", "--batch-check"]);
    let lines = listed.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    let n = lines.count();
    let objects = objects();
    assert!(n > 0, "no objects listed");
    assert_eq!(objects.len(), n, "objects read and listed");
    for kind in ["commit", "tree", "blob"] {
        assert!(
            objects.iter().any(|o| o.kind == kind),
            "no {kind} among {n} objects"
        );
    }
    // This very file is one of the blobs, as `git hash-object` names it.
    let me = std::fs::read(file!()).unwrap_or_else(|e| panic!("{}: {e}", file!()));
    let mut form = format!("blob {}\0", me.len()).into_bytes();
    form.extend_from_slice(&me);
    let id = String::from_utf8(git(&["hash-object", "--", file!()])).unwrap();
    assert_eq!(hex(&simdcrypt::sha1dc(&form).unwrap()), id.trim());
}

#[test]
fn many_in_batches_give_the_ids() {
    let objects = objects();
    for batch in [64, 1, 1000] {
        for group in objects.chunks(batch) {
            let forms: Vec<&[u8]> = group.iter().map(|o| &o.form[..]).collect();
            let mut out = vec![Ok([0u8; 20]); forms.len()];
            sha1dc_many(&forms, &mut out).unwrap();
            for (o, r) in group.iter().zip(out) {
                check(o, r, &format!("sha1dc_many in batches of {batch}"));
            }
        }
    }
}

#[test]
fn incremental_updates_give_the_ids_on_every_backend() {
    let objects = objects();
    for b in backends::<Sha1Dc>() {
        for (i, o) in objects.iter().enumerate() {
            // Odd pieces, a different size for each object; bytes one at a time for the
            // small ones only.
            let sizes = [1, 7, 63, 65, 333, 4097];
            let mut piece = sizes[i % sizes.len()];
            if piece == 1 && o.form.len() > 100_000 {
                piece = 129;
            }
            let mut h = Sha1Dc::with_backend(b).unwrap();
            assert_eq!(h.backend(), b);
            for c in o.form.chunks(piece) {
                h.update(c);
            }
            check(o, h.finalize(), &format!("{b} in pieces of {piece}"));
        }
    }
}

#[test]
fn one_shot_gives_the_ids_on_every_backend() {
    let objects = objects();
    for b in backends::<Sha1Dc>() {
        for o in objects {
            check(
                o,
                sha1dc_with(b, &o.form).unwrap(),
                &format!("{b} one-shot"),
            );
        }
    }
}
