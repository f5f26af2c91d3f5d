//! The fuzz targets' input types, shared by the targets (`fuzz_targets/*.rs`) and the seed
//! writer (`examples/write-seeds.rs`), with an encoder that turns a value back into the
//! bytes `arbitrary` decodes into it ([`encode`]) and the seed sets built from the
//! known-answer vectors and the edge lengths ([`seeds`]).
//!
//! Each target decodes its input with `fuzz_target!(|inp: Input| ...)`, that is with
//! `Input::arbitrary_take_rest`; the types derive `PartialEq` so that every seed can be
//! checked to decode back to the value it was written from.

pub mod encode;
pub mod seeds;

/// Declares each target's module (`$name`) with its `Input`: a `backend` byte first (an
/// index into `$t`'s available backends), then the fields given, the one after `;` last (it
/// takes the rest of the input); with its [`encode::Encode`] from the same list, and the
/// module's other items, in brackets.
macro_rules! fuzz_inputs {
    ($(
        $(#[$md:meta])*
        $name:ident: $t:literal {
            $($(#[$m:meta])* $field:ident: $ty:ty,)*
            ;
            $(#[$lm:meta])* $last:ident: $lty:ty $(,)?
        }
        $([$($item:item)*])?
    )*) => {$(
        $(#[$md])*
        pub mod $name {
            #[derive(arbitrary::Arbitrary, Debug, Clone, PartialEq, Eq)]
            pub struct Input {
                #[doc = concat!("Index into `", $t, "::available_backends()`, modulo its length.")]
                pub backend: u8,
                $($(#[$m])* pub $field: $ty,)*
                $(#[$lm])* pub $last: $lty,
            }
            crate::encode_struct!(Input { backend, $($field),* ; $last });
            $($($item)*)?
        }
    )*};
}

fuzz_inputs! {
    /// Input of the `aes` target.
    aes: "Aes" {
        /// Any length; only 16, 24 and 32 are valid.
        key: Vec<u8>,
        ;
        blocks: Vec<[u8; 16]>,
    }

    /// Input of the `xts` target.
    xts: "Xts" {
        /// The whole 64 bytes of `key` (AES-256-XTS), else its first 32 (AES-128-XTS).
        wide_key: bool,
        key: [u8; 64],
        /// The raw tweak of the single-unit case. Multi-sector: bytes 0-3 pick the `Tweaks`
        /// convention of a second run (width, byte order, step; see the target).
        tweak: [u8; 16],
        /// The first sector number of the multi-sector case.
        sector: u128,
        /// Single unit: `16 + unit_len % 8177` bytes (16..=8192). Multi-sector: the area
        /// run's short last unit is `unit_len % sector size` bytes (as far as `data` goes).
        unit_len: u16,
        /// Multi-sector: `16 + sector_size % 1024` bytes per sector (16..=1039).
        sector_size: u16,
        out_of_place: bool,
        decrypt: bool,
        /// Several sectors (numbered from `sector`) rather than one unit (raw `tweak`).
        multi: bool,
        /// Multi-sector: the sectors run `1 + repeat % 8` times over (up to 128 sectors,
        /// past the 64-tweak batch).
        repeat: u8,
        /// Out of place: `dst` starts as garbage derived from this byte, not as `src`.
        garbage: u8,
        /// Multi-sector in place: through `par_*` (rayon).
        par: bool,
        /// A misuse checked to be refused with every buffer untouched: `misuse % 8` picks
        /// 1 a bad key length (`BAD_KEY_LENS[misuse / 8 % 8]` bytes), 2 a `sector_size` of
        /// `misuse / 8 % 16`, 3 a unit or sector size over 2^24, 4 `_to` lengths that
        /// differ by `1 + misuse / 8`; otherwise none.
        misuse: u8,
        ;
        /// Single unit: the unit's first bytes (the rest is 0xa5). Multi-sector: the whole
        /// sectors in it, at most 16.
        data: Vec<u8>,
    }
    [
        /// Key lengths XTS refuses, for `misuse`.
        pub const BAD_KEY_LENS: [usize; 8] = [0, 16, 24, 31, 33, 48, 63, 65];
    ]

    /// Input of the `cbc` target.
    cbc: "Cbc" {
        /// Key length `[16, 24, 32][key_size % 3]`, the first bytes of `key`.
        key_size: u8,
        key: [u8; 32],
        iv: [u8; 16],
        data: Vec<u8>,
        /// Chained-call sizes in blocks; the rest goes in a last call.
        splits: Vec<u8>,
        /// Where the ciphertext is corrupted before `decrypt_padded`: byte
        /// `len - 1 - corrupt % min(len, 32)` (the last two blocks), bit `(corrupt >> 8) % 8`.
        corrupt: u16,
        /// `encrypt_many` runs the streams `1 + copies % 4` times over (past the 64-stream
        /// window with 17 or more streams).
        copies: u8,
        /// `encrypt_many` misuse, checked to change nothing: 1 one IV short, 2 stream
        /// `bad / 3` one byte longer than whole blocks; otherwise none.
        bad: u8,
        ;
        /// `encrypt_many` streams (whole blocks of each, the first 20).
        streams: Vec<Vec<u8>>,
    }

    /// Input of the `sha1` target.
    sha1: "Sha1" {
        data: Vec<u8>,
        /// `update` chunk sizes; the rest goes in a last call.
        splits: Vec<u16>,
        /// `sha1_many` messages (the first 20).
        messages: Vec<Vec<u8>>,
        /// HMAC key, any length.
        key: Vec<u8>,
        /// Tag prefix length for `verify` and `verify_truncated`: `tag_len % 24`.
        tag_len: u8,
        ;
        /// The bit flipped to corrupt the tag.
        flip: u8,
    }

    /// Input of the `sha1dc` target.
    sha1dc: "Sha1Dc" {
        /// `update` chunk sizes; the rest goes in a last call.
        splits: Vec<u16>,
        ;
        /// The message (the seeds: the published attacks).
        data: Vec<u8>,
    }

    /// Input of the `krb5` target.
    krb5: "CbcHmacSha1" {
        /// AES-256 (`key` whole; enctype 18) rather than AES-128 (its first 16 bytes; 17).
        wide: bool,
        key: [u8; 32],
        iv: [u8; 16],
        /// The Kerberos key usage.
        usage: u32,
        confounder: [u8; 16],
        /// Tag prefix length for `open_cts` and `open_cts_truncated`: `tag_len % 24`.
        tag_len: u8,
        /// The bit flipped to corrupt a ciphertext (`flip % (8 · len)`).
        flip: u16,
        /// The HMAC key of the `CbcHmacSha1` part, any length.
        mac_key: Vec<u8>,
        ;
        /// The plaintext, and, as is, the input handed to `decrypt`.
        data: Vec<u8>,
    }
}
