use super::Error;

/// Every keyed constructor returns `Result<_, Error>`: an `Error` aligned past 8 bytes
/// (a `u128` field) made keying copy each keyed value once more (`Aes::new` about 1.2x
/// slower on AMD Zen 4).
#[test]
fn is_small_and_8_byte_aligned() {
    assert_eq!(align_of::<Error>(), 8);
    assert!(size_of::<Error>() <= 40, "{} bytes", size_of::<Error>());
}

/// Without `std` too (`cargo test --no-default-features --lib`): usable as a
/// `dyn core::error::Error` with its message.
#[test]
fn is_a_core_error() {
    let e = Error::NotBlockMultiple { len: 17 };
    let dyn_e: &dyn core::error::Error = &e;
    assert!(dyn_e.source().is_none());
    assert_eq!(
        std::format!("{dyn_e}"),
        "data of 17 bytes is not a whole number of 16-byte blocks"
    );
}
