//! Unit tests of `src/dispatch.rs` and its tables (left out of the package).

use super::*;
use crate::backend::{ALL, BACKENDS};
use crate::dispatch::CBC_HMAC as CBC_HMAC_SHA1;
use std::string::String;
use std::vec::Vec;

type Build = fn(Backend) -> Result<(), Error>;

/// Every table, with a way to build each of its rows' kernels.
fn tables() -> [(&'static str, &'static [Backend], Build); 7] {
    fn ok<K>(r: Result<(K, Backend), Error>) -> Result<(), Error> {
        r.map(|_| ())
    }
    [
        ("AES", AES.implemented(), |b| ok(AES.select(b))),
        ("XTS", XTS.implemented(), |b| ok(XTS.select(b))),
        ("CBC", CBC.implemented(), |b| ok(CBC.select(b))),
        ("SHA-1", SHA1.implemented(), |b| ok(SHA1.select(b))),
        ("sha1_many", SHA1_MANY.implemented(), |b| {
            ok(SHA1_MANY.select(b))
        }),
        ("SHA-1 DC", SHA1DC.implemented(), |b| ok(SHA1DC.select(b))),
        ("CBC-HMAC-SHA1", CBC_HMAC_SHA1.implemented(), |b| {
            ok(CBC_HMAC_SHA1.select(b))
        }),
    ]
}

/// Every backend has its row, with its token's features; every backend some
/// algorithm implements; every implemented backend builds exactly where available.
#[test]
fn the_table_is_complete() {
    assert_eq!(ALL.len(), BACKENDS.len());
    for (i, r) in BACKENDS.iter().enumerate() {
        assert_eq!(r.backend as usize, i);
        assert_eq!(r.backend.name(), r.name);
        assert_eq!(r.backend.required_features(), r.features);
        assert_eq!(r.backend.is_asm(), r.asm);
    }
    // (Each backend's features against its token: tests/dispatch.rs, through the API.)
    for &b in &ALL {
        assert!(
            tables().iter().any(|(_, imp, _)| imp.contains(&b)) || b == Backend::Portable,
            "{b} is in no algorithm's table"
        );
    }
    for (name, implemented, build) in tables() {
        assert_eq!(implemented.last(), Some(&Backend::Portable), "{name}");
        for &b in &ALL {
            match build(b) {
                Ok(()) => assert!(implemented.contains(&b) && b.is_available(), "{name} {b}"),
                Err(Error::BackendUnavailable(x)) => {
                    assert_eq!(x, b);
                    assert!(implemented.contains(&b) && !b.is_available(), "{name} {b}");
                }
                Err(Error::BackendNotForAlgorithm { backend, .. }) => {
                    assert_eq!(backend, b);
                    assert!(!implemented.contains(&b), "{name} {b}");
                }
                Err(e) => panic!("{name} {b}: {e}"),
            }
        }
    }
}

/// The automatic choice is an available backend within the cap, and its kernel is
/// built.
#[test]
fn automatic_choices_are_available() {
    let cap = automatic_features();
    for (name, b) in [
        ("AES", AES.auto_kernel().1),
        ("XTS", XTS.auto_kernel().1),
        ("CBC", CBC.auto_kernel().1),
        ("SHA-1", SHA1.auto_kernel().1),
        ("sha1_many", SHA1_MANY.auto_kernel().1),
        ("SHA-1 DC", SHA1DC.auto_kernel().1),
        ("CBC-HMAC-SHA1", CBC_HMAC_SHA1.auto_kernel().1),
    ] {
        assert!(
            b.is_available() && cap.contains(b.required_features()),
            "{name} {b}"
        );
    }
    assert_eq!(AES.auto(), AES.auto_kernel().1);
    assert_eq!(SHA1.available().last(), Some(Backend::Portable));
}

/// What the README's backends table says of each backend of a table: its place in the
/// default order (`1` first), counting the automatic candidates, or `explicit`; the
/// portable backend, the last row of every table on every architecture, is `last`.
fn readme_cells<K: Copy>(t: &Table<K>) -> Vec<(Backend, String)> {
    let mut place = 0;
    assert_eq!(t.rows.last().map(|r| r.backend), Some(Backend::Portable));
    t.rows
        .iter()
        .map(|r| {
            let cell = if r.explicit {
                String::from("explicit")
            } else if r.backend == Backend::Portable {
                String::from("last")
            } else {
                place += 1;
                std::format!("{place}")
            };
            (r.backend, cell)
        })
        .collect()
}

/// The README's backends table has a row per backend, and its algorithm columns give
/// each table's default order here.
#[test]
fn readme_table_mirrors_this_one() {
    let readme = include_str!("../../README.md");
    let section = readme
        .split("\n## Backends\n")
        .nth(1)
        .expect("README has a Backends section");
    table_mirrors_this_one("README", section);
}

/// The crate root's docs hold the same backend table as the README.
#[test]
fn crate_docs_table_mirrors_this_one() {
    let docs: String = include_str!("../lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| std::format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let section = docs
        .split("\n# Backends\n")
        .nth(1)
        .expect("the crate docs have a Backends section");
    table_mirrors_this_one("crate docs", section);
}

/// Checks the first table in `section` against the dispatch tables: a row per backend in
/// declaration order, each algorithm's column with the backend's place.
fn table_mirrors_this_one(what: &str, section: &str) {
    let mut lines = section.lines().skip_while(|l| !l.starts_with('|'));
    let header: Vec<String> = cells(lines.next().unwrap());
    lines.next(); // |---|
    let columns: Vec<(usize, Vec<(Backend, String)>)> = header
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let cells = match h.as_str() {
                "AES" => readme_cells(&AES),
                "XTS" => readme_cells(&XTS),
                "CBC" => readme_cells(&CBC),
                "SHA-1" => readme_cells(&SHA1),
                "`sha1_many`" => readme_cells(&SHA1_MANY),
                "`Sha1Dc`" => readme_cells(&SHA1DC),
                "CBC-HMAC-SHA1" => readme_cells(&CBC_HMAC_SHA1),
                _ => return None,
            };
            Some((i, cells))
        })
        .collect();
    assert_eq!(columns.len(), 7, "{what}: {header:?}");
    let mut seen = Vec::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let c = cells(line);
        let b: Backend = c[0].trim_matches('`').parse().unwrap();
        seen.push(b);
        for (i, want) in &columns {
            let want = want.iter().find(|(x, _)| *x == b).map_or("", |(_, c)| c);
            assert_eq!(c[*i], want, "{what}: {b} under {}", header[*i]);
        }
    }
    assert_eq!(
        seen, ALL,
        "{what} lists every backend, in declaration order"
    );
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| String::from(c.trim()))
        .collect()
}
