//! `--svg FILE`: GB/s against message size, one chart per algorithm, grouped by family.
//!
//! A self-contained SVG (inline styles, no script, no external font or file), so any
//! browser opens it. The x axis is the message size on a log scale, the y axis GB/s from
//! zero; one line per simdcrypt backend and per peer, the ceiling as a grey dashed line.
//! With several runs (`speed compare`), each run's lines get their own dash pattern (eight
//! patterns) and every other run the other shade of the contender's colour, and the legend
//! prefixes the run's label. The x axis labels the sizes that fit without overlapping
//! (powers of two first), by an estimate of each label's width. Every point has a `<title>` (hover shows it).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::algs::{self, Family};
use crate::record::Record;

/// Chart width and height of one panel, in pixels.
const PANEL_W: f64 = 430.0;
const PANEL_H: f64 = 270.0;
/// Panels per row.
const COLUMNS: usize = 3;
/// Margins inside a panel: left (y labels), right, top (title), bottom (x labels).
const MARGIN: Margin = Margin {
    left: 52.0,
    right: 12.0,
    top: 28.0,
    bottom: 36.0,
};
struct Margin {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

/// Legend line height.
const LEGEND_ROW: f64 = 16.0;

/// simdcrypt's backends, in order of appearance.
const PALETTE: &[&str] = &[
    "#d62728", "#1f77b4", "#8c564b", "#2ca02c", "#9467bd", "#e377c2", "#bcbd22", "#393b79",
    "#637939", "#7b4173", "#843c39", "#3182bd",
];

/// The peers' fixed colours (drawn thicker than simdcrypt's lines).
fn peer_color(name: &str) -> Option<&'static str> {
    match name {
        "openssl" => Some("#000000"),
        "aws-lc" => Some("#ff7f0e"),
        "rustcrypto" => Some("#17becf"),
        _ => None,
    }
}
/// The runs' dash patterns and their names (one per run, up to eight runs).
const RUN_DASH: [(&str, &str); 8] = [
    ("", "solid"),
    ("8 4", "dashed"),
    ("2 3", "dotted"),
    ("10 3 2 3", "dash-dot"),
    ("16 4", "long-dashed"),
    ("10 3 2 3 2 3", "dash-dot-dot"),
    ("4 6", "sparse-dashed"),
    ("16 3 5 3", "long-short"),
];

/// The ceiling's dash pattern in a single run (a grey line; with several runs, the run's).
const CEILING_DASH: &str = "6 4";

/// The other shade of `color` (`#rrggbb`): a dark colour mixed 40% with white, a light one
/// 35% with black, so that the shade stays visible on the panel's near-white ground.
fn shade(color: &str) -> String {
    let hex = color.trim_start_matches('#');
    let channel = |i: usize| {
        f64::from(u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0))
    };
    let (r, g, b) = (channel(0), channel(1), channel(2));
    let luma = (0.299 * r + 0.587 * g + 0.114 * b) / 255.0;
    let mix = |c: f64| {
        let v = if luma < 0.45 {
            c + (255.0 - c) * 0.4
        } else {
            c * 0.65
        };
        v.round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// Run `run`'s line of a contender drawn in `color`: its colour (every other run the
/// colour's other shade) and dash pattern (one per run); no two of the first eight runs
/// share both.
pub fn run_style(run: usize, color: &str) -> (String, &'static str) {
    let color = if run % 2 == 1 {
        shade(color)
    } else {
        color.to_string()
    };
    (color, RUN_DASH[run % RUN_DASH.len()].0)
}

/// The width of `label` in the x axis's ticks (10 px DejaVu Sans), from its glyphs'
/// advances (digits 0.64 em), rounded up.
fn label_width(label: &str) -> f64 {
    label
        .chars()
        .map(|c| match c {
            '0'..='9' => 6.4,
            'k' => 5.8,
            'm' => 9.8,
            _ => 6.4,
        })
        .sum()
}

/// The space kept between two x labels, in pixels.
const LABEL_GAP: f64 = 4.0;

/// The sizes whose x labels are drawn, with each label's centre: powers of two first,
/// then the others, each smallest first where its box (its width and [`LABEL_GAP`]) meets
/// no label already placed.
fn x_labels(sizes: &[usize], px: impl Fn(usize) -> f64) -> Vec<(usize, f64)> {
    let mut order: Vec<usize> = sizes.to_vec();
    order.sort_by_key(|s| (!s.is_power_of_two(), *s));
    let mut placed: Vec<(usize, f64, f64)> = Vec::new();
    for s in order {
        let (x, half) = (px(s), label_width(&size_label(s)) / 2.0);
        let clear = placed
            .iter()
            .all(|&(_, px2, h2)| (x - px2).abs() >= half + h2 + LABEL_GAP);
        if clear {
            placed.push((s, x, half));
        }
    }
    placed.sort_by_key(|p| p.0);
    placed.into_iter().map(|(s, x, _)| (s, x)).collect()
}

/// The family's title and its id in the SVG (`family-<id>`): the variant's name in kebab
/// case, `other` for none.
pub fn family_name(f: Option<Family>) -> (&'static str, String) {
    use Family::*;
    let Some(f) = f else {
        return ("Other", "other".into());
    };
    let title = match f {
        Ecb => "AES-ECB (blocks)",
        Xts => "AES-XTS, one data unit per message",
        XtsSectors => "AES-XTS, 512-byte data units (encrypt_sectors)",
        XtsPar => "AES-XTS par_encrypt_sectors, 4 KiB units, by threads",
        Cbc => "AES-CBC, one chain",
        CbcMany => "AES-CBC, many streams (encrypt_many)",
        Sha1 => "SHA-1, one message",
        Sha1Many => "SHA-1, many messages (sha1_many)",
        Sha1Dc => "SHA-1 with collision detection, one message",
        Sha1DcMany => "SHA-1 with collision detection, many messages (sha1dc_many)",
        HmacSha1 => "HMAC-SHA1, keyed per message",
        HmacSha1Keyed => "HMAC-SHA1, key set up once",
        HmacSha1Trait => "HMAC-SHA1 through RustCrypto's hmac, keyed per message",
        Pbkdf2HmacSha1 => "PBKDF2-HMAC-SHA1, 20 bytes (size: iterations; 128 B each)",
        CbcHmacSha1 => "AES-CBC + HMAC-SHA1 in one pass (CbcHmacSha1)",
        Krb5 => "Kerberos aes256-cts-hmac-sha1-96",
        AesKey => "AES key setup (keys per second)",
        CbcKey => "CBC key setup (keys per second)",
        XtsKey => "XTS key setup (keys per second)",
        Krb5Keys => "Kerberos usage keys (keys per second)",
    };
    let mut id = String::new();
    for c in format!("{f:?}").chars() {
        if c.is_ascii_uppercase() && !id.is_empty() {
            id.push('-');
        }
        id.push(c.to_ascii_lowercase());
    }
    (title, id)
}

fn family_of(alg: &str) -> Option<Family> {
    algs::base(alg).map(|a| a.family)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `16`, `4k`, `1m`, `1536`.
pub fn size_label(s: usize) -> String {
    if s >= 1 << 20 && s.is_multiple_of(1 << 20) {
        format!("{}m", s >> 20)
    } else if s >= 1 << 10 && s.is_multiple_of(1 << 10) {
        format!("{}k", s >> 10)
    } else {
        s.to_string()
    }
}

/// A round step for about 5 ticks up to `max`.
fn tick_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// One line of a panel.
struct Line {
    label: String,
    color: String,
    dash: String,
    width: f64,
    points: Vec<(usize, f64)>,
}

/// The chart of `runs` (label, records); `all_backends`: every simdcrypt backend, else the
/// automatic choice only where there are several runs.
pub fn render(runs: &[(String, Vec<Record>)], all_backends: bool) -> String {
    let multi = runs.len() > 1;
    // Algorithms by family, in catalog order (unknown names last, in order of appearance).
    let mut algs_seen: Vec<String> = Vec::new();
    for (_, recs) in runs {
        for r in recs {
            if !algs_seen.contains(&r.algorithm) {
                algs_seen.push(r.algorithm.clone());
            }
        }
    }
    let rank = |a: &str| {
        let streams = a
            .rsplit_once("-x")
            .and_then(|(_, n)| n.parse::<usize>().ok())
            .or(algs::base(a).map(|b| b.streams))
            .unwrap_or(0);
        let at = algs::base(a)
            .and_then(|b| algs::catalog().iter().position(|c| c.name == b.name))
            .unwrap_or(usize::MAX);
        (at, streams, a.to_string())
    };
    algs_seen.sort_by_key(|a| rank(a));
    let mut families: Vec<(Option<Family>, Vec<String>)> = Vec::new();
    for a in algs_seen {
        let f = family_of(&a);
        match families.iter_mut().find(|(g, _)| *g == f) {
            Some((_, v)) => v.push(a),
            None => families.push((f, vec![a])),
        }
    }
    // One colour per contender name, the same in every panel.
    let mut colors: BTreeMap<String, String> = BTreeMap::new();
    let mut next_color = 0;
    let mut color_of = |name: &str| -> String {
        if let Some(c) = peer_color(name) {
            return c.to_string();
        }
        colors
            .entry(name.to_string())
            .or_insert_with(|| {
                let c = PALETTE[next_color % PALETTE.len()].to_string();
                next_color += 1;
                c
            })
            .clone()
    };

    let mut body = String::new();
    // Below the title and one line per run.
    let mut y = 92.0 + 13.0 * runs.len().saturating_sub(1) as f64;
    for (family, names) in &families {
        let (title, id) = family_name(*family);
        let _ = writeln!(
            body,
            r#"<g id="family-{id}" class="family"><text x="16" y="{:.0}" class="family-title">{}</text>"#,
            y - 12.0,
            esc(title)
        );
        let mut row_h: f64 = 0.0;
        for (i, alg) in names.iter().enumerate() {
            if i > 0 && i % COLUMNS == 0 {
                y += row_h + 20.0;
                row_h = 0.0;
            }
            let x0 = 16.0 + (i % COLUMNS) as f64 * (PANEL_W + 24.0);
            let mut lines: Vec<Line> = Vec::new();
            for (run_i, (label, recs)) in runs.iter().enumerate() {
                let mine: Vec<&Record> = recs.iter().filter(|r| &r.algorithm == alg).collect();
                let prefix = if multi {
                    format!("{label} ")
                } else {
                    String::new()
                };
                // Contenders in order of appearance.
                let mut whos: Vec<(String, String, bool)> = Vec::new();
                for r in &mine {
                    let show =
                        r.implementation != "simdcrypt" || all_backends || !multi || r.automatic;
                    let key = if r.implementation == "simdcrypt" && multi && !all_backends {
                        "simdcrypt auto".to_string()
                    } else {
                        r.backend.clone()
                    };
                    if show && !whos.iter().any(|(k, _, _)| *k == key) {
                        whos.push((key, r.implementation.clone(), r.automatic));
                    }
                }
                for (key, imp, _) in &whos {
                    let mut points: Vec<(usize, f64)> = mine
                        .iter()
                        .filter(|r| {
                            if key == "simdcrypt auto" {
                                r.implementation == "simdcrypt" && r.automatic
                            } else {
                                &r.backend == key && &r.implementation == imp
                            }
                        })
                        .map(|r| (r.size, r.bytes_per_second / 1e9))
                        .collect();
                    points.sort_by_key(|p| p.0);
                    points.dedup_by_key(|p| p.0);
                    let auto = mine
                        .iter()
                        .any(|r| &r.backend == key && r.automatic && imp == "simdcrypt");
                    let (color, dash) = run_style(run_i, &color_of(key));
                    lines.push(Line {
                        label: format!("{prefix}{key}{}", if auto { " (auto)" } else { "" }),
                        color,
                        dash: dash.to_string(),
                        width: if imp == "simdcrypt" { 1.8 } else { 3.0 },
                        points,
                    });
                }
                // The ceiling: its median at each size.
                let mut ceil: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
                for r in &mine {
                    if let Some(c) = r.ceiling_bytes_per_second {
                        ceil.entry(r.size).or_default().push(c / 1e9);
                    }
                }
                if !ceil.is_empty() {
                    let (color, dash) = run_style(run_i, "#888888");
                    lines.push(Line {
                        label: format!("{prefix}ceiling"),
                        color,
                        dash: if multi { dash } else { CEILING_DASH }.into(),
                        width: 1.5,
                        points: ceil
                            .into_iter()
                            .map(|(s, v)| (s, crate::measure::stats(&v).0))
                            .collect(),
                    });
                }
            }
            let (svg, h) = panel(alg, x0, y, &lines);
            body.push_str(&svg);
            row_h = row_h.max(h);
        }
        y += row_h + 56.0;
        body.push_str("</g>\n");
    }

    let width = 16.0 + COLUMNS as f64 * (PANEL_W + 24.0);
    let mut head = String::new();
    let _ = writeln!(
        head,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{y:.0}" viewBox="0 0 {width:.0} {y:.0}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">
<style>
text {{ fill: #222; font-size: 11px; }}
.title {{ font-size: 20px; font-weight: bold; }}
.family-title {{ font-size: 15px; font-weight: bold; }}
.panel-title {{ font-size: 12px; font-weight: bold; }}
.axis {{ stroke: #444; stroke-width: 1; }}
.grid {{ stroke: #e4e4e4; stroke-width: 1; }}
.tick {{ font-size: 10px; fill: #555; }}
.legend {{ font-size: 10.5px; }}
</style>
<rect width="100%" height="100%" fill="white"/>"#
    );
    let _ = writeln!(
        head,
        r#"<text x="16" y="26" class="title">simdcrypt speed: GB/s (10^9 bytes/s) against message size</text>"#
    );
    let sub: Vec<String> = runs
        .iter()
        .map(|(label, recs)| {
            let r = recs.first().map(|r| &r.run);
            let cpu = r.map_or("?", |r| r.cpu.as_str());
            let commit = r
                .and_then(|r| r.git_commit.as_deref())
                .map(|c| format!(", commit {}", &c[..c.len().min(10)]))
                .unwrap_or_default();
            let ossl = r
                .and_then(|r| r.openssl_version.as_deref())
                .map(|o| format!(", {o}"))
                .unwrap_or_default();
            let dash = if multi {
                let run = runs.iter().position(|x| &x.0 == label).unwrap_or(0);
                let shade = if run % 2 == 1 { ", other shade" } else { "" };
                format!(" [{} lines{shade}]", RUN_DASH[run % RUN_DASH.len()].1)
            } else {
                String::new()
            };
            format!("{label}: {cpu}{commit}{ossl}{dash}")
        })
        .collect();
    for (i, s) in sub.iter().enumerate() {
        let _ = writeln!(
            head,
            r#"<text x="16" y="{:.0}">{}</text>"#,
            44.0 + 13.0 * i as f64,
            esc(s)
        );
    }
    let mut out = head;
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// One panel at (`x0`, `y0`): its SVG and height (the legend below it included).
fn panel(title: &str, x0: f64, y0: f64, lines: &[Line]) -> (String, f64) {
    let mut s = String::new();
    let mut sizes: Vec<usize> = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.0))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let max = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let step = tick_step(if max > 0.0 { max } else { 1.0 });
    let top = (max / step).ceil().max(1.0) * step;
    let (lx, rx) = (x0 + MARGIN.left, x0 + PANEL_W - MARGIN.right);
    let (ty, by) = (y0 + MARGIN.top, y0 + PANEL_H - MARGIN.bottom);
    let (lo, hi) = match (sizes.first(), sizes.last()) {
        (Some(&a), Some(&b)) if b > a => ((a as f64).log2(), (b as f64).log2()),
        (Some(&a), _) => ((a as f64).log2() - 1.0, (a as f64).log2() + 1.0),
        _ => (0.0, 1.0),
    };
    let px = |size: usize| lx + ((size as f64).log2() - lo) / (hi - lo) * (rx - lx);
    let py = |v: f64| by - v / top * (by - ty);
    let _ = writeln!(
        s,
        r##"<g class="panel" data-algorithm="{a}"><rect x="{x0:.1}" y="{y0:.1}" width="{PANEL_W}" height="{PANEL_H}" fill="#fafafa" stroke="#ddd"/>
<text x="{:.1}" y="{:.1}" class="panel-title">{a}</text>"##,
        x0 + 8.0,
        y0 + 18.0,
        a = esc(title)
    );
    let mut v = 0.0;
    while v <= top + step / 2.0 {
        let yy = py(v);
        let _ = writeln!(
            s,
            r#"<line x1="{lx:.1}" y1="{yy:.1}" x2="{rx:.1}" y2="{yy:.1}" class="grid"/><text x="{:.1}" y="{:.1}" text-anchor="end" class="tick">{}</text>"#,
            lx - 5.0,
            yy + 3.5,
            fmt_gbs(v, step)
        );
        v += step;
    }
    for &size in &sizes {
        let xx = px(size);
        let _ = writeln!(
            s,
            r#"<line x1="{xx:.1}" y1="{ty:.1}" x2="{xx:.1}" y2="{by:.1}" class="grid"/>"#
        );
    }
    for (size, xx) in x_labels(&sizes, px) {
        let _ = writeln!(
            s,
            r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle" class="tick x-label">{}</text>"#,
            by + 13.0,
            size_label(size)
        );
    }
    let _ = writeln!(
        s,
        r#"<line x1="{lx:.1}" y1="{by:.1}" x2="{rx:.1}" y2="{by:.1}" class="axis"/><line x1="{lx:.1}" y1="{ty:.1}" x2="{lx:.1}" y2="{by:.1}" class="axis"/>
<text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">message size, bytes (log scale)</text>
<text transform="translate({:.1} {:.1}) rotate(-90)" text-anchor="middle" class="tick">GB/s</text>"#,
        (lx + rx) / 2.0,
        by + 28.0,
        x0 + 13.0,
        (ty + by) / 2.0
    );
    for l in lines {
        let pts: Vec<String> = l
            .points
            .iter()
            .map(|&(sz, v)| format!("{:.1},{:.1}", px(sz), py(v)))
            .collect();
        let dash = if l.dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{}""#, l.dash)
        };
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}"{dash}><title>{}</title></polyline>"#,
            pts.join(" "),
            l.color,
            l.width,
            esc(&l.label)
        );
        for &(sz, v) in &l.points {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.2" fill="{}"><title>{}: {} bytes, {v:.3} GB/s</title></circle>"#,
                px(sz),
                py(v),
                l.color,
                esc(&l.label),
                sz
            );
        }
    }
    // Legend below the panel, two entries per row.
    let mut ly = y0 + PANEL_H + 12.0;
    for (i, l) in lines.iter().enumerate() {
        let lx0 = x0 + 8.0 + (i % 2) as f64 * (PANEL_W / 2.0);
        if i > 0 && i % 2 == 0 {
            ly += LEGEND_ROW;
        }
        let dash = if l.dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{}""#, l.dash)
        };
        let _ = writeln!(
            s,
            r#"<line x1="{lx0:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{}" stroke-width="{}"{dash}/><text x="{:.1}" y="{:.1}" class="legend">{}</text>"#,
            lx0 + 26.0,
            l.color,
            l.width,
            lx0 + 32.0,
            ly + 3.5,
            esc(&l.label)
        );
    }
    s.push_str("</g>\n");
    (s, ly - y0 + 4.0)
}

/// `v` with as many decimals as the tick step needs (0.25 steps get two).
fn fmt_gbs(v: f64, step: f64) -> String {
    let decimals = (0..4)
        .find(|&d| {
            let scaled = step * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(4) as usize;
    format!("{v:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_ids_are_the_variants_in_kebab_case() {
        for (f, id) in [
            (Family::Ecb, "ecb"),
            (Family::XtsSectors, "xts-sectors"),
            (Family::HmacSha1Keyed, "hmac-sha1-keyed"),
            (Family::CbcHmacSha1, "cbc-hmac-sha1"),
            (Family::Krb5Keys, "krb5-keys"),
            (Family::HmacSha1Trait, "hmac-sha1-trait"),
            (Family::Pbkdf2HmacSha1, "pbkdf2-hmac-sha1"),
        ] {
            assert_eq!(family_name(Some(f)).1, id);
        }
        assert_eq!(family_name(None), ("Other", "other".to_string()));
    }
    use crate::record::RunInfo;

    fn records(scale: f64) -> Vec<Record> {
        let mut v = Vec::new();
        for a in algs::catalog() {
            for (i, (imp, backend)) in [("simdcrypt", "aesni"), ("rustcrypto", "rustcrypto")]
                .into_iter()
                .enumerate()
            {
                for size in [16, 1024, 1 << 20] {
                    v.push(Record {
                        run: RunInfo {
                            cpu: "Test & <CPU>".into(),
                            ..RunInfo::default()
                        },
                        algorithm: a.name.into(),
                        implementation: imp.into(),
                        backend: backend.into(),
                        automatic: i == 0,
                        size,
                        streams: 1,
                        par_threads: 1,
                        bytes_per_second: scale * (size as f64).log2() * 1e8 / (i + 1) as f64,
                        min_bytes_per_second: 0.0,
                        max_bytes_per_second: 0.0,
                        rounds: 1,
                        seconds: 0.1,
                        ceiling: "c".into(),
                        ceiling_bytes_per_second: Some(scale * 3e9),
                        ratio_to_ceiling: None,
                        ratio_to_openssl: None,
                        ratio_to_aws_lc: None,
                        ratio_to_rustcrypto: None,
                        ratio_to_one_thread: None,
                        verified: Some(true),
                    });
                }
            }
        }
        v
    }

    /// Every family of the catalog gets its group, every algorithm a panel with a line per
    /// contender and the ceiling, and the whole is well-formed XML.
    fn check(svg: &str, runs: usize) {
        let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let mut families: Vec<Family> = algs::catalog().iter().map(|a| a.family).collect();
        families.dedup();
        for f in families {
            let id = format!("family-{}", family_name(Some(f)).1);
            let g = doc
                .descendants()
                .find(|n| n.attribute("id") == Some(id.as_str()))
                .unwrap_or_else(|| panic!("no group {id}"));
            let panels: Vec<_> = g
                .descendants()
                .filter(|n| n.attribute("class") == Some("panel"))
                .collect();
            let algs_here = algs::catalog().iter().filter(|a| a.family == f).count();
            assert_eq!(panels.len(), algs_here, "{id}");
            for p in panels {
                let lines: Vec<_> = p
                    .descendants()
                    .filter(|n| n.has_tag_name("polyline"))
                    .collect();
                // simdcrypt + RustCrypto + ceiling, per run.
                assert_eq!(lines.len(), 3 * runs, "{id}");
                for l in lines {
                    let pts = l.attribute("points").unwrap().split(' ').count();
                    assert_eq!(pts, 3, "a point per size");
                }
            }
        }
    }

    #[test]
    fn one_run_draws_every_family() {
        let svg = render(&[("run".into(), records(1.0))], true);
        check(&svg, 1);
        assert!(svg.contains("Test &amp; &lt;CPU&gt;"));
    }

    #[test]
    fn two_runs_draw_both() {
        let svg = render(
            &[("A".into(), records(1.0)), ("B".into(), records(2.0))],
            false,
        );
        check(&svg, 2);
        assert!(svg.contains("stroke-dasharray=\"8 4\""), "run B dashed");
    }

    /// Eight runs draw a contender in eight (colour, dash) pairs, with eight dash patterns,
    /// for simdcrypt's, the peers' and the ceiling's colours; the chart of eight runs
    /// draws them so.
    #[test]
    fn eight_runs_have_eight_line_styles() {
        for color in [PALETTE[0], "#000000", "#ff7f0e", "#17becf", "#888888"] {
            let styles: Vec<(String, &str)> = (0..8).map(|r| run_style(r, color)).collect();
            for (i, a) in styles.iter().enumerate() {
                for b in &styles[i + 1..] {
                    assert_ne!(a, b, "{color}");
                    assert_ne!(a.1, b.1, "{color}: dash patterns");
                }
            }
            assert_eq!(styles[0].0, color, "the first run keeps the colour");
            assert_ne!(styles[1].0, color, "the second the other shade");
        }
        let runs: Vec<(String, Vec<Record>)> = (0..8)
            .map(|i| {
                (
                    format!("{}", (b'A' + i) as char),
                    records(1.0 + f64::from(i)),
                )
            })
            .collect();
        let svg = render(&runs, false);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let panel = doc
            .descendants()
            .find(|n| n.attribute("data-algorithm") == Some("sha1"))
            .unwrap();
        for who in ["simdcrypt auto", "rustcrypto", "ceiling"] {
            let mut seen: Vec<(String, String)> = panel
                .descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .filter(|n| {
                    let t = n.first_element_child().and_then(|t| t.text()).unwrap_or("");
                    t.split_once(' ').is_some_and(|(_, w)| w.starts_with(who))
                })
                .map(|n| {
                    let stroke = n.attribute("stroke").unwrap_or("").to_string();
                    let dash = n.attribute("stroke-dasharray").unwrap_or("").to_string();
                    (stroke, dash)
                })
                .collect();
            assert_eq!(seen.len(), 8, "{who}");
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 8, "{who}: eight styles");
        }
        assert!(
            svg.contains("[long-short lines, other shade]"),
            "run H named"
        );
    }

    /// The x labels of a dense size list: their boxes (each glyph counted at least 0.7 em,
    /// above DejaVu Sans' advances) do not overlap, the powers of two are all labelled.
    #[test]
    fn x_labels_do_not_overlap() {
        let sizes = [16, 64, 100, 128, 1024, 1500, 2048, 4096, 16384, 65536];
        let line = Line {
            label: "l".into(),
            color: "#000000".into(),
            dash: String::new(),
            width: 1.0,
            points: sizes.iter().map(|&s| (s, s as f64)).collect(),
        };
        let (svg, _) = panel("t", 0.0, 0.0, &[line]);
        let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>"#);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let boxes: Vec<(String, f64, f64)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("tick x-label"))
            .map(|n| {
                let text = n.text().unwrap().to_string();
                let x: f64 = n.attribute("x").unwrap().parse().unwrap();
                let w: f64 = text
                    .chars()
                    .map(|c| if c == 'm' { 10.0 } else { 7.0 })
                    .sum();
                (text, x - w / 2.0, x + w / 2.0)
            })
            .collect();
        let names: Vec<&str> = boxes.iter().map(|b| b.0.as_str()).collect();
        for want in ["16", "64", "128", "1k", "2k", "4k", "16k", "64k"] {
            assert!(names.contains(&want), "{want} in {names:?}");
        }
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(a.2 <= b.1 || b.2 <= a.1, "{a:?} and {b:?} overlap");
            }
        }
        // Sparse sizes keep every label.
        let all = x_labels(&[16, 1024, 1 << 20], |s| (s as f64).log2() * 20.0);
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn ticks_and_labels() {
        assert_eq!(tick_step(1.0), 0.2);
        assert_eq!(tick_step(23.0), 5.0);
        assert_eq!(tick_step(1.2), 0.25);
        assert_eq!(fmt_gbs(0.75, 0.25), "0.75");
        assert_eq!(fmt_gbs(10.0, 5.0), "10");
        assert_eq!(fmt_gbs(0.4, 0.2), "0.4");
        assert_eq!(size_label(16), "16");
        assert_eq!(size_label(4096), "4k");
        assert_eq!(size_label(1 << 20), "1m");
        assert_eq!(size_label(1536), "1536");
    }
}
