//! Shared by the integration tests: the vector-file parser and the backend requirement.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use simdcrypt::Backend;

/// One record of a CAVP `.rsp` or Botan `.vec` file: its section and its fields.
#[derive(Debug, Clone)]
pub struct Record {
    pub section: String,
    pub fields: HashMap<String, String>,
}

impl Record {
    pub fn get(&self, name: &str) -> &str {
        self.fields
            .get(name)
            .unwrap_or_else(|| panic!("record lacks {name}: {self:?}"))
    }

    pub fn hex(&self, name: &str) -> Vec<u8> {
        hex(self.get(name))
    }
}

pub fn vector_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("vectors")
        .join(rel)
}

/// Reads `Name = value` records (LF or CRLF), `[SECTION]` headers and `#` comments; a
/// blank line ends a record.
pub fn records(rel: &str) -> Vec<Record> {
    let path = vector_path(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut section = String::new();
    let mut fields = HashMap::new();
    let mut flush = |fields: &mut HashMap<String, String>, section: &str| {
        if !fields.is_empty() {
            out.push(Record {
                section: section.to_string(),
                fields: std::mem::take(fields),
            });
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            flush(&mut fields, &section);
        } else if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            flush(&mut fields, &section);
            section = s.to_string();
        } else if let Some((k, v)) = line.split_once('=') {
            fields.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    flush(&mut fields, &section);
    out
}

pub fn hex(s: &str) -> Vec<u8> {
    let s = s.trim();
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

/// Deterministic test bytes (xorshift64 from `seed`): the same for every test file that
/// uses them, so their vectors can be compared across files.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

/// RFC 3962 Appendix B: the AES-128 key ("chicken teriyaki") of its CBC ciphertext
/// stealing vectors (zero IV).
pub const RFC3962_KEY: &str = "636869636b656e207465726979616b69";

/// RFC 3962 Appendix B: (plaintext, ciphertext) in hex, the Kerberos CTS form (CBC-CS3).
pub const RFC3962_CTS: [(&str, &str); 6] = [
    (
        "4920776f756c64206c696b652074686520",
        "c6353568f2bf8cb4d8a580362da7ff7f97",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320",
        "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c2047617527732043",
        "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c",
        "97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e39312523a78662d5be7fcbcc98ebf5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20",
        "97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd839312523a78662d5be7fcbcc98ebf5a8",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20616e6420776f6e746f6e20736f75702e",
        "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a84807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8",
    ),
];

/// Backend names that `SIMDCRYPT_REQUIRE` says must be present.
pub fn required() -> Vec<Backend> {
    std::env::var("SIMDCRYPT_REQUIRE")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Backend>()
                .unwrap_or_else(|_| panic!("SIMDCRYPT_REQUIRE names an unknown backend {s:?}"))
        })
        .collect()
}

/// The backends to test an algorithm on: every one it reports available. Fails (does not
/// skip) when `SIMDCRYPT_REQUIRE` names a backend the algorithm implements but that is
/// missing from `available`.
pub fn backends_under_test(
    algorithm: &str,
    implemented: &[Backend],
    available: impl Iterator<Item = Backend>,
) -> Vec<Backend> {
    let available: Vec<Backend> = available.collect();
    assert_eq!(
        available.last(),
        Some(&Backend::Portable),
        "{algorithm}: portable must be last"
    );
    for r in required() {
        if implemented.contains(&r) {
            assert!(
                available.contains(&r),
                "{algorithm}: SIMDCRYPT_REQUIRE names {r}, but it is not available (have {available:?})"
            );
        }
    }
    eprintln!("{algorithm}: testing backends {available:?}");
    available
}
