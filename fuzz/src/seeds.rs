//! Seed inputs for every target: the known-answer vectors (`../vectors/`) and the edge
//! lengths, each for every backend selector value, encoded with [`crate::encode`] and
//! checked to decode back to the same value.
//!
//! A backend selector `b` picks `available_backends()[b % n]`; the values written are
//! `0..implemented_backends().len()`, which reach every backend the running CPU has
//! whatever `n` is.

use crate::encode::{Encode, seed_bytes};
use crate::{aes, cbc, krb5, sha1, sha1dc, xts};
use arbitrary::Arbitrary;
use simdcrypt_testkit::{Record, Rng, try_hex as hex, try_records as records};

/// The targets that have seeds, by name (`fuzz_targets/<name>.rs`).
pub const TARGETS: [&str; 6] = ["aes", "xts", "cbc", "sha1", "sha1dc", "krb5"];

/// One seed file: a descriptive name and the bytes.
#[derive(Debug, Clone)]
pub struct Seed {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The seeds of `target`, every one round-trip checked; an error for an unknown target, an
/// unreadable vector file or an encoding that does not decode back.
pub fn for_target(target: &str) -> Result<Vec<Seed>, String> {
    match target {
        "aes" => encode_all(aes_inputs()?),
        "xts" => encode_all(xts_inputs()?),
        "cbc" => encode_all(cbc_inputs()?),
        "sha1" => encode_all(sha1_inputs()?),
        "sha1dc" => encode_all(sha1dc_inputs()?),
        "krb5" => encode_all(krb5_inputs()?),
        _ => Err(format!("no seeds for target {target:?}")),
    }
}

fn encode_all<T>(inputs: Vec<(String, T)>) -> Result<Vec<Seed>, String>
where
    T: Encode + for<'a> Arbitrary<'a> + PartialEq + std::fmt::Debug,
{
    inputs
        .into_iter()
        .map(|(name, v)| {
            let bytes = seed_bytes(&v).map_err(|e| format!("seed {name}: {e}"))?;
            Ok(Seed { name, bytes })
        })
        .collect()
}

/// Deterministic filler bytes (splitmix64), different for each `seed`.
pub fn pattern(len: usize, seed: u64) -> Vec<u8> {
    Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed).bytes(len)
}

fn arr<const N: usize>(b: &[u8]) -> Result<[u8; N], String> {
    b.try_into()
        .map_err(|_| format!("{} bytes where {N} were expected", b.len()))
}

/// The field `name` of `r` as a decimal number.
fn number<N: std::str::FromStr<Err: std::fmt::Display>>(
    r: &Record,
    name: &str,
) -> Result<N, String> {
    let v = r.try_get(name)?;
    v.parse().map_err(|e| format!("{name} = {v}: {e}"))
}

fn selectors(n: usize) -> impl Iterator<Item = u8> + Clone {
    (0..n).map(|b| b as u8)
}

/// The backend selectors in turn, for the seeds that do not go over every backend.
fn rotation(nb: usize) -> impl FnMut() -> u8 {
    let mut it = selectors(nb).cycle();
    move || it.next().unwrap_or(0)
}

/// The records of `rel` grouped by `key`, at most `per` from each group, in file order.
fn sample(
    rel: &str,
    per: usize,
    key: impl Fn(&Record) -> Result<Option<String>, String>,
) -> Result<Vec<Record>, String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out = Vec::new();
    for r in records(rel)? {
        let Some(k) = key(&r)? else { continue };
        let n = seen.entry(k).or_default();
        if *n < per {
            *n += 1;
            out.push(r);
        }
    }
    Ok(out)
}

const AES_KATS: [&str; 4] = ["GFSbox", "KeySbox", "VarKey", "VarTxt"];
const KEY_BITS: [usize; 3] = [128, 192, 256];

/// The AESAVS known-answer files (in their CBC form): each test and key size, with its path.
fn aes_kat_files() -> impl Iterator<Item = (&'static str, usize, String)> {
    AES_KATS.into_iter().flat_map(|kat| {
        KEY_BITS.map(|bits| (kat, bits, format!("nist-cavp/cbc/CBC{kat}{bits}.rsp")))
    })
}

/// `aes`: single blocks from the AESAVS known answers, multi-block plaintexts from CBC MMT,
/// block counts around every kernel's width for every key size and backend, and keys of
/// invalid lengths.
pub fn aes_inputs() -> Result<Vec<(String, aes::Input)>, String> {
    let nb = simdcrypt::Aes::implemented_backends().len();
    let mut out = Vec::new();
    let mut rot = rotation(nb);
    for (kat, bits, rel) in aes_kat_files() {
        let recs = records(&rel)?;
        let enc: Vec<&Record> = recs.iter().filter(|r| r.section == "ENCRYPT").collect();
        // First, middle and last of each file.
        for i in [0, enc.len() / 2, enc.len() - 1] {
            let r = enc[i];
            let input = aes::Input {
                backend: rot(),
                key: r.try_hex("KEY")?,
                blocks: vec![arr(&r.try_hex("PLAINTEXT")?)?],
            };
            out.push((format!("kat-{kat}{bits}-{i}"), input));
        }
    }
    for bits in KEY_BITS {
        let rel = format!("nist-cavp/cbc/CBCMMT{bits}.rsp");
        for (i, r) in records(&rel)?.iter().enumerate() {
            if r.section != "ENCRYPT" {
                continue;
            }
            let blocks = r
                .try_hex("PLAINTEXT")?
                .chunks(16)
                .map(arr)
                .collect::<Result<_, _>>()?;
            let input = aes::Input {
                backend: rot(),
                key: r.try_hex("KEY")?,
                blocks,
            };
            out.push((format!("mmt{bits}-{i}"), input));
        }
    }
    let counts = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65];
    for b in selectors(nb) {
        for key_len in [16, 24, 32] {
            for n in counts {
                let data = pattern(16 * n, (key_len * 100 + n) as u64);
                let input = aes::Input {
                    backend: b,
                    key: pattern(key_len, n as u64),
                    blocks: data.chunks(16).map(arr).collect::<Result<_, _>>()?,
                };
                out.push((format!("edge-b{b}-k{key_len}-n{n}"), input));
            }
        }
    }
    for key_len in [0, 1, 15, 17, 23, 25, 31, 33, 48, 64] {
        let input = aes::Input {
            backend: rot(),
            key: pattern(key_len, 7),
            blocks: vec![[0x42; 16]],
        };
        out.push((format!("badkey-{key_len}"), input));
    }
    Ok(out)
}

/// Single XTS units of every edge length, `unit_len` chosen so the target makes `len`.
pub const XTS_UNIT_LENGTHS: [usize; 14] = [
    16, 17, 31, 32, 33, 255, 256, 257, 511, 512, 4095, 4096, 4097, 8192,
];

/// Sector numbers where the counter carries: out of bit 31, out of bit 63 into the high
/// half, and out of bit 127 (wrapping to 0).
pub const XTS_CARRY_SECTORS: [u128; 4] =
    [0, u32::MAX as u128 - 1, u64::MAX as u128 - 1, u128::MAX - 1];

/// An `xts` input: `data` under `key` (32 or 64 bytes), units (or sectors, `multi`) of
/// `len` bytes, tweak and first sector 0, in place, encrypting; the seeds that need more set
/// the other fields.
fn xts_input(
    backend: u8,
    key: &[u8],
    len: usize,
    multi: bool,
    data: Vec<u8>,
) -> Result<xts::Input, String> {
    let mut k = [0u8; 64];
    if key.len() != 32 && key.len() != 64 {
        return Err(format!("XTS key of {} bytes", key.len()));
    }
    k[..key.len()].copy_from_slice(key);
    if (multi && len > 16 + 1023) || (!multi && len > 8192) || len < 16 {
        return Err(format!("XTS length {len} out of the target's range"));
    }
    let l = u16::try_from(len - 16).map_err(|e| e.to_string())?;
    Ok(xts::Input {
        backend,
        wide_key: key.len() == 64,
        key: k,
        tweak: [0; 16],
        sector: 0,
        unit_len: l,
        sector_size: l,
        out_of_place: false,
        decrypt: false,
        multi,
        repeat: 0,
        garbage: 0,
        par: false,
        misuse: 0,
        data,
    })
}

/// The group of an XTSGen record for `sample`: its direction and data-unit length, `None`
/// for lengths that are not whole bytes.
fn by_len(r: &Record) -> Result<Option<String>, String> {
    let bits: usize = number(r, "DataUnitLen")?;
    Ok(bits
        .is_multiple_of(8)
        .then(|| format!("{}-{bits}", r.section)))
}

/// Sectors of `size` over `len` bytes of data for the `k`-th seed of a loop: the key (32 or
/// 64 bytes by `k`) and data patterns from `s` and `s + 1`, out of place for every third.
fn xts_kth_sectors(
    backend: u8,
    k: usize,
    s: u64,
    size: usize,
    len: usize,
) -> Result<xts::Input, String> {
    Ok(xts::Input {
        out_of_place: k.is_multiple_of(3),
        ..xts_input(
            backend,
            &pattern(32 << (k % 2), s),
            size,
            true,
            pattern(len, s + 1),
        )?
    })
}

/// `xts`: NIST XTSGen (raw tweaks as single units, data-unit numbers as one sector),
/// IEEE 1619 vectors, every edge unit length for both key sizes, both directions and every
/// backend, multi-sector runs across counter carries, and inputs the API must refuse.
pub fn xts_inputs() -> Result<Vec<(String, xts::Input)>, String> {
    let nb = simdcrypt::Xts::implemented_backends().len();
    let mut out = Vec::new();
    let mut rot = rotation(nb);
    for bits in [128, 256] {
        let rel = format!("nist-cavp/xts/tweak-128hexstr/XTSGenAES{bits}.rsp");
        for (i, r) in sample(&rel, 3, by_len)?.iter().enumerate() {
            let decrypt = r.section == "DECRYPT";
            let data = r.try_hex(if decrypt { "CT" } else { "PT" })?;
            let input = xts::Input {
                tweak: arr(&r.try_hex("i")?)?,
                decrypt,
                ..xts_input(rot(), &r.try_hex("Key")?, data.len(), false, data)?
            };
            out.push((format!("nist-tweak{bits}-{i}"), input));
        }
        let rel = format!("nist-cavp/xts/tweak-dataunitseqno/XTSGenAES{bits}.rsp");
        for (i, r) in sample(&rel, 2, by_len)?.iter().enumerate() {
            let decrypt = r.section == "DECRYPT";
            let data = r.try_hex(if decrypt { "CT" } else { "PT" })?;
            let sector: u128 = number(r, "DataUnitSeqNumber")?;
            let input = xts::Input {
                sector,
                out_of_place: i % 2 == 1,
                decrypt,
                ..xts_input(rot(), &r.try_hex("Key")?, data.len(), true, data)?
            };
            out.push((format!("nist-seqno{bits}-{i}"), input));
        }
    }
    let ieee = sample("ieee1619/xts-aes.vec", 2, |r| {
        Ok(Some(format!("{}-{}", r.section, r.try_get("In")?.len())))
    })?;
    for (i, r) in ieee.iter().enumerate() {
        let data = r.try_hex("In")?;
        let input = xts::Input {
            tweak: arr(&r.try_hex("Nonce")?)?,
            ..xts_input(rot(), &r.try_hex("Key")?, data.len(), false, data)?
        };
        out.push((format!("ieee-{i}"), input));
    }
    for b in selectors(nb) {
        for key_len in [32, 64] {
            for decrypt in [false, true] {
                for len in XTS_UNIT_LENGTHS {
                    let s = (key_len + len) as u64;
                    // Only the unit's first bytes: the target fills the rest with 0xa5.
                    let input = xts::Input {
                        tweak: arr(&pattern(16, s + 1))?,
                        decrypt,
                        ..xts_input(
                            b,
                            &pattern(key_len, s),
                            len,
                            false,
                            pattern(len.min(64), s + 2),
                        )?
                    };
                    let d = if decrypt { "dec" } else { "enc" };
                    out.push((format!("unit-b{b}-k{key_len}-{d}-{len}"), input));
                }
            }
        }
        // Every ciphertext-stealing tail (1..=15 bytes after two and after eight blocks).
        for len in (1..16).flat_map(|d| [32 + d, 128 + d]) {
            let key_len = if len % 2 == 0 { 32 } else { 64 };
            let decrypt = len % 3 == 0;
            let s = (key_len + len) as u64 + 3;
            let input = xts::Input {
                tweak: arr(&pattern(16, s + 1))?,
                decrypt,
                ..xts_input(b, &pattern(key_len, s), len, false, pattern(len, s + 2))?
            };
            out.push((format!("steal-b{b}-{len}"), input));
        }
        // Sector counters that carry, several sectors in flight, for every backend.
        for (j, start) in XTS_CARRY_SECTORS.into_iter().enumerate() {
            for (size, n) in [(16, 4), (32, 8), (512, 2), (1039, 3)] {
                let s = (j * 1000 + size) as u64;
                let input = xts::Input {
                    sector: start,
                    out_of_place: n == 8,
                    decrypt: j >= 2,
                    ..xts_input(
                        b,
                        &pattern(32 << (j % 2), s),
                        size,
                        true,
                        pattern(size * n, s + 1),
                    )?
                };
                out.push((format!("carry-b{b}-{j}-{size}x{n}"), input));
            }
        }
    }
    // Sector sizes and counts (4096-byte sectors are out of the target's 16..=1039).
    for size in [16, 17, 31, 32, 33, 255, 256, 257, 512, 1039] {
        for n in [1, 2, 3, 4, 8, 16] {
            if size * n > 4096 {
                continue;
            }
            let k = out.len();
            let s = (size * 100 + n) as u64;
            let input = xts::Input {
                sector: XTS_CARRY_SECTORS[k % 4],
                decrypt: k % 5 == 0,
                ..xts_kth_sectors(rot(), k, s, size, size * n)?
            };
            out.push((format!("sectors-{size}x{n}"), input));
        }
    }
    // `Tweaks` conventions (tweak bytes 0-2: width, byte order, step; byte 3 an invalid
    // width) starting just before each width wraps, with an area tail of `size - 16` bytes
    // (24: ciphertext stealing; 4: refused).
    for w in 0u8..4 {
        for be in 0u8..2 {
            for step in 0u8..4 {
                let k = usize::from(w * 8 + be * 4 + step);
                let size = if k % 5 == 4 { 20 } else { 40 };
                let start = XTS_CARRY_SECTORS[1 + usize::from(w % 3)];
                let mut tweak = [0u8; 16];
                tweak[..4].copy_from_slice(&[w, be, step, 48]);
                let s = 7000 + k as u64;
                let input = xts::Input {
                    tweak,
                    sector: start,
                    decrypt: k % 2 == 1,
                    ..xts_kth_sectors(rot(), k, s, size, 3 * size + size - 16)?
                };
                out.push((format!("tweaks-w{w}-be{be}-s{step}"), input));
            }
        }
    }
    // Refused: data that is not whole sectors, duplicate key halves, a unit under 16.
    for (i, size) in [16usize, 512].into_iter().enumerate() {
        let input = xts::Input {
            sector: 5,
            ..xts_input(rot(), &pattern(64, 1), size, true, pattern(2 * size + 5, 2))?
        };
        out.push((format!("partial-sector-{i}"), input));
    }
    for key_len in [32usize, 64] {
        let half = pattern(key_len / 2, 3);
        let input = xts::Input {
            tweak: [1; 16],
            ..xts_input(
                rot(),
                &[half.clone(), half].concat(),
                32,
                false,
                pattern(32, 4),
            )?
        };
        out.push((format!("equal-halves-{key_len}"), input));
    }
    for n in [0, 1, 15] {
        let input = xts::Input {
            tweak: [2; 16],
            ..xts_input(rot(), &pattern(32, 5), 16, true, pattern(n, 6))?
        };
        out.push((format!("short-{n}"), input));
    }
    // Past the 64-tweak batch: 9 to 16 sectors of 16, 48, 512 and 528 bytes run 8 times
    // over (72 to 128 sectors), in place, out of place over garbage, and through `par_*`;
    // every backend, both directions.
    for b in selectors(nb) {
        for (i, (size, count)) in [(16, 9), (48, 16), (512, 9), (528, 12)]
            .into_iter()
            .enumerate()
        {
            for (mode, decrypt) in [(0, false), (1, true), (2, false)] {
                let input = xts::Input {
                    tweak: [3; 16],
                    sector: u128::from(u64::MAX) - 40,
                    out_of_place: mode == 1,
                    decrypt,
                    repeat: 7,
                    garbage: 0x5a + i as u8,
                    par: mode == 2,
                    ..xts_input(
                        b,
                        &pattern(64, 20 + i as u64),
                        size,
                        true,
                        pattern(size * count, 21 + i as u64),
                    )?
                };
                out.push((format!("batch-b{b}-{size}x{count}-m{mode}"), input));
            }
        }
        // A single unit out of place over garbage (the `_to` form with a sector number).
        for len in [16, 33, 512, 4097] {
            let input = xts::Input {
                tweak: [4; 16],
                sector: 7,
                out_of_place: true,
                garbage: 0xc3,
                ..xts_input(b, &pattern(32, 30), len, false, pattern(len, 31))?
            };
            out.push((format!("unit-to-b{b}-{len}"), input));
        }
    }
    // Misuse, each refused with the buffers untouched: every bad key length of the list;
    // sector sizes 0, 8, 15; sizes over 2^24; `_to` lengths off by 1, 17 and 32.
    let misuses: [(u8, &str); 16] = [
        (1, "key-0"),
        (1 + 8, "key-16"),
        (1 + 8 * 2, "key-24"),
        (1 + 8 * 3, "key-31"),
        (1 + 8 * 4, "key-33"),
        (1 + 8 * 5, "key-48"),
        (1 + 8 * 6, "key-63"),
        (1 + 8 * 7, "key-65"),
        (2, "sector-0"),
        (2 + 8 * 8, "sector-8"),
        (2 + 8 * 15, "sector-15"),
        (3, "over-max"),
        (3 + 8, "over-max-1"),
        (4, "to-off-by-1"),
        (4 + 8 * 16, "to-off-by-17"),
        (4 + 8 * 31, "to-off-by-32"),
    ];
    for (misuse, name) in misuses {
        for multi in [false, true] {
            let input = xts::Input {
                tweak: [5; 16],
                sector: 9,
                out_of_place: true,
                misuse,
                ..xts_input(rot(), &pattern(32, 40), 64, multi, pattern(128, 41))?
            };
            out.push((format!("misuse-{name}-multi{}", u8::from(multi)), input));
        }
    }
    Ok(out)
}

fn cbc_input(
    backend: u8,
    key: &[u8],
    iv: [u8; 16],
    data: Vec<u8>,
    splits: Vec<u8>,
    streams: Vec<Vec<u8>>,
) -> Result<cbc::Input, String> {
    let key_size = match key.len() {
        16 => 0,
        24 => 1,
        32 => 2,
        n => return Err(format!("CBC key of {n} bytes")),
    };
    let mut k = [0u8; 32];
    k[..key.len()].copy_from_slice(key);
    Ok(cbc::Input {
        backend,
        key_size,
        key: k,
        iv,
        data,
        splits,
        corrupt: 0,
        copies: 0,
        bad: 0,
        streams,
    })
}

/// A `cbc` input of `len` bytes of data, its key (`key_len` bytes), IV and data patterns
/// from `s`, `s + 1` and `s + 2`.
fn cbc_patterned(backend: u8, key_len: usize, len: usize, s: u64) -> Result<cbc::Input, String> {
    let iv = arr(&pattern(16, s + 1))?;
    cbc_input(
        backend,
        &pattern(key_len, s),
        iv,
        pattern(len, s + 2),
        vec![],
        vec![],
    )
}

/// Data lengths for CBC: whole blocks around the kernels' widths, and the CS3 (stealing)
/// lengths one either side of a block boundary.
pub const CBC_LENGTHS: [usize; 21] = [
    0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 127, 128, 129, 255, 256, 257, 4096,
];

/// `cbc`: AESAVS known answers and CBC MMT (with the MMT messages also split into chained
/// calls), every edge and CS3 length for every key size and backend, chunk splits, and
/// `encrypt_many` stream sets.
pub fn cbc_inputs() -> Result<Vec<(String, cbc::Input)>, String> {
    let nb = simdcrypt::Cbc::implemented_backends().len();
    let mut out = Vec::new();
    let mut rot = rotation(nb);
    for (kat, bits, rel) in aes_kat_files() {
        for (i, r) in sample(&rel, 2, |r| Ok(Some(r.section.clone())))?
            .iter()
            .enumerate()
        {
            let data = r.try_hex(if r.section == "DECRYPT" {
                "CIPHERTEXT"
            } else {
                "PLAINTEXT"
            })?;
            let input = cbc_input(
                rot(),
                &r.try_hex("KEY")?,
                arr(&r.try_hex("IV")?)?,
                data,
                vec![],
                vec![],
            )?;
            out.push((format!("kat-{kat}{bits}-{i}"), input));
        }
    }
    for bits in KEY_BITS {
        let rel = format!("nist-cavp/cbc/CBCMMT{bits}.rsp");
        for (i, r) in records(&rel)?.iter().enumerate() {
            let data = r.try_hex(if r.section == "DECRYPT" {
                "CIPHERTEXT"
            } else {
                "PLAINTEXT"
            })?;
            let splits = match i % 3 {
                0 => vec![],
                1 => vec![1],
                _ => vec![1, 2],
            };
            let input = cbc_input(
                rot(),
                &r.try_hex("KEY")?,
                arr(&r.try_hex("IV")?)?,
                data,
                splits,
                vec![],
            )?;
            out.push((format!("mmt{bits}-{i}"), input));
        }
    }
    for b in selectors(nb) {
        for key_len in [16, 24, 32] {
            for len in CBC_LENGTHS {
                let s = (key_len * 10000 + len) as u64;
                let input = cbc_patterned(b, key_len, len, s)?;
                out.push((format!("len-b{b}-k{key_len}-{len}"), input));
            }
        }
        // Every block count to 33, whole and with a 1-byte tail (the CS3 head is then
        // that many blocks less one), for every key size: each kernel's remainder paths.
        for blocks in 0..=33usize {
            for tail in [0, 1, 15] {
                for key_len in [16, 24, 32] {
                    let len = 16 * blocks + tail;
                    let s = (key_len * 10000 + len) as u64 + 7;
                    let input = cbc_patterned(b, key_len, len, s)?;
                    out.push((format!("blocks-b{b}-k{key_len}-{blocks}+{tail}"), input));
                }
            }
        }
        // Every CS3 tail length (1..=16 bytes stolen) after one and after nine blocks.
        for len in (1..=16).flat_map(|d| [16 + d, 144 + d]) {
            for key_len in [16, 24, 32] {
                let s = (key_len * 10000 + len) as u64 + 11;
                let input = cbc_patterned(b, key_len, len, s)?;
                out.push((format!("cs3-b{b}-k{key_len}-{len}"), input));
            }
        }
        let splits: [&[u8]; 10] = [
            &[0],
            &[1],
            &[1, 1, 1],
            &[2, 3],
            &[4],
            &[8],
            &[7, 1],
            &[15],
            &[16],
            &[0, 255],
        ];
        for (i, sp) in splits.iter().enumerate() {
            let input = cbc_input(
                b,
                &pattern(16, i as u64),
                [i as u8; 16],
                pattern(256, i as u64 + 1),
                sp.to_vec(),
                vec![],
            )?;
            out.push((format!("split-b{b}-{i}"), input));
        }
        let stream_sets: [&[usize]; 8] = [
            &[16],
            &[16, 32, 48, 64],
            &[64; 8],
            &[0, 16, 31, 256],
            &[128; 4],
            &[16, 4096],
            &[48; 20],
            &[32; 21],
        ];
        // Every lane-group size (1..=16 streams, then 17, 20 and 21), ragged lengths, the
        // key size rotating.
        let mut stream_sets: Vec<Vec<usize>> = stream_sets.iter().map(|s| s.to_vec()).collect();
        for count in (1..=17).chain([20, 21]) {
            stream_sets.push((0..count).map(|j| 16 * ((j * 5 + count) % 7)).collect());
            stream_sets.push(vec![48; count]);
        }
        for (i, set) in stream_sets.iter().enumerate() {
            for key_len in [16, 24, 32] {
                let streams = set
                    .iter()
                    .enumerate()
                    .map(|(j, &n)| pattern(n, (i * 100 + j) as u64))
                    .collect();
                let input = cbc_input(
                    b,
                    &pattern(key_len, i as u64),
                    [0x10 + i as u8; 16],
                    pattern(32, 9),
                    vec![],
                    streams,
                )?;
                out.push((format!("many-b{b}-k{key_len}-{i}"), input));
            }
        }
        // Past the 64-stream window: 17 and 20 ragged streams run 4 times over (68, 80).
        for (i, count) in [17usize, 20].into_iter().enumerate() {
            let streams = (0..count)
                .map(|j| pattern(16 * (1 + (j * 3) % 5), (700 + j) as u64))
                .collect();
            let mut input = cbc_input(b, &pattern(32, 70), [0x70; 16], vec![], vec![], streams)?;
            input.copies = 3;
            out.push((format!("many-window-b{b}-{i}"), input));
        }
        // `encrypt_many` misuse: an IV short, one stream ragged (the first, the fifth).
        for (i, bad) in [1u8, 2, 14].into_iter().enumerate() {
            let streams = (0..6).map(|j| pattern(32, (800 + j) as u64)).collect();
            let mut input = cbc_input(b, &pattern(16, 80), [0x80; 16], vec![], vec![], streams)?;
            input.bad = bad;
            out.push((format!("many-bad-b{b}-{i}"), input));
        }
        // Corrupted padding: every byte of the last two blocks, a few bit positions, and
        // CS3 under 16 bytes (0, 1 and 15 bytes of data, any padding error path).
        for (i, corrupt) in [0u16, 1, 15, 16, 31, 0x0300, 0x0701, 0x050f]
            .into_iter()
            .enumerate()
        {
            for len in [0usize, 15, 16, 40] {
                let mut input = cbc_input(
                    b,
                    &pattern(24, 90),
                    [0x90; 16],
                    pattern(len, 91),
                    vec![],
                    vec![],
                )?;
                input.corrupt = corrupt;
                out.push((format!("padding-b{b}-{i}-{len}"), input));
            }
        }
    }
    Ok(out)
}

/// SHA-1 message lengths where the padding changes shape (55/56: the length still fits in
/// the last block or not) and whole-block boundaries.
pub const SHA1_LENGTHS: [usize; 10] = [0, 55, 56, 63, 64, 65, 119, 120, 127, 128];

/// A `sha1` input: `data` alone (no splits, no `sha1_many` messages, an empty HMAC key) and
/// a full tag; the seeds that need more set the other fields.
fn sha1_input(backend: u8, data: Vec<u8>) -> sha1::Input {
    sha1::Input {
        backend,
        data,
        splits: vec![],
        messages: vec![],
        key: vec![],
        tag_len: 20,
        flip: 0,
    }
}

/// The message of a SHAVS record, `Len` bits (whole bytes) of `Msg`.
fn msg(r: &Record) -> Result<Vec<u8>, String> {
    let bits: usize = number(r, "Len")?;
    let mut m = r.try_hex("Msg")?;
    m.truncate(bits / 8);
    Ok(m)
}

/// `sha1`: SHAVS short messages (every length 0..=64 bytes) and a few long ones, RFC 2202
/// HMAC cases, every padding-edge length for every backend, `update` splits at those
/// lengths, `sha1_many` message sets, and HMAC key lengths around the block size with tag
/// lengths around the accepted 10..=20.
pub fn sha1_inputs() -> Result<Vec<(String, sha1::Input)>, String> {
    let nb = simdcrypt::Sha1::implemented_backends().len();
    let mut out = Vec::new();
    let mut rot = rotation(nb);
    for r in records("nist-cavp/sha1/SHA1ShortMsg.rsp")? {
        let m = msg(&r)?;
        let name = format!("short-{}", m.len());
        out.push((name, sha1_input(rot(), m)));
    }
    for r in records("nist-cavp/sha1/SHA1LongMsg.rsp")?.iter().take(4) {
        let m = msg(r)?;
        let name = format!("long-{}", m.len());
        let splits = vec![64, 1, 100];
        out.push((
            name,
            sha1::Input {
                splits,
                ..sha1_input(rot(), m)
            },
        ));
    }
    for (i, r) in records("rfc2202/rfc-2202-sha1.txt")?.iter().enumerate() {
        // Test case 5 is the truncation case: verify a 96-bit tag (12 bytes).
        let tag_len = if i == 4 { 12 } else { 20 };
        let input = sha1::Input {
            key: r.try_hex("Key")?,
            tag_len,
            flip: i as u8,
            ..sha1_input(rot(), r.try_hex("Msg")?)
        };
        out.push((format!("rfc2202-{}", i + 1), input));
    }
    for b in selectors(nb) {
        for len in SHA1_LENGTHS {
            let input = sha1_input(b, pattern(len, len as u64));
            out.push((format!("len-b{b}-{len}"), input));
        }
        // Chunk splits at each edge length, and byte-at-a-time across a block boundary.
        let mut splits: Vec<Vec<u16>> = SHA1_LENGTHS.iter().map(|&n| vec![n as u16]).collect();
        splits.push(vec![1; 70]);
        splits.push(vec![55, 9]);
        splits.push(vec![63, 1, 64]);
        splits.push(vec![0, 0, 64, 0]);
        for (i, sp) in splits.into_iter().enumerate() {
            let input = sha1::Input {
                splits: sp,
                ..sha1_input(b, pattern(200, i as u64))
            };
            out.push((format!("split-b{b}-{i}"), input));
        }
        let mut sets: Vec<Vec<usize>> = vec![
            SHA1_LENGTHS.to_vec(),
            vec![64; 8],
            vec![55; 4],
            vec![128, 0, 56, 119, 64, 63, 1, 120],
            (0..20).map(|i| i * 7).collect(),
            vec![65; 21],
            vec![0],
            // One long straggler among short ones, and lanes refilled mid-run.
            [vec![2000], vec![64; 9]].concat(),
            [vec![64; 7], vec![700, 0, 1]].concat(),
            // The first lane finishes first, so an idle lane leads the group.
            [vec![0], vec![300; 7]].concat(),
            [vec![0], vec![300; 4]].concat(),
            [vec![0, 1], vec![200; 9]].concat(),
            // Lanes refilled with one-block messages while a longer one runs (a shape
            // 30 s of fuzzing found and these seeds lacked).
            vec![0, 0, 0, 0, 1, 0, 136, 21, 15, 0, 2, 2, 2],
        ];
        // Eight lanes, k of one block and the rest of two: after the first step 8 - k
        // stay busy, on either side of the threshold for finishing them one by one.
        for k in 1..8 {
            sets.push([vec![0; k], vec![81; 8 - k]].concat());
        }
        // Every lane count to 17, ragged lengths.
        for count in 1..=17 {
            sets.push((0..count).map(|j| (j * 37 + count * 11) % 300).collect());
        }
        for (i, set) in sets.iter().enumerate() {
            let messages = set
                .iter()
                .enumerate()
                .map(|(j, &n)| pattern(n, (i * 100 + j) as u64))
                .collect();
            let input = sha1::Input {
                messages,
                ..sha1_input(b, pattern(3, 1))
            };
            out.push((format!("many-b{b}-{i}"), input));
        }
    }
    // Every tag length the target makes (tag_len % 24), accepted (10..=20) or not.
    for tag_len in 0..24u8 {
        let input = sha1::Input {
            key: pattern(20, u64::from(tag_len)),
            tag_len,
            flip: tag_len.wrapping_mul(7),
            ..sha1_input(rot(), pattern(usize::from(tag_len) * 5, 4))
        };
        out.push((format!("tag-{tag_len}"), input));
    }
    for key_len in [0, 1, 20, 63, 64, 65, 80, 128] {
        for tag_len in [0, 9, 10, 20, 21] {
            let input = sha1::Input {
                key: pattern(key_len, tag_len as u64),
                tag_len,
                flip: (key_len + tag_len as usize) as u8,
                ..sha1_input(rot(), pattern(key_len, 3))
            };
            out.push((format!("hmac-k{key_len}-t{tag_len}"), input));
        }
    }
    Ok(out)
}

/// The published attacks of `vectors/sha1dc/` (SHAttered's first 320 bytes, whose
/// colliding blocks are bytes 192..320; the SHA-mbles pair; the reduced-round collision,
/// which is not flagged).
pub const SHA1DC_FILES: [&str; 5] = [
    "shattered-1-first320.bin",
    "shattered-2-first320.bin",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
    "sha1_reducedsha_coll.bin",
];

/// `sha1dc`: every attack file as it is on every backend selector, in one piece and split
/// at block boundaries around the colliding blocks; each file cut to 256 bytes (between
/// SHAttered's two colliding blocks) and one byte short, and with a suffix; and a bit
/// flipped at bytes 200, 250 and 300 (in SHAttered's colliding blocks, no longer an
/// attack), so that mutations start next to the attack blocks.
pub fn sha1dc_inputs() -> Result<Vec<(String, sha1dc::Input)>, String> {
    let nb = simdcrypt::Sha1Dc::implemented_backends().len();
    let mut out = Vec::new();
    let mut rot = rotation(nb);
    let splits: [&[u16]; 5] = [&[], &[64], &[192, 64], &[191, 1, 63, 65], &[320, 0, 64]];
    for name in SHA1DC_FILES {
        let path = simdcrypt_testkit::vector_path(&format!("sha1dc/{name}"));
        let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let stem = name.trim_end_matches(".bin");
        for b in selectors(nb) {
            for (i, sp) in splits.iter().enumerate() {
                let input = sha1dc::Input {
                    backend: b,
                    splits: sp.to_vec(),
                    data: data.clone(),
                };
                out.push((format!("{stem}-b{b}-split{i}"), input));
            }
        }
        let cuts = [256, data.len() - 1];
        for cut in cuts {
            let input = sha1dc::Input {
                backend: rot(),
                splits: vec![],
                data: data[..cut.min(data.len())].to_vec(),
            };
            out.push((format!("{stem}-cut{cut}"), input));
        }
        let mut longer = data.clone();
        longer.extend_from_slice(&pattern(200, 7));
        out.push((
            format!("{stem}-suffix"),
            sha1dc::Input {
                backend: rot(),
                splits: vec![100],
                data: longer,
            },
        ));
        for byte in [200, 250, 300] {
            let mut d = data.clone();
            d[byte % data.len()] ^= 4;
            out.push((
                format!("{stem}-flip{byte}"),
                sha1dc::Input {
                    backend: rot(),
                    splits: vec![],
                    data: d,
                },
            ));
        }
    }
    Ok(out)
}

/// MIT krb5's known ciphertexts (`src/lib/crypto/crypto_tests/t_decrypt.c`, enctypes 17
/// and 18): (usage, key, ciphertext), so that `decrypt` seeds reach the success path.
const MIT_DECRYPT: [(u32, &str, &str); 4] = [
    (
        2,
        "9062430c8cda3388922e6d6a509f5b7a",
        "68fb9679601f45c78857b2bf820fd6e53eca8d42fd4b1d7024a09205abb7cd2ec26c355d2f",
    ),
    (
        4,
        "dceeb70b3de76562e689226c76429148",
        "c96081032d5d8eeb7e32b4089f789d0faa481dea74c0f97cbf3146ddfcf8e800156ecb532fc203e30ff600b63b350939fece510f02d7ff1e7bac",
    ),
    (
        0,
        "17f275f2954f2ed1f90c377ba7f4d6a369aa0136e0bf0c927ad6133c693759a9",
        "e5094c55ee7b38262e2b044280b069379a95bf95bd8376fb3281b435",
    ),
    (
        3,
        "e5a72be9b7926c1225bafef9c1872e7ba4cdb2b17893d84abd90acdd8764d966",
        "d8f1aafeec84587cc3e700a774e56651a6d693e174ec4473b5e6d96f80297a653fb818ad893e719f96",
    ),
];

/// Message lengths around the CS3 tail and the stitched kernels' 64-byte groups, and the
/// 28-byte minimum of a Kerberos ciphertext.
pub const KRB5_LENGTHS: [usize; 20] = [
    0, 1, 15, 16, 17, 27, 28, 29, 31, 32, 33, 63, 64, 65, 95, 96, 97, 128, 129, 300,
];

/// `krb5`: MIT's known ciphertexts for every backend selector, and every edge length with
/// both key sizes, every tag length the target makes, and MAC keys around the block size.
pub fn krb5_inputs() -> Result<Vec<(String, krb5::Input)>, String> {
    let nb = simdcrypt::CbcHmacSha1::implemented_backends().len();
    let mut out = Vec::new();
    for b in selectors(nb) {
        for (i, (usage, key, ct)) in MIT_DECRYPT.iter().enumerate() {
            let k = hex(key)?;
            let mut key = [0u8; 32];
            key[..k.len()].copy_from_slice(&k);
            out.push((
                format!("mit-b{b}-{i}"),
                krb5::Input {
                    backend: b,
                    wide: k.len() == 32,
                    key,
                    iv: [0; 16],
                    usage: *usage,
                    confounder: arr(&pattern(16, i as u64))?,
                    tag_len: 12,
                    flip: i as u16 * 37,
                    mac_key: pattern(16, 9),
                    data: hex(ct)?,
                },
            ));
        }
        for len in KRB5_LENGTHS {
            for wide in [false, true] {
                out.push((
                    format!("len-b{b}-{len}-{}", if wide { 256 } else { 128 }),
                    krb5::Input {
                        backend: b,
                        wide,
                        key: arr(&pattern(32, len as u64))?,
                        iv: arr(&pattern(16, len as u64 + 1))?,
                        usage: len as u32,
                        confounder: arr(&pattern(16, len as u64 + 2))?,
                        tag_len: (len % 24) as u8,
                        flip: (len * 13) as u16,
                        mac_key: pattern(len % 70, 3),
                        data: pattern(len, len as u64 + 3),
                    },
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed of every target decodes back to the value it was written from (checked
    /// inside `for_target`), names are unique, and each target has its vectors and edges.
    #[test]
    fn every_seed_round_trips() {
        for target in TARGETS {
            let seeds = for_target(target).unwrap_or_else(|e| panic!("{target}: {e}"));
            assert!(seeds.len() > 50, "{target}: only {} seeds", seeds.len());
            let mut names: Vec<&str> = seeds.iter().map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            let n = names.len();
            names.dedup();
            assert_eq!(names.len(), n, "{target}: duplicate seed names");
        }
    }

    /// The edge lengths the seeds promise are the ones the target makes of them.
    #[test]
    fn xts_unit_lengths_reach_the_target() {
        let seeds = xts_inputs().unwrap();
        for len in XTS_UNIT_LENGTHS {
            assert!(
                seeds
                    .iter()
                    .any(|(_, i)| !i.multi && 16 + usize::from(i.unit_len) % (8192 - 15) == len),
                "no XTS unit of {len} bytes"
            );
        }
    }

    /// The `sha1dc` seeds start from the attacks: the four attack files as they are are
    /// flagged whatever the splits, the reduced-round collision is not, and a bit flipped in
    /// SHAttered's colliding blocks leaves no attack.
    #[test]
    fn sha1dc_seeds_hold_the_attacks() {
        let nb = simdcrypt::Sha1Dc::implemented_backends().len();
        let mut flagged = 0;
        for (name, i) in sha1dc_inputs().unwrap() {
            let hit = simdcrypt::sha1dc(&i.data).is_err();
            if name.contains("-split") {
                assert_eq!(hit, !name.starts_with("sha1_reduced"), "{name}");
            }
            if name.starts_with("shattered") && name.contains("-flip") {
                assert!(!hit, "{name}");
            }
            flagged += usize::from(hit);
        }
        assert!(flagged >= 4 * 5 * nb, "{flagged} flagged seeds");
    }

    #[test]
    fn a_decoded_seed_is_the_input() {
        let seeds = for_target("cbc").unwrap();
        let inputs = cbc_inputs().unwrap();
        for (s, (_, v)) in seeds.iter().zip(&inputs) {
            let back: cbc::Input = crate::encode::decode(&s.bytes).unwrap();
            assert_eq!(&back, v, "{}", s.name);
        }
    }
}
