#[test]
fn declassify_is_mask_nonzero() {
    for m in [0u32, 1, 0x80, 0xff, u32::MAX, 1 << 31] {
        assert_eq!(super::declassify(m), m != 0);
    }
}

#[test]
fn declassify_bits_is_the_value() {
    for v in 0..32u32 {
        assert_eq!(super::declassify_bits::<5>(v), v);
    }
    assert_eq!(super::declassify_bits::<32>(0xdead_beef), 0xdead_beef);
    assert_eq!(super::declassify_bits::<4>(0x1f), 0xf);
}
