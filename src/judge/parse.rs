//! Reading judge answers: the verdict label, rubric blocks, segmented sentences and sentence
//! labels. Each reader accepts what ADK 2.13 accepts, plus (listed in docs/compatibility.md) the common
//! decorations ADK misses: markdown emphasis, letter case, `partially valid`.

use regex_lite::Regex;
use std::sync::OnceLock;

/// Python's `\s` (str patterns): Unicode whitespace, for use inside a character class.
const WS: &str =
    r"\t\n\x0B\x0C\r\x1C-\x1F \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}";

/// Python's `str.isspace` set.
pub fn is_py_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0B' | '\x0C' | '\r' | '\x1C'..='\x1F' | ' ' | '\u{85}' | '\u{A0}' | '\u{1680}'
        | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// Python's `str.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

fn label_regex(key: &str) -> Option<Regex> {
    let pat = format!(r#""{key}":[{WS}]*\[*[\n{WS}]*"*([^"\^\]{WS}]*)"*[\n{WS}]*\]*[{WS}]*[,\n\}}]"#);
    Regex::new(&pat).ok()
}

fn cached(cell: &'static OnceLock<Option<Regex>>, make: impl FnOnce() -> Option<Regex>) -> Option<&'static Regex> {
    cell.get_or_init(make).as_ref()
}

/// A binary verdict: Some(true) valid, Some(false) invalid, None not found.
pub type Verdict = Option<bool>;

/// Words that mean "invalid" (ADK's list plus `partially valid` written with a space).
fn invalid_label(l: &str) -> bool {
    matches!(
        l,
        "invalid" | "almost" | "false" | "partially_valid" | "partially valid" | "partially"
    )
}

/// final_response_match_v2's answer: the first `"is_the_agent_response_valid": <label>`, else
/// the inverted key. Labels are matched as ADK does (its regex, strip, trailing `,}` removed)
/// and then, beyond ADK, case-insensitively and without markdown emphasis: `Valid`, `**valid**`.
pub fn response_match_label(text: &str) -> Verdict {
    static VALID: OnceLock<Option<Regex>> = OnceLock::new();
    static INVALID: OnceLock<Option<Regex>> = OnceLock::new();
    let norm = |l: &str| -> String {
        py_strip(l)
            .trim_end_matches([',', '}'])
            .trim_matches(['*', '`', '\''])
            .to_lowercase()
    };
    if let Some(re) = cached(&VALID, || label_regex("is_the_agent_response_valid")) {
        if let Some(c) = re.captures(text) {
            let l = norm(c.get(1).map_or("", |m| m.as_str()));
            return if invalid_label(&l) {
                Some(false)
            } else if l == "valid" || l == "true" {
                Some(true)
            } else {
                None
            };
        }
    }
    if let Some(re) = cached(&INVALID, || label_regex("is_the_agent_response_invalid")) {
        if let Some(c) = re.captures(text) {
            let l = norm(c.get(1).map_or("", |m| m.as_str()));
            return Some(!(l == "true" || l == "invalid"));
        }
    }
    // Beyond ADK, only where it finds nothing: a space before the colon, a label of two words
    // (`partially valid`), or a label that ends the answer.
    static LENIENT: OnceLock<Option<Regex>> = OnceLock::new();
    let re = cached(&LENIENT, || {
        Regex::new(&format!(
            r#""is_the_agent_response_valid"[{WS}]*:[{WS}]*\[?[{WS}]*["*`]*([A-Za-z_]+(?: [A-Za-z_]+)?)["*`]*[{WS}]*\]?[{WS}]*(?:[,\n\}}]|$)"#
        ))
        .ok()
    })?;
    let l = norm(re.captures(text)?.get(1)?.as_str());
    if invalid_label(&l) {
        Some(false)
    } else if l == "valid" || l == "true" {
        Some(true)
    } else {
        None
    }
}

/// The per-turn user-simulator judge's `"is_valid": <label>` (ADK lower-cases this one).
pub fn is_valid_label(text: &str) -> Verdict {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    let re = cached(&RE, || {
        Regex::new(&format!(
            r#""is_valid":[{WS}]*\[*[\n{WS}]*"*([^"\]]*)"*[\n{WS}]*\]*[{WS}]*[,\n\}}]"#
        ))
        .ok()
    })?;
    let c = re.captures(text)?;
    let raw = c.get(1).map_or("", |m| m.as_str());
    let l = py_strip(&py_strip(raw).trim_matches('}').replace(',', "")).to_lowercase();
    let l = l.trim_matches(['*', '`']);
    if l == "true" || l == "valid" {
        Some(true)
    } else if l == "false" || l == "invalid" || l == "almost" || l.starts_with("partially") {
        Some(false)
    } else {
        None
    }
}

/// One rubric block of a judge answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricAnswer {
    pub rubric_id: Option<String>,
    pub property: String,
    pub rationale: String,
    pub score: Option<f64>,
}

/// Every `<label> <rest of line>` occurrence: ADK's `(?<=Label: )(.*)` findall.
fn after_label<'a>(text: &'a str, label: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(i) = text.get(pos..).and_then(|t| t.find(label)) {
        let start = pos + i + label.len();
        let end = text
            .get(start..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |j| start + j);
        out.push(text.get(start..end).unwrap_or(""));
        pos = if end > start { end } else { start };
    }
    out
}

/// Removes markdown emphasis from field names (`**Verdict:**`, `*ID*:`, `__Property__:`), which
/// ADK's parser does not recognise (it then discards the answer). Field values are untouched.
fn undecorate_fields(text: &str) -> String {
    const FIELDS: [&str; 5] = ["ID", "Property", "Evidence", "Rationale", "Verdict"];
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let indent_len = line.len() - line.trim_start().len();
        let (indent, rest) = line.split_at(indent_len);
        let body = rest.trim_start_matches(['*', '_', '-', ' ']);
        let mut fixed = None;
        for f in FIELDS {
            if let Some(after) = body.strip_prefix(f) {
                let after = after.trim_start_matches(['*', '_']);
                if let Some(value) = after.strip_prefix(':') {
                    let value = value.trim_start_matches(['*', '_']);
                    let value = value.strip_prefix(' ').unwrap_or(value);
                    let candidate = format!("{indent}{f}: {value}");
                    if candidate != line {
                        fixed = Some(candidate);
                    }
                }
                break;
            }
        }
        match fixed {
            Some(f) => out.push_str(&f),
            None => out.push_str(line),
        }
    }
    out
}

/// The rubric metrics' answer format: per property `ID:`, `Property:`, `Rationale:` and
/// `Verdict:` lines (ADK's parser: counts of properties, rationales and verdicts must agree or
/// the whole answer is discarded; an ID line binds to the next property). Markdown-decorated
/// field names are accepted as well.
pub fn rubric_answers(text: &str) -> Vec<RubricAnswer> {
    let plain = parse_rubric_blocks(text);
    if !plain.is_empty() {
        return plain;
    }
    let undecorated = undecorate_fields(text);
    if undecorated == text {
        return plain;
    }
    parse_rubric_blocks(&undecorated)
}

fn parse_rubric_blocks(text: &str) -> Vec<RubricAnswer> {
    static PROP: OnceLock<Option<Regex>> = OnceLock::new();
    static ID: OnceLock<Option<Regex>> = OnceLock::new();
    let (Some(prop), Some(id)) = (
        cached(&PROP, || Regex::new(&format!(r"(?m)^[{WS}]*Property: (.*)$")).ok()),
        cached(&ID, || Regex::new(&format!(r"(?m)^[{WS}]*ID: (.*)$")).ok()),
    ) else {
        return Vec::new();
    };
    let props: Vec<(usize, &str)> = prop
        .captures_iter(text)
        .filter_map(|c| Some((c.get(0)?.start(), c.get(1)?.as_str())))
        .collect();
    let ids: Vec<(usize, &str)> = id
        .captures_iter(text)
        .filter_map(|c| Some((c.get(0)?.start(), c.get(1)?.as_str())))
        .collect();
    let rationales = after_label(text, "Rationale: ");
    let verdicts = after_label(text, "Verdict: ");
    if props.len() != rationales.len() || props.len() != verdicts.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut previous_start: Option<usize> = None;
    // Both lists are in text order, so one pass over the IDs serves every property (a scan of
    // all IDs per property was quadratic in the answer's length).
    let mut ids = ids.iter().peekable();
    for ((p, r), v) in props.iter().zip(&rationales).zip(&verdicts) {
        let mut rubric_id = None;
        while let Some((start, idtext)) = ids.next_if(|(start, _)| *start < p.0) {
            if previous_start.is_none_or(|ps| *start > ps) {
                let t = py_strip(idtext);
                rubric_id = (!t.is_empty()).then(|| t.to_string());
            }
        }
        let verdict = v.to_lowercase();
        let score = if verdict.contains("yes") {
            Some(1.0)
        } else if verdict.contains("no") {
            Some(0.0)
        } else {
            None
        };
        out.push(RubricAnswer {
            rubric_id,
            property: py_strip(p.1).to_string(),
            rationale: py_strip(r).to_string(),
            score,
        });
        previous_start = Some(p.0);
    }
    out
}

/// ADK's normalisation for matching an echoed property text to a rubric: NFKC, typographic
/// quotes and dashes made plain, whitespace runs collapsed, decoration stripped, lower case.
pub fn normalize_property(text: &str) -> String {
    let nfkc: String = crate::text::unicode::nfkc14(text)
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        })
        .collect();
    let mut collapsed = String::with_capacity(nfkc.len());
    let mut in_space = false;
    for c in nfkc.chars() {
        if is_py_space(c) {
            if !in_space {
                collapsed.push(' ');
            }
            in_space = true;
        } else {
            collapsed.push(c);
            in_space = false;
        }
    }
    collapsed
        .trim_matches([' ', '*', '_', '`', '#', '>', '-', '\u{2022}', '"', '\''])
        .to_lowercase()
}

/// The segmenter's `<sentence>…</sentence>` items (non-greedy, across lines, empty ones kept).
pub fn sentences(text: &str) -> Vec<&str> {
    const OPEN: &str = "<sentence>";
    const CLOSE: &str = "</sentence>";
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(i) = text.get(pos..).and_then(|t| t.find(OPEN)) {
        let start = pos + i + OPEN.len();
        let Some(j) = text.get(start..).and_then(|t| t.find(CLOSE)) else {
            break;
        };
        out.push(text.get(start..start + j).unwrap_or(""));
        pos = start + j + CLOSE.len();
    }
    out
}

/// The validator's label per sentence block (`sentence:`, `label:`, `rationale:`,
/// `supporting_excerpt:`, `contradicting_excerpt:`), as ADK's case-insensitive block regex
/// reads them, mapped to 1 (supported, not_applicable) or 0 (unsupported, contradictory,
/// disputed); other labels are ignored. Beyond ADK, labels in other letter case or wrapped in
/// markdown (`` `supported` ``, `**supported**`) count too.
pub fn sentence_labels(text: &str) -> Vec<u8> {
    sentence_verdicts(text).into_iter().map(|v| v.score).collect()
}

/// One sentence of a validator's answer with its label (normalised: `supported`,
/// `unsupported`, `contradictory`, `disputed`, `not_applicable`), its score and the rationale.
#[derive(Debug, Clone, PartialEq)]
pub struct SentenceVerdict {
    pub sentence: String,
    pub label: &'static str,
    pub score: u8,
    pub rationale: String,
}

/// Every labelled sentence of a validator's answer, in order; a block whose label is none of
/// ADK's is left out (as ADK leaves it out of the score).
pub fn sentence_verdicts(text: &str) -> Vec<SentenceVerdict> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(re) = cached(&RE, || {
        Regex::new(
            r"(?is)sentence:(.*?)\nlabel:(.*?)\nrationale:(.*?)\nsupporting_excerpt:(.*?)\ncontradicting_excerpt:",
        )
        .ok()
    }) else {
        return Vec::new();
    };
    let text = py_strip(text);
    let lower = text.to_lowercase();
    let same_offsets = lower.len() == text.len();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos <= text.len() {
        let Some(c) = text.get(pos..).and_then(|t| re.captures(t)) else {
            break;
        };
        let (Some(whole), Some(label)) = (c.get(0), c.get(2)) else {
            break;
        };
        let field = |i: usize| c.get(i).map(|m| py_strip(m.as_str()).to_string()).unwrap_or_default();
        let (sentence, rationale) = (field(1), field(3));
        let tail_start = pos + whole.end();
        // The last field runs to the next "\nsentence:" (any case) or the end.
        let next = if same_offsets {
            lower
                .get(tail_start..)
                .and_then(|t| t.find("\nsentence:"))
                .map(|j| tail_start + j)
        } else {
            find_ci(text, tail_start, "\nsentence:")
        };
        let end = next.unwrap_or(text.len());
        let l = py_strip(label.as_str()).to_lowercase();
        let l = l.trim_matches(['`', '*', '"', '\'', ' ']);
        let verdict = |label: &'static str, score: u8| SentenceVerdict {
            sentence: sentence.clone(),
            label,
            score,
            rationale: rationale.clone(),
        };
        match l {
            "supported" => out.push(verdict("supported", 1)),
            "not_applicable" | "not applicable" => out.push(verdict("not_applicable", 1)),
            "unsupported" => out.push(verdict("unsupported", 0)),
            "contradictory" => out.push(verdict("contradictory", 0)),
            "disputed" => out.push(verdict("disputed", 0)),
            _ => {}
        }
        pos = if end > pos { end } else { pos + 1 };
    }
    out
}

fn find_ci(text: &str, from: usize, needle: &str) -> Option<usize> {
    let mut i = from;
    while i < text.len() {
        if text.is_char_boundary(i) {
            if let Some(t) = text.get(i..) {
                if t.len() >= needle.len() && t.get(..needle.len()).is_some_and(|h| h.eq_ignore_ascii_case(needle)) {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_match_labels_follow_adk_table() {
        let v = response_match_label;
        assert_eq!(
            v(r#"{"reasoning": "x", "is_the_agent_response_valid": "valid"}"#),
            Some(true)
        );
        assert_eq!(v(r#""is_the_agent_response_valid": ["valid"],}"#), Some(true));
        assert_eq!(v("\"is_the_agent_response_valid\": [valid]\n}"), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": valid,"#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": true,"#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": "partially_valid","#), Some(false));
        assert_eq!(v(r#""is_the_agent_response_valid": "almost","#), Some(false));
        assert_eq!(
            v("```json\n{\"is_the_agent_response_valid\": \"valid\"}\n```"),
            Some(true)
        );
        assert_eq!(v(r#""is_the_agent_response_invalid": "maybe","#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_invalid": "true","#), Some(false));
        assert_eq!(
            v("\"is_the_agent_response_valid\": \"valid\",\n\"is_the_agent_response_valid\": \"invalid\"\n"),
            Some(true)
        );
        assert_eq!(v(""), None);
        assert_eq!(v(r#""is_the_agent_response_valid": "unclear","#), None);
        // Deliberately more lenient than ADK:
        assert_eq!(v(r#""is_the_agent_response_valid": "Valid"}"#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": "INVALID"}"#), Some(false));
        assert_eq!(v(r#""is_the_agent_response_valid": "partially valid","#), Some(false));
        assert_eq!(v(r#""is_the_agent_response_valid" : "valid"}"#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": "valid""#), Some(true));
        assert_eq!(v(r#""is_the_agent_response_valid": "maybe so","#), None);
    }

    #[test]
    fn rubric_blocks_follow_adk() {
        let t = "ID: r1\nProperty: Is concise\nEvidence: e\nRationale: short\nVerdict: yes\n\nID: r2\nProperty: Is kind\nRationale: meh\nVerdict: No.\n";
        let a = rubric_answers(t);
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].rubric_id.as_deref(), Some("r1"));
        assert_eq!(a[0].score, Some(1.0));
        assert_eq!(a[1].rubric_id.as_deref(), Some("r2"));
        assert_eq!(a[1].score, Some(0.0));
        assert_eq!(a[1].rationale, "meh");
        // counts differ → nothing
        assert!(rubric_answers("Property: a\nRationale: b\nVerdict: yes\nVerdict: no").is_empty());
        // unknown → 0, maybe → None
        let a =
            rubric_answers("Property: a\nRationale: b\nVerdict: unknown\nProperty: c\nRationale: d\nVerdict: maybe");
        assert_eq!(a.iter().map(|x| x.score).collect::<Vec<_>>(), vec![Some(0.0), None]);
        // markdown field names (beyond ADK)
        let a = rubric_answers("**ID:** r1\n**Property:** a\n**Rationale:** b\n**Verdict:** yes");
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].rubric_id.as_deref(), Some("r1"));
        assert_eq!(a[0].score, Some(1.0));
    }

    #[test]
    fn rubric_ids_bind_to_the_next_property() {
        let ids = |t: &str| rubric_answers(t).into_iter().map(|a| a.rubric_id).collect::<Vec<_>>();
        let block = |p: &str| format!("Property: {p}\nRationale: r\nVerdict: yes\n");
        // The last ID before a property wins; an empty ID clears it; no ID since the previous
        // property gives none; IDs after the last property are ignored.
        let t = format!(
            "ID: a\nID: b\n{}ID: c\nID: \n{}{}ID: d\n{}ID: e\n",
            block("1"),
            block("2"),
            block("3"),
            block("4")
        );
        assert_eq!(ids(&t), [Some("b".to_string()), None, None, Some("d".to_string())]);
    }

    #[test]
    fn many_rubric_blocks_parse_in_linear_time() {
        // Found while measuring the judge-answer fuzz target: every property scanned every ID
        // line, so a long answer took quadratic time (50,000 blocks: 2.5 billion steps). Timed
        // as a ratio, twice the blocks against once (best of three each), so that a loaded
        // machine slows both sizes alike: about 2 is linear, 4 quadratic.
        let answer = |n: usize| -> String {
            (0..n)
                .map(|i| format!("ID: r{i}\nProperty: p{i}\nRationale: x\nVerdict: yes\n"))
                .collect()
        };
        let best = |text: &str, n: usize| {
            (0..3)
                .map(|_| {
                    let t0 = std::time::Instant::now();
                    let a = rubric_answers(text);
                    let secs = t0.elapsed().as_secs_f64();
                    assert_eq!(a.len(), n);
                    assert_eq!(a[n - 1].rubric_id.as_deref(), Some(format!("r{}", n - 1).as_str()));
                    secs
                })
                .fold(f64::INFINITY, f64::min)
        };
        let n = 10_000;
        let (once, twice) = (best(&answer(n), n), best(&answer(2 * n), 2 * n));
        let ratio = twice / once;
        assert!(
            ratio < 3.0,
            "{n} rubric blocks took {once:.3} s, {} took {twice:.3} s: x{ratio:.1}",
            2 * n
        );
    }

    #[test]
    fn sentences_and_labels() {
        assert_eq!(
            sentences("x <sentence>a</sentence><sentence></sentence>\n<sentence>b\nc</sentence>"),
            vec!["a", "", "b\nc"]
        );
        let v = "sentence: A\nlabel: supported\nrationale: r\nsupporting_excerpt: x\ncontradicting_excerpt: null\n\nsentence: B\nlabel: `unsupported`\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null\nsentence: C\nlabel: Contradictory\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: y\nsentence: D\nlabel: not_applicable\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null";
        assert_eq!(sentence_labels(v), vec![1, 0, 0, 1]);
        let verdicts = sentence_verdicts(v);
        let labels: Vec<&str> = verdicts.iter().map(|x| x.label).collect();
        assert_eq!(labels, ["supported", "unsupported", "contradictory", "not_applicable"]);
        assert_eq!(
            (verdicts[2].sentence.as_str(), verdicts[2].rationale.as_str()),
            ("C", "r")
        );
    }

    #[test]
    fn property_normalisation() {
        assert_eq!(
            normalize_property("  **The “answer” – is   short.** "),
            "the \"answer\" - is short."
        );
    }

    #[test]
    fn is_valid_labels() {
        assert_eq!(is_valid_label("{\"is_valid\": True}"), Some(true));
        assert_eq!(is_valid_label("\"is_valid\": \"false\",\n"), Some(false));
        assert_eq!(is_valid_label("nothing"), None);
    }
}
