//! Reading inputs: any source (a regular file, a FIFO, a device, stdin) read once, through a byte bound; text checked for UTF-8 with the place of the first bad byte; JSON parsed with a key repeated in one object refused at its JSON path.
//!
//! A source is opened and read once: a FIFO or a process substitution (`<(cat f)`) cannot
//! be read twice, and `/dev/zero` or a pipe has no size to check beforehand, so the bound
//! is enforced by reading at most one byte past it ([`std::io::Read::take`]).

use std::cell::RefCell;
use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// An input error naming the file (no place inside it).
fn whole(shown: &str, message: String) -> Error {
    Error::Input {
        file: Some(shown.to_string()),
        place: String::new(),
        message,
    }
}

/// Everything `reader` gives, refusing more than `limit` bytes (`shown` names the source in
/// messages).
pub fn read_bounded(reader: impl Read, limit: u64, shown: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::read(shown, e))?;
    if bytes.len() as u64 > limit {
        return Err(whole(
            shown,
            format!("more than the {limit} bytes cubesat reads"),
        ));
    }
    Ok(bytes)
}

/// Opens `path` once and reads it whole, refusing more than `limit` bytes: a regular file by
/// its size before reading, any other (a FIFO, `/dev/zero`) while reading.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::read(&shown, e))?;
    let meta = file.metadata().map_err(|e| Error::read(&shown, e))?;
    if meta.is_file() && meta.len() > limit {
        return Err(whole(
            &shown,
            format!(
                "file is {} bytes, more than the {limit} bytes cubesat reads",
                meta.len()
            ),
        ));
    }
    read_bounded(file, limit, &shown)
}

/// A reader that fails, with [`std::io::ErrorKind::FileTooLarge`], once its source gives more
/// than `limit` bytes: a bound for input read piece by piece rather than whole.
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R: Read> Bounded<R> {
    /// `inner`, bounded to `limit` bytes.
    pub fn new(inner: R, limit: u64) -> Bounded<R> {
        Bounded {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // At the bound: the source is too large if it has one byte more.
            return match self.inner.read(&mut [0u8])? {
                0 => Ok(0),
                _ => Err(std::io::Error::new(
                    std::io::ErrorKind::FileTooLarge,
                    format!("more than the {} bytes cubesat reads", self.limit),
                )),
            };
        }
        let n = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let got = self.inner.read(&mut buf[..n])?;
        self.left -= got as u64;
        Ok(got)
    }
}

/// Line and column (both from 1, the column in characters) of byte `at` of `bytes`.
fn line_column(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, column)
}

/// `bytes` as text: UTF-8, without a byte order mark (none of cubesat's text formats has
/// one). The error's place is the line and column of the first bad byte, and the message
/// gives its offset; the caller adds the file.
pub fn text(bytes: &[u8]) -> Result<&str> {
    text_at(bytes, 1)
}

/// [`text`] for text that starts on line `first` of its file (a byte order mark can only
/// open line 1; an offset is given only for text from the file's start).
fn text_at(bytes: &[u8], first: usize) -> Result<&str> {
    if first == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err(Error::input(
            "line 1, column 1",
            "the text starts with a UTF-8 byte order mark (bytes EF BB BF), which cubesat does not read; save the file as UTF-8 without a BOM",
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let (line, column) = line_column(bytes, at);
        let offset = if first == 1 {
            format!(" at byte offset {at}")
        } else {
            String::new()
        };
        Error::input(
            format!("line {}, column {column}", first + line - 1),
            format!(
                "invalid UTF-8 (byte 0x{:02X}{offset}); cubesat reads UTF-8 text",
                bytes[at]
            ),
        )
    })
}

/// One line of a line-based input, read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its `\n` or `\r\n`.
    Text(String),
    /// The input ended.
    End,
}

/// Reads the next line of `reader` (line `number`, from 1, for messages), refusing a line of
/// more than `max` bytes before holding more of it, and text that is not UTF-8 (see
/// [`text`]); `buf` is reused between calls. Errors carry the line as their place.
pub fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    number: usize,
    max: usize,
) -> Result<Line> {
    buf.clear();
    let n = reader
        .take(max as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::FileTooLarge => Error::input("", e.to_string()),
            _ => Error::read(format!("line {number}"), e),
        })?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if n > max {
        return Err(Error::input(
            format!("line {number}"),
            format!("the line is longer than the {max} bytes cubesat reads in one line"),
        ));
    }
    Ok(Line::Text(text_at(buf, number)?.to_string()))
}

/// A JSON parse error: where (line and column in the text parsed, from 1; the JSON path for
/// a repeated key) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The line in the text parsed.
    pub line: usize,
    /// The column in that line.
    pub column: usize,
    /// For a key given twice in one object, the JSON path of the second (`pieces[2].name`).
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl JsonError {
    /// As an input error: a repeated key is placed at its JSON path (with the line and
    /// column in the message), anything else at `line L, column C`; `line_offset` is added
    /// to the line (for text that is one line of a file).
    pub fn into_error(self, line_offset: usize) -> Error {
        let line = self.line + line_offset;
        match self.path {
            Some(path) => Error::input(
                path,
                format!("{} (line {line}, column {})", self.message, self.column),
            ),
            None => Error::input(
                format!("line {line}, column {}", self.column),
                format!("invalid JSON: {}", self.message),
            ),
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(
                f,
                "{p}: {} (line {}, column {})",
                self.message, self.line, self.column
            ),
            None => write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.message
            ),
        }
    }
}

/// Parses JSON text into a value as `serde_json::from_str` does, but refuses a key given
/// twice in one object (serde_json would keep the last one silently).
pub fn json(text: &str) -> std::result::Result<Value, JsonError> {
    let duplicate = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Checked {
        at: At::Root,
        duplicate: &duplicate,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    parsed.map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the position is given separately.
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        JsonError {
            line: e.line(),
            column: e.column(),
            path: duplicate.into_inner(),
            message,
        }
    })
}

/// Where a value sits in the JSON text, kept on the stack while parsing and written out only
/// for an error.
#[derive(Clone, Copy)]
enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Root => Ok(()),
            At::Key(At::Root, k) => f.write_str(k),
            At::Key(p, k) => write!(f, "{p}.{k}"),
            At::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// Builds a [`Value`] like serde_json's own, noting where a key repeats.
struct Checked<'a> {
    at: At<'a>,
    duplicate: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Checked<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> std::result::Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> std::result::Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, n: f64) -> std::result::Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> std::result::Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Checked {
            at: At::Index(&self.at, out.len()),
            duplicate: self.duplicate,
        })? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some(At::Key(&self.at, &key).to_string());
                return Err(de::Error::custom(format!(
                    "the key '{key}' appears twice in one object"
                )));
            }
            let v = map.next_value_seed(Checked {
                at: At::Key(&self.at, &key),
                duplicate: self.duplicate,
            })?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_matches_serde_json_and_refuses_repeated_keys_at_their_path() {
        let text = r#"{"a": [1, -2, 3.5, "x", null, true, {"b": {}}], "c": 18446744073709551615}"#;
        assert_eq!(
            json(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        let e = json("{\"p\": [{\"n\": 1},\n {\"n\": 2, \"n\": 3}]}").unwrap_err();
        assert_eq!(e.path.as_deref(), Some("p[1].n"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("appears twice"), "{e}");
        let e = json("{\"n\": 1, \"n\": 1}").unwrap_err();
        assert_eq!(e.path.as_deref(), Some("n"));
        let e = json("[1, 2").unwrap_err();
        assert_eq!(e.path, None);
        assert!(!e.message.contains(" at line "), "{e}");
    }

    #[test]
    fn text_names_the_place_of_a_bom_or_a_bad_byte() {
        assert_eq!(text(b"ok\n").unwrap(), "ok\n");
        let e = text(b"\xEF\xBB\xBF{}").unwrap_err().to_string();
        assert!(
            e.contains("line 1, column 1") && e.contains("byte order mark"),
            "{e}"
        );
        let e = text(b"{\n  \"n\": 1,\n  \"\xE9\": 2}")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 3, column 4: invalid UTF-8 (byte 0xE9 at byte offset 15)"),
            "{e}"
        );
    }

    #[test]
    fn reading_stops_one_byte_past_the_bound() {
        let zero = std::io::repeat(0);
        let e = read_bounded(zero, 10, "zeros").unwrap_err().to_string();
        assert_eq!(e, "zeros: more than the 10 bytes cubesat reads");
        assert_eq!(read_bounded(&b"0123456789"[..], 10, "x").unwrap().len(), 10);
    }

    #[test]
    fn a_bounded_reader_fails_past_its_bound_only() {
        let mut out = Vec::new();
        Bounded::new(&b"0123456789"[..], 10)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out.len(), 10);
        let e = Bounded::new(std::io::repeat(7), 10)
            .read_to_end(&mut out)
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(e.to_string(), "more than the 10 bytes cubesat reads");
    }

    #[test]
    fn lines_are_bounded_and_checked() {
        let mut r = &b"ab\r\ncd\n\xFF\nlong line"[..];
        let mut buf = Vec::new();
        let mut next = |n| read_line(&mut r, &mut buf, n, 5);
        assert!(matches!(next(1).unwrap(), Line::Text(s) if s == "ab"));
        assert!(matches!(next(2).unwrap(), Line::Text(s) if s == "cd"));
        let e = next(3).unwrap_err().to_string();
        assert!(e.starts_with("line 3, column 1: invalid UTF-8"), "{e}");
        let e = next(4).unwrap_err().to_string();
        assert!(e.contains("longer than the 5 bytes"), "{e}");
    }
}
