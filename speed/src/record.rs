//! The JSON Lines records: one per algorithm x contender x size. The schema (and its
//! version, [`SCHEMA`]) is documented in speed/README.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The records' schema version; raised when a field changes meaning or goes.
pub const SCHEMA: u32 = 2;

/// Where and how a run was made: the same in every record of the run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct RunInfo {
    /// [`SCHEMA`] (absent, read as 1, in records from before provenance was added).
    #[serde(default = "one")]
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
}

fn one() -> u32 {
    1
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

/// Reads a records file (JSON Lines; blank lines skipped).
pub fn read(text: &str) -> Result<Vec<Record>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
