//! proptest strategies for keys and messages (feature `proptest`).

use proptest::prelude::*;

/// AES keys of every valid length (16, 24 and 32 bytes).
pub fn aes_key() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(vec![16usize, 24, 32])
        .prop_flat_map(|n| prop::collection::vec(any::<u8>(), n))
}

/// Messages of 0 to 599 bytes: every tail length after zero to nine whole 64-byte blocks.
pub fn message() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..600)
}

/// HMAC-SHA1 keys shorter than, as long as and longer than a SHA-1 block (64 bytes).
pub fn hmac_key() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![0usize..64, Just(64usize), 65usize..200],
        any::<u8>(),
    )
        .prop_map(|(len, byte)| (0..len).map(|i| byte.wrapping_add(i as u8)).collect())
}

/// A CBC case: an AES key of any valid length, an IV, and
/// [`pattern_blocks`](crate::cbc::pattern_blocks) of up to 40 or up to 260 blocks.
pub fn cbc_case() -> impl Strategy<Value = (Vec<u8>, [u8; 16], Vec<u8>)> {
    (
        aes_key(),
        prop::array::uniform16(any::<u8>()),
        prop_oneof![0usize..=40, 0usize..=260],
        any::<u8>(),
    )
        .prop_map(|(key, iv, nblocks, seed)| (key, iv, crate::cbc::pattern_blocks(nblocks, seed)))
}

/// An XTS key of 32 or 64 bytes with distinct halves, [`bytes`](crate::bytes)`(seed, len)`,
/// and its seed (for the test's other data).
pub fn xts_key_and_seed() -> impl Strategy<Value = (Vec<u8>, u64)> {
    (prop::sample::select(vec![32usize, 64]), any::<u64>())
        .prop_map(|(len, seed)| (crate::bytes(seed, len), seed))
        .prop_filter("equal key halves", |(k, _)| {
            k[..k.len() / 2] != k[k.len() / 2..]
        })
}
