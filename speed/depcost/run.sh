#!/usr/bin/env bash
# What depending on simdcrypt costs a downstream program: clean build time (release and
# debug) and stripped binary size of a program that uses one algorithm, on simdcrypt
# (default features, this checkout) and on the RustCrypto crates, built in one run,
# alternating, ROUNDS times (median). The programs are written into a scratch directory;
# the registry crates are fetched first, so that no download is timed.
#
#   speed/depcost/run.sh [ROUNDS]      (default 3; prints two markdown tables: each
#                                       program, and simdcrypt over RustCrypto per algorithm)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
work=$(mktemp -d)
echo "scratch: $work" >&2
trap '[ -n "${DEPCOST_KEEP:-}" ] || rm -rf "$work"' EXIT

# name | dependencies (separated by "; ") | main.rs body
programs=(
"xts-simdcrypt|simdcrypt = { path = \"$root\" }|let x = simdcrypt::Xts::new(&key(64)).unwrap(); let mut b = vec![1u8; 4096]; x.encrypt_sectors(&mut b, 512, 0).unwrap(); out(&b);"
"xts-rustcrypto|aes = \"0.9\"; xts-mode = \"0.6\"|use aes::cipher::KeyInit; let k = key(64); let x = xts_mode::Xts128::new(aes::Aes256::new_from_slice(&k[..32]).unwrap(), aes::Aes256::new_from_slice(&k[32..]).unwrap()); let mut b = vec![1u8; 4096]; x.encrypt_area(&mut b, 512, 0, xts_mode::get_tweak_default); out(&b);"
"cbc-simdcrypt|simdcrypt = { path = \"$root\" }|let c = simdcrypt::Cbc::new(&key(16)).unwrap(); let mut b = vec![1u8; 4096]; c.encrypt(&mut [0u8; 16], &mut b).unwrap(); out(&b);"
"cbc-rustcrypto|aes = \"0.9\"; cbc = \"0.2\"|use aes::cipher::{BlockModeEncrypt, KeyIvInit}; let mut b = vec![1u8; 4096]; let mut e = cbc::Encryptor::<aes::Aes128>::new_from_slices(&key(16), &[0u8; 16]).unwrap(); for blk in b.chunks_exact_mut(16) { e.encrypt_block(blk.try_into().unwrap()); } out(&b);"
"sha1-simdcrypt|simdcrypt = { path = \"$root\" }|out(&simdcrypt::sha1(&key(4096)));"
"sha1-rustcrypto|sha1 = \"0.11\"|use sha1::Digest; out(&sha1::Sha1::digest(key(4096)));"
)

for p in "${programs[@]}"; do
    IFS='|' read -r name deps body <<<"$p"
    mkdir -p "$work/$name/src"
    cat >"$work/$name/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
${deps//; /$'\n'}
[profile.release]
strip = true
[workspace]
TOML
    cat >"$work/$name/src/main.rs" <<RS
fn key(n: usize) -> Vec<u8> {
    std::env::args().nth(1).unwrap_or_default().bytes().chain((0u8..=255).cycle()).take(n).collect()
}
fn out(b: &[u8]) {
    println!("{:02x?}", &b[..4]);
}
fn main() {
    $body
}
RS
    (cd "$work/$name" && cargo fetch -q)
    unset CARGO_TARGET_DIR
done

declare -A times sizes
for r in $(seq "$rounds"); do
    for p in "${programs[@]}"; do
        name=${p%%|*}
        for profile in release dev; do
            rm -rf "$work/$name/target"
            s=$(date +%s.%N)
            (cd "$work/$name" && cargo build -q --offline --profile "$profile")
            e=$(date +%s.%N)
            times[$name/$profile]+="$(echo "$e - $s" | bc) "
            if [ "$profile" = release ]; then
                sizes[$name]=$(stat -c %s "$work/$name/target/release/$name")
            fi
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| program | release build | debug build | stripped binary |"
echo "|---|---|---|---|"
for p in "${programs[@]}"; do
    name=${p%%|*}
    rel=$(echo "${times[$name/release]}" | median)
    dbg=$(echo "${times[$name/dev]}" | median)
    printf '| %s | %.1f s | %.1f s | %d KiB |\n' "$name" "$rel" "$dbg" $(( ${sizes[$name]} / 1024 ))
done
echo
# Each simdcrypt program against its RustCrypto twin (the next line of `programs`).
echo "| algorithm | release build | debug build | stripped binary |"
echo "|---|---|---|---|"
for ((i = 0; i < ${#programs[@]}; i += 2)); do
    a=${programs[i]%%|*} b=${programs[i + 1]%%|*}
    ra=$(echo "${times[$a/release]}" | median) rb=$(echo "${times[$b/release]}" | median)
    da=$(echo "${times[$a/dev]}" | median) db=$(echo "${times[$b/dev]}" | median)
    printf '| %s | %.1fx | %.1fx | %+d KiB |\n' "${a%-simdcrypt}" "$(echo "$ra / $rb" | bc -l)" \
        "$(echo "$da / $db" | bc -l)" $(( (${sizes[$a]} - ${sizes[$b]}) / 1024 ))
done
echo
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) CPUs; $(rustc --version); simdcrypt at $(git -C "$root" rev-parse --short HEAD)"
