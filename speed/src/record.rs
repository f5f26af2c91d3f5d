//! The JSON Lines records: one per algorithm x contender x size (schema in speed/README.md).

use serde::{Deserialize, Serialize};

/// One measured contender at one size, as `--json` writes it and `compare` reads it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Record {
    pub tool: String,
    pub version: String,
    pub cpu: String,
    pub features: Vec<String>,
    pub openssl_version: Option<String>,
    pub algorithm: String,
    pub implementation: String,
    pub backend: String,
    pub automatic: bool,
    pub size: usize,
    pub streams: usize,
    pub bytes_per_second: f64,
    pub min_bytes_per_second: f64,
    pub max_bytes_per_second: f64,
    pub rounds: usize,
    pub seconds: f64,
    pub ceiling: String,
    pub ceiling_bytes_per_second: Option<f64>,
    pub ratio_to_ceiling: Option<f64>,
    pub ratio_to_openssl: Option<f64>,
    pub ratio_to_rustcrypto: Option<f64>,
    pub verified: Option<bool>,
}
