//! Command-line options.

use simdcrypt::Backend;

use crate::algs::{self, Algorithm, Who};

/// The usage text.
pub const USAGE: &str = "\
usage: speed [options]

Measures simdcrypt's kernels on this machine next to OpenSSL (when built with the
`openssl` feature), RustCrypto and the instruction ceilings, all in one process,
interleaved round by round; every figure is the median over the rounds.

options:
  --alg LIST       algorithms to run (comma-separated): exact names (see --list), or
                   words that select every algorithm whose name contains them as whole
                   words (`xts`, `cbc-dec`, `aes-256`, `many`, `enc`), or `all` (default)
  --backend LIST   simdcrypt backends to run (comma-separated names, or `auto` for the
                   automatic choice only); default: every backend this CPU runs
  --peers LIST     peers to run: `openssl`, `rustcrypto`, or `none`; default: all built in
  --size LIST      message sizes in bytes (comma-separated); default:
                   16,64,256,1024,8192,16384 (and 4096 for XTS)
  --seconds S      measuring time per contender and size, spread over the rounds
                   (default 0.15)
  --rounds N       rounds per size (default 7)
  --json           one JSON object per result on stdout (JSON Lines) instead of tables
  --markdown       Markdown tables (per algorithm: the automatic backend at every size,
                   every backend at the largest) instead of the `openssl speed` tables
  --list           list the algorithms and backends, then exit
  -h, --help       this text

Progress goes to stderr. Throughput columns are in 1000s of bytes per second, as
`openssl speed` prints them.";

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

/// Parsed options.
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
    /// Seconds per contender per size.
    pub seconds: f64,
    /// Rounds per size.
    pub rounds: usize,
    /// JSON Lines output.
    pub json: bool,
    /// Markdown output.
    pub markdown: bool,
    /// `--list`.
    pub list: bool,
    /// `--help`.
    pub help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algs: algs::catalog().iter().collect(),
            backends: BackendSel::All,
            peers: algs::peers_built(),
            sizes: None,
            seconds: 0.15,
            rounds: 7,
            json: false,
            markdown: false,
            list: false,
            help: false,
        }
    }
}

fn list(v: &str) -> impl Iterator<Item = &str> {
    v.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Parses the arguments (without the program name).
pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_ref();
        i += 1;
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg, None),
        };
        let takes_value = matches!(
            flag,
            "--alg" | "--backend" | "--peers" | "--size" | "--seconds" | "--rounds"
        );
        let value = if takes_value {
            match inline {
                Some(v) => v,
                None => {
                    let v = args
                        .get(i)
                        .ok_or_else(|| format!("{flag} needs a value"))?
                        .as_ref()
                        .to_string();
                    i += 1;
                    v
                }
            }
        } else {
            if inline.is_some() {
                return Err(format!("{flag} takes no value"));
            }
            String::new()
        };
        match flag {
            "--alg" => o.algs = parse_algs(&value)?,
            "--backend" => o.backends = parse_backends(&value)?,
            "--peers" => o.peers = parse_peers(&value)?,
            "--size" => {
                let mut sizes = Vec::new();
                for s in list(&value) {
                    let n: usize = s
                        .parse()
                        .map_err(|_| format!("--size: {s:?} is not a byte count"))?;
                    if n == 0 || n > 1 << 24 {
                        return Err(format!("--size: {n} is not in 1..={}", 1 << 24));
                    }
                    sizes.push(n);
                }
                if sizes.is_empty() {
                    return Err("--size: no sizes given".into());
                }
                o.sizes = Some(sizes);
            }
            "--seconds" => {
                let s: f64 = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("--seconds: {value:?} is not a number"))?;
                if !(s.is_finite() && s > 0.0 && s <= 60.0) {
                    return Err(format!("--seconds: {value} is not in (0, 60]"));
                }
                o.seconds = s;
            }
            "--rounds" => {
                let n: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("--rounds: {value:?} is not a count"))?;
                if !(1..=1000).contains(&n) {
                    return Err(format!("--rounds: {n} is not in 1..=1000"));
                }
                o.rounds = n;
            }
            "--json" => o.json = true,
            "--markdown" => o.markdown = true,
            "--list" => o.list = true,
            "-h" | "--help" => o.help = true,
            _ => return Err(format!("unknown option {arg:?} (see --help)")),
        }
    }
    if o.json && o.markdown {
        return Err("--json and --markdown exclude each other".into());
    }
    Ok(o)
}

fn parse_algs(v: &str) -> Result<Vec<&'static Algorithm>, String> {
    let pats: Vec<&str> = list(v).collect();
    if pats.is_empty() {
        return Err("--alg: no algorithm given".into());
    }
    let names: Vec<&str> = algs::catalog().iter().map(|a| a.name).collect();
    for p in &pats {
        if !names.iter().any(|n| algs::selects(p, n)) {
            return Err(format!(
                "unknown algorithm {p:?}; known: {} (or a word of them, or `all`)",
                names.join(", ")
            ));
        }
    }
    // An exact name selects that algorithm alone; any other pattern, every match.
    let exact = |p: &str| names.contains(&p);
    Ok(algs::catalog()
        .iter()
        .filter(|a| {
            pats.iter().any(|p| {
                if exact(p) {
                    *p == a.name
                } else {
                    algs::selects(p, a.name)
                }
            })
        })
        .collect())
}

fn parse_backends(v: &str) -> Result<BackendSel, String> {
    let mut out = Vec::new();
    for name in list(v) {
        match name {
            "auto" => return Ok(BackendSel::Auto),
            "all" => return Ok(BackendSel::All),
            _ => out.push(name.parse::<Backend>().map_err(|_| {
                let known: Vec<&str> = simdcrypt::all_backends().iter().map(|b| b.name()).collect();
                format!(
                    "unknown backend {name:?}; known: {}, auto, all (peers go in --peers)",
                    known.join(", ")
                )
            })?),
        }
    }
    if out.is_empty() {
        return Err("--backend: no backend given".into());
    }
    Ok(BackendSel::Only(out))
}

fn parse_peers(v: &str) -> Result<Vec<Who>, String> {
    let mut out = Vec::new();
    for name in list(v) {
        let who = match name {
            "none" => continue,
            "openssl" => Who::OpenSsl,
            "rustcrypto" => Who::RustCrypto,
            _ => {
                return Err(format!(
                    "unknown peer {name:?}; known: openssl, rustcrypto, none"
                ));
            }
        };
        if !algs::peers_built().contains(&who) {
            return Err(format!(
                "peer {name} is not built in (the `openssl` feature, and an OpenSSL the oracle crate finds: libssl-dev or OPENSSL_DIR)"
            ));
        }
        if !out.contains(&who) {
            out.push(who);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(o: &Options) -> Vec<&'static str> {
        o.algs.iter().map(|a| a.name).collect()
    }

    #[test]
    fn defaults() {
        let o = parse::<&str>(&[]).unwrap();
        assert_eq!(o, Options::default());
        assert_eq!(o.algs.len(), algs::catalog().len());
        assert!(o.peers.contains(&Who::RustCrypto));
        assert_eq!(o.peers.contains(&Who::OpenSsl), algs::openssl_built());
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
            "16, 4096",
            "--seconds",
            "0.5",
            "--rounds=3",
            "--json",
        ])
        .unwrap();
        assert_eq!(
            names(&o),
            [
                "aes-256-xts-enc",
                "aes-256-xts-dec",
                "aes-256-xts-enc-sectors",
                "sha1",
            ]
        );
        assert_eq!(
            o.backends,
            BackendSel::Only(vec![Backend::AesNi, Backend::VaesAvx2])
        );
        assert_eq!(o.peers, [Who::RustCrypto]);
        assert_eq!(o.sizes, Some(vec![16, 4096]));
        assert_eq!(o.seconds, 0.5);
        assert_eq!(o.rounds, 3);
        assert!(o.json && !o.markdown && !o.list && !o.help);
        let o = parse(&["--backend", "auto", "--peers", "none", "--list", "-h"]).unwrap();
        assert_eq!(o.backends, BackendSel::Auto);
        assert!(o.peers.is_empty() && o.list && o.help);
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
    fn errors() {
        let e = parse(&["--alg", "aes-999-xts"]).unwrap_err();
        assert!(
            e.contains("unknown algorithm \"aes-999-xts\"") && e.contains("aes-128-xts-enc"),
            "{e}"
        );
        assert!(parse(&["--alg"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["--alg", ","]).is_err());
        assert!(
            parse(&["--backend", "turbo"])
                .unwrap_err()
                .contains("unknown backend")
        );
        assert!(
            parse(&["--peers", "boringssl"])
                .unwrap_err()
                .contains("unknown peer")
        );
        assert!(parse(&["--size", "0"]).is_err());
        assert!(parse(&["--size", "1k"]).is_err());
        assert!(parse(&["--size", "99999999"]).is_err());
        assert!(parse(&["--seconds", "-1"]).is_err());
        assert!(parse(&["--seconds", "nan"]).is_err());
        assert!(parse(&["--rounds", "0"]).is_err());
        assert!(
            parse(&["--json=yes"])
                .unwrap_err()
                .contains("takes no value")
        );
        assert!(parse(&["--fast"]).unwrap_err().contains("unknown option"));
        assert!(
            parse(&["--json", "--markdown"])
                .unwrap_err()
                .contains("exclude")
        );
        assert!(parse(&["extra"]).is_err());
    }
}
