//! The command line, through clap's derive API.

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use simdcrypt::Backend;

use crate::algs::{self, Algorithm, Who};

/// `speed [OPTIONS]` measures; `speed compare A.jsonl B.jsonl` compares records.
#[derive(Parser, Debug)]
#[command(
    name = "speed",
    version,
    about = "simdcrypt's kernels next to OpenSSL, AWS-LC, RustCrypto and the instruction ceilings",
    long_about = "Measures simdcrypt's kernels on this machine next to OpenSSL (feature `openssl`), \
AWS-LC (feature `aws-lc`), RustCrypto (for SHA-1 with collision detection: the `sha1dc` and \
`sha1collisiondetection` crates) and the instruction ceilings (plain SHA-1 for the `sha1dc` rows), \
all in one process, interleaved round by round; every figure is the median over the rounds.",
    after_help = "Progress goes to stderr. Throughput columns are in 1000s of bytes per second, \
as `openssl speed` prints them. Sizes take k (1024) and m (1048576): `--size 4k,1m`.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// `compare`, or nothing to measure.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The measuring options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compares records files (`speed --json` output) side by side: per algorithm and size,
    /// each run's GB/s, fraction of the ceiling and ratios to the peers, and each run's
    /// GB/s over the first run's.
    Compare(CompareArgs),
    /// Writes speed/RESULTS.md (a section per CPU) and the README's performance table from
    /// the records in speed/results; run at the workspace root.
    Report(ReportArgs),
}

/// `speed report`'s options.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// The records, one file per CPU.
    #[arg(long, value_name = "DIR", default_value = "speed/results")]
    pub results: PathBuf,
    /// The results document to write.
    #[arg(long, value_name = "FILE", default_value = "speed/RESULTS.md")]
    pub out: PathBuf,
    /// The README whose table (between its `speed report` markers) is rewritten.
    #[arg(long, value_name = "FILE", default_value = "README.md")]
    pub readme: PathBuf,
    /// Write nothing; exit 1 where either file differs from what the records give.
    #[arg(long)]
    pub check: bool,
}

/// `speed compare`'s options.
#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// Records files (JSON Lines); the first is the base of the between-runs ratios.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Also draw the runs as an SVG chart into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Only these algorithms (names or words of them, as for measuring).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub alg: Option<Vec<String>>,
    /// Only these sizes (`4k,16k`).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_size)]
    pub size: Option<Vec<usize>>,
    /// Every simdcrypt backend, not only the automatic choice.
    #[arg(long)]
    pub all_backends: bool,
    /// Markdown tables.
    #[arg(long)]
    pub markdown: bool,
}

/// A peer, as `--peers` names it.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerArg {
    /// OpenSSL's libcrypto (system or vendored).
    Openssl,
    /// AWS-LC through `aws-lc-rs`.
    AwsLc,
    /// The RustCrypto crates.
    Rustcrypto,
    /// The `sha1dc` crate (the `sha1dc` rows).
    Sha1dc,
    /// The `sha1collisiondetection` crate (the `sha1dc` rows).
    Sha1collisiondetection,
    /// No peer.
    None,
}

/// The measuring options.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct RunArgs {
    /// Algorithms: exact names (see --list), words that select every algorithm whose name
    /// contains them as whole words (`xts`, `cbc-dec`, `aes-256`, `many`), or `all`.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "all"
    )]
    pub alg: Vec<String>,
    /// simdcrypt backends: names, `auto` (the automatic choice only) or `all`.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = backend_names(), default_value = "all")]
    pub backend: Vec<String>,
    /// Peers to run [default: every peer built in].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_enum)]
    pub peers: Option<Vec<PeerArg>>,
    /// Message sizes (`16,4k,1m`) [default: 16,64,256,1k,8k,16k, and 4k for XTS].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_size)]
    pub size: Option<Vec<usize>>,
    /// The size sweep: 16 B to 1 MiB in powers of two, with 1,500 B (a network packet) and
    /// lengths with a partial last block (21 and 100 B; the algorithms that take whole
    /// blocks only skip them); the summary's `worst over N sizes` line then reads as "no
    /// size where a peer wins" or names the size where one does.
    #[arg(long, conflicts_with = "size")]
    pub sweep: bool,
    /// Measuring time per contender and size, spread over the rounds.
    #[arg(long, value_name = "S", default_value_t = 0.15, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Rounds per size.
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub rounds: u16,
    /// N threads each running every contender at once (as `openssl speed -multi N`; figures
    /// add up the threads, timed in wall time), and the `par_*` XTS from 1 to N threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Stream counts for the many-stream algorithms (`sha1-many`, `aes-128-cbc-enc-many`),
    /// e.g. `1,2,4,8,16,40` for the SHA-1 lane sweep [default: 8].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = clap::value_parser!(u16).range(1..=64))]
    pub streams: Option<Vec<u16>>,
    /// One JSON object per result on stdout (JSON Lines; schema in speed/README.md).
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Markdown tables (per algorithm: the automatic backend at every size, every backend
    /// at the largest).
    #[arg(long)]
    pub markdown: bool,
    /// Also draw the results as an SVG chart into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also append the run (a header line, then its records) to this CPU's records file in
    /// DIR (`speed/results`): `<vendor>-family<F>-model<M>.jsonl`.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// List the algorithms and backends, then exit.
    #[arg(long)]
    pub list: bool,
}

fn backend_names() -> PossibleValuesParser {
    let names = simdcrypt::all_backends().iter().map(|b| b.name());
    PossibleValuesParser::new(names.chain(["auto", "all"]))
}

/// A byte count: digits with an optional `k` (1024) or `m` (1048576) suffix.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim().to_ascii_lowercase();
    let (digits, unit) = match t.strip_suffix(['k', 'm']) {
        Some(d) if t.ends_with('k') => (d, 1 << 10),
        Some(d) => (d, 1 << 20),
        None => (t.as_str(), 1),
    };
    let n = digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .ok_or_else(|| format!("{s:?} is not a byte count (e.g. 64, 4k, 1m)"))?;
    if n == 0 || n > MAX_SIZE {
        return Err(format!("{n} is not in 1..={MAX_SIZE} (64m)"));
    }
    Ok(n)
}

/// The largest message size.
pub const MAX_SIZE: usize = 64 << 20;

/// The sizes of `--sweep`.
pub const SWEEP: [usize; 19] = [
    16,
    21,
    32,
    64,
    100,
    128,
    256,
    512,
    1024,
    1500,
    2048,
    4096,
    8192,
    16 << 10,
    32 << 10,
    64 << 10,
    256 << 10,
    512 << 10,
    1 << 20,
];

/// Seconds: a number in (0, 60].
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))?;
    if !(v.is_finite() && v > 0.0 && v <= 60.0) {
        return Err(format!("{s} is not in (0, 60]"));
    }
    Ok(v)
}

/// Which simdcrypt backends to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendSel {
    /// Every backend available.
    All,
    /// Only the automatic choice.
    Auto,
    /// These backends (where the algorithm has them).
    Only(Vec<Backend>),
}

/// The options, resolved against the algorithm table.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The algorithms selected, in catalog order.
    pub algs: Vec<&'static Algorithm>,
    /// simdcrypt backends.
    pub backends: BackendSel,
    /// Peers to run.
    pub peers: Vec<Who>,
    /// Sizes given with `--size`, or `None` for each algorithm's defaults.
    pub sizes: Option<Vec<usize>>,
    /// Stream counts for the many-stream algorithms, or `None` for [`algs::MANY`].
    pub streams: Option<Vec<usize>>,
    /// Seconds per contender per size.
    pub seconds: f64,
    /// Rounds per size.
    pub rounds: usize,
    /// Threads running at once.
    pub threads: usize,
    /// The arguments as given.
    pub args: RunArgs,
}

impl Default for Options {
    fn default() -> Self {
        Options::resolve(RunArgs::default()).expect("the defaults resolve")
    }
}

impl Default for RunArgs {
    fn default() -> Self {
        Cli::parse_from(["speed"]).run
    }
}

impl Options {
    /// Checks and resolves the arguments (the algorithm patterns, the peers built in).
    pub fn resolve(args: RunArgs) -> Result<Options, String> {
        let mut algs = algs::select(&args.alg)?;
        if let Some(list) = &args.streams {
            algs = algs
                .into_iter()
                .flat_map(|a| {
                    let counts: Vec<usize> = if a.streams > 1 {
                        list.iter().map(|&n| n.into()).collect()
                    } else {
                        vec![a.streams]
                    };
                    counts.into_iter().map(move |n| algs::with_streams(a, n))
                })
                .collect();
        }
        let backends = if args.backend.iter().any(|b| b == "auto") {
            BackendSel::Auto
        } else if args.backend.iter().any(|b| b == "all") {
            BackendSel::All
        } else {
            let list = args.backend.iter().map(|b| b.parse::<Backend>());
            BackendSel::Only(list.collect::<Result<_, _>>().map_err(|e| e.to_string())?)
        };
        let peers = match &args.peers {
            None => algs::peers_built(),
            Some(list) => {
                let mut out = Vec::new();
                for p in list {
                    let who = match p {
                        PeerArg::None => continue,
                        PeerArg::Openssl => Who::OpenSsl,
                        PeerArg::AwsLc => Who::AwsLc,
                        PeerArg::Rustcrypto => Who::RustCrypto,
                        PeerArg::Sha1dc => Who::Sha1DcCrate,
                        PeerArg::Sha1collisiondetection => Who::Sha1Cd,
                    };
                    if !algs::peers_built().contains(&who) {
                        let (name, feature) = match who {
                            Who::AwsLc => ("aws-lc", "aws-lc"),
                            _ => ("openssl", "openssl"),
                        };
                        return Err(format!(
                            "peer {name} is not built in (build with the `{feature}` feature)"
                        ));
                    }
                    if !out.contains(&who) {
                        out.push(who);
                    }
                }
                out
            }
        };
        Ok(Options {
            algs,
            backends,
            peers,
            sizes: if args.sweep {
                Some(SWEEP.to_vec())
            } else {
                args.size.clone()
            },
            streams: (args.streams.as_ref()).map(|v| v.iter().map(|&n| n.into()).collect()),
            seconds: args.seconds,
            rounds: args.rounds.into(),
            threads: args.threads.into(),
            args,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Options, String> {
        let cli = Cli::try_parse_from(std::iter::once("speed").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        Options::resolve(cli.run)
    }

    fn names(o: &Options) -> Vec<&'static str> {
        o.algs.iter().map(|a| a.name).collect()
    }

    #[test]
    fn defaults() {
        let o = parse(&[]).unwrap();
        assert_eq!(o, Options::default());
        assert_eq!(o.algs.len(), algs::catalog().len());
        assert_eq!(o.backends, BackendSel::All);
        assert_eq!(o.peers, algs::peers_built());
        assert!(o.peers.contains(&Who::RustCrypto));
        assert_eq!(o.peers.contains(&Who::OpenSsl), algs::openssl_built());
        assert_eq!((o.seconds, o.rounds, o.threads), (0.15, 7, 1));
        assert_eq!((o.sizes, o.streams), (None, None));
    }

    #[test]
    fn every_option() {
        let o = parse(&[
            "--alg",
            "aes-256-xts,sha1",
            "--backend=aesni,vaes-avx2",
            "--peers",
            "rustcrypto",
            "--size",
            "16,4k,1M",
            "--seconds",
            "0.5",
            "--rounds=3",
            "--threads",
            "4",
            "--streams",
            "1,40",
            "--json",
            "--svg",
            "x.svg",
        ])
        .unwrap();
        assert_eq!(
            names(&o),
            [
                "aes-256-xts-enc",
                "aes-256-xts-dec",
                "aes-256-xts-enc-sectors",
                "sha1",
                "aes-256-xts-enc-par",
            ]
        );
        assert_eq!(
            o.backends,
            BackendSel::Only(vec![Backend::AesNi, Backend::VaesAvx2])
        );
        assert_eq!(o.peers, [Who::RustCrypto]);
        assert_eq!(o.sizes, Some(vec![16, 4096, 1 << 20]));
        assert_eq!(o.streams, Some(vec![1, 40]));
        let m = parse(&["--alg", "many", "--streams", "1,8,40"]).unwrap();
        assert_eq!(
            names(&m),
            [
                "aes-128-cbc-enc-many-x1",
                "aes-128-cbc-enc-many",
                "aes-128-cbc-enc-many-x40",
                "sha1-many-x1",
                "sha1-many",
                "sha1-many-x40",
                "sha1dc-many-x1",
                "sha1dc-many",
                "sha1dc-many-x40"
            ]
        );
        assert_eq!(m.algs[2].streams, 40);
        assert_eq!(algs::base("sha1-many-x40").unwrap().name, "sha1-many");
        assert_eq!((o.seconds, o.rounds, o.threads), (0.5, 3, 4));
        assert!(o.args.json && !o.args.markdown && !o.args.list);
        assert_eq!(o.args.svg, Some(PathBuf::from("x.svg")));
        let o = parse(&["--backend", "auto", "--peers", "none", "--list"]).unwrap();
        assert_eq!(o.backends, BackendSel::Auto);
        assert!(o.peers.is_empty() && o.args.list);
    }

    #[test]
    fn exact_name_and_words() {
        assert_eq!(
            names(&parse(&["--alg", "sha1-many"]).unwrap()),
            ["sha1-many"]
        );
        assert_eq!(names(&parse(&["--alg", "cbc-dec"]).unwrap()).len(), 3);
        assert_eq!(
            names(&parse(&["--alg", "all"]).unwrap()).len(),
            algs::catalog().len()
        );
    }

    #[test]
    fn sweep() {
        let o = parse(&["--sweep"]).unwrap();
        let sizes = o.sizes.unwrap();
        assert_eq!((sizes[0], *sizes.last().unwrap()), (16, 1 << 20));
        assert!(sizes.contains(&1500) && sizes.contains(&21));
        assert!(sizes.windows(2).all(|w| w[0] < w[1]));
        assert!(parse(&["--sweep", "--size", "64"]).is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64"), Ok(64));
        assert_eq!(parse_size("4k"), Ok(4096));
        assert_eq!(parse_size("16K"), Ok(16384));
        assert_eq!(parse_size("1m"), Ok(1 << 20));
        assert_eq!(parse_size("64m"), Ok(MAX_SIZE));
        for bad in [
            "0",
            "0k",
            "65m",
            "1g",
            "k",
            "",
            "-1",
            "1.5k",
            "99999999999999999999",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors() {
        let e = parse(&["--alg", "aes-999-xts"]).unwrap_err();
        assert!(
            e.contains("unknown algorithm \"aes-999-xts\"") && e.contains("aes-128-xts-enc"),
            "{e}"
        );
        let e = parse(&["--alg", "aes-128-xts-ecn"]).unwrap_err();
        assert!(e.contains("did you mean \"aes-128-xts-enc\"?"), "{e}");
        assert!(parse(&["--alg"]).is_err());
        assert!(parse(&["--alg", ","]).is_err());
        let e = parse(&["--backend", "vaes-avx"]).unwrap_err();
        assert!(
            e.contains("invalid value") && e.contains("vaes-avx2"),
            "{e}"
        );
        assert!(parse(&["--peers", "boringssl"]).is_err());
        assert!(parse(&["--size", "0"]).is_err());
        assert!(parse(&["--size", "1g"]).is_err());
        assert!(parse(&["--seconds", "-1"]).is_err());
        assert!(parse(&["--seconds", "nan"]).is_err());
        assert!(parse(&["--rounds", "0"]).is_err());
        assert!(parse(&["--threads", "0"]).is_err());
        assert!(parse(&["--json=yes"]).is_err());
        let e = parse(&["--jsn"]).unwrap_err();
        assert!(e.contains("--json"), "suggests the flag: {e}");
        assert!(parse(&["--json", "--markdown"]).is_err());
        assert!(parse(&["extra"]).is_err());
        let e = Cli::try_parse_from(["speed", "--version"]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DisplayVersion);
        assert!(Cli::try_parse_from(["speed", "compare"]).is_err());
        let c = Cli::try_parse_from(["speed", "compare", "a", "b", "--svg", "c.svg"]).unwrap();
        match c.command {
            Some(Command::Compare(a)) => {
                assert_eq!(a.files.len(), 2);
                assert_eq!(a.svg, Some(PathBuf::from("c.svg")));
            }
            _ => panic!("compare parsed"),
        }
    }
}
