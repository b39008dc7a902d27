//! How messages are worded: what a user wrote (a name, a token of a file, a path, a list of
//! them) echoed with control characters escaped, so that no input can drive the terminal, and
//! long strings and lists cut, so that a message stays one readable line whatever the input
//! holds; counted nouns in the right number ([`plural`]); and numbers and durations as people
//! read them ([`sig`], [`human_seconds`]).
//!
//! Every message that repeats user text goes through [`echo`] (one string) or [`list`] (many),
//! and the binary passes each whole line it prints on stderr through [`line()`] as well.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// The most characters of one user string a message repeats; a longer one keeps its start
/// and its end around a note of how much was cut.
pub const MAX_CHARS: usize = 80;

/// The most items of a list a message repeats; the rest are counted (`and 59990 more`).
pub const MAX_ITEMS: usize = 8;

/// The most characters of a whole message line (past every cut above, a last guard).
pub const MAX_LINE: usize = 1000;

/// Whether `c` would act on a terminal instead of being shown: C0 and C1 control characters,
/// and the invisible format characters that reorder or hide text (bidirectional overrides
/// and isolates, zero-width characters, the byte order mark).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` with every character [`is_unsafe`] written as an escape (`\n`, `\t`, `\u{1b}`),
/// nothing cut.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One user string as a message shows it (see [`echo`]).
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a> {
    text: &'a str,
    max: usize,
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.text.chars().count();
        if total <= self.max {
            return f.write_str(&escape(self.text));
        }
        // Keep the start and the end (a file name, a closing token), cut the middle.
        let tail = self.max / 4;
        let head = self.max - tail;
        let start: String = self.text.chars().take(head).collect();
        let end: String = self.text.chars().skip(total - tail).collect();
        write!(
            f,
            "{}…[{} characters cut]…{}",
            escape(&start),
            total - head - tail,
            escape(&end)
        )
    }
}

/// `s` as a message repeats it: unsafe characters escaped, and cut to about [`MAX_CHARS`].
pub fn echo(s: &str) -> Echo<'_> {
    Echo {
        text: s,
        max: MAX_CHARS,
    }
}

/// A path as a message names it: like [`echo`], with room for a longer path.
pub fn path(p: &Path) -> String {
    let s = p.to_string_lossy();
    Echo {
        text: &s,
        max: 2 * MAX_CHARS,
    }
    .to_string()
}

/// The first [`MAX_ITEMS`] items joined by `sep`, then how many more there are
/// (`a, b, c (and 59990 more)`). The items are shown as given: pass each user string through
/// [`echo`].
pub fn list<T: fmt::Display>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    let mut out = String::new();
    let mut more = 0usize;
    for (k, item) in items.into_iter().enumerate() {
        if k >= MAX_ITEMS {
            more += 1;
            continue;
        }
        if k > 0 {
            out.push_str(sep);
        }
        out.push_str(&item.to_string());
    }
    if more > 0 {
        out.push_str(&format!(" (and {more} more)"));
    }
    out
}

/// A whole message line as printed: unsafe characters escaped and, past [`MAX_LINE`]
/// characters, the middle cut (a last guard: the parts that repeat user text are cut first).
pub fn line(s: &str) -> String {
    Echo {
        text: s,
        max: MAX_LINE,
    }
    .to_string()
}

/// "1 solution", "2 solutions"; "1 copy", "2 copies"; "1 branch", "2 branches".
pub fn plural(n: u64, word: &str) -> String {
    format!("{n} {}", plural_word(n, word))
}

/// `word` for `n` of it: as given for 1, else its English plural (regular nouns, `-y` after
/// a consonant to `-ies`, `-s`, `-x`, `-ch`, `-sh` to `-es`).
pub fn plural_word(n: u64, word: &str) -> String {
    if n == 1 {
        return word.to_string();
    }
    let mut last_two = word.chars().rev().take(2);
    let (last, before) = (last_two.next(), last_two.next());
    match (last, before) {
        (Some('y'), Some(b)) if !"aeiou".contains(b) => format!("{}ies", &word[..word.len() - 1]),
        (Some('s' | 'x'), _) => format!("{word}es"),
        (Some('h'), Some('c' | 's')) => format!("{word}es"),
        _ => format!("{word}s"),
    }
}

/// `x` with `digits` significant digits, in plain or scientific notation by size.
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "unbounded".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let mag = x.abs().log10().floor() as i32;
    if (0..=9).contains(&mag) {
        let decimals = (digits as i32 - 1 - mag).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.*e}", digits.saturating_sub(1))
    }
}

/// A duration in the largest unit that keeps it readable: seconds to years.
pub fn human_seconds(s: f64) -> String {
    if !s.is_finite() {
        return "unbounded".to_string();
    }
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86_400.0, "years"),
        (86_400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    for (size, unit) in UNITS {
        if s >= size * 1.5 || size == 1.0 {
            return format!("{} {unit}", sig(s / size, 2));
        }
    }
    unreachable!("the last unit takes every time")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_format_characters_are_escaped() {
        assert_eq!(escape("plain name"), "plain name");
        assert_eq!(escape("a\u{1b}[31mb\nc"), "a\\u{1b}[31mb\\nc");
        assert_eq!(escape("x\u{202e}y\u{9b}"), "x\\u{202e}y\\u{9b}");
        assert_eq!(echo("é ü ✓").to_string(), "é ü ✓");
    }

    #[test]
    fn long_strings_keep_both_ends_and_say_how_much_was_cut() {
        let s = format!("start{}end", "x".repeat(100_000));
        let e = echo(&s).to_string();
        assert!(e.starts_with("startxx") && e.ends_with("xxend"), "{e}");
        assert!(e.contains(&format!("[{} characters cut]", 100_008 - MAX_CHARS)));
        assert!(e.chars().count() < MAX_CHARS + 40);
        assert_eq!(
            echo(&"y".repeat(MAX_CHARS)).to_string(),
            "y".repeat(MAX_CHARS)
        );
    }

    #[test]
    fn long_lists_are_counted() {
        assert_eq!(list(["a", "b"], ", "), "a, b");
        let l = list((0..60_000).map(|i| format!("'{i}'")), ", ");
        assert!(l.ends_with("'7' (and 59992 more)"), "{l}");
        assert_eq!(list(Vec::<String>::new(), ", "), "");
    }

    #[test]
    fn plurals() {
        let p = |n, w| plural(n, w);
        assert_eq!(p(1, "branch"), "1 branch");
        assert_eq!(p(2, "branch"), "2 branches");
        assert_eq!(p(1, "symmetry"), "1 symmetry");
        assert_eq!(p(8, "symmetry"), "8 symmetries");
        assert_eq!(p(0, "copy"), "0 copies");
        assert_eq!(p(3, "day"), "3 days");
        assert_eq!(p(2, "box"), "2 boxes");
        assert_eq!(p(2, "solution"), "2 solutions");
    }
}
