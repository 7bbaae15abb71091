//! `schema::accept::surely_valid` may say "cannot tell" as often as it likes, but a yes must
//! never be wrong: on every case oracle made into an eval set, and on thousands of mutations of
//! them (values swapped for other kinds, keys dropped, renamed, repeated or added, bytes and
//! escapes spliced into the text, numbers out of range), a yes is checked against the typed
//! parse (`load_eval_set`) and `validate_eval_set`. It must also say yes to most valid sets, or
//! `validateEvalSet` would lose its fast path without a test noticing.

use evalcore::schema::accept::surely_valid;
use evalcore::schema::load::{load_eval_set, validate_eval_set, LoadOptions};
use serde_json::{json, Value};

fn seeds() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/case_oracles.jsonl");
    let text = std::fs::read_to_string(path).expect("case oracles (scripts/refresh-test-data.sh)");
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("an oracle line"))
        .collect();
    let mut out = Vec::new();
    let mut all = Vec::new();
    for l in &lines {
        let case = l["eval_case"].clone();
        all.push(case.clone());
        out.push(json!({"eval_set_id": "s", "eval_cases": [case]}).to_string());
        // The actual invocations as a conversation too: ADK's recorded shape.
        if let Some(actual) = l.get("actual_invocations") {
            let mut c = l["eval_case"].clone();
            c["conversation"] = actual.clone();
            out.push(serde_json::to_string_pretty(&json!({"eval_set_id": "s", "eval_cases": [c]})).unwrap());
        }
    }
    out.push(json!({"eval_set_id": "all", "name": "every oracle", "eval_cases": all}).to_string());
    out
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const KEYS: &[&str] = &[
    "eval_set_id",
    "name",
    "description",
    "eval_cases",
    "creation_timestamp",
    "creationTimestamp",
    "eval_id",
    "evalId",
    "conversation",
    "conversation_scenario",
    "session_input",
    "sessionInput",
    "rubrics",
    "final_session_state",
    "app_name",
    "appName",
    "user_id",
    "userId",
    "session_id",
    "state",
    "invocation_id",
    "invocationId",
    "user_content",
    "userContent",
    "final_response",
    "finalResponse",
    "intermediate_data",
    "intermediateData",
    "duration",
    "model_duration",
    "toolDuration",
    "app_details",
    "role",
    "parts",
    "text",
    "thought",
    "function_call",
    "functionCall",
    "function_response",
    "functionResponse",
    "inline_data",
    "id",
    "args",
    "response",
    "will_continue",
    "willContinue",
    "partial_args",
    "tool_uses",
    "toolUses",
    "tool_responses",
    "toolResponses",
    "intermediate_responses",
    "intermediateResponses",
    "invocation_events",
    "zzz",
];

fn replacement(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(0),
        3 => json!(-1.5),
        4 => json!("s"),
        5 => json!(""),
        6 => json!([]),
        7 => json!({}),
        8 => json!([{}]),
        9 => json!({"text": "x"}),
        10 => json!(["a", [{"text": "x"}]]),
        _ => json!({"name": "f", "args": {}}),
    }
}

/// Every node's path (object keys and array indexes) in `v`.
fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                here.push(json!(k));
                paths(c, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                here.push(json!(i));
                paths(c, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

/// One structural change to the parsed seed, written back as text.
fn mutate_value(seed: &str, rng: &mut Rng) -> String {
    let mut v: Value = serde_json::from_str(seed).unwrap();
    let mut all = Vec::new();
    paths(&v, &mut Vec::new(), &mut all);
    let path = rng.pick(&all).clone();
    let node = at(&mut v, &path);
    let mut dup = None;
    match rng.below(6) {
        0 | 1 => *node = replacement(rng),
        2 => {
            if let Value::Object(m) = node {
                if !m.is_empty() {
                    let k = m.keys().nth(rng.below(m.len())).cloned().unwrap();
                    m.shift_remove(&k);
                }
            }
        }
        3 => {
            if let Value::Object(m) = node {
                m.insert(rng.pick(KEYS).to_string(), replacement(rng));
            }
        }
        4 => {
            // A key given twice: a marker key, renamed in the text to one already there.
            if let Value::Object(m) = node {
                if let Some(k) = m.keys().nth(rng.below(m.len().max(1))).cloned() {
                    let val = if rng.below(2) == 0 {
                        m[&k].clone()
                    } else {
                        replacement(rng)
                    };
                    m.insert("__dup__".into(), val);
                    dup = Some(k);
                }
            }
        }
        _ => *node = json!([node.take()]),
    }
    let text = if rng.below(2) == 0 {
        v.to_string()
    } else {
        serde_json::to_string_pretty(&v).unwrap()
    };
    match dup {
        Some(k) => text.replace("\"__dup__\"", &json!(k).to_string()),
        None => text,
    }
}

const SPLICES: &[&str] = &[
    "\"",
    "\\",
    ",",
    "}",
    "]",
    "{",
    "[",
    ":",
    "0",
    "e",
    "-",
    ".",
    " ",
    "\t",
    "\u{1}",
    "u",
    "n",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\udc00",
    "\\x",
    "\\u12",
    "\\/",
    "\\n",
    "1e400",
    "01",
    "1.",
    "1e",
    "-",
    "123456789012345678901234",
    "1E+5",
    "-0",
    "null",
    "true",
    "\u{feff}",
    "é",
];

/// One change to the text itself.
fn mutate_text(seed: &str, rng: &mut Rng) -> String {
    let mut t = seed.to_string();
    for _ in 0..=rng.below(2) {
        let mut i = rng.below(t.len() + 1);
        while !t.is_char_boundary(i) {
            i -= 1;
        }
        match rng.below(3) {
            0 => {
                let mut j = i + 1;
                while j < t.len() && !t.is_char_boundary(j) {
                    j += 1;
                }
                if j <= t.len() {
                    t.replace_range(i..j, "");
                }
            }
            _ => t.insert_str(i, *rng.pick(SPLICES)),
        }
    }
    t
}

fn check(text: &str, yes: &mut usize, no: &mut usize) {
    if surely_valid(text) {
        *yes += 1;
        if let Err(e) = load_eval_set(text, &LoadOptions::default()) {
            panic!(
                "surely_valid said yes, the typed parse says {}: {}\n{text}",
                e.code.as_str(),
                e.message
            );
        }
        assert!(validate_eval_set(text).is_empty(), "{text}");
    } else {
        *no += 1;
    }
}

#[test]
fn most_valid_oracle_sets_are_surely_valid() {
    let seeds = seeds();
    let valid: Vec<&String> = seeds
        .iter()
        .filter(|s| load_eval_set(s, &LoadOptions::default()).is_ok())
        .collect();
    let sure = valid.iter().filter(|s| surely_valid(s)).count();
    println!(
        "{sure} of {} valid oracle sets are surely valid ({} seeds)",
        valid.len(),
        seeds.len()
    );
    assert!(
        sure * 10 >= valid.len() * 8,
        "only {sure} of {} valid sets",
        valid.len()
    );
    for s in &seeds {
        let (mut yes, mut no) = (0, 0);
        check(s, &mut yes, &mut no);
    }
}

#[test]
fn a_yes_is_never_wrong_on_mutations() {
    let seeds = seeds();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut yes, mut no) = (0, 0);
    for seed in seeds.iter().filter(|s| s.len() < 20_000) {
        for _ in 0..12 {
            check(&mutate_value(seed, &mut rng), &mut yes, &mut no);
            check(&mutate_text(seed, &mut rng), &mut yes, &mut no);
        }
    }
    println!("mutations: {yes} surely valid, {no} left to the typed parse");
    // Both answers must be common, or the test checks little.
    assert!(yes > 1000 && no > 1000, "yes {yes}, no {no}");
}
