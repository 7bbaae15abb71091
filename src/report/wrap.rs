//! Python's `str.splitlines()` and `textwrap.wrap(text, width)` with default options (tabs
//! expanded, hyphen-aware word splitting, whitespace dropped at line edges, long words broken),
//! which ADK uses to lay out invocation fields.

use unicode_general_category::{get_general_category, GeneralCategory};

/// `str.splitlines()`: splits on every Python line boundary; no trailing empty piece.
pub fn splitlines(s: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                lines.push(std::mem::take(&mut cur));
            }
            '\n' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                lines.push(std::mem::take(&mut cur))
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Python's `str.isspace()` for one character.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The whitespace class of textwrap's regexes (ASCII only).
fn ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ')
}

/// Python regex `\w` on str: letters, numbers, underscore.
fn word(c: char) -> bool {
    c == '_' || is_letter(c) || is_number(c)
}

fn is_letter(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::UppercaseLetter
            | GeneralCategory::LowercaseLetter
            | GeneralCategory::TitlecaseLetter
            | GeneralCategory::ModifierLetter
            | GeneralCategory::OtherLetter
    )
}

fn is_number(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::DecimalNumber | GeneralCategory::LetterNumber | GeneralCategory::OtherNumber
    )
}

/// textwrap's `letter` class `[^\d\W]`.
fn letter(c: char) -> bool {
    word(c) && get_general_category(c) != GeneralCategory::DecimalNumber
}

/// textwrap's `word_punct` class `[\w!"'&.,?]`.
fn word_punct(c: char) -> bool {
    word(c) || matches!(c, '!' | '"' | '\'' | '&' | '.' | ',' | '?')
}

/// Predicate over the char at `i`, false outside the text.
fn at(t: &[char], i: usize, p: fn(char) -> bool) -> bool {
    t.get(i).is_some_and(|&c| p(c))
}

/// `(?=-{2,}\w)` at `i`.
fn em_dash_ahead(t: &[char], i: usize) -> bool {
    let mut j = i;
    while t.get(j) == Some(&'-') {
        j += 1;
    }
    j >= i + 2 && at(t, j, word)
}

/// Length of the chunk `textwrap.TextWrapper.wordsep_re` matches at `i` (always >= 1).
fn chunk_len(t: &[char], i: usize) -> usize {
    if at(t, i, ws) {
        return t.get(i..).map_or(1, |rest| rest.iter().take_while(|&&c| ws(c)).count());
    }
    // An em-dash between words is a chunk of its own.
    if i > 0 && at(t, i - 1, word_punct) && t.get(i) == Some(&'-') && em_dash_ahead(t, i) {
        return t
            .get(i..)
            .map_or(1, |rest| rest.iter().take_while(|&&c| c == '-').count());
    }
    // A word, lazily extended: cut after a hyphen inside a hyphenated word, at whitespace or the
    // end, or before an em-dash.
    let mut k = 1;
    loop {
        let pos = i + k;
        if t.get(pos) == Some(&'-') {
            let behind = (pos >= 2 && at(t, pos - 2, letter) && at(t, pos - 1, letter))
                || (pos >= 3 && at(t, pos - 3, letter) && t.get(pos - 2) == Some(&'-') && at(t, pos - 1, letter));
            let ahead = at(t, pos + 1, letter)
                && (at(t, pos + 2, letter) || (t.get(pos + 2) == Some(&'-') && at(t, pos + 3, letter)));
            if behind && ahead {
                return k + 1;
            }
        }
        if pos >= t.len() || at(t, pos, ws) {
            return k;
        }
        if at(t, pos - 1, word_punct) && em_dash_ahead(t, pos) {
            return k;
        }
        k += 1;
    }
}

/// `str.expandtabs(8)` followed by textwrap's whitespace-to-space translation.
fn munge(line: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(line.len());
    let mut col = 0usize;
    for c in line.chars() {
        match c {
            '\t' => {
                let n = 8 - col % 8;
                out.resize(out.len() + n, ' ');
                col += n;
            }
            '\n' | '\r' => {
                out.push(' ');
                col = 0;
            }
            c if ws(c) => {
                out.push(' ');
                col += 1;
            }
            c => {
                out.push(c);
                col += 1;
            }
        }
    }
    out
}

fn blank(chunk: &[char]) -> bool {
    chunk.iter().all(|&c| py_space(c))
}

/// `textwrap.wrap(line, width)` with the default options. `width` must be >= 1.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let text = munge(line);
    let mut chunks: Vec<Vec<char>> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let n = chunk_len(&text, i).max(1);
        chunks.push(text.get(i..i + n).map(<[char]>::to_vec).unwrap_or_default());
        i += n;
    }
    chunks.reverse();
    let mut lines: Vec<String> = Vec::new();
    while !chunks.is_empty() {
        let mut cur: Vec<Vec<char>> = Vec::new();
        let mut cur_len = 0usize;
        if !lines.is_empty() && chunks.last().is_some_and(|c| blank(c)) {
            chunks.pop();
        }
        while let Some(next) = chunks.last() {
            if cur_len + next.len() <= width {
                cur_len += next.len();
                cur.extend(chunks.pop());
            } else {
                break;
            }
        }
        if chunks.last().is_some_and(|c| c.len() > width) {
            break_long_word(&mut chunks, &mut cur, cur_len, width);
        }
        if cur.last().is_some_and(|c| blank(c)) {
            cur.pop();
        }
        if !cur.is_empty() {
            lines.push(cur.concat().into_iter().collect());
        }
    }
    lines
}

/// `TextWrapper._handle_long_word`: put as much of the next chunk on this line as fits,
/// preferring to cut after its last hyphen.
fn break_long_word(chunks: &mut [Vec<char>], cur: &mut Vec<Vec<char>>, cur_len: usize, width: usize) {
    // A full line gets an empty piece (which is then dropped, keeping the trailing space).
    let space_left = if width < 1 { 1 } else { width.saturating_sub(cur_len) };
    let Some(chunk) = chunks.last_mut() else { return };
    let mut end = space_left;
    if chunk.len() > space_left {
        let head: &[char] = chunk.get(..space_left).unwrap_or_default();
        if let Some(h) = head.iter().rposition(|&c| c == '-') {
            if h > 0 && head.iter().take(h).any(|&c| c != '-') {
                end = h + 1;
            }
        }
    }
    let end = end.min(chunk.len());
    let rest = chunk.split_off(end);
    cur.push(std::mem::replace(chunk, rest));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str, width: usize) -> Vec<String> {
        wrap(s, width)
    }

    #[test]
    fn splitlines_like_python() {
        assert_eq!(splitlines(""), Vec::<String>::new());
        assert_eq!(splitlines("a\nb\r\nc\rd\n"), vec!["a", "b", "c", "d"]);
        assert_eq!(splitlines("\n"), vec![""]);
        assert_eq!(splitlines("a\u{2028}b\u{85}c"), vec!["a", "b", "c"]);
    }

    #[test]
    fn short_lines_are_kept_with_leading_space() {
        assert_eq!(w("  arg='x',", 80), vec!["  arg='x',"]);
        assert_eq!(w("   ", 80), Vec::<String>::new());
        assert_eq!(w("a  ", 80), vec!["a"]);
        assert_eq!(w("a\tb", 80), vec!["a       b"]);
    }

    #[test]
    fn wraps_at_width() {
        // Python: textwrap.wrap("The quick brown fox jumps over the lazy dog", 10)
        assert_eq!(
            w("The quick brown fox jumps over the lazy dog", 10),
            vec!["The quick", "brown fox", "jumps over", "the lazy", "dog"]
        );
        // Python: textwrap.wrap("abcdefghijklmnop", 5)
        assert_eq!(w("abcdefghijklmnop", 5), vec!["abcde", "fghij", "klmno", "p"]);
    }

    #[test]
    fn hyphens_like_python() {
        // Python: textwrap.wrap("a well-known long-winded e-mail example", 12)
        assert_eq!(
            w("a well-known long-winded e-mail example", 12),
            vec!["a well-known", "long-winded", "e-mail", "example"]
        );
        // Python: textwrap.wrap("this--that and more words here", 8)
        assert_eq!(
            w("this--that and more words here", 8),
            vec!["this--", "that and", "more", "words", "here"]
        );
        // Python: textwrap.wrap("xx-yyyyyyyyyy", 6)
        assert_eq!(w("xx-yyyyyyyyyy", 6), vec!["xx-yyy", "yyyyyy", "y"]);
        // Python: textwrap.wrap("---------", 4)
        assert_eq!(w("---------", 4), vec!["----", "----", "-"]);
    }
}
