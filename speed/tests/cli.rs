//! The `speed` binary from the outside: options, errors, the table and the JSON records.

use std::process::{Command, Output};

fn speed(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_speed"))
        .args(args)
        .output()
        .expect("the speed binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8 output")
}

#[test]
fn help_and_list() {
    let o = speed(&["--help"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    for opt in ["--alg", "--backend", "--size", "--seconds", "--json"] {
        assert!(out.contains(opt), "{out}");
    }
    let o = speed(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        text(&o.stdout).trim(),
        format!("speed {}", env!("CARGO_PKG_VERSION"))
    );
    let o = speed(&["--list", "--alg", "xts"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    // The eight XTS algorithms and the XTS key setup.
    assert_eq!(out.lines().count(), 9, "{out}");
    assert!(out.contains("aes-256-xts-enc-par"), "{out}");
    assert!(out.contains("xts-256-key"), "{out}");
    assert!(
        out.contains("aes-256-xts-dec") && out.contains("rustcrypto"),
        "{out}"
    );
}

#[test]
fn bad_alg_is_a_clear_error() {
    let o = speed(&["--alg", "aes-999-gcm", "--seconds", "0.05"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "nothing measured, nothing printed");
    let err = text(&o.stderr);
    assert!(
        err.contains("error: unknown algorithm \"aes-999-gcm\""),
        "{err}"
    );
    assert!(
        err.contains("aes-128-xts-enc"),
        "the error lists the known names: {err}"
    );
}

#[test]
fn other_bad_options_fail() {
    for args in [
        &["--backend", "warp"][..],
        &["--size", "zero"],
        &["--seconds"],
        &["--peers", "boringssl"],
        &["--frobnicate"],
        &["--size", "1g"],
        &["compare"],
    ] {
        let o = speed(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o.stderr).contains("error:"), "{args:?}");
    }
}

const FIELDS: &[&str] = &[
    "schema",
    "tool",
    "version",
    "git_commit",
    "rustc",
    "target",
    "target_features",
    "cpu",
    "cpu_vendor",
    "cpu_family",
    "cpu_model",
    "cpu_stepping",
    "cpu_model_name",
    "cpus",
    "os",
    "timestamp",
    "features",
    "openssl_version",
    "peers",
    "threads",
    "command",
    "algorithm",
    "implementation",
    "backend",
    "automatic",
    "size",
    "streams",
    "par_threads",
    "bytes_per_second",
    "min_bytes_per_second",
    "max_bytes_per_second",
    "rounds",
    "seconds",
    "ceiling",
    "ceiling_bytes_per_second",
    "ratio_to_ceiling",
    "ratio_to_openssl",
    "ratio_to_aws_lc",
    "ratio_to_rustcrypto",
    "ratio_to_one_thread",
    "verified",
];

#[test]
fn json_smoke_run() {
    let svg = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("smoke.svg");
    let o = speed(&[
        "--svg",
        svg.to_str().unwrap(),
        "--alg",
        "aes-128-ecb-enc,sha1-many",
        "--size",
        "64,1024",
        "--seconds",
        "0.05",
        "--rounds",
        "2",
        "--json",
    ]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("[1/2] aes-128-ecb-enc"),
        "progress on stderr: {err}"
    );
    // The chart: well-formed, one group per family measured.
    let chart = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&chart).expect("the SVG parses");
    for id in ["family-ecb", "family-sha1-many"] {
        assert!(
            doc.descendants().any(|n| n.attribute("id") == Some(id)),
            "{id}"
        );
    }
    let out = text(&o.stdout);
    // One header line with the provenance, then measurement lines without it.
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines[0]["tool"], "simdcrypt-speed", "{out}");
    assert!(lines[0]["ceilings"]["aes-128-ecb-enc"].is_string(), "{out}");
    assert!(
        lines[0]["command"]
            .as_str()
            .unwrap()
            .starts_with("speed --svg")
    );
    for l in &lines[1..] {
        assert!(l.get("tool").is_none() && l.get("cpu").is_none(), "{l}");
    }
    let records: Vec<serde_json::Value> = simdcrypt_speed::record::read(&out)
        .unwrap()
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    assert_eq!(records.len(), lines.len() - 1);

    // Every simdcrypt backend and peer, at both sizes: the peers that run SHA-1 and AES,
    // all but the collision-detecting crates (the `sha1dc` rows' own).
    use simdcrypt_speed::algs::Who;
    let general: Vec<Who> = simdcrypt_speed::algs::peers_built()
        .into_iter()
        .filter(|p| !matches!(p, Who::Sha1DcCrate | Who::Sha1Cd))
        .collect();
    // ECB's peers: all but OpenSSL (its EVP has no ECB row here).
    let ecb_peers = general.iter().filter(|p| **p != Who::OpenSsl).count();
    let ecb_contenders = simdcrypt::Aes::available_backends().count() + ecb_peers;
    let peers = general.len();
    let many_contenders = simdcrypt::Sha1::available_backends().count() + peers;
    let count = |alg: &str| records.iter().filter(|r| r["algorithm"] == alg).count();
    assert_eq!(count("aes-128-ecb-enc"), 2 * ecb_contenders, "{out}");
    assert_eq!(count("sha1-many"), 2 * many_contenders, "{out}");

    for r in &records {
        let obj = r.as_object().expect("an object per line");
        for f in FIELDS {
            assert!(obj.contains_key(*f), "missing {f}: {r}");
        }
        assert_eq!(obj.len(), FIELDS.len(), "unexpected fields: {r}");
        assert_eq!(r["tool"], "simdcrypt-speed");
        assert_eq!(r["schema"], 3);
        assert_eq!(r["version"], env!("CARGO_PKG_VERSION"));
        assert!(!r["cpu"].as_str().unwrap().is_empty());
        // Provenance: the same in every record of the run.
        for f in [
            "git_commit",
            "rustc",
            "timestamp",
            "os",
            "cpu",
            "peers",
            "target_features",
        ] {
            assert_eq!(r[f], records[0][f], "{f} differs within one run");
        }
        // Built from a checkout (tests run in one): the full commit hash.
        let commit = r["git_commit"].as_str().expect("built from a git checkout");
        assert!(
            commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{commit}"
        );
        assert!(r["rustc"].as_str().unwrap().starts_with("rustc 1."), "{r}");
        let ts = r["timestamp"].as_str().unwrap();
        humantime::parse_rfc3339(ts).unwrap_or_else(|e| panic!("{ts}: {e}"));
        assert!(
            r["target_features"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == "sse2")
        );
        assert!(!r["cpu_model_name"].as_str().unwrap().is_empty());
        assert!(
            r["cpu"]
                .as_str()
                .unwrap()
                .contains(r["cpu_model_name"].as_str().unwrap())
        );
        // Where CPUID gave a signature (x86-64), the vendor is its 12-byte string and the
        // display name carries the same family, model and stepping.
        if r["cpu_family"].is_u64() {
            let vendor = r["cpu_vendor"].as_str().unwrap();
            assert_eq!(vendor.len(), 12, "{vendor}");
            let fms = format!(
                "family {} model {} stepping {}",
                r["cpu_family"], r["cpu_model"], r["cpu_stepping"]
            );
            assert!(
                r["cpu"].as_str().unwrap().contains(&fms),
                "{fms} in {}",
                r["cpu"]
            );
        }
        assert!(r["os"].as_str().unwrap().starts_with(std::env::consts::OS));
        assert_eq!(r["threads"], 1);
        assert_eq!(r["par_threads"], 1);
        // Every peer's version: RustCrypto's crates always, OpenSSL where built in.
        let peers = r["peers"].as_object().unwrap();
        for c in ["aes", "xts-mode", "cbc", "sha1", "hmac", "pbkdf2"] {
            assert!(peers[c].as_str().unwrap().starts_with("0."), "{c}: {r}");
        }
        assert_eq!(
            peers.contains_key("openssl"),
            !r["openssl_version"].is_null()
        );
        assert_eq!(peers.contains_key("aws-lc"), cfg!(feature = "aws-lc"));
        if let Some(v) = r["openssl_version"].as_str() {
            assert!(v.starts_with("OpenSSL "), "{v}");
        }
        assert!(r["features"].is_array());
        assert!([64, 1024].contains(&r["size"].as_u64().unwrap()));
        let bps = r["bytes_per_second"].as_f64().unwrap();
        assert!(bps > 0.0);
        assert!(r["min_bytes_per_second"].as_f64().unwrap() <= bps);
        assert!(r["max_bytes_per_second"].as_f64().unwrap() >= bps);
        assert_eq!(r["rounds"], 2);
        assert_eq!(r["seconds"], 0.05);
        assert_eq!(r["verified"], true, "every contender agrees: {r}");
        let imp = r["implementation"].as_str().unwrap();
        assert!(["simdcrypt", "openssl", "aws-lc", "rustcrypto"].contains(&imp));
        if imp != "simdcrypt" {
            assert_eq!(r["backend"], imp);
            assert_eq!(r["automatic"], false);
        }
        // The ratio to RustCrypto is present (RustCrypto ran), 1 on its own row.
        let to_rc = r["ratio_to_rustcrypto"].as_f64().expect("RustCrypto ran");
        if imp == "rustcrypto" {
            assert_eq!(to_rc, 1.0);
        }
        match r["ratio_to_openssl"].as_f64() {
            Some(_) => assert!(
                simdcrypt_speed::algs::openssl_built() && r["algorithm"] != "aes-128-ecb-enc"
            ),
            None => assert!(
                !simdcrypt_speed::algs::openssl_built() || r["algorithm"] == "aes-128-ecb-enc"
            ),
        }
        // The ceiling and the ratio to it are there together, or absent together.
        assert_eq!(
            r["ceiling_bytes_per_second"].is_null(),
            r["ratio_to_ceiling"].is_null()
        );
    }
    // Exactly one automatic simdcrypt row per size for ECB.
    let autos = records
        .iter()
        .filter(|r| r["algorithm"] == "aes-128-ecb-enc" && r["automatic"] == true)
        .count();
    assert_eq!(autos, 2);
}

#[test]
fn table_smoke_run() {
    let o = speed(&[
        "--alg",
        "aes-128-xts-enc",
        "--size",
        "4096",
        "--seconds",
        "0.05",
        "--rounds",
        "2",
        "--backend",
        "auto",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for want in [
        "CPU: ",
        "features: ",
        "automatic backends: ",
        "instruction ceilings",
        "aes-128-xts-enc: automatic backend",
        "4096 bytes",
        "rustcrypto",
        "vs rustcrypto",
        "summary",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    if simdcrypt_speed::algs::openssl_built() {
        assert!(
            out.contains("vs openssl") && out.contains("OpenSSL"),
            "{out}"
        );
    }
}

#[test]
fn compare_two_records_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let a = dir.join("compare_a.jsonl");
    let o = speed(&[
        "--alg",
        "sha1",
        "--size",
        "1k",
        "--seconds",
        "0.02",
        "--rounds",
        "1",
        "--json",
        "--record",
        dir.join("records").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::write(&a, &o.stdout).unwrap();
    // `--record` appended the same run to this CPU's file.
    let recorded: Vec<_> = std::fs::read_dir(dir.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!recorded.is_empty());
    let svg = dir.join("compare.svg");
    let a = a.to_str().unwrap();
    let o = speed(&["compare", a, a, "--svg", svg.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.contains("A = ") && out.contains("B = "), "{out}");
    let header = out
        .lines()
        .find(|l| l.starts_with("size"))
        .expect("a table");
    for col in ["A GB/s", "A of ceiling", "A x rustcrypto", "B GB/s", "B/A"] {
        assert!(header.contains(col), "{col} in {header}");
    }
    // The same file twice: every between-runs ratio is exactly 1.
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("1024 ")).collect();
    assert!(rows.len() >= 2, "{out}");
    for r in rows {
        assert!(r.ends_with("1.00x"), "{r}");
    }
    let chart = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&chart).expect("the SVG parses");
    assert!(
        doc.descendants()
            .any(|n| n.attribute("id") == Some("family-sha1"))
    );
    let o = speed(&["compare", a, "/nonexistent/b.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("/nonexistent/b.jsonl"));
}

/// speed/RESULTS.md and the README's table are what `speed report` makes of the records in
/// speed/results (CI runs `speed report --check` too).
#[test]
fn report_matches_the_records() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let o = Command::new(env!("CARGO_BIN_EXE_speed"))
        .current_dir(&root)
        .args(["report", "--check"])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "run `cargo run --release -p simdcrypt-speed -- report`: {}",
        text(&o.stderr)
    );
    let md = std::fs::read_to_string(root.join("speed/RESULTS.md")).unwrap();
    assert!(md.lines().count() <= 400);
    // A report from a copy of the records into other files, then checked against them.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let readme = dir.join("README.md");
    std::fs::write(
        &readme,
        format!(
            "intro\n{}\nstale\n{}\nafter\n",
            simdcrypt_speed::report::BEGIN,
            simdcrypt_speed::report::END
        ),
    )
    .unwrap();
    let results = root.join("speed/results");
    let args = |check: bool| {
        let mut a = vec![
            "report".to_string(),
            "--results".into(),
            results.to_str().unwrap().into(),
            "--out".into(),
            dir.join("RESULTS.md").to_str().unwrap().into(),
            "--readme".into(),
            readme.to_str().unwrap().into(),
        ];
        if check {
            a.push("--check".into());
        }
        a
    };
    assert_eq!(speed_owned(&args(true)).status.code(), Some(1), "stale");
    assert!(speed_owned(&args(false)).status.success());
    assert!(speed_owned(&args(true)).status.success());
    let r = std::fs::read_to_string(&readme).unwrap();
    assert!(r.starts_with("intro\n") && r.ends_with("after\n") && !r.contains("stale"));
    assert!(r.contains("| CPU | commit |"), "{r}");
    assert_eq!(std::fs::read_to_string(dir.join("RESULTS.md")).unwrap(), md);
}

fn speed_owned(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_speed"))
        .args(args)
        .output()
        .expect("the speed binary runs")
}
