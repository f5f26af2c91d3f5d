//! Checks every object id of a git repository with SHA-1 collision detection, as a git
//! tool would: each object's git form `"<type> <size>\0" || content` is hashed with
//! `simdcrypt::sha1dc_many` (in batches of 64) and compared with the id git printed.
//!
//! ```text
//! cargo run --release --example git_objects -- /path/to/repo    # default: "."
//! ```
//!
//! It reads `git -C <repo> cat-file --batch-all-objects --batch` and prints the number of
//! objects, mismatches and detected collisions, and the speed of the hashing alone (only
//! the `sha1dc_many` calls are timed). It exits nonzero on any mismatch or collision, or
//! if git fails.

use std::io::{self, BufRead, BufReader};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Objects hashed per `sha1dc_many` call.
const BATCH: usize = 64;

/// One object: the id git printed and the object's git form.
struct Object {
    oid: String,
    form: Vec<u8>,
}

/// The next object of `git cat-file --batch` output (`<oid> SP <type> SP <size> LF
/// <contents> LF`), skipping `<name> missing` lines; `None` at the end.
fn next_object(r: &mut impl BufRead, missing: &mut usize) -> io::Result<Option<Object>> {
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let fields: Vec<&str> = line.trim_end_matches('\n').split(' ').collect();
        let [oid, kind, size] = fields[..] else {
            if fields.len() == 2 && fields[1] == "missing" {
                *missing += 1;
                continue;
            }
            return Err(io::Error::other(format!("unexpected line {line:?}")));
        };
        let size: usize = size
            .parse()
            .map_err(|e| io::Error::other(format!("size in {line:?}: {e}")))?;
        let mut form = format!("{kind} {size}\0").into_bytes();
        let header = form.len();
        form.resize(header + size + 1, 0);
        r.read_exact(&mut form[header..])?;
        if form.pop() != Some(b'\n') {
            return Err(io::Error::other(format!("no LF after object {oid}")));
        }
        let oid = oid.to_owned();
        return Ok(Some(Object { oid, form }));
    }
}

fn hex(d: &[u8; 20]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

fn main() -> ExitCode {
    let repo = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    match run(&repo) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("git_objects: {repo}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Hashes every object of `repo`; `Ok(false)` if any id mismatched or was flagged.
fn run(repo: &str) -> io::Result<bool> {
    let mut git = Command::new("git")
        .args(["-C", repo, "cat-file", "--batch-all-objects", "--batch"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| io::Error::other(format!("cannot run git: {e}")))?;
    let mut out = BufReader::new(git.stdout.take().expect("stdout is piped"));
    let (mut objects, mut bytes, mut missing) = (0usize, 0usize, 0usize);
    let (mut mismatches, mut collisions) = (0usize, 0usize);
    let mut hashing = Duration::ZERO;
    let mut batch: Vec<Object> = Vec::with_capacity(BATCH);
    let mut results = vec![Ok([0u8; 20]); BATCH];
    loop {
        let next = next_object(&mut out, &mut missing)?;
        let end = next.is_none();
        batch.extend(next);
        if batch.len() == BATCH || (end && !batch.is_empty()) {
            let forms: Vec<&[u8]> = batch.iter().map(|o| &o.form[..]).collect();
            let res = &mut results[..forms.len()];
            let t = Instant::now();
            simdcrypt::sha1dc_many(&forms, res).expect("as many results as inputs");
            hashing += t.elapsed();
            for (o, r) in batch.iter().zip(res.iter()) {
                let digest = r.unwrap_or_else(|c| {
                    collisions += 1;
                    eprintln!("{}: {c}", o.oid);
                    c.digest()
                });
                if hex(&digest) != o.oid {
                    mismatches += 1;
                    eprintln!("{}: hashes to {}", o.oid, hex(&digest));
                }
                bytes += o.form.len();
            }
            objects += batch.len();
            batch.clear();
        }
        if end {
            break;
        }
    }
    let status = git.wait()?;
    if !status.success() {
        return Err(io::Error::other(format!("git cat-file: {status}")));
    }
    let secs = hashing.as_secs_f64().max(1e-9);
    println!(
        "{objects} objects ({bytes} bytes, {missing} missing): {mismatches} mismatches, \
         {collisions} collisions"
    );
    println!(
        "sha1dc_many on {}: {:.0} objects/s, {:.1} MB/s",
        simdcrypt::Sha1Dc::new().backend(),
        objects as f64 / secs,
        bytes as f64 / secs / 1e6
    );
    Ok(mismatches == 0 && collisions == 0)
}
