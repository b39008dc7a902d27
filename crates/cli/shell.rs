//! Command lines for a POSIX shell: words quoted so that a shell reads them back as they
//! were, and a quoted line split into its words again, refusing anything else a shell would
//! act on. Shard records keep the command line that ran the shard in this form, and `merge`
//! and `estimate` print commands built from such words.

/// Bytes a shell gives no special meaning to, so that a word made only of them needs no
/// quotes.
const PLAIN: &[u8] = b"-_./:=@%+,{}";

/// `word` quoted for a POSIX shell where needed: as it is when it holds only characters no
/// shell treats specially, else in single quotes (a quote inside written `'\''`).
pub(crate) fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || PLAIN.contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `words` quoted ([`quote`]) and joined by single spaces: one command line.
pub(crate) fn join<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a command line written by [`join`]: `None` unless `line` is exactly such
/// words, one space apart (plain characters, single-quoted text, `\'`), so that nothing else
/// a record holds (a `;`, a `$(...)`) is ever repeated to a shell.
pub(crate) fn words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = line.chars();
    let mut started = false;
    while let Some(c) = chars.next() {
        match c {
            ' ' if started => {
                words.push(std::mem::take(&mut word));
                started = false;
            }
            '\'' => {
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
                started = true;
            }
            '\\' => {
                if chars.next()? != '\'' {
                    return None;
                }
                word.push('\'');
                started = true;
            }
            c if c.is_ascii() && (c.is_ascii_alphanumeric() || PLAIN.contains(&(c as u8))) => {
                word.push(c);
                started = true;
            }
            _ => return None,
        }
    }
    if !started {
        return None;
    }
    words.push(word);
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_words_read_back_as_they_were() {
        for w in ["plain", "a b", "it's", "\"q\"", "", "$(x)", "{}/4", "é"] {
            let line = join(&["cubesat", w]);
            assert_eq!(
                words(&line),
                Some(vec!["cubesat".to_string(), w.to_string()]),
                "{line}"
            );
        }
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote("--shard=3/8"), "--shard=3/8");
        for bad in [
            "a; b",
            "$(x)",
            "'unclosed",
            "a  b",
            "a \\n",
            "'a\nb'",
            " a",
            "",
        ] {
            assert_eq!(words(bad), None, "{bad}");
        }
    }
}
