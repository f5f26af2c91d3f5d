//! simdcrypt's speed tool, as a library so that the `speed` binary, the criterion benches
//! and the tests share one table of algorithms and contenders.
//!
//! ```text
//! for each algorithm, for each size:
//!     contenders = simdcrypt's backends + OpenSSL + RustCrypto (+ the ceiling's probe)
//!     run each once; compare outputs (a contender that disagrees is flagged)
//!     warm each up
//!     repeat `rounds` times: run every contender for seconds/rounds, rotating who goes
//!         first, so that drift (turbo, other load) hits every contender alike
//!     report the median of the rounds, and ratios to the ceiling and to each peer
//! ```

pub mod algs;
pub mod ceiling;
pub mod cli;
pub mod compare;
pub mod cpuinfo;
pub mod keysetup;
pub mod measure;
pub mod record;
pub mod report;
pub mod svg;

use std::io::Write;
use std::time::{Duration, Instant};

use algs::{Algorithm, Family, PEERS, Who};
use ceiling::Instr;
use clap::{CommandFactory, Parser};
use cli::{BackendSel, Cli, Options};
use measure::{Runner, stats, time_slice, time_slice_with};
use record::{Record, RunInfo};
use simdcrypt::Backend;

/// One contender at one size, measured.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The algorithm.
    pub alg: &'static Algorithm,
    /// Who ran it.
    pub who: Who,
    /// Whether this is the backend simdcrypt picks automatically.
    pub automatic: bool,
    /// Bytes per message (per stream).
    pub size: usize,
    /// Bytes per second in each round.
    pub samples: Vec<f64>,
    /// The ceiling in each round (empty without one).
    pub ceiling_samples: Vec<f64>,
    /// Median bytes per second over the rounds (all streams counted).
    pub bps: f64,
    /// Slowest round.
    pub min: f64,
    /// Fastest round.
    pub max: f64,
    /// The ceiling measured in the same rounds, in bytes per second (median).
    pub ceiling_bps: Option<f64>,
    /// Whether its output matched the reference contender's (`None`: nothing to compare).
    pub verified: Option<bool>,
}

/// The run's provenance: this machine, this build, the peers' versions, now.
pub fn run_info(threads: usize) -> RunInfo {
    let sig = cpuinfo::signature();
    let mut peers = std::collections::BTreeMap::new();
    let openssl = cpuinfo::openssl_version();
    if let Some(v) = &openssl {
        peers.insert("openssl".to_string(), v.clone());
    }
    if let Some(v) = algs::aws_lc_version() {
        peers.insert("aws-lc".to_string(), v);
    }
    for pair in env!("SPEED_CRATE_VERSIONS").split(',') {
        let Some((name, version)) = pair.split_once('=') else {
            continue;
        };
        let (aws_lc, vendored) = (cfg!(feature = "aws-lc"), cfg!(feature = "vendored-openssl"));
        let built = match name {
            "aws-lc-rs" | "aws-lc-sys" => aws_lc,
            "openssl-src" => vendored,
            _ => true,
        };
        if built {
            peers.insert(name.to_string(), version.to_string());
        }
    }
    let nonempty = |s: &str| (!s.is_empty()).then(|| s.to_string());
    RunInfo {
        schema: record::SCHEMA,
        tool: "simdcrypt-speed".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        git_commit: nonempty(env!("SPEED_GIT_COMMIT")),
        rustc: env!("SPEED_RUSTC").into(),
        target: format!("{} {}", env!("SPEED_TARGET"), env!("SPEED_PROFILE")),
        target_features: env!("SPEED_TARGET_FEATURES")
            .split(',')
            .filter(|f| !f.is_empty())
            .map(String::from)
            .collect(),
        cpu: cpuinfo::cpu_model(),
        cpu_vendor: cpuinfo::vendor(),
        cpu_family: sig.map(|s| s.0),
        cpu_model: sig.map(|s| s.1),
        cpu_stepping: sig.map(|s| s.2),
        cpu_model_name: cpuinfo::model_name(),
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
        os: cpuinfo::os(),
        timestamp: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        features: simdcrypt::cpu::detected()
            .names()
            .map(String::from)
            .collect(),
        openssl_version: openssl,
        peers,
        threads,
        command: None,
    }
}

/// `opts` without the algorithms that have nothing to run (no contender, as the `-par`
/// rows without `--threads` 2 or more, or no valid size), each left out with a note on
/// stderr; the header, the progress and the tables list the rest alone.
pub fn runnable(opts: &Options) -> Options {
    let mut out = opts.clone();
    out.algs.retain(|a| {
        let why = if selected_contenders(a, opts).is_empty() {
            if a.family == Family::XtsPar {
                if cfg!(feature = "rayon") {
                    "it needs --threads 2 or more"
                } else {
                    "it needs the `rayon` feature and --threads 2 or more"
                }
            } else {
                "no contender selected runs it here"
            }
        } else if selected_sizes(a, opts).is_empty() {
            "no size selected is valid for it"
        } else {
            return true;
        };
        eprintln!("speed: note: {} left out: {why}", a.name);
        false
    });
    out
}

/// The simdcrypt contenders `opts` selects for `alg`.
pub fn selected_contenders(alg: &Algorithm, opts: &Options) -> Vec<Who> {
    if alg.family == Family::XtsPar {
        if opts.threads < 2 || !cfg!(feature = "rayon") {
            return Vec::new();
        }
        return algs::par_threads(opts.threads)
            .into_iter()
            .map(Who::Par)
            .collect();
    }
    let ours = alg.backends();
    let mut v: Vec<Who> = match &opts.backends {
        BackendSel::All => ours.into_iter().map(Who::Simdcrypt).collect(),
        BackendSel::Auto => {
            let auto = alg.auto();
            ours.into_iter()
                .filter(|b| b.is_none() || *b == auto)
                .map(Who::Simdcrypt)
                .collect()
        }
        BackendSel::Only(list) => ours
            .into_iter()
            .filter(|b| b.is_none_or(|b| list.contains(&b)))
            .map(Who::Simdcrypt)
            .collect(),
    };
    for w in alg.contenders() {
        if w.is_peer() && opts.peers.contains(&w) {
            v.push(w);
        }
    }
    v
}

/// The sizes `opts` selects for `alg` (those the algorithm accepts).
pub fn selected_sizes(alg: &Algorithm, opts: &Options) -> Vec<usize> {
    match &opts.sizes {
        Some(s) => s.iter().copied().filter(|&s| alg.size_ok(s)).collect(),
        None => alg.default_sizes(),
    }
}

fn preference(w: Who) -> u8 {
    match w {
        Who::OpenSsl => 0,
        Who::AwsLc => 1,
        Who::RustCrypto | Who::Sha1DcCrate | Who::Sha1Cd => 2,
        Who::Simdcrypt(Some(Backend::Portable)) => 3,
        Who::Par(1) => 3,
        Who::Simdcrypt(_) | Who::Par(_) => 4,
    }
}

/// Measures one algorithm at one size (empty if no contender can run it).
///
/// With `threads` above 1, that many threads each build their own contenders and run them
/// at once, slice by slice (a barrier starts each slice in every thread), timed in wall
/// time; a figure is the sum of the threads' rates, as `openssl speed -multi` adds up its
/// processes.
pub fn measure_group(
    alg: &'static Algorithm,
    contenders: &[Who],
    size: usize,
    seconds: f64,
    rounds: usize,
    threads: usize,
) -> Vec<Measured> {
    let mut entries: Vec<(Who, Box<dyn Runner>)> = contenders
        .iter()
        .filter_map(|&w| alg.make(w, size).map(|r| (w, r)))
        .collect();
    if entries.is_empty() {
        return Vec::new();
    }

    let whos: Vec<Who> = entries.iter().map(|(w, _)| *w).collect();
    // Cross-check: one run each from a fresh state.
    let outputs: Vec<Vec<u8>> = entries
        .iter_mut()
        .map(|(_, r)| {
            r.process_one();
            r.output().to_vec()
        })
        .collect();
    let verified: Vec<Option<bool>> = (0..entries.len())
        .map(|i| {
            let reference = (0..entries.len())
                .filter(|&j| j != i)
                .min_by_key(|&j| (preference(entries[j].0), j))?;
            let ok = !outputs[i].is_empty() && outputs[i] == outputs[reference];
            if !ok {
                eprintln!(
                    "speed: WARNING: {} at {size} bytes: {} {} disagrees with {} {}",
                    alg.name,
                    entries[i].0.implementation(),
                    entries[i].0.backend_name(),
                    entries[reference].0.implementation(),
                    entries[reference].0.backend_name(),
                );
            }
            Some(ok)
        })
        .collect();

    let bytes = alg.bytes(size) as f64;
    let slice = Duration::from_secs_f64(seconds / rounds as f64);
    let n = entries.len();
    let (samples, ceiling_samples) = if threads <= 1 || alg.family == Family::XtsPar {
        let mut probe = make_probe(alg, size);
        run_rounds(&mut entries, probe.as_mut(), bytes, slice, rounds, None)
    } else {
        drop(entries);
        let barrier = std::sync::Barrier::new(threads);
        let per_thread: Vec<Samples> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let (whos, barrier) = (&whos, &barrier);
                    sc.spawn(move || {
                        let mut mine: Vec<(Who, Box<dyn Runner>)> = whos
                            .iter()
                            .map(|&w| (w, alg.make(w, size).expect("made before")))
                            .collect();
                        let mut probe = make_probe(alg, size);
                        run_rounds(
                            &mut mine,
                            probe.as_mut(),
                            bytes,
                            slice,
                            rounds,
                            Some(barrier),
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a measuring thread panicked"))
                .collect()
        });
        let sum = |pick: &dyn Fn(&Samples) -> &Vec<f64>| -> Vec<f64> {
            let len = pick(&per_thread[0]).len();
            (0..len)
                .map(|r| per_thread.iter().map(|t| pick(t)[r]).sum())
                .collect()
        };
        let samples: Vec<Vec<f64>> = (0..n).map(|i| sum(&|t| &t.0[i])).collect();
        (samples, sum(&|t| &t.1))
    };
    let ceiling_bps = (!ceiling_samples.is_empty()).then(|| stats(&ceiling_samples).0);
    let auto = alg.auto();
    whos.iter()
        .zip(samples)
        .zip(verified)
        .map(|((who, s), verified)| {
            let (bps, min, max) = stats(&s);
            let s = s.clone();
            Measured {
                alg,
                who: *who,
                automatic: match who {
                    Who::Simdcrypt(None) => true,
                    // Where the trait route is the automatic contender, the backend rows
                    // beside it (simdcrypt's own API) are not.
                    Who::Simdcrypt(b) => *b == auto && !alg.family.is_trait_route(),
                    _ => false,
                },
                size,
                bps,
                min,
                max,
                ceiling_bps,
                samples: s,
                ceiling_samples: ceiling_samples.clone(),
                verified,
            }
        })
        .collect()
}

/// Per contender, then for the ceiling's probe: the rate in each round.
type Samples = (Vec<Vec<f64>>, Vec<f64>);

/// The probe of `alg`'s ceiling and the bytes one of its runs is worth.
fn make_probe(alg: &Algorithm, size: usize) -> Option<(Box<dyn Runner>, f64)> {
    if let ceiling::Ceiling::PlainSha1(streams) = alg.ceiling {
        return Some(algs::plain_sha1_probe(streams, size));
    }
    alg.ceiling.resolve().and_then(|(instr, bytes_per_op)| {
        instr
            .probe()
            .map(|p| (p, instr.ops_per_run() as f64 * bytes_per_op))
    })
}

/// Warms every contender up, then `rounds` rounds of one slice each (the first contender
/// rotating), the ceiling's probe after them; with `sync`, every slice starts at the
/// barrier and is timed in wall time. Returns the contenders' and the probe's samples.
fn run_rounds(
    entries: &mut [(Who, Box<dyn Runner>)],
    mut probe: Option<&mut (Box<dyn Runner>, f64)>,
    bytes: f64,
    slice: Duration,
    rounds: usize,
    sync: Option<&std::sync::Barrier>,
) -> Samples {
    let wall = sync.is_some();
    let time = |r: &mut dyn Runner, b: f64, d: Duration| {
        if let Some(s) = sync {
            s.wait();
        }
        let wall = wall || r.wall_clock();
        time_slice_with(r, b, d, wall)
    };
    for (_, r) in entries.iter_mut() {
        time(r.as_mut(), bytes, slice / 8);
    }
    let n = entries.len();
    let mut samples = vec![Vec::with_capacity(rounds); n];
    let mut ceiling_samples = Vec::with_capacity(rounds);
    for round in 0..rounds {
        for k in 0..n {
            let i = (k + round) % n;
            samples[i].push(time(entries[i].1.as_mut(), bytes, slice));
        }
        if let Some((p, b)) = probe.as_mut() {
            ceiling_samples.push(time(p.as_mut(), *b, slice / 2));
        }
    }
    (samples, ceiling_samples)
}

/// The instruction ceilings alone, interleaved over `rounds`: (instruction, ops per second).
pub fn measure_instructions(seconds: f64, rounds: usize) -> Vec<(Instr, f64)> {
    let mut probes: Vec<(Instr, Box<dyn Runner>)> = Instr::ALL
        .iter()
        .filter_map(|&i| i.probe().map(|p| (i, p)))
        .collect();
    let slice = Duration::from_secs_f64(seconds / rounds as f64);
    let mut samples = vec![Vec::new(); probes.len()];
    for (i, p) in probes.iter_mut() {
        time_slice(p.as_mut(), i.ops_per_run() as f64, slice / 4);
    }
    for _ in 0..rounds {
        for (k, (i, p)) in probes.iter_mut().enumerate() {
            samples[k].push(time_slice(p.as_mut(), i.ops_per_run() as f64, slice));
        }
    }
    probes
        .iter()
        .zip(samples)
        .map(|((i, _), s)| (*i, stats(&s).0))
        .collect()
}

/// `a`'s speed over the speed of peer `peer` at the same algorithm and size.
///
/// The median of the per-round ratios: both were measured within the same round, a fraction
/// of a second apart, so the machine's drift between rounds cancels out.
pub fn ratio_to(results: &[Measured], a: &Measured, peer: Who) -> Option<f64> {
    results
        .iter()
        .find(|r| r.who == peer && r.size == a.size && r.alg.name == a.alg.name)
        .map(|r| per_round_ratio(&a.samples, &r.samples))
}

/// The median over rounds of `a[i] / b[i]`.
pub fn per_round_ratio(a: &[f64], b: &[f64]) -> f64 {
    let r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    stats(&r).0
}

impl Measured {
    /// The fraction of the ceiling: the median of the per-round fractions.
    pub fn ratio_to_ceiling(&self) -> Option<f64> {
        (!self.ceiling_samples.is_empty())
            .then(|| per_round_ratio(&self.samples, &self.ceiling_samples))
    }
}

/// The record of `r` (one of `results`, measured on `m` with `opts`).
pub fn record(m: &RunInfo, opts: &Options, results: &[Measured], r: &Measured) -> Record {
    Record {
        run: m.clone(),
        algorithm: r.alg.name.into(),
        implementation: r.who.implementation().into(),
        backend: r.who.backend_name().into(),
        automatic: r.automatic,
        size: r.size,
        streams: r.alg.streams,
        bytes_per_second: r.bps,
        min_bytes_per_second: r.min,
        max_bytes_per_second: r.max,
        rounds: opts.rounds,
        seconds: opts.seconds,
        ceiling: r.alg.ceiling.describe(),
        ceiling_bytes_per_second: r.ceiling_bps,
        ratio_to_ceiling: r.ratio_to_ceiling(),
        par_threads: match r.who {
            Who::Par(n) => n.into(),
            _ => 1,
        },
        ratio_to_openssl: ratio_to(results, r, Who::OpenSsl),
        ratio_to_aws_lc: ratio_to(results, r, Who::AwsLc),
        ratio_to_rustcrypto: ratio_to(results, r, Who::RustCrypto),
        ratio_to_one_thread: match r.who {
            Who::Par(_) => ratio_to(results, r, Who::Par(1)),
            _ => None,
        },
        verified: r.verified,
    }
}

const LABEL: usize = 20;

/// A ratio with one decimal from 10 up, two from 0.1, else four.
fn sig(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}
const COL: usize = 15;

fn label(w: Who, automatic: bool) -> String {
    let mut s = w.backend_name().to_string();
    if automatic && !w.is_peer() {
        s.push_str(" *");
    }
    s
}

/// The `openssl speed`-style table for one algorithm, with the ratio sections.
pub fn table(alg: &Algorithm, sizes: &[usize], results: &[Measured]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mine: Vec<&Measured> = results.iter().filter(|r| r.alg.name == alg.name).collect();
    let mut whos: Vec<(Who, bool)> = Vec::new();
    for r in &mine {
        if !whos.iter().any(|(w, _)| *w == r.who) {
            whos.push((r.who, r.automatic));
        }
    }
    let auto = alg
        .auto()
        .map(|b| b.name().to_string())
        .unwrap_or_else(|| "-".into());
    let streams = if alg.streams > 1 {
        format!("; {} streams, size is per stream", alg.streams)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "\n{}: automatic backend {auto}; ceiling {}{streams}",
        alg.name,
        alg.ceiling.describe()
    );
    // The label column: LABEL, or wider where a name (or a peer's "vs" title) needs it.
    let lw = whos
        .iter()
        .map(|&(w, a)| label(w, a).len() + if w.is_peer() { 4 } else { 1 })
        .max()
        .unwrap_or(0)
        .max(LABEL);
    let header = |out: &mut String, title: &str| {
        let _ = write!(out, "{title:<lw$}");
        for s in sizes {
            let _ = write!(out, "{:>COL$}", format!("{s} bytes"));
        }
        out.push('\n');
    };
    let find = |w: Who, s: usize| mine.iter().find(|r| r.who == w && r.size == s);
    header(&mut out, "type");
    for &(w, a) in &whos {
        let _ = write!(out, "{:<lw$}", label(w, a));
        for &s in sizes {
            match find(w, s) {
                Some(r) => {
                    let flag = if r.verified == Some(false) { "!" } else { "k" };
                    let _ = write!(out, "{:>w$.2}{flag}", r.bps / 1000.0, w = COL - 1);
                }
                None => {
                    let _ = write!(out, "{:>COL$}", "n/a");
                }
            }
        }
        out.push('\n');
    }
    let section = |out: &mut String,
                   title: &str,
                   f: &dyn Fn(&Measured) -> Option<f64>,
                   pct: bool,
                   rows: &[(Who, bool)]| {
        if rows.is_empty() {
            return;
        }
        header(out, title);
        for &(w, a) in rows {
            let _ = write!(out, "{:<lw$}", label(w, a));
            for &s in sizes {
                let cell = find(w, s).and_then(|r| f(r)).map(|v| {
                    if pct {
                        format!("{}%", sig(v * 100.0))
                    } else {
                        format!("{}x", sig(v))
                    }
                });
                let _ = write!(out, "{:>COL$}", cell.unwrap_or_else(|| "-".into()));
            }
            out.push('\n');
        }
    };
    if mine.iter().any(|r| r.ceiling_bps.is_some()) {
        section(
            &mut out,
            "of ceiling",
            &|r| r.ratio_to_ceiling(),
            true,
            &whos,
        );
    }
    for peer in PEERS.into_iter().chain([Who::Par(1)]) {
        let title = format!("vs {}", peer.backend_name());
        if whos.iter().any(|(w, _)| *w == peer) {
            let rows: Vec<(Who, bool)> = whos.iter().copied().filter(|(w, _)| *w != peer).collect();
            section(
                &mut out,
                &title,
                &|r| ratio_to(results, r, peer),
                false,
                &rows,
            );
        }
    }
    if mine.iter().any(|r| r.verified == Some(false)) {
        out.push_str("(!: output disagreed with the reference contender; that figure is not a valid result)\n");
    }
    out
}

fn opt_ratio(v: Option<f64>) -> String {
    v.map(|v| format!("{}×", sig(v)))
        .unwrap_or_else(|| "–".into())
}

fn opt_gbs(v: Option<f64>) -> String {
    v.map(|v| format!("{:.2}", v / 1e9))
        .unwrap_or_else(|| "–".into())
}

/// One algorithm as a Markdown table: the automatic backend at every size, then every
/// other simdcrypt backend at the largest size.
pub fn markdown(alg: &Algorithm, sizes: &[usize], results: &[Measured]) -> String {
    use std::fmt::Write as _;
    let mine: Vec<&Measured> = results.iter().filter(|r| r.alg.name == alg.name).collect();
    let mut out = format!("\n#### {}\n\n", alg.name);
    let ceil: Vec<f64> = mine.iter().filter_map(|r| r.ceiling_bps).collect();
    let _ = write!(out, "Ceiling: {}", alg.ceiling.describe());
    if !ceil.is_empty() {
        let _ = write!(out, " = {:.2} GB/s", stats(&ceil).0 / 1e9);
    }
    if alg.streams > 1 {
        let _ = write!(out, "; {} streams, size per stream", alg.streams);
    }
    out.push_str(".\n\n| size | backend | GB/s | of ceiling | × OpenSSL | × RustCrypto | OpenSSL GB/s | RustCrypto GB/s |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
    let peer_bps = |s: usize, w: Who| {
        mine.iter()
            .find(|r| r.size == s && r.who == w)
            .map(|r| r.bps)
    };
    let row = |out: &mut String, r: &Measured| {
        let _ = writeln!(
            out,
            "| {} | {}{} | {:.2} | {} | {} | {} | {} | {} |",
            r.size,
            r.who.backend_name(),
            if r.automatic { " (auto)" } else { "" },
            r.bps / 1e9,
            r.ratio_to_ceiling()
                .map(|c| format!("{}%", sig(100.0 * c)))
                .unwrap_or_else(|| "–".into()),
            opt_ratio(ratio_to(results, r, Who::OpenSsl)),
            opt_ratio(ratio_to(results, r, Who::RustCrypto)),
            opt_gbs(peer_bps(r.size, Who::OpenSsl)),
            opt_gbs(peer_bps(r.size, Who::RustCrypto)),
        );
    };
    let mut any = false;
    for &s in sizes {
        if let Some(r) = mine.iter().find(|r| r.size == s && r.automatic) {
            row(&mut out, r);
            any = true;
        }
    }
    if let Some(&last) = sizes.last() {
        for r in mine
            .iter()
            .filter(|r| r.size == last && !r.automatic && !r.who.is_peer())
        {
            row(&mut out, r);
            any = true;
        }
    }
    if !any {
        for &s in sizes {
            let _ = writeln!(
                out,
                "| {s} | (no simdcrypt kernel) | – | – | – | – | {} | {} |",
                opt_gbs(peer_bps(s, Who::OpenSsl)),
                opt_gbs(peer_bps(s, Who::RustCrypto)),
            );
        }
    }
    out
}

/// Per peer that ran `alg`, the lowest ratio of simdcrypt's automatic backend to it over
/// every size measured, and the size where it is: "no size where a peer wins" reads as
/// every ratio here being at least 1. Empty where nothing was compared.
pub fn worst_ratios(results: &[Measured], alg: &str) -> Vec<(Who, f64, usize)> {
    let mut out = Vec::new();
    for peer in PEERS {
        let worst = results
            .iter()
            .filter(|r| r.alg.name == alg && r.automatic)
            .filter_map(|r| ratio_to(results, r, peer).map(|v| (v, r.size)))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((v, size)) = worst {
            out.push((peer, v, size));
        }
    }
    out
}

/// The closing summary: per algorithm, simdcrypt's automatic choice at the headline sizes,
/// then its worst ratio to each peer over all sizes.
pub fn summary(results: &[Measured], algs: &[&'static Algorithm]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "\nsummary (simdcrypt's automatic backend; GB/s = 10^9 bytes/s; spread = (fastest - slowest round) / median):\n\
         algorithm                  size  backend             GB/s  spread  of ceiling  x openssl  x rustcrypto  openssl GB/s\n",
    );
    let gbs = |v: f64| format!("{:.2}", v / 1e9);
    for alg in algs {
        let mut sizes: Vec<usize> = results
            .iter()
            .filter(|r| r.alg.name == alg.name)
            .map(|r| r.size)
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut headline: Vec<usize> = sizes.last().copied().into_iter().collect();
        if matches!(alg.family, Family::Xts | Family::XtsSectors)
            && sizes.contains(&algs::XTS_SECTOR)
            && headline != [algs::XTS_SECTOR]
        {
            headline.insert(0, algs::XTS_SECTOR);
        }
        for s in headline {
            let at = |w: Who| {
                results
                    .iter()
                    .find(|r| r.alg.name == alg.name && r.size == s && r.who == w)
            };
            // The automatic backend; for the `-par` algorithms, the most threads.
            let most = results
                .iter()
                .filter(|r| r.alg.name == alg.name && r.size == s)
                .filter_map(|r| match r.who {
                    Who::Par(n) => Some(n),
                    _ => None,
                })
                .max();
            let ours = results.iter().find(|r| {
                r.alg.name == alg.name
                    && r.size == s
                    && (r.automatic || most.is_some_and(|n| r.who == Who::Par(n)))
            });
            let ossl = at(Who::OpenSsl)
                .map(|r| gbs(r.bps))
                .unwrap_or_else(|| "-".into());
            let _ = match ours {
                Some(r) => writeln!(
                    out,
                    "{:<24} {:>6}  {:<15} {:>8} {:>7} {:>11} {:>10} {:>13} {:>13}",
                    alg.name,
                    s,
                    r.who.backend_name(),
                    gbs(r.bps),
                    format!("{:.0}%", 100.0 * (r.max - r.min) / r.bps),
                    r.ratio_to_ceiling()
                        .map(|c| format!("{:.1}%", 100.0 * c))
                        .unwrap_or_else(|| "-".into()),
                    ratio_to(results, r, Who::OpenSsl)
                        .map(|v| format!("{v:.2}x"))
                        .unwrap_or_else(|| "-".into()),
                    ratio_to(results, r, Who::RustCrypto)
                        .map(|v| format!("{v:.2}x"))
                        .unwrap_or_else(|| "-".into()),
                    ossl,
                ),
                None => writeln!(
                    out,
                    "{:<24} {:>6}  {:<15} {:>8} {:>7} {:>11} {:>10} {:>13} {:>13}",
                    alg.name, s, "(none)", "-", "-", "-", "-", "-", ossl
                ),
            };
        }
        let worst = worst_ratios(results, alg.name);
        if !worst.is_empty() && sizes.len() > 1 {
            let parts: Vec<String> = worst
                .iter()
                .map(|(w, v, size)| format!("x {} {v:.2} (at {size} B)", w.implementation()))
                .collect();
            let _ = writeln!(
                out,
                "{:<24} worst over {} sizes: {}",
                alg.name,
                sizes.len(),
                parts.join(", ")
            );
        }
    }
    out
}

/// Runs the tool; returns the process exit status.
pub fn main_with_args(argv: &[String]) -> i32 {
    let cli =
        match Cli::try_parse_from(std::iter::once("speed".to_string()).chain(argv.iter().cloned()))
        {
            Ok(c) => c,
            Err(e) => {
                let _ = e.print();
                return e.exit_code();
            }
        };
    match cli.command {
        Some(cli::Command::Compare(args)) => return compare_main(&args),
        Some(cli::Command::Report(a)) => {
            return report::report_main(&a.results, &a.out, &a.readme, a.check);
        }
        None => {}
    }
    let opts = match Options::resolve(cli.run) {
        Ok(o) => o,
        Err(e) => {
            let e = Cli::command().error(clap::error::ErrorKind::InvalidValue, e);
            let _ = e.print();
            return e.exit_code();
        }
    };
    measure_and_print(&opts, argv)
}

/// `speed compare`.
pub fn compare_main(args: &cli::CompareArgs) -> i32 {
    let runs: Result<Vec<compare::Run>, String> = args
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| compare::Run::load(f, i))
        .collect();
    let runs = match runs {
        Ok(r) => r,
        Err(e) => {
            eprintln!("speed compare: error: {e}");
            return 2;
        }
    };
    print!(
        "{}",
        compare::compare(
            &runs,
            args.alg.as_deref(),
            args.size.as_deref(),
            args.all_backends,
            args.markdown
        )
    );
    if let Some(path) = &args.svg {
        let data: Vec<(String, Vec<Record>)> = runs
            .iter()
            .map(|r| {
                let recs = r
                    .records
                    .iter()
                    .filter(|x| compare::wanted(&runs, args.alg.as_deref(), &x.algorithm))
                    .filter(|x| args.size.as_ref().is_none_or(|s| s.contains(&x.size)))
                    .cloned()
                    .collect();
                (r.label.clone(), recs)
            })
            .collect();
        if let Err(e) = std::fs::write(path, svg::render(&data, args.all_backends)) {
            eprintln!("speed compare: error: cannot write {}: {e}", path.display());
            return 2;
        }
        eprintln!("speed compare: wrote {}", path.display());
    }
    0
}

/// `speed` without a subcommand: measures what `opts` selects and prints it.
pub fn measure_and_print(opts: &Options, argv: &[String]) -> i32 {
    if opts.args.list {
        for a in &opts.algs {
            let backends: Vec<&str> = a
                .backends()
                .iter()
                .map(|b| Who::Simdcrypt(*b).backend_name())
                .collect();
            let peers: Vec<&str> = a
                .contenders()
                .into_iter()
                .filter(|w| w.is_peer())
                .map(|w| w.backend_name())
                .collect();
            println!(
                "{:<24} backends here: {:<48} peers: {}",
                a.name,
                if a.family == Family::XtsPar {
                    "par-1 to par-N with --threads N (automatic backend)".to_string()
                } else if backends.is_empty() {
                    "(none yet)".to_string()
                } else {
                    backends.join(",")
                },
                peers.join(",")
            );
        }
        return 0;
    }
    let opts = &runnable(opts);
    if opts.algs.is_empty() {
        eprintln!("speed: error: no algorithm selected has a contender and a valid size here");
        return 2;
    }
    let mut machine = run_info(opts.threads);
    machine.command = Some(
        std::iter::once("speed")
            .chain(argv.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
    );
    // The records' header: provenance, options and ceilings, once per run.
    let header = record::Header {
        run: machine.clone(),
        rounds: opts.rounds,
        seconds: opts.seconds,
        ceilings: opts
            .algs
            .iter()
            .map(|a| (a.name.to_string(), a.ceiling.describe()))
            .collect(),
    };
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    #[cfg(feature = "std")]
    if let Some(p) = simdcrypt::backend_env_problem() {
        eprintln!("speed: note: SIMDCRYPT_BACKEND: {p}");
    }
    if let BackendSel::Only(list) = &opts.backends {
        for b in list.iter().filter(|b| !b.is_available()) {
            eprintln!("speed: note: backend {b} is not available on this CPU or in this build");
        }
    }
    eprintln!("speed: measuring the instruction ceilings");
    let instr = measure_instructions(0.25_f64.min(opts.seconds * 2.0), opts.rounds);
    if opts.args.markdown {
        let _ = writeln!(
            out,
            "Measured with `cargo run --release --bin speed --{}` (simdcrypt speed {}{}) on {} ({}); {}. Each figure is the median of {} interleaved rounds, timed in thread CPU time.\n",
            argv.iter().map(|a| format!(" {a}")).collect::<String>(),
            env!("CARGO_PKG_VERSION"),
            machine
                .git_commit
                .as_deref()
                .map(|c| format!(", commit {}", &c[..c.len().min(12)]))
                .unwrap_or_default(),
            machine.cpu,
            machine.features.join(" "),
            machine
                .openssl_version
                .as_deref()
                .unwrap_or("OpenSSL not built in"),
            opts.rounds,
        );
        for (i, ops) in &instr {
            if i.is_latency() {
                let _ = writeln!(out, "- {}: {:.3} ns", i.name(), 1e9 / ops);
            } else {
                let _ = writeln!(out, "- {}: {:.3} G/s", i.name(), ops / 1e9);
            }
        }
    } else if opts.args.json {
        let _ = write!(out, "{}", header.line());
    } else {
        let _ = writeln!(out, "simdcrypt speed {}", env!("CARGO_PKG_VERSION"));
        let _ = writeln!(
            out,
            "CPU: {}, {} logical CPUs",
            machine.cpu,
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
        let _ = writeln!(out, "features: {}", machine.features.join(" "));
        let _ = writeln!(
            out,
            "build: {} {}, {}{}",
            machine.tool,
            machine.version,
            machine.rustc,
            machine
                .git_commit
                .as_deref()
                .map(|c| format!(", commit {c}"))
                .unwrap_or_default()
        );
        let peers: Vec<String> = machine
            .peers
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            out,
            "peers: {}{} (RustCrypto's hardware AES: {})",
            peers.join(", "),
            if machine.openssl_version.is_none() {
                "; OpenSSL not built in"
            } else {
                ""
            },
            if aes::hardware_accelerated() {
                "yes"
            } else {
                "no"
            },
        );
        let autos: Vec<String> = opts
            .algs
            .iter()
            .map(|a| format!("{} {}", a.name, a.auto().map_or("-", |b| b.name())))
            .collect();
        let _ = writeln!(out, "automatic backends: {}", autos.join(", "));
        let _ = writeln!(
            out,
            "instruction ceilings (median of {} rounds):",
            opts.rounds
        );
        for (i, ops) in &instr {
            if i.is_latency() {
                let _ = writeln!(out, "  {:<24} {:>8.3} ns", i.name(), 1e9 / ops);
            } else {
                let _ = writeln!(out, "  {:<24} {:>8.3} G/s", i.name(), ops / 1e9);
            }
        }
        let _ = writeln!(
            out,
            "each figure: median of {} rounds of {:.3} s per contender, contenders interleaved; * = automatic choice",
            opts.rounds,
            opts.seconds / opts.rounds as f64
        );
        if opts.threads > 1 {
            let _ = writeln!(
                out,
                "{} threads run every contender at once (as `openssl speed -multi {}`); each figure adds up the threads' rates, timed in wall time; par-N: par_encrypt_sectors on N rayon threads",
                opts.threads, opts.threads
            );
        }
        let _ = writeln!(
            out,
            "The 'numbers' are in 1000s of bytes per second processed."
        );
        let _ = out.flush();
    }

    let mut all = Vec::new();
    let mut records = Vec::new();
    let total = opts.algs.len();
    // Progress: the work is counted in contender x size slices; the time left is the rate
    // so far (a first guess from --seconds before any is done) times the slices left.
    let work: Vec<usize> = opts
        .algs
        .iter()
        .map(|a| selected_contenders(a, opts).len() * selected_sizes(a, opts).len())
        .collect();
    let total_work: usize = work.iter().sum();
    let mut done_work = 0usize;
    let measuring = Instant::now();
    for (n, alg) in opts.algs.iter().enumerate() {
        let contenders = selected_contenders(alg, opts);
        let sizes = selected_sizes(alg, opts);
        let per_slice = if done_work == 0 {
            opts.seconds * 1.3
        } else {
            measuring.elapsed().as_secs_f64() / done_work as f64
        };
        eprintln!(
            "speed: [{}/{total}] {} ({} contenders x {} sizes); {:.0} s so far, about {:.0} s left",
            n + 1,
            alg.name,
            contenders.len(),
            sizes.len(),
            started.elapsed().as_secs_f64(),
            per_slice * (total_work - done_work) as f64,
        );
        done_work += work[n];
        let mut results = Vec::new();
        for &s in &sizes {
            results.extend(measure_group(
                alg,
                &contenders,
                s,
                opts.seconds,
                opts.rounds,
                opts.threads,
            ));
        }
        if opts.args.markdown {
            let _ = write!(out, "{}", markdown(alg, &sizes, &results));
        } else if opts.args.json {
            for r in &results {
                let rec = record(&machine, opts, &results, r);
                let _ = write!(out, "{}", header.row_line(&rec));
            }
        } else {
            let _ = write!(out, "{}", table(alg, &sizes, &results));
        }
        let _ = out.flush();
        records.extend(results.iter().map(|r| record(&machine, opts, &results, r)));
        all.extend(results);
    }
    if !opts.args.json && !opts.args.markdown {
        let _ = write!(out, "{}", summary(&all, &opts.algs));
    }
    if let Some(path) = &opts.args.svg {
        let chart = svg::render(&[("run".to_string(), records.clone())], true);
        match std::fs::write(path, chart) {
            Ok(()) => eprintln!("speed: wrote {}", path.display()),
            Err(e) => {
                eprintln!("speed: error: cannot write {}: {e}", path.display());
                return 2;
            }
        }
    }
    if let Some(dir) = &opts.args.record {
        match record::append(dir, &records) {
            Ok(path) => eprintln!("speed: appended the run to {}", path.display()),
            Err(e) => {
                eprintln!("speed: error: {e}");
                return 2;
            }
        }
    }
    let share = measure::cpu_share();
    if let Some(share) = share {
        let note = format!(
            "timing: {}thread CPU time; the measuring thread got {:.0}% of a CPU{}",
            if opts.threads > 1 {
                "wall time in each of the threads (--threads), else "
            } else {
                ""
            },
            share * 100.0,
            if share < 0.9 {
                " (the machine is busy: expect more spread between rounds)"
            } else {
                ""
            }
        );
        if !opts.args.json {
            let _ = writeln!(out, "\n{note}");
        }
        eprintln!("speed: {note}");
    }
    eprintln!("speed: done in {:.1} s", started.elapsed().as_secs_f64());
    if all.iter().any(|r| r.verified == Some(false)) {
        eprintln!("speed: some contender disagreed with its reference (see the warnings above)");
        return 1;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_medians_of_per_round_ratios() {
        // Round 2 is slow for both contenders alike: the per-round ratio stays 2.
        let a = [10.0, 2.0, 12.0];
        let b = [5.0, 1.0, 6.0];
        assert_eq!(per_round_ratio(&a, &b), 2.0);
        // The ratio of the medians would be 10 / 5 = 2 too, but here it differs:
        let a = [10.0, 2.0, 2.0];
        let b = [5.0, 1.0, 6.0];
        assert_eq!(per_round_ratio(&a, &b), 2.0);
        assert_eq!(stats(&a).0 / stats(&b).0, 0.4);
    }

    /// The worst ratio to each peer over the sizes, and where it is.
    #[test]
    fn worst_ratios_find_the_lowest_size() {
        let alg = algs::catalog().iter().find(|a| a.name == "sha1").unwrap();
        let m = |who: Who, automatic: bool, size: usize, rate: f64| Measured {
            alg,
            who,
            automatic,
            size,
            bps: rate,
            min: rate,
            max: rate,
            ceiling_bps: None,
            samples: vec![rate, rate],
            ceiling_samples: Vec::new(),
            verified: Some(true),
        };
        let auto = Who::Simdcrypt(None);
        let res = [
            m(auto, true, 16, 1.0),
            m(Who::RustCrypto, false, 16, 2.0),
            m(Who::OpenSsl, false, 16, 0.5),
            m(auto, true, 4096, 3.0),
            m(Who::RustCrypto, false, 4096, 2.0),
            m(Who::OpenSsl, false, 4096, 2.0),
            // Not the automatic backend: never the one compared.
            m(Who::Simdcrypt(None), false, 4096, 0.1),
        ];
        let w = worst_ratios(&res, "sha1");
        assert_eq!(w, [(Who::OpenSsl, 1.5, 4096), (Who::RustCrypto, 0.5, 16)]);
        let text = summary(&res, &[alg]);
        assert!(
            text.contains(
                "worst over 2 sizes: x openssl 1.50 (at 4096 B), x rustcrypto 0.50 (at 16 B)"
            ),
            "{text}"
        );
        assert!(worst_ratios(&res, "aes-128-xts-enc").is_empty());
    }

    /// The trait-route rows run in `--backend auto` runs, and there the trait route, not
    /// simdcrypt's own PBKDF2 on the automatic backend beside it, is the automatic row.
    #[test]
    fn trait_route_rows_run_under_backend_auto() {
        let opts = Options::resolve(
            Cli::parse_from(["speed", "--backend", "auto", "--size", "64,4k"]).run,
        )
        .unwrap();
        for name in ["hmac-sha1-trait", "pbkdf2-hmac-sha1"] {
            let alg = *opts.algs.iter().find(|a| a.name == name).unwrap();
            let who = selected_contenders(alg, &opts);
            assert!(who.contains(&Who::Simdcrypt(None)), "{name}: {who:?}");
            assert!(who.contains(&Who::RustCrypto), "{name}: {who:?}");
            assert_eq!(selected_sizes(alg, &opts), [64, 4096]);
        }
        let alg = algs::catalog()
            .iter()
            .find(|a| a.name == "pbkdf2-hmac-sha1")
            .unwrap();
        let who = selected_contenders(alg, &opts);
        assert!(who.contains(&Who::Simdcrypt(alg.auto())));
        let res = measure_group(alg, &who, 8, 0.01, 2, 1);
        assert_eq!(res.len(), who.len());
        let autos: Vec<Who> = res.iter().filter(|r| r.automatic).map(|r| r.who).collect();
        assert_eq!(autos, [Who::Simdcrypt(None)]);
        assert!(res.iter().all(|r| r.verified == Some(true)));
    }

    /// SHA-1 at `size` bytes on `threads` threads, 2 rounds, every contender; asserts one
    /// result per contender, each with its 2 rounds, a sane spread and verified output.
    fn measure_sha1_contenders(size: usize, threads: usize) -> Vec<Measured> {
        let alg = algs::catalog().iter().find(|a| a.name == "sha1").unwrap();
        let who = alg.contenders();
        let res = measure_group(alg, &who, size, 0.01, 2, threads);
        assert_eq!(res.len(), who.len());
        for r in &res {
            assert_eq!(r.samples.len(), 2);
            assert!(r.bps > 0.0 && r.min <= r.bps && r.bps <= r.max);
            assert_eq!(r.verified, Some(true));
        }
        res
    }

    #[test]
    fn group_measures_every_contender() {
        let res = measure_sha1_contenders(64, 1);
        for r in &res {
            assert_eq!(r.ceiling_samples.is_empty(), r.ratio_to_ceiling().is_none());
            assert_eq!(ratio_to(&res, r, Who::RustCrypto).map(|_| ()), Some(()));
        }
        assert_eq!(res.iter().filter(|r| r.automatic).count(), 1);
    }

    /// `--threads 2`: both threads' rates add up, every contender still verified.
    #[test]
    fn threads_measure_every_contender() {
        measure_sha1_contenders(256, 2);
    }

    /// The `par_*` sweep: every thread count encrypts what one thread does, and each
    /// record carries its thread count and its ratio to one thread.
    #[cfg(feature = "rayon")]
    #[test]
    fn par_sweep() {
        assert_eq!(algs::par_threads(1), [1]);
        assert_eq!(algs::par_threads(4), [1, 2, 3, 4]);
        assert_eq!(algs::par_threads(20), [1, 2, 3, 4, 5, 6, 7, 8, 16, 20]);
        let alg = algs::catalog()
            .iter()
            .find(|a| a.name == "aes-128-xts-enc-par")
            .unwrap();
        let mut opts = Options::default();
        assert!(
            selected_contenders(alg, &opts).is_empty(),
            "only with --threads"
        );
        opts.threads = 3;
        let who = selected_contenders(alg, &opts);
        assert_eq!(who, [Who::Par(1), Who::Par(2), Who::Par(3)]);
        let res = measure_group(alg, &who, 1 << 20, 0.01, 1, 1);
        assert_eq!(res.len(), 3);
        // What two threads encrypt is what encrypt_sectors does on one.
        let mut par = alg.make(Who::Par(2), 1 << 20).unwrap();
        par.process_one();
        let mut serial = algs::message(1 << 20, 0);
        simdcrypt::Xts::new(&algs::key(32))
            .unwrap()
            .encrypt_sectors(&mut serial, algs::XTS_SECTOR, algs::SECTOR)
            .unwrap();
        assert!(par.output() == serial.as_slice());
        let info = run_info(3);
        for r in &res {
            assert_eq!(r.verified, Some(true), "{:?}", r.who);
            let rec = record(&info, &opts, &res, r);
            let Who::Par(n) = r.who else { panic!() };
            assert_eq!(rec.par_threads, usize::from(n));
            assert_eq!(rec.backend, format!("par-{n}"));
            assert!(rec.ratio_to_one_thread.is_some());
            assert_eq!(rec.ratio_to_ceiling, None);
        }
    }
}
