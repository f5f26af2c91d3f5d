//! Unit tests of `src/arch/x86_64/simd/aes.rs` (left out of the package).

use super::*;

/// Block 2 of streams `0 .. L` into block 1 of four others; nothing else is written.
fn gather_scatter<V: AesVec>(t: V::Token) {
    let mut src = [[[0u8; 16]; 3]; 4];
    for (i, b) in src.as_flattened_mut().iter_mut().enumerate() {
        b.fill(i as u8 + 1);
    }
    let mut dst = [[[0u8; 16]; 3]; 4];
    let ps = src.each_mut().map(|s| s.as_mut_ptr().cast::<u8>());
    let pd = dst.each_mut().map(|s| s.as_mut_ptr().cast::<u8>());
    // SAFETY: every pointer starts 3 blocks; the token proves the features.
    unsafe { V::gather(t, &ps, 32).scatter(&pd, 16) };
    for (l, d) in dst.iter().enumerate() {
        let want = if l < V::LANES { src[l][2] } else { [0; 16] };
        assert_eq!(*d, [[0; 16], want, [0; 16]], "lane {l} of {}", V::LANES);
    }
}

/// Every lane of `a` replaced by every lane of `b` in turn, the others kept.
fn with_lane_of<V: AesVec>(t: V::Token) {
    let a: [[u8; 16]; 4] = core::array::from_fn(|i| [i as u8 + 1; 16]);
    let b: [[u8; 16]; 4] = core::array::from_fn(|i| [0x80 | i as u8; 16]);
    // SAFETY: each array holds 4 blocks, at least `LANES`; the token proves the features.
    let (va, vb) = unsafe { (V::load(t, a.as_ptr().cast()), V::load(t, b.as_ptr().cast())) };
    for lane in 0..V::LANES {
        for (from, &bf) in b.iter().enumerate().take(V::LANES) {
            let mut out = [[0u8; 16]; 4];
            // SAFETY: as above.
            unsafe {
                va.with_lane_of(t, lane, vb, from)
                    .store(out.as_mut_ptr().cast())
            };
            let mut want = a;
            want[lane] = bf;
            assert_eq!(
                out[..V::LANES],
                want[..V::LANES],
                "{lane} <- {from} of {}",
                V::LANES
            );
        }
    }
}

/// Both forms of `mul_x_lanes` against repeated doubling, from tweaks with the top
/// bits set (every reduction taken) and not.
fn mul_x_lanes<V: AesVec>(t: V::Token) {
    let tweaks = [
        1u128,
        u128::MAX,
        0x8000_0000_0000_0000_8000_0000_0000_0001,
        0xfedc_ba98_7654_3210_0123_4567_89ab_cdef,
    ];
    for t0 in tweaks {
        let v = V::splat(t, &t0.to_le_bytes());
        for k in 0..=64 - V::LANES {
            for (form, got) in [(0, v.mul_x_lanes(k)), (1, v.mul_x_lanes_clmul(k))] {
                let mut out = [[0u8; 16]; 4];
                // SAFETY: `out` holds 4 blocks, at least `LANES`.
                unsafe { got.store(out.as_mut_ptr().cast()) };
                for (l, b) in out.iter().enumerate().take(V::LANES) {
                    let want = (0..k + l).fold(t0, |x, _| crate::block::mul_x(x));
                    assert_eq!(
                        u128::from_le_bytes(*b),
                        want,
                        "form {form}, k {k}, lane {l} of {}, T {t0:#x}",
                        V::LANES
                    );
                }
            }
        }
    }
}

#[test]
fn mul_x_lanes_every_width() {
    if let Some(t) = AesNiToken::get() {
        mul_x_lanes::<Xmm>(t);
    }
    if let Some(t) = VaesAvx2Token::get() {
        mul_x_lanes::<Ymm>(t);
    }
    if let Some(t) = VaesAvx512Token::get() {
        mul_x_lanes::<Zmm>(t);
    }
}

/// The lane moves on every width this CPU runs.
#[test]
fn lane_moves_every_width() {
    if let Some(t) = AesNiToken::get() {
        gather_scatter::<Xmm>(t);
        with_lane_of::<Xmm>(t);
    }
    if let Some(t) = VaesAvx2Token::get() {
        gather_scatter::<Ymm>(t);
        with_lane_of::<Ymm>(t);
    }
    if let Some(t) = VaesAvx512Token::get() {
        gather_scatter::<Zmm>(t);
        with_lane_of::<Zmm>(t);
    }
}
