//! Writes a value as the bytes that `arbitrary` 1.x decodes back into it.
//!
//! The layout mirrors `arbitrary` 1.5 (the version in `Cargo.lock`), read from its source,
//! not from documentation:
//!
//! - integers: `size_of` bytes, little-endian (`fill_buffer` pads a short input with
//!   zeros, so a missing integer is 0, never an error);
//! - `bool`: one byte, `byte & 1 == 1`;
//! - `[T; N]`: the N elements in order; as the last field (`arbitrary_take_rest`) the N
//!   elements and then the last element once more, read with `arbitrary_take_rest`,
//!   which replaces the first reading of it;
//! - `Vec<T>`: each element preceded by a continuation byte that decodes as `true`, then
//!   one that decodes as `false` (an exhausted input also reads as `false`); the same
//!   with `arbitrary_take_rest`;
//! - a derived struct: its fields in declaration order, the last one with
//!   `arbitrary_take_rest`.
//!
//! None of that is trusted: [`seed_bytes`] decodes every encoding with the call that
//! `libfuzzer_sys::fuzz_target!` makes and refuses it unless the value comes back equal.

use arbitrary::{Arbitrary, Unstructured};

/// A type whose `Arbitrary` decoding this module can invert.
pub trait Encode {
    /// Appends the bytes that `Arbitrary::arbitrary` reads back as `self`.
    fn encode(&self, out: &mut Vec<u8>);

    /// Appends the bytes that `Arbitrary::arbitrary_take_rest` reads back as `self`.
    fn encode_last(&self, out: &mut Vec<u8>) {
        self.encode(out);
    }
}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
ints!(u8, u16, u32, u64, u128);

impl Encode for bool {
    fn encode(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    fn encode(&self, out: &mut Vec<u8>) {
        for x in self {
            x.encode(out);
        }
    }

    fn encode_last(&self, out: &mut Vec<u8>) {
        self.encode(out);
        if let Some(last) = self.last() {
            last.encode_last(out);
        }
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, out: &mut Vec<u8>) {
        for x in self {
            true.encode(out);
            x.encode(out);
        }
        false.encode(out);
    }
}

/// Implements [`Encode`] for a struct from its field list, in declaration order; the last
/// field is written for `arbitrary_take_rest`.
#[macro_export]
macro_rules! encode_struct {
    ($t:ty { $($field:ident),* ; $last:ident }) => {
        impl $crate::encode::Encode for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                $( $crate::encode::Encode::encode(&self.$field, out); )*
                $crate::encode::Encode::encode(&self.$last, out);
            }

            fn encode_last(&self, out: &mut Vec<u8>) {
                $( $crate::encode::Encode::encode(&self.$field, out); )*
                $crate::encode::Encode::encode_last(&self.$last, out);
            }
        }
    };
}

/// Decodes `bytes` exactly as `libfuzzer_sys::fuzz_target!` (0.4) does for a typed input:
/// `None` where the target would return early (input shorter than the type's minimum
/// size hint, or an `arbitrary` error) and so never see the input.
pub fn decode<'a, T: Arbitrary<'a>>(bytes: &'a [u8]) -> Option<T> {
    if bytes.len() < T::size_hint(0).0 {
        return None;
    }
    T::arbitrary_take_rest(Unstructured::new(bytes)).ok()
}

/// The seed bytes for `value`: encodes it, decodes the bytes back the way the fuzz target
/// does, and returns an error naming both unless the result equals `value`.
pub fn seed_bytes<T>(value: &T) -> Result<Vec<u8>, String>
where
    T: Encode + for<'a> Arbitrary<'a> + PartialEq + std::fmt::Debug,
{
    let mut bytes = Vec::new();
    value.encode_last(&mut bytes);
    match decode::<T>(&bytes) {
        Some(back) if back == *value => Ok(bytes),
        back => Err(format!(
            "encoding does not round-trip through arbitrary: wanted {value:?}, decoded {back:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Arbitrary, Debug, PartialEq)]
    struct ArrayLast {
        a: Vec<u16>,
        b: [u8; 3],
    }
    encode_struct!(ArrayLast { a ; b });

    #[derive(Arbitrary, Debug, PartialEq)]
    struct Nested {
        flag: bool,
        x: u128,
        v: Vec<Vec<u8>>,
        w: Vec<[u8; 2]>,
    }
    encode_struct!(Nested { flag, x, v ; w });

    #[test]
    fn layouts_round_trip() {
        for v in [
            ArrayLast {
                a: vec![],
                b: [0; 3],
            },
            ArrayLast {
                a: vec![1, 0xffff, 0],
                b: [7, 8, 9],
            },
        ] {
            seed_bytes(&v).unwrap();
        }
        for v in [
            Nested {
                flag: false,
                x: 0,
                v: vec![],
                w: vec![],
            },
            Nested {
                flag: true,
                x: u128::MAX - 1,
                v: vec![vec![], vec![1, 2, 3], vec![0; 300]],
                w: vec![[1, 2], [0, 0]],
            },
        ] {
            seed_bytes(&v).unwrap();
        }
    }

    #[test]
    fn a_wrong_layout_is_refused() {
        // A trailing array without its repeated last element decodes the last as 0.
        let v = ArrayLast {
            a: vec![],
            b: [7, 8, 9],
        };
        let mut bytes = Vec::new();
        v.encode(&mut bytes);
        assert_eq!(
            decode::<ArrayLast>(&bytes),
            Some(ArrayLast {
                a: vec![],
                b: [7, 8, 0]
            })
        );
    }
}
