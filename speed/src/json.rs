//! A JSON object writer, enough for flat result records.

use std::fmt::Write;

/// Builds one JSON object, field by field, in order.
pub struct Object {
    buf: String,
}

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

/// Appends `s` as a JSON string literal.
pub fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object {
            buf: String::from("{"),
        }
    }

    fn key(&mut self, k: &str) {
        if self.buf.len() > 1 {
            self.buf.push(',');
        }
        quote(&mut self.buf, k);
        self.buf.push(':');
    }

    /// A string field.
    pub fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        quote(&mut self.buf, v);
        self
    }

    /// A string field, or `null`.
    pub fn opt_str(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        match v {
            Some(v) => self.str(k, v),
            None => self.raw(k, "null"),
        }
    }

    /// An integer field.
    pub fn int(&mut self, k: &str, v: u64) -> &mut Self {
        self.key(k);
        let _ = write!(self.buf, "{v}");
        self
    }

    /// A number field; `null` when absent or not finite.
    pub fn num(&mut self, k: &str, v: Option<f64>) -> &mut Self {
        self.key(k);
        match v {
            Some(v) if v.is_finite() => {
                let _ = write!(self.buf, "{v}");
            }
            _ => self.buf.push_str("null"),
        }
        self
    }

    /// A boolean field, or `null`.
    pub fn bool(&mut self, k: &str, v: Option<bool>) -> &mut Self {
        self.raw(
            k,
            match v {
                Some(true) => "true",
                Some(false) => "false",
                None => "null",
            },
        )
    }

    /// An array of strings.
    pub fn strs<'a>(&mut self, k: &str, v: impl IntoIterator<Item = &'a str>) -> &mut Self {
        self.key(k);
        self.buf.push('[');
        for (i, s) in v.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(',');
            }
            quote(&mut self.buf, s);
        }
        self.buf.push(']');
        self
    }

    fn raw(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        self.buf.push_str(v);
        self
    }

    /// The finished object.
    pub fn finish(&mut self) -> String {
        let mut s = std::mem::take(&mut self.buf);
        s.push('}');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_valid_json() {
        let s = Object::new()
            .str("a", "x\"y\\z\n\u{1}é")
            .int("n", 7)
            .num("f", Some(1.5))
            .num("g", Some(f64::NAN))
            .num("h", None)
            .bool("b", Some(true))
            .bool("c", None)
            .strs("l", ["p", "q"])
            .opt_str("o", None)
            .finish();
        assert_eq!(
            s,
            r#"{"a":"x\"y\\z\n\u0001é","n":7,"f":1.5,"g":null,"h":null,"b":true,"c":null,"l":["p","q"],"o":null}"#
        );
        assert_eq!(Object::new().finish(), "{}");
        let big = Object::new().num("x", Some(1e21)).finish();
        assert_eq!(big, r#"{"x":1000000000000000000000}"#);
    }
}
