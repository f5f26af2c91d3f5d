//! Unit tests of `src/xts/mod.rs` (left out of the package).

use super::*;
use crate::block::mul_x;

#[test]
fn mul_x_carries_out_of_bit_127() {
    assert_eq!(mul_x(1), 2);
    assert_eq!(mul_x(1 << 127), 0x87);
    assert_eq!(mul_x((1 << 127) | (1 << 63)), 0x87 | (1 << 64));
}

/// Both forms of a new unit's first tweaks in the multi-unit loop ([`FreshTweaks`]: the
/// CPU's table row picks one, so the other is not run by the integration tests on this
/// CPU) against the portable backend, on every backend this CPU runs (the 512-bit
/// registers' kernel is the one whose two forms differ): units of one, two and three
/// zmm groups, one to nine and 65 of them.
#[test]
fn both_fresh_tweak_forms_agree_with_portable() {
    use simdcrypt_testkit::Rng;
    let mut rng = Rng(15);
    for key_len in [32, 64] {
        let key = rng.bytes(key_len);
        let portable = Xts::with_backend(&key, Backend::Portable).unwrap();
        for unit in [512, 1024, 1536] {
            for count in (1..=9).chain([65]) {
                let pt = rng.bytes(unit * count);
                let first = u128::MAX - 3;
                let mut want = pt.clone();
                portable.encrypt_sectors(&mut want, unit, first).unwrap();
                for b in Xts::available_backends() {
                    for form in [FreshTweaks::Shifts, FreshTweaks::Clmul] {
                        let mut xts = Xts::with_backend(&key, b).unwrap();
                        xts.fresh = form;
                        let mut got = pt.clone();
                        xts.encrypt_sectors(&mut got, unit, first).unwrap();
                        assert!(got == want, "{b} {form:?} key {key_len} {count} x {unit}");
                        xts.decrypt_sectors(&mut got, unit, first).unwrap();
                        assert!(
                            got == pt,
                            "{b} {form:?} key {key_len} {count} x {unit} back"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn debug_prints_no_key() {
    let xts = Xts::new(&[[0xabu8; 16], [0xcd; 16]].concat()).unwrap();
    let s = std::format!("{xts:?}");
    assert!(
        !s.contains("171") && !s.contains("abab") && !s.contains("205"),
        "{s}"
    );
    assert!(s.contains("key_len: 32"), "{s}");
    let xts = Xts::new(&[[0xabu8; 32], [0xcd; 32]].concat()).unwrap();
    assert_eq!(xts.key_len(), 64);
    assert!(std::format!("{xts:?}").contains("key_len: 64"), "{xts:?}");
}
