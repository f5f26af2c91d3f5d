use super::*;

#[test]
fn fill_matches_nth_across_wraps() {
    let cases = [
        Tweaks::new(u128::MAX - 3),
        Tweaks::plain(u32::MAX - 2),
        Tweaks::plain64(u64::MAX - 20).step(8),
        Tweaks::plain64be(u64::MAX - 9000).step(4096),
        Tweaks::new(1 << 100)
            .step(u128::MAX)
            .wrap_bits(64)
            .big_endian(),
    ];
    for t in cases {
        let mut out = [[0u8; 16]; 10];
        t.fill(3, &mut out);
        for (i, b) in out.iter().enumerate() {
            assert_eq!(*b, t.nth(3 + i as u128), "{t:?} unit {}", 3 + i);
        }
    }
    // Explicit values: plain wraps at 2^32, plain64be is big-endian in the last 8.
    assert_eq!(Tweaks::plain(u32::MAX).nth(1), [0; 16]);
    let mut be = [0u8; 16];
    be[8..].copy_from_slice(&5u64.to_be_bytes());
    assert_eq!(Tweaks::plain64be(3).step(2).nth(1), be);
}

#[test]
fn widths_other_than_32_64_128_are_refused() {
    for bits in [0, 1, 16, 31, 33, 48, 63, 65, 127, 129, 256, u32::MAX] {
        let t = Tweaks::new(1).wrap_bits(bits);
        assert_eq!(t.check(), Err(Error::InvalidWrapBits { bits }));
        assert_eq!(t.tweak(0), Err(Error::InvalidWrapBits { bits }));
        // The mask of an unchecked width does not panic.
        let _ = t.mask();
    }
    for bits in [32, 64, 128] {
        assert_eq!(Tweaks::new(1).wrap_bits(bits).check(), Ok(()));
    }
}

#[test]
fn steps_that_are_zero_modulo_the_width_are_refused() {
    let refused: [(u128, u32); 7] = [
        (0, 32),
        (0, 64),
        (0, 128),
        (1 << 32, 32),
        (3 << 32, 32),
        (1 << 64, 64),
        (u128::MAX << 64, 64),
    ];
    for (step, bits) in refused {
        let t = Tweaks::new(9).wrap_bits(bits).step(step);
        assert_eq!(t.check(), Err(Error::ZeroTweakStep { bits }), "step {step}");
        assert_eq!(
            t.tweak(3),
            Err(Error::ZeroTweakStep { bits }),
            "step {step}"
        );
    }
    // Not 0 modulo the width: accepted, wrapping included (2^31 at 32 bits repeats
    // every second unit, as the format would).
    let accepted: [(u128, u32); 5] = [
        (1, 32),
        (1 << 31, 32),
        ((1 << 32) + 1, 32),
        (1 << 63, 64),
        (1 << 64, 128),
    ];
    for (step, bits) in accepted {
        let t = Tweaks::new(9).wrap_bits(bits).step(step);
        assert_eq!(t.check(), Ok(()), "step {step}, {bits} bits");
    }
    assert_eq!(
        Tweaks::plain(0).step(1 << 31).tweak(2),
        Ok([0; 16]),
        "(2 * 2^31) mod 2^32"
    );
    // An invalid width is reported first (the step's width is not known).
    assert_eq!(
        Tweaks::new(0).wrap_bits(48).step(0).check(),
        Err(Error::InvalidWrapBits { bits: 48 })
    );
}
