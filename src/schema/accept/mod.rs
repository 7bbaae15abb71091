//! A quick yes for a valid eval set in its usual shape: one pass over the text that builds
//! nothing and answers yes only where the typed parse ([`super::load::load_eval_set`]) surely
//! succeeds. Anything it does not know for sure (a conversation scenario, a lax number written as
//! a string, an escaped key, a field it does not list) is "cannot tell", and the typed parse
//! decides as before. `validateEvalSet` of a valid file then costs the scan alone instead of a
//! typed set built and dropped. `tests/accept.rs` checks on mutations of every case oracle that
//! a yes is never wrong.

use shapes::{shape, Kind, Ty};
use std::collections::HashMap;

mod shapes;

/// `Some(())`: read and surely valid; `None`: cannot tell.
type Sure = Option<()>;

/// Well under serde_json's nesting limit (128), so a yes never meets it.
const MAX_DEPTH: u32 = 100;

/// Whether `text` (without a byte-order mark) is an eval set object the typed parse accepts:
/// its usual fields with their usual values, unique eval ids. False means "cannot tell".
pub fn surely_valid(text: &str) -> bool {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
        depth: 0,
        ids: Vec::new(),
    };
    if s.typed(Ty::EvalSet).is_none() || s.ws().is_some() {
        return false;
    }
    // The map type `load` checks ids with: one copy of its code in the module.
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(s.ids.len());
    s.ids
        .iter()
        .enumerate()
        .all(|(i, &(start, end))| text.get(start..end).is_some_and(|id| seen.insert(id, i).is_none()))
}

fn within_id_limit(raw: &[u8]) -> bool {
    raw.len() as u64 <= super::budget::limits().max_id_bytes
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    depth: u32,
    /// Where each eval id's text starts and ends.
    ids: Vec<(usize, usize)>,
}

impl<'a> Scan<'a> {
    /// Skips JSON whitespace; the next byte, not consumed (None at the end).
    fn ws(&mut self) -> Option<u8> {
        while let Some(&c) = self.b.get(self.i) {
            if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(c);
            }
            self.i += 1;
        }
        None
    }

    fn eat(&mut self, want: u8) -> Sure {
        (self.ws()? == want).then(|| self.i += 1)
    }

    fn literal(&mut self, word: &[u8]) -> Sure {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// A string: its raw contents and whether they hold an escape.
    fn string(&mut self) -> Option<(&'a [u8], bool)> {
        self.eat(b'"')?;
        let start = self.i;
        let mut escaped = false;
        loop {
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            while let Some((&word, _)) = self.b.get(self.i..).and_then(|r| r.split_first_chunk::<8>()) {
                let special = specials(u64::from_le_bytes(word));
                if special != 0 {
                    self.i += (special.trailing_zeros() / 8) as usize;
                    break;
                }
                self.i += 8;
            }
            let c = *self.b.get(self.i)?;
            self.i += 1;
            match c {
                b'"' => return Some((self.b.get(start..self.i - 1)?, escaped)),
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                0..=0x1f => return None,
                _ => {}
            }
        }
    }

    /// The escape after a backslash; a `\u` surrogate only as a high-low pair.
    fn escape(&mut self) -> Sure {
        let c = *self.b.get(self.i)?;
        self.i += 1;
        match c {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(()),
            b'u' => match self.hex4()? {
                0xD800..=0xDBFF => {
                    self.literal(b"\\u")?;
                    (0xDC00..=0xDFFF).contains(&self.hex4()?).then_some(())
                }
                0xDC00..=0xDFFF => None,
                _ => Some(()),
            },
            _ => None,
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.b.get(self.i..self.i + 4)?;
        self.i += 4;
        digits
            .iter()
            .try_fold(0u32, |v, &d| Some(v * 16 + char::from(d).to_digit(16)?))
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    /// A number whose integer part has at most 100 digits and whose exponent has one or two: it
    /// reads as a finite double (serde_json rejects only numbers out of a double's range).
    fn number(&mut self) -> Sure {
        self.ws()?;
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let first = self.b.get(self.i).copied();
        let n = self.digits();
        if n == 0 || n > 100 || (n > 1 && first == Some(b'0')) {
            return None;
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !(1..=2).contains(&self.digits()) {
                return None;
            }
        }
        Some(())
    }

    /// Any JSON value.
    fn value(&mut self) -> Sure {
        match self.ws()? {
            b'{' => self.members(&mut |s, _, _| s.value()),
            b'[' => self.elements(&mut Self::value),
            b'"' => self.string().map(drop),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn nest(&mut self, open: u8) -> Sure {
        self.eat(open)?;
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// An object; `member` reads each value, given its key's raw bytes and whether they hold an
    /// escape.
    fn members(&mut self, member: &mut dyn FnMut(&mut Self, &'a [u8], bool) -> Sure) -> Sure {
        self.nest(b'{')?;
        if self.ws()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let (key, escaped) = self.string()?;
                self.eat(b':')?;
                member(self, key, escaped)?;
                match self.ws()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    fn elements(&mut self, element: &mut dyn FnMut(&mut Self) -> Sure) -> Sure {
        self.nest(b'[')?;
        if self.ws()? == b']' {
            self.i += 1;
        } else {
            loop {
                element(self)?;
                match self.ws()? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// An object of type `t`: each field at most once (a typed parse rejects a repeat, alias
    /// included), the required ones present.
    fn typed(&mut self, t: Ty) -> Sure {
        let shape = shape(t);
        let mut seen = 0u32;
        self.members(&mut |s, key, escaped| {
            if escaped {
                return None;
            }
            let found = shape
                .fields
                .iter()
                .enumerate()
                .find(|(_, (names, _))| names.iter().any(|n| n.as_bytes() == key));
            match found {
                Some((i, &(_, kind))) => {
                    let bit = 1u32 << i;
                    if seen & bit != 0 {
                        return None;
                    }
                    seen |= bit;
                    s.read(kind)
                }
                None if shape.open => s.value(),
                None => None,
            }
        })?;
        let alone = seen & shape.alone == 0 || seen & !shape.alone == 0;
        (seen & shape.required == shape.required && alone).then_some(())
    }

    /// A field's value of kind `kind`.
    fn read(&mut self, kind: Kind) -> Sure {
        use Kind::*;
        let next = self.ws()?;
        if next == b'n' && kind.nullable() {
            return self.literal(b"null");
        }
        match kind {
            Text | OptText => self.string().map(drop),
            Id => {
                let (id, escaped) = self.string()?;
                let end = self.i - 1;
                (!escaped && within_id_limit(id)).then(|| self.ids.push((end - id.len(), end)))
            }
            // Its text is never shorter than its value: within the limit, the value is too.
            SetId => self.string().and_then(|(id, _)| within_id_limit(id).then_some(())),
            OptBool if next == b't' => self.literal(b"true"),
            OptBool => self.literal(b"false"),
            Number | OptNumber => self.number(),
            OptInteger => {
                let start = self.i;
                self.number()?;
                let written = self.b.get(start..self.i)?;
                // At most 18 digits, no fraction or exponent: within an i64.
                let plain = written.iter().all(|&c| c.is_ascii_digit() || c == b'-');
                (plain && written.len() <= 18).then_some(())
            }
            Any => self.value(),
            AnyObject | OptAnyObject => self.members(&mut |s, _, _| s.value()),
            AnyList => self.elements(&mut Self::value),
            OptBase64 => {
                // Read as `super::bytes` reads it.
                let (raw, escaped) = self.string()?;
                let text = std::str::from_utf8(raw).ok()?;
                (!escaped && super::bytes::decode(text).is_some()).then_some(())
            }
            Obj(t) | OptObj(t) => self.typed(t),
            List(t) | OptList(t) => self.elements(&mut |s| s.typed(t)),
            Pairs => self.elements(&mut |s| {
                s.nest(b'[')?;
                s.string()?;
                s.eat(b',')?;
                s.elements(&mut |s| s.typed(Ty::Part))?;
                s.eat(b']')?;
                s.depth -= 1;
                Some(())
            }),
            Agents => self.members(&mut |s, _, _| s.typed(Ty::AgentDetails)),
            Never => None,
        }
    }
}

/// The high bit of each byte of `w` that is a quote, a backslash or a control character, and of
/// no other byte (exact: no borrow crosses between bytes).
fn specials(w: u64) -> u64 {
    const LOWS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let zeros = |v: u64| !(((v & LOWS).wrapping_add(LOWS)) | v | LOWS);
    zeros(w ^ 0x2222_2222_2222_2222) | zeros(w ^ 0x5C5C_5C5C_5C5C_5C5C) | zeros(w & 0xE0E0_E0E0_E0E0_E0E0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cases: &str) -> String {
        format!(r#"{{"eval_set_id": "s", "eval_cases": [{cases}]}}"#)
    }

    const INV: &str = r#"{"invocation_id": "i", "user_content": {"role": "user", "parts": [{"text": "hi"}]}}"#;

    #[test]
    fn the_usual_shapes_are_surely_valid() {
        let case = format!(r#"{{"eval_id": "a", "conversation": [{INV}]}}"#);
        assert!(surely_valid(&set(&case)));
        let full = r#"{"eval_set_id": "s", "name": null, "description": "d", "creation_timestamp": 1.7e9,
            "something": [1, {"x": null}],
            "eval_cases": [{"evalId": "a", "session_input": {"appName": "app", "user_id": "u",
              "state": {"k": [true, false, -0.5e-3]}, "other": 1}, "creationTimestamp": 12,
              "final_session_state": null, "extra": "kept",
              "conversation": [{"invocationId": "i", "userContent": {"parts": [{"text": "t\n\"q\"\u00e9\ud83d\ude00\/"}]},
                "finalResponse": {"role": "model", "parts": [{"text": null, "thought": true}]},
                "intermediate_data": {"tool_uses": [{"name": "f", "args": {"a": {"b": [1, 2]}}, "id": null}],
                  "tool_responses": [{"name": "f", "response": {"r": 1}, "willContinue": false}],
                  "intermediate_responses": [["agent", [{"text": "x"}]]]},
                "duration": null, "model_duration": 3}]},
              {"eval_id": "b", "conversation": [{"user_content": {}, "app_details": {"agentDetails": {"root": {"name": "root",
                "instructions": "", "tool_declarations": [{"name": "f"}]}}}, "rubrics": [{"rubric_id": "r",
                "rubric_content": {"text_property": "p"}, "type": null}],
                "intermediate_data": {"invocation_events": [{"author": "root", "content": {"parts": [{"thoughtSignature": "c2ln",
                  "inline_data": {"data": "aGk=", "mime_type": "text/plain"}}]}, "usage_metadata": {"prompt_token_count": 12,
                  "prompt_tokens_details": [{"modality": "TEXT", "token_count": 12}]}, "invocationIndex": 0}]}}]}]}"#;
        assert!(surely_valid(full));
        let load = |t: &str| super::super::load::load_eval_set(t, &Default::default());
        assert!(load(full).is_ok() && load(&set(&case)).is_ok());
    }

    #[test]
    fn anything_unsure_is_left_to_the_typed_parse() {
        let bad = [
            // duplicate ids, duplicate fields (aliases included), missing fields
            set(r#"{"eval_id": "a", "conversation": []}, {"eval_id": "a", "conversation": []}"#),
            set(r#"{"eval_id": "a", "evalId": "b", "conversation": []}"#),
            set(r#"{"conversation": []}"#),
            set(r#"{"eval_id": "a"}"#),
            r#"{"eval_cases": []}"#.to_string(),
            // fields it does not read
            set(r#"{"eval_id": "a", "conversation": [], "conversation_scenario": null}"#),
            set(r#"{"eval_id": "a", "conversation": [], "rubrics": [{"rubric_id": "r", "rubric_content": {}, "kind": "x"}]}"#),
            set(&format!(
                r#"{{"eval_id": "a", "conversation": [{}]}}"#,
                INV.replace("\"i\"", "\"i\", \"rubric_scores\": null")
            )),
            // wrong types, lax values, lone surrogates, big numbers, bad JSON
            set(r#"{"eval_id": 1, "conversation": []}"#),
            set(r#"{"eval_id": "a", "conversation": [], "creation_timestamp": "1"}"#),
            set(r#"{"eval_id": "a", "conversation": [], "x": "\ud800"}"#),
            set(r#"{"eval_id": "a", "conversation": [], "x": "\udc00"}"#),
            set(r#"{"eval_id": "a", "conversation": [], "x": "\ud800\u0041"}"#),
            set(r#"{"eval_id": "a\u0062", "conversation": []}"#),
            set(r#"{"eval_id": "a", "conversation": [], "x": 1e400}"#),
            // ids over maxIdBytes
            set(&format!(r#"{{"eval_id": "{}", "conversation": []}}"#, "a".repeat(1025))),
            format!(r#"{{"eval_set_id": "{}", "eval_cases": []}}"#, "s".repeat(1025)),
            set(&format!(r#"{{"eval_id": "a", "conversation": [], "x": 1{}}}"#, "0".repeat(100))),
            set(&format!(
                r#"{{"eval_id": "a", "conversation": [{}]}}"#,
                INV.replace("\"i\"", r#""i", "intermediate_data": {"tool_uses": [], "invocation_events": []}"#)
            )),
            set(&format!(
                r#"{{"eval_id": "a", "conversation": [{}]}}"#,
                INV.replace(
                    "\"i\"",
                    r#""i", "intermediate_data": {"invocation_events": [{"author": "a", "usage_metadata": {"total_token_count": 1.5}}]}"#
                )
            )),
            set(&format!(
                r#"{{"eval_id": "a", "conversation": [{}]}}"#,
                INV.replace("\"hi\"}", r#""hi", "thought_signature": "abc$"}"#)
            )),
            set(&format!(
                r#"{{"eval_id": "a", "conversation": [{}]}}"#,
                INV.replace("\"i\"", r#""i", "app_details": {"agent_details": {"x": {"instructions": ""}}}"#)
            )),
            set(r#"{"eval_id": "a", "conversation": [], "x": 01}"#),
            set(r#"{"eval_id": "a", "conversation": [],}"#),
            set(r#"{"eval_id": "a", "conversation": []}"#) + " x",
            set(r#"{"eval_id": "a", "conversation": [], "x": "tab	in string"}"#),
            "[]".to_string(),
        ];
        for text in &bad {
            assert!(!surely_valid(text), "said yes to {text}");
        }
    }

    #[test]
    fn specials_finds_the_first_special_byte_exactly() {
        for (i, c) in [b'"', b'\\', 0x00, 0x1f].into_iter().enumerate() {
            let mut w = *b"ab\x7f\x80\xff cd";
            w[i * 2 + 1] = c;
            let got = specials(u64::from_le_bytes(w));
            assert_eq!(got.trailing_zeros() / 8, (i * 2 + 1) as u32, "byte {c:#x}");
        }
        assert_eq!(specials(u64::from_le_bytes(*b" \x7f\x80\xff!#[]")), 0);
    }
}
