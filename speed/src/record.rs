//! The JSON Lines records. A records file is one block per run: a header line (the run's
//! provenance, [`Header`]) and then one line per algorithm x contender x size holding the
//! measurement alone. The schema (and its version, [`SCHEMA`]) is documented in
//! speed/README.md; [`read`] takes that schema alone.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The records' schema version; raised when a field changes meaning or goes.
pub const SCHEMA: u32 = 3;

/// Significant digits kept in a measurement's figures (medians whose rounds spread by a
/// percent or more: a fifth digit would be noise).
pub const DIGITS: usize = 4;

/// Where and how a run was made: the same in every record of the run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct RunInfo {
    /// [`SCHEMA`].
    pub schema: u32,
    /// `simdcrypt-speed`.
    pub tool: String,
    /// The tool's (and simdcrypt's) crate version.
    pub version: String,
    /// `git rev-parse HEAD` when built from a checkout.
    #[serde(default)]
    pub git_commit: Option<String>,
    /// `rustc --version` of the build.
    #[serde(default)]
    pub rustc: String,
    /// The target triple and the Cargo profile.
    #[serde(default)]
    pub target: String,
    /// The target features compiled in (`-C target-feature`/`target-cpu`), not detected.
    #[serde(default)]
    pub target_features: Vec<String>,
    /// Brand string with family, model and stepping (the key to merge records by).
    pub cpu: String,
    /// CPUID vendor (`AuthenticAMD`, `GenuineIntel`).
    #[serde(default)]
    pub cpu_vendor: Option<String>,
    /// Display family, model and stepping.
    #[serde(default)]
    pub cpu_family: Option<u32>,
    /// See `cpu_family`.
    #[serde(default)]
    pub cpu_model: Option<u32>,
    /// See `cpu_family`.
    #[serde(default)]
    pub cpu_stepping: Option<u32>,
    /// The brand string alone.
    #[serde(default)]
    pub cpu_model_name: String,
    /// Logical CPUs.
    #[serde(default)]
    pub cpus: usize,
    /// The OS, its release and kernel.
    #[serde(default)]
    pub os: String,
    /// When the run started (RFC 3339, UTC).
    #[serde(default)]
    pub timestamp: String,
    /// The features simdcrypt detected at run time.
    pub features: Vec<String>,
    /// libcrypto's `OpenSSL_version(OPENSSL_VERSION)` (system or vendored), if built in.
    pub openssl_version: Option<String>,
    /// Every peer's version: `openssl`, `aws-lc` (AWS-LC's own version string),
    /// `aws-lc-rs`, and the RustCrypto crates (`aes`, `xts-mode`, `cbc`, `sha1`, `hmac`).
    #[serde(default)]
    pub peers: BTreeMap<String, String>,
    /// Threads running at once (`--threads`).
    #[serde(default = "one_usize")]
    pub threads: usize,
    /// The command line of the run (`speed --sweep --backend auto`), where the run
    /// recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

fn one_usize() -> usize {
    1
}

/// One measured contender at one size, as `--json` writes it and `compare` reads it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Record {
    /// The run's provenance, flattened into the record.
    #[serde(flatten)]
    pub run: RunInfo,
    /// `--alg` name, e.g. `aes-128-xts-enc`.
    pub algorithm: String,
    /// `simdcrypt`, `openssl`, `aws-lc` or `rustcrypto`.
    pub implementation: String,
    /// simdcrypt's backend, `auto`, or the peer's name.
    pub backend: String,
    /// Whether this is simdcrypt's automatic choice.
    pub automatic: bool,
    /// Bytes per message (per stream).
    pub size: usize,
    /// Messages per call.
    #[serde(default = "one_usize")]
    pub streams: usize,
    /// Threads of `par_*` (for the `-par` algorithms; else 1).
    #[serde(default = "one_usize")]
    pub par_threads: usize,
    /// Median over the rounds, every stream (and thread) counted.
    pub bytes_per_second: f64,
    /// The slowest round.
    pub min_bytes_per_second: f64,
    /// The fastest round.
    pub max_bytes_per_second: f64,
    /// `--rounds`.
    pub rounds: usize,
    /// `--seconds`.
    pub seconds: f64,
    /// The ceiling's formula.
    #[serde(default)]
    pub ceiling: String,
    /// The ceiling measured in the same rounds.
    pub ceiling_bytes_per_second: Option<f64>,
    /// Median of the per-round fractions of the ceiling.
    pub ratio_to_ceiling: Option<f64>,
    /// Median of the per-round ratios to OpenSSL.
    pub ratio_to_openssl: Option<f64>,
    /// Median of the per-round ratios to AWS-LC.
    #[serde(default)]
    pub ratio_to_aws_lc: Option<f64>,
    /// Median of the per-round ratios to RustCrypto.
    pub ratio_to_rustcrypto: Option<f64>,
    /// Median of the per-round ratios to the same algorithm at one `par_*` thread.
    #[serde(default)]
    pub ratio_to_one_thread: Option<f64>,
    /// Whether the output matched the reference contender's (`null`: nothing to compare).
    pub verified: Option<bool>,
}

/// A run's header line: its provenance, the measuring options, and each algorithm's
/// ceiling formula; the measurement lines after it leave these out.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Header {
    /// Where and how the run was made.
    #[serde(flatten)]
    pub run: RunInfo,
    /// `--rounds`.
    pub rounds: usize,
    /// `--seconds`.
    pub seconds: f64,
    /// The ceiling's formula per algorithm (a measurement line names its own only where it
    /// differs).
    #[serde(default)]
    pub ceilings: BTreeMap<String, String>,
}

impl Header {
    /// The header of `records` (a run's: the provenance and options of the first; the
    /// first ceiling formula met per algorithm).
    pub fn of(records: &[Record]) -> Option<Header> {
        let first = records.first()?;
        let mut ceilings = BTreeMap::new();
        for r in records {
            ceilings
                .entry(r.algorithm.clone())
                .or_insert_with(|| r.ceiling.clone());
        }
        Some(Header {
            run: first.run.clone(),
            rounds: first.rounds,
            seconds: first.seconds,
            ceilings,
        })
    }

    /// The header as one JSON line (with its newline).
    pub fn line(&self) -> String {
        let mut h = self.clone();
        h.run.schema = SCHEMA;
        format!("{}\n", serde_json::to_string(&h).expect("serialisable"))
    }

    /// `r` as a measurement line under this header (with its newline): the fields that
    /// differ from the header's, figures to [`DIGITS`] significant digits, no nulls, and
    /// no `streams`/`par_threads` of 1.
    pub fn row_line(&self, r: &Record) -> String {
        let Value::Object(mut obj) = serde_json::to_value(r).expect("serialisable") else {
            unreachable!("a record serialises to an object")
        };
        let Value::Object(run) = serde_json::to_value(&self.run).expect("serialisable") else {
            unreachable!("the provenance serialises to an object")
        };
        for (k, v) in run {
            if obj.get(&k) == Some(&v) || k == "schema" {
                obj.remove(&k);
            }
        }
        let same = |a: &Value, b: f64| a.as_f64() == Some(b);
        if obj.get("rounds").and_then(Value::as_u64) == Some(self.rounds as u64) {
            obj.remove("rounds");
        }
        if obj.get("seconds").is_some_and(|v| same(v, self.seconds)) {
            obj.remove("seconds");
        }
        if self.ceilings.get(&r.algorithm) == Some(&r.ceiling) {
            obj.remove("ceiling");
        }
        for k in ["streams", "par_threads"] {
            if obj.get(k).and_then(Value::as_u64) == Some(1) {
                obj.remove(k);
            }
        }
        obj.retain(|_, v| !v.is_null());
        for (k, v) in obj.iter_mut() {
            if let (false, Some(f)) = (k == "seconds", v.as_f64())
                && v.is_f64()
            {
                *v = Value::from(round(f));
            }
        }
        format!("{}\n", Value::Object(obj))
    }
}

/// `v` to [`DIGITS`] significant digits.
pub fn round(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{v:.*e}", DIGITS - 1).parse().unwrap_or(v)
}

/// `records` as a records file: a block (header line, then measurement lines) per run of
/// consecutive records with the same provenance and options.
pub fn write(records: &[Record]) -> String {
    let mut out = String::new();
    let mut rest = records;
    while let Some(first) = rest.first() {
        let n = rest
            .iter()
            .take_while(|r| {
                r.run == first.run && r.rounds == first.rounds && r.seconds == first.seconds
            })
            .count();
        let (block, tail) = rest.split_at(n);
        let header = Header::of(block).expect("a block has a record");
        out.push_str(&header.line());
        for r in block {
            out.push_str(&header.row_line(r));
        }
        rest = tail;
    }
    out
}

/// The records file of a CPU: `intel-family6-model167.jsonl`, `amd-family25-model17.jsonl`
/// (`<vendor>-<name>.jsonl` where CPUID gave no signature, as on Arm: vendor `ARM` and
/// name `ARM Neoverse-N1` make `arm-neoverse-n1`; `cpu-<name>.jsonl` without a vendor).
pub fn file_name(run: &RunInfo) -> String {
    let vendor = match run.cpu_vendor.as_deref() {
        Some("GenuineIntel") => "intel".to_string(),
        Some("AuthenticAMD") => "amd".to_string(),
        Some(v) => v.to_ascii_lowercase(),
        None => "cpu".to_string(),
    };
    match (run.cpu_family, run.cpu_model) {
        (Some(f), Some(m)) => format!("{vendor}-family{f}-model{m}.jsonl"),
        _ => {
            let name: String = run
                .cpu_model_name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect();
            // One `-` between words; `ARM Neoverse-N1` of vendor `ARM`: `arm-neoverse-n1`,
            // not `arm-arm-...`.
            let name = name
                .split('-')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            let name = name.as_str();
            let name = name
                .strip_prefix(&vendor)
                .and_then(|n| n.strip_prefix('-'))
                .unwrap_or(name);
            format!("{vendor}-{name}.jsonl")
        }
    }
}

/// Appends `records` (one run) to their CPU's file in `dir` (created where missing);
/// returns the file's path.
pub fn append(dir: &Path, records: &[Record]) -> Result<std::path::PathBuf, String> {
    use std::io::Write as _;
    let Some(first) = records.first() else {
        return Err("no records to append".into());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(file_name(&first.run));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    f.write_all(write(records).as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Reads a records file (JSON Lines; blank lines skipped): blocks of a header of schema
/// [`SCHEMA`] and its measurement lines.
pub fn read(text: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    // The current block's header, as the fields its measurement lines leave out.
    let mut block: Option<(Map<String, Value>, BTreeMap<String, String>)> = None;
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let at = |e: serde_json::Error| format!("line {}: {e}", i + 1);
        let obj: Map<String, Value> = serde_json::from_str(l).map_err(at)?;
        let record = if obj.contains_key("tool") {
            let h: Header = serde_json::from_value(Value::Object(obj)).map_err(at)?;
            if h.run.schema != SCHEMA {
                return Err(format!(
                    "line {}: a header of schema {}; this tool reads schema {SCHEMA}",
                    i + 1,
                    h.run.schema
                ));
            }
            let Value::Object(mut fields) = serde_json::to_value(&h.run).map_err(at)? else {
                unreachable!("the provenance serialises to an object")
            };
            fields.insert("rounds".into(), h.rounds.into());
            fields.insert("seconds".into(), h.seconds.into());
            block = Some((fields, h.ceilings));
            continue;
        } else {
            let Some((fields, ceilings)) = &block else {
                return Err(format!(
                    "line {}: a measurement before any header line",
                    i + 1
                ));
            };
            let mut full = fields.clone();
            let alg = obj.get("algorithm").and_then(Value::as_str).unwrap_or("");
            if let Some(c) = ceilings.get(alg) {
                full.insert("ceiling".into(), c.clone().into());
            }
            full.extend(obj);
            serde_json::from_value(Value::Object(full)).map_err(at)?
        };
        out.push(record);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(run: &RunInfo, alg: &str, size: usize, bps: f64) -> Record {
        Record {
            run: run.clone(),
            algorithm: alg.into(),
            implementation: "simdcrypt".into(),
            backend: "vaes-avx512".into(),
            automatic: true,
            size,
            streams: if alg.ends_with("many") { 8 } else { 1 },
            par_threads: 1,
            bytes_per_second: bps,
            min_bytes_per_second: bps * 0.98765432,
            max_bytes_per_second: bps * 1.0123456,
            rounds: 7,
            seconds: 0.08,
            ceiling: format!("{alg} ceiling"),
            ceiling_bytes_per_second: Some(bps * 1.33333333),
            ratio_to_ceiling: Some(0.7512345),
            ratio_to_openssl: Some(1.23456789),
            ratio_to_aws_lc: None,
            ratio_to_rustcrypto: Some(3.0),
            ratio_to_one_thread: None,
            verified: Some(true),
        }
    }

    fn run_info_at(commit: &str) -> RunInfo {
        RunInfo {
            schema: SCHEMA,
            tool: "simdcrypt-speed".into(),
            version: "0.1.0".into(),
            git_commit: Some(commit.into()),
            cpu: "Test CPU (family 6 model 167 stepping 1)".into(),
            cpu_vendor: Some("GenuineIntel".into()),
            cpu_family: Some(6),
            cpu_model: Some(167),
            cpu_stepping: Some(1),
            features: vec!["aes".into()],
            threads: 1,
            ..RunInfo::default()
        }
    }

    #[test]
    fn blocks_round_trip() {
        let (a, b) = (run_info_at("aaaa"), run_info_at("bbbb"));
        let mut records = vec![
            rec(&a, "sha1", 64, 1.234567891e9),
            rec(&a, "sha1-many", 64, 9.87654321e9),
            rec(&b, "sha1", 64, 2.5e9),
        ];
        records[1].ceiling = "another formula".into();
        let text = write(&records);
        let lines: Vec<&str> = text.lines().collect();
        // Two blocks: a header per run, the provenance only there.
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[0].contains("\"tool\"") && lines[3].contains("\"bbbb\""));
        for l in [lines[1], lines[2], lines[4]] {
            for gone in ["tool", "git_commit", "cpu", "rounds", "null", "par_threads"] {
                assert!(
                    !l.contains(&format!("\"{gone}")) && !l.contains(gone),
                    "{l}"
                );
            }
        }
        assert!(!lines[1].contains("\"ceiling\":") && lines[0].contains("another formula"));
        assert!(lines[2].contains("streams"));
        let back = read(&text).unwrap();
        assert_eq!(back.len(), 3);
        for (r, w) in back.iter().zip(&records) {
            assert_eq!(
                (&r.run, &r.algorithm, &r.ceiling),
                (&w.run, &w.algorithm, &w.ceiling)
            );
            assert_eq!(
                (r.size, r.streams, r.rounds, r.seconds),
                (w.size, w.streams, 7, 0.08)
            );
            assert!((r.bytes_per_second / w.bytes_per_second - 1.0).abs() < 1e-3);
            assert_eq!(r.ratio_to_openssl, Some(1.235));
            assert_eq!((r.ratio_to_aws_lc, r.verified), (None, Some(true)));
        }
        // Written again, the records read back give the same text.
        assert_eq!(write(&back), text);
        assert_eq!(file_name(&a), "intel-family6-model167.jsonl");
    }

    /// Without a CPUID signature (Arm, macOS) the file is named by the vendor and the
    /// model name, the vendor once.
    #[test]
    fn names_the_file_of_a_cpu_without_a_signature() {
        let mut r = run_info_at("aaaa");
        (r.cpu_family, r.cpu_model, r.cpu_stepping) = (None, None, None);
        r.cpu_vendor = Some("ARM".into());
        r.cpu_model_name = "ARM Neoverse-N1".into();
        assert_eq!(file_name(&r), "arm-neoverse-n1.jsonl");
        r.cpu_model_name = "ARM Cortex-X1 + ARM Cortex-A55".into();
        assert_eq!(file_name(&r), "arm-cortex-x1-arm-cortex-a55.jsonl");
        (r.cpu_vendor, r.cpu_model_name) = (Some("Apple".into()), "Apple M2 Pro".into());
        assert_eq!(file_name(&r), "apple-m2-pro.jsonl");
        (r.cpu_vendor, r.cpu_model_name) = (None, "Some CPU".into());
        assert_eq!(file_name(&r), "cpu-some-cpu.jsonl");
    }

    /// A header of another schema, a header without one and a measurement line before
    /// any header are errors that name the line.
    #[test]
    fn reads_schema_3_alone() {
        let header = Header::of(&[rec(&run_info_at("cccc"), "sha1", 16, 1e9)]).unwrap();
        let good = header.line();
        assert_eq!(read(&format!("\n{good}")).unwrap(), vec![]);
        let old = good.replace("\"schema\":3", "\"schema\":2");
        assert_ne!(old, good);
        let e = read(&format!("{good}{old}")).unwrap_err();
        assert!(e.starts_with("line 2: a header of schema 2;"), "{e}");
        assert!(
            read(&good.replace("\"schema\":3,", ""))
                .unwrap_err()
                .contains("schema")
        );
        assert!(
            read("{\"algorithm\":\"sha1\"}")
                .unwrap_err()
                .contains("before any header")
        );
    }
}
