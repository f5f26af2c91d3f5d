//! The repository's known-answer vector files (`vectors/`, see its README): `Name = value`
//! records (LF or CRLF) in `[SECTION]`s, `#` comments; a blank line ends a record.
//!
//! Each reader comes twice: `try_*` returns an error naming the file, field or text (for
//! the fuzz crate's seed writer), the plain one panics with that message (for tests).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One record: its section and its fields.
#[derive(Debug, Clone)]
pub struct Record {
    pub section: String,
    pub fields: HashMap<String, String>,
}

impl Record {
    /// The field's text; an error naming the record if it lacks it.
    pub fn try_get(&self, name: &str) -> Result<&str, String> {
        self.fields
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| format!("record lacks {name}: {self:?}"))
    }

    /// The field decoded from hex.
    pub fn try_hex(&self, name: &str) -> Result<Vec<u8>, String> {
        try_hex(self.try_get(name)?)
    }

    /// [`Record::try_get`], panicking on error.
    pub fn get(&self, name: &str) -> &str {
        self.try_get(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Record::try_hex`], panicking on error.
    pub fn hex(&self, name: &str) -> Vec<u8> {
        self.try_hex(name).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// `vectors/<rel>` in the repository (this crate sits in `testkit/`).
pub fn vector_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(rel)
}

/// The records of `text`, in order.
pub fn parse(text: &str) -> Vec<Record> {
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

/// Every record of `vectors/<rel>`; an error if the file cannot be read or holds none.
pub fn try_records(rel: &str) -> Result<Vec<Record>, String> {
    let path = vector_path(rel);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let out = parse(&text);
    if out.is_empty() {
        return Err(format!("{}: no records", path.display()));
    }
    Ok(out)
}

/// [`try_records`], panicking on error.
pub fn records(rel: &str) -> Vec<Record> {
    try_records(rel).unwrap_or_else(|e| panic!("{e}"))
}

/// Hex text (either case, surrounding blanks ignored) to bytes.
pub fn try_hex(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd hex length: {s}"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .filter(|d| d.bytes().all(|c| c.is_ascii_hexdigit()))
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(|| format!("not hex at {i}: {s}"))
        })
        .collect()
}

/// [`try_hex`], panicking on error.
pub fn hex(s: &str) -> Vec<u8> {
    try_hex(s).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_sections_comments_and_crlf() {
        let text = "[A]\r\n# note\r\nKey = 00ff\r\nIn=AB\r\n\r\n\r\nKey = 01\n[B]\nKey = 02\n";
        let r = parse(text);
        assert_eq!(r.len(), 3);
        assert_eq!(
            (r[0].section.as_str(), r[0].hex("Key")),
            ("A", vec![0, 255])
        );
        assert_eq!(r[0].get("In"), "AB");
        assert_eq!((r[1].section.as_str(), r[1].hex("Key")), ("A", vec![1]));
        assert_eq!((r[2].section.as_str(), r[2].hex("Key")), ("B", vec![2]));
        assert!(r[1].try_get("In").unwrap_err().contains("lacks In"));
    }

    #[test]
    fn hex_rejects_odd_lengths_and_non_digits() {
        assert_eq!(hex(" 0a1B "), [10, 27]);
        assert!(try_hex("abc").is_err());
        assert!(try_hex("+1").is_err());
        assert!(try_hex("éé").is_err());
    }

    #[test]
    fn every_vector_file_reads() {
        for rel in [
            "ieee1619/xts-aes.vec",
            "nist-cavp/cbc/CBCMMT128.rsp",
            "nist-cavp/sha1/SHA1ShortMsg.rsp",
        ] {
            assert!(records(rel).len() >= 7, "{rel}");
        }
        assert!(try_records("no/such.file").is_err());
    }
}
