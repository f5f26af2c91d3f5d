#[test]
fn key_pieces_are_the_zero_padded_key() {
    let bytes: std::vec::Vec<u8> = (1..=64u8).collect();
    for len in 0..=64 {
        let k0 = &bytes[..len];
        let mut padded = [0u8; 64];
        padded[..len].copy_from_slice(k0);
        for (i, want) in padded.chunks_exact(16).enumerate() {
            let want = u128::from_le_bytes(want.try_into().unwrap());
            assert_eq!(
                super::key_piece(k0, 16 * i),
                want,
                "{len}-byte key, piece {i}"
            );
        }
    }
}
