use super::*;

#[test]
fn pkcs7_check_cases() {
    for p in 1..=16u8 {
        let mut b = [0xa5u8; 16];
        b[16 - usize::from(p)..].fill(p);
        assert_eq!(pkcs7_check(&b), (u32::MAX, u32::from(p)));
        if p > 1 {
            b[16 - usize::from(p)] ^= 1;
            assert_eq!(pkcs7_check(&b).0, 0);
        }
    }
    for last in [0u8, 17, 100, 255] {
        let mut b = [last; 16];
        b[15] = last;
        assert_eq!(pkcs7_check(&b).0, 0);
    }
}
