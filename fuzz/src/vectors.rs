//! Reads the repository's known-answer vector files (`../vectors/`, see its README):
//! `Name = value` records in `[SECTION]`s, `#` comments, a blank line ends a record.

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
    pub fn get(&self, name: &str) -> Result<&str, String> {
        self.fields
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| format!("record lacks {name}: {self:?}"))
    }

    /// The field decoded from hex.
    pub fn hex(&self, name: &str) -> Result<Vec<u8>, String> {
        hex(self.get(name)?)
    }
}

/// The repository's `vectors/` directory (the fuzz crate sits in `fuzz/`).
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// Every record of `vectors/<rel>`.
pub fn records(rel: &str) -> Result<Vec<Record>, String> {
    let path = dir().join(rel);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
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
    if out.is_empty() {
        return Err(format!("{}: no records", path.display()));
    }
    Ok(out)
}

/// Hex text to bytes.
pub fn hex(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd hex length: {s}"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| format!("{s}: {e}")))
        .collect()
}
