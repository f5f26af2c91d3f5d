//! `speed compare A.jsonl B.jsonl [...]`: runs side by side.
//!
//! Per algorithm and size, one row per contender (simdcrypt's automatic choice, or every
//! backend with `--all-backends`, then each peer); per run, the backend, GB/s, the fraction
//! of the ceiling and the ratios to the peers (each measured within that run, round by
//! round), and last each run's GB/s over the first run's.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::algs::{self, PEERS};
use crate::record::{self, Record};

/// One records file.
#[derive(Clone, Debug)]
pub struct Run {
    /// `A`, `B`, ...
    pub label: String,
    /// The file name.
    pub file: String,
    /// Its records.
    pub records: Vec<Record>,
}

impl Run {
    /// Reads `path`; `index` gives the label.
    pub fn load(path: &Path, index: usize) -> Result<Run, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = record::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if records.is_empty() {
            return Err(format!("{}: no records", path.display()));
        }
        Ok(Run {
            label: run_label(index),
            file: path.display().to_string(),
            records,
        })
    }

    /// One line on where the run was made (a file of several runs: each run's commit,
    /// OpenSSL and timestamp).
    pub fn describe(&self) -> String {
        let r = &self.records[0].run;
        let mut s = format!("{}: {}", self.file, r.cpu);
        let _ = write!(s, ", speed {}", r.version);
        let mut runs: Vec<&crate::record::RunInfo> = Vec::new();
        for rec in &self.records {
            if !runs.contains(&&rec.run) {
                runs.push(&rec.run);
            }
        }
        for r in runs {
            if let Some(c) = &r.git_commit {
                let _ = write!(s, ", commit {}", &c[..c.len().min(12)]);
            }
            if let Some(o) = &r.openssl_version {
                let _ = write!(s, ", {o}");
            }
            if let Some(a) = r.peers.get("aws-lc") {
                let _ = write!(s, ", {a}");
            }
            if r.threads > 1 {
                let _ = write!(s, ", {} threads", r.threads);
            }
            if !r.timestamp.is_empty() {
                let _ = write!(s, ", {}", r.timestamp);
            }
        }
        s
    }
}

/// `A` to `Z`, then `R27`, ...
pub fn run_label(i: usize) -> String {
    if i < 26 {
        char::from(b'A' + i as u8).to_string()
    } else {
        format!("R{}", i + 1)
    }
}

/// Whether `--alg` patterns select `name` among the algorithms of `runs`.
pub fn wanted(runs: &[Run], alg_patterns: Option<&[String]>, name: &str) -> bool {
    let names: BTreeSet<&str> = runs
        .iter()
        .flat_map(|r| &r.records)
        .map(|r| r.algorithm.as_str())
        .collect();
    wanted_in(&names, alg_patterns, name)
}

fn wanted_in(names: &BTreeSet<&str>, alg_patterns: Option<&[String]>, name: &str) -> bool {
    alg_patterns.is_none_or(|ps| {
        ps.iter().any(|p| {
            if names.contains(p.as_str()) {
                p == name
            } else {
                algs::selects(p, name)
            }
        })
    })
}

/// A row's contender: simdcrypt's automatic choice, a simdcrypt backend, or a peer.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Row {
    Auto,
    /// Ordered as `simdcrypt::all_backends()` lists them.
    Backend(usize, String),
    Peer(usize, String),
}

impl Row {
    fn of(r: &Record) -> Row {
        if r.implementation != "simdcrypt" {
            let order = PEERS
                .iter()
                .position(|p| p.implementation() == r.implementation)
                .unwrap_or(PEERS.len());
            Row::Peer(order, r.implementation.clone())
        } else {
            let order = simdcrypt::all_backends()
                .iter()
                .position(|b| b.name() == r.backend)
                .unwrap_or(usize::MAX);
            Row::Backend(order, r.backend.clone())
        }
    }

    fn name(&self) -> &str {
        match self {
            Row::Auto => "simdcrypt (auto)",
            Row::Backend(_, b) => b,
            Row::Peer(_, p) => p,
        }
    }

    /// The record of this contender, the last in the file where several runs measured it
    /// (runs are appended: the last is the newest).
    fn find<'a>(&self, run: &'a Run, alg: &str, size: usize) -> Option<&'a Record> {
        run.records.iter().rev().find(|r| {
            r.algorithm == alg
                && r.size == size
                && match self {
                    Row::Auto => r.automatic,
                    _ => Row::of(r) == *self,
                }
        })
    }
}

fn ratio(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.2}x")).unwrap_or_else(|| "-".into())
}

/// Lays `header` and `rows` out as aligned text, or as a Markdown table.
fn layout(header: &[String], rows: &[Vec<String>], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let seps: Vec<&str> = (0..header.len())
            .map(|i| if i < 2 { "---" } else { "---:" })
            .collect();
        let _ = writeln!(out, "|{}|", seps.join("|"));
        for r in rows {
            let _ = writeln!(out, "| {} |", r.join(" | "));
        }
        return out;
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            std::iter::once(&header[i])
                .chain(rows.iter().map(|r| &r[i]))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            let w = widths[i];
            if i < 2 {
                let _ = write!(line, "{c:<w$}  ");
            } else {
                let _ = write!(line, "{c:>w$}  ");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The comparison of `runs` as text (or Markdown), algorithms filtered by `algs` patterns.
pub fn compare(
    runs: &[Run],
    alg_patterns: Option<&[String]>,
    sizes_wanted: Option<&[usize]>,
    all_backends: bool,
    markdown: bool,
) -> String {
    let mut out = String::new();
    for run in runs {
        let _ = writeln!(
            out,
            "{}{} = {}",
            if markdown { "- " } else { "" },
            run.label,
            run.describe()
        );
    }
    if runs.len() > 1 {
        let _ = writeln!(
            out,
            "{}Within a run every ratio is a median of per-round ratios; between runs ({}/{}) \
             the medians of separate processes are divided, so drift between them stays in.",
            if markdown { "\n" } else { "" },
            runs[1].label,
            runs[0].label
        );
    }
    // Algorithms in order of first appearance.
    // As for measuring: an exact name selects that algorithm alone, a word every match.
    let names: BTreeSet<&str> = runs
        .iter()
        .flat_map(|r| &r.records)
        .map(|r| r.algorithm.as_str())
        .collect();
    let selected = |name: &str| wanted_in(&names, alg_patterns, name);
    let mut algorithms: Vec<&str> = Vec::new();
    for r in runs.iter().flat_map(|r| &r.records) {
        let wanted = selected(&r.algorithm);
        if wanted && !algorithms.contains(&r.algorithm.as_str()) {
            algorithms.push(&r.algorithm);
        }
    }
    for alg in algorithms {
        // Peer columns: every peer that ran this algorithm in any run.
        let peers: Vec<&str> = PEERS
            .iter()
            .map(|p| p.implementation())
            .filter(|p| {
                runs.iter()
                    .flat_map(|r| &r.records)
                    .any(|r| r.algorithm == alg && r.implementation == *p)
            })
            .collect();
        let mine = |run: &Run| -> Vec<Record> {
            run.records
                .iter()
                .filter(|r| r.algorithm == alg)
                .cloned()
                .collect()
        };
        let sizes: BTreeSet<usize> = runs
            .iter()
            .flat_map(&mine)
            .map(|r| r.size)
            .filter(|s| sizes_wanted.is_none_or(|w| w.contains(s)))
            .collect();
        let mut rows: BTreeSet<Row> = BTreeSet::new();
        for r in runs.iter().flat_map(mine) {
            match Row::of(&r) {
                // `par-N` rows stay: each thread count is its own contender.
                Row::Backend(_, b) if !all_backends && !b.starts_with("par-") => {
                    rows.insert(Row::Auto);
                }
                row => {
                    rows.insert(row);
                }
            }
        }
        let mut header = vec!["size".to_string(), "contender".to_string()];
        for run in runs {
            let l = &run.label;
            header.extend([
                format!("{l} backend"),
                format!("{l} GB/s"),
                format!("{l} of ceiling"),
            ]);
            for p in &peers {
                header.push(format!("{l} x {p}"));
            }
        }
        for run in &runs[1..] {
            header.push(format!("{}/{}", run.label, runs[0].label));
        }
        let mut table = Vec::new();
        for &size in &sizes {
            for row in &rows {
                let found: Vec<Option<&Record>> =
                    runs.iter().map(|run| row.find(run, alg, size)).collect();
                if found.iter().all(Option::is_none) {
                    continue;
                }
                let mut cells = vec![size.to_string(), row.name().to_string()];
                for f in &found {
                    match f {
                        Some(r) => {
                            cells.push(r.backend.clone());
                            cells.push(format!("{:.2}", r.bytes_per_second / 1e9));
                            cells.push(
                                r.ratio_to_ceiling
                                    .map(|c| format!("{:.1}%", 100.0 * c))
                                    .unwrap_or_else(|| "-".into()),
                            );
                            for p in &peers {
                                let v = match *p {
                                    "openssl" => r.ratio_to_openssl,
                                    "aws-lc" => r.ratio_to_aws_lc,
                                    _ => r.ratio_to_rustcrypto,
                                };
                                cells.push(if r.implementation == *p {
                                    "-".into()
                                } else {
                                    ratio(v)
                                });
                            }
                        }
                        None => cells.extend(std::iter::repeat_n("-".to_string(), 3 + peers.len())),
                    }
                }
                for f in &found[1..] {
                    let between = match (found[0], f) {
                        (Some(a), Some(b)) => Some(b.bytes_per_second / a.bytes_per_second),
                        _ => None,
                    };
                    cells.push(ratio(between));
                }
                table.push(cells);
            }
        }
        if table.is_empty() {
            continue;
        }
        let _ = write!(out, "\n{}{alg}\n\n", if markdown { "#### " } else { "" });
        out.push_str(&layout(&header, &table, markdown));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RunInfo;

    fn rec(alg: &str, imp: &str, backend: &str, auto: bool, size: usize, bps: f64) -> Record {
        Record {
            run: RunInfo {
                cpu: "Test CPU (family 1 model 2 stepping 3)".into(),
                ..RunInfo::default()
            },
            algorithm: alg.into(),
            implementation: imp.into(),
            backend: backend.into(),
            automatic: auto,
            size,
            streams: 1,
            par_threads: 1,
            bytes_per_second: bps,
            min_bytes_per_second: bps,
            max_bytes_per_second: bps,
            rounds: 1,
            seconds: 0.1,
            ceiling: "c".into(),
            ceiling_bytes_per_second: Some(2.0 * bps),
            ratio_to_ceiling: Some(0.5),
            ratio_to_openssl: Some(1.25),
            ratio_to_aws_lc: None,
            ratio_to_rustcrypto: Some(3.0),
            ratio_to_one_thread: None,
            verified: Some(true),
        }
    }

    #[test]
    fn lays_runs_side_by_side() {
        let run = |label: &str, records| Run {
            label: label.into(),
            file: format!("{}.jsonl", label.to_lowercase()),
            records,
        };
        let a = run(
            "A",
            vec![
                rec("sha1", "simdcrypt", "sha-ni", true, 4096, 2e9),
                rec("sha1", "simdcrypt", "avx2", false, 4096, 1e9),
                rec("sha1", "openssl", "openssl", false, 4096, 1.6e9),
            ],
        );
        let b = run(
            "B",
            vec![
                rec("sha1", "simdcrypt", "avx2", true, 4096, 3e9),
                rec("sha1", "openssl", "openssl", false, 4096, 2.4e9),
            ],
        );
        let out = compare(&[a.clone(), b.clone()], None, None, false, false);
        let auto = out
            .lines()
            .find(|l| l.contains("simdcrypt (auto)"))
            .unwrap();
        // A's auto is sha-ni at 2 GB/s, B's is avx2 at 3 GB/s: B/A = 1.5. Only the peers
        // that ran get a column (OpenSSL here, not RustCrypto).
        let cells: Vec<&str> = auto.split_whitespace().collect();
        assert_eq!(
            cells,
            [
                "4096",
                "simdcrypt",
                "(auto)",
                "sha-ni",
                "2.00",
                "50.0%",
                "1.25x",
                "avx2",
                "3.00",
                "50.0%",
                "1.25x",
                "1.50x"
            ],
            "{out}"
        );
        let ossl = out
            .lines()
            .find(|l| l.starts_with("4096  openssl"))
            .unwrap();
        assert!(ossl.ends_with("1.50x"), "{out}");
        assert!(
            !out.contains("avx2  1.00"),
            "non-automatic backends only on request"
        );
        let all = compare(&[a.clone(), b], None, None, true, true);
        assert!(all.contains("| 4096 | avx2 | avx2 | 1.00 |"), "{all}");
        assert!(all.contains("#### sha1"), "{all}");
        let none = compare(std::slice::from_ref(&a), None, Some(&[16]), false, false);
        assert!(!none.contains("4096"), "sizes filtered: {none}");
        assert!(
            compare(
                std::slice::from_ref(&a),
                Some(&["xts".to_string()]),
                None,
                false,
                false
            )
            .lines()
            .count()
                == 1
        );
    }
}
