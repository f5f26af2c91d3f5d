#[test]
fn every_byte_is_cleared() {
    for len in 0..80 {
        let mut v: std::vec::Vec<u8> = (1..=len as u8).collect();
        super::bytes(&mut v);
        assert!(v.iter().all(|&b| b == 0), "{len}");
    }
    let mut b = [[0xffu8; 16]; 3];
    super::blocks(&mut b);
    assert_eq!(b, [[0; 16]; 3]);
    let mut w = [u32::MAX; 5];
    super::words(&mut w);
    assert_eq!(w, [0; 5]);
}
