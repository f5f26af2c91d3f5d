//! CBC test data: a block pattern, and RFC 3962's ciphertext stealing vectors (used by the
//! CBC and the CBC-HMAC-SHA1 tests).

/// `nblocks` 16-byte blocks of a simple pattern that differs with `seed`.
pub fn pattern_blocks(nblocks: usize, seed: u8) -> Vec<u8> {
    (0..16 * nblocks)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

/// RFC 3962 Appendix B: the AES-128 key ("chicken teriyaki") of its CBC ciphertext
/// stealing vectors (zero IV).
pub const RFC3962_KEY: &str = "636869636b656e207465726979616b69";

/// RFC 3962 Appendix B: (plaintext, ciphertext) in hex, the Kerberos CTS form (CBC-CS3).
pub const RFC3962_CTS: [(&str, &str); 6] = [
    (
        "4920776f756c64206c696b652074686520",
        "c6353568f2bf8cb4d8a580362da7ff7f97",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320",
        "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c2047617527732043",
        "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c",
        "97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e39312523a78662d5be7fcbcc98ebf5",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20",
        "97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd839312523a78662d5be7fcbcc98ebf5a8",
    ),
    (
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320436869636b656e2c20706c656173652c20616e6420776f6e746f6e20736f75702e",
        "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a84807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8",
    ),
];
