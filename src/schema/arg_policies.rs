//! evalcore's `arg_policies` criterion field: how each argument of each tool is compared by the
//! trajectory metrics, read and checked when the config is loaded. ADK keeps the field as an
//! extra of its ToolTrajectoryCriterion and ignores it, so a config that uses it stays valid ADK.
//!
//! Shape: `{"<tool name or *>": "<policy>" | {"<argument name or *>": <policy>}}`, a policy being
//! a name (`"ignore"`) or an object naming it with its parameters (`{"policy": "rouge1",
//! "threshold": 0.6}`). What each policy means is the metrics' business (`metrics::args`).

use super::value::snake_of;
use serde_json::{Map, Value};

/// The key that stands for every tool, or for every argument of a tool.
pub const ANY: &str = "*";

/// How one argument is compared.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgPolicy {
    /// Python equality (ADK's comparison).
    Exact,
    /// Not compared at all: may be absent, present or different.
    Ignore,
    /// The actual call must have it, with any value.
    Present,
    /// Strings equal after lower-casing and collapsing whitespace.
    Text,
    /// The expected value is contained in the actual one (objects recursively).
    Subset,
    /// Numbers within a tolerance, as Python's `math.isclose(a, b, rel_tol, abs_tol)`.
    Numeric { abs_tol: f64, rel_tol: f64 },
    /// The actual value is a string the pattern matches in full.
    Regex(Pattern),
    /// ROUGE-1 F-measure of the actual string against the expected one at least `threshold`.
    Rouge1 { threshold: f64 },
}

impl ArgPolicy {
    /// The names a config may use (also the `policy` of an object).
    pub const NAMES: [&'static str; 8] = [
        "exact", "ignore", "present", "text", "subset", "numeric", "regex", "rouge1",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            ArgPolicy::Exact => "exact",
            ArgPolicy::Ignore => "ignore",
            ArgPolicy::Present => "present",
            ArgPolicy::Text => "text",
            ArgPolicy::Subset => "subset",
            ArgPolicy::Numeric { .. } => "numeric",
            ArgPolicy::Regex(_) => "regex",
            ArgPolicy::Rouge1 { .. } => "rouge1",
        }
    }
}

/// A compiled pattern, compared by its source.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub source: String,
    /// `^(?:source)$`: the whole value must match.
    pub full: regex_lite::Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// The policies of one tool (or of every tool, under `*`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolPolicies {
    /// For every argument not named in `args` (`"tool": "policy"` or `{"*": policy}`).
    pub all: Option<ArgPolicy>,
    pub args: Vec<(String, ArgPolicy)>,
}

/// Every tool's policies, in config order. Empty: ADK's comparison everywhere.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArgPolicies {
    pub tools: Vec<(String, ToolPolicies)>,
}

impl ArgPolicies {
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    fn tool(&self, name: &str) -> Option<&ToolPolicies> {
        self.tools.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    }

    /// Whether any policy reaches calls of `tool` (else ADK's comparison holds for them).
    pub fn applies_to(&self, tool: &str) -> bool {
        self.tool(tool).is_some() || self.tool(ANY).is_some()
    }

    /// The policy of `arg` of `tool`: the tool's own entry for the argument, then the tool's `*`,
    /// then `*`'s entry for the argument, then `*`'s `*`, else exact.
    pub fn lookup(&self, tool: &str, arg: &str) -> &ArgPolicy {
        fn named<'p>(t: Option<&'p ToolPolicies>, arg: &str) -> Option<&'p ArgPolicy> {
            t.and_then(|t| t.args.iter().find(|(a, _)| a == arg).map(|(_, p)| p))
        }
        let own = self.tool(tool);
        let any = self.tool(ANY);
        named(own, arg)
            .or_else(|| own.and_then(|t| t.all.as_ref()))
            .or_else(|| named(any, arg))
            .or_else(|| any.and_then(|t| t.all.as_ref()))
            .unwrap_or(&ArgPolicy::Exact)
    }
}

/// A rejected value: the path below `arg_policies` (`.search.query.threshold`) and why.
#[derive(Debug)]
pub struct PolicyError {
    pub at: String,
    pub message: String,
}

fn err(at: String, message: impl Into<String>) -> PolicyError {
    PolicyError {
        at,
        message: message.into(),
    }
}

/// `.key`, or `["key"]` when the key is not a plain identifier (so the path stays readable).
fn step(key: &str) -> String {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!(".{key}")
    } else {
        format!("[{}]", Value::String(key.to_string()))
    }
}

fn unknown_name(at: String, found: &str) -> PolicyError {
    err(
        at,
        format!(
            "unknown argument policy {found:?}: use one of {}",
            ArgPolicy::NAMES.join(", ")
        ),
    )
}

fn number(v: Option<&Value>, at: &str, field: &str, range: (f64, f64)) -> Result<Option<f64>, PolicyError> {
    match v {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x >= range.0 && x <= range.1 => Ok(Some(x)),
            _ => Err(err(
                format!("{at}.{field}"),
                format!("`{field}` must be a number from {} to {}; found {n}", range.0, range.1),
            )),
        },
        Some(other) => Err(err(
            format!("{at}.{field}"),
            format!("`{field}` must be a number; found {}", super::value::kind(other)),
        )),
    }
}

/// One policy: a name, or `{"policy": name, ...parameters}`.
fn policy(v: &Value, at: &str) -> Result<ArgPolicy, PolicyError> {
    let simple = |name: &str, at: String| -> Result<ArgPolicy, PolicyError> {
        Ok(match name {
            "exact" => ArgPolicy::Exact,
            "ignore" => ArgPolicy::Ignore,
            "present" => ArgPolicy::Present,
            "text" => ArgPolicy::Text,
            "subset" => ArgPolicy::Subset,
            "numeric" => ArgPolicy::Numeric {
                abs_tol: 0.0,
                rel_tol: 0.0,
            },
            "regex" => {
                return Err(err(
                    at,
                    "the regex policy needs a pattern: {\"policy\": \"regex\", \"pattern\": \"...\"}",
                ))
            }
            "rouge1" => {
                return Err(err(
                    at,
                    "the rouge1 policy needs a threshold: {\"policy\": \"rouge1\", \"threshold\": 0.6}",
                ))
            }
            other => return Err(unknown_name(at, other)),
        })
    };
    let m = match v {
        Value::String(s) => return simple(s, at.to_string()),
        Value::Object(m) => m,
        other => {
            return Err(err(
                at.to_string(),
                format!(
                    "an argument policy is a name or an object with `policy`; found {}",
                    super::value::kind(other)
                ),
            ))
        }
    };
    let fields: Map<String, Value> = m.iter().map(|(k, v)| (snake_of(k), v.clone())).collect();
    let name = match fields.get("policy") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(err(
                format!("{at}.policy"),
                format!("`policy` must be a string; found {}", super::value::kind(other)),
            ))
        }
        None => return Err(err(at.to_string(), "a policy object needs `policy` (its name)")),
    };
    let allowed: &[&str] = match name {
        "numeric" => &["policy", "abs_tol", "rel_tol"],
        "regex" => &["policy", "pattern"],
        "rouge1" => &["policy", "threshold"],
        _ => &["policy"],
    };
    if let Some(extra) = m.keys().find(|k| !allowed.contains(&snake_of(k).as_str())) {
        return Err(err(
            format!("{at}{}", step(extra)),
            format!("the {name} policy takes no {extra:?} (it takes {})", allowed.join(", ")),
        ));
    }
    match name {
        "numeric" => Ok(ArgPolicy::Numeric {
            abs_tol: number(fields.get("abs_tol"), at, "abs_tol", (0.0, f64::MAX))?.unwrap_or(0.0),
            rel_tol: number(fields.get("rel_tol"), at, "rel_tol", (0.0, f64::MAX))?.unwrap_or(0.0),
        }),
        "rouge1" => match number(fields.get("threshold"), at, "threshold", (0.0, 1.0))? {
            Some(threshold) => Ok(ArgPolicy::Rouge1 { threshold }),
            None => simple("rouge1", at.to_string()),
        },
        "regex" => match fields.get("pattern") {
            Some(Value::String(source)) => regex_lite::Regex::new(&format!("^(?:{source})$"))
                .map(|full| {
                    ArgPolicy::Regex(Pattern {
                        source: source.clone(),
                        full,
                    })
                })
                .map_err(|e| err(format!("{at}.pattern"), format!("the pattern does not compile: {e}"))),
            Some(other) => Err(err(
                format!("{at}.pattern"),
                format!("`pattern` must be a string; found {}", super::value::kind(other)),
            )),
            None => simple("regex", at.to_string()),
        },
        other => simple(other, at.to_string()),
    }
}

/// Reads `arg_policies`; error paths are relative to it (`""` for the value itself).
pub fn parse(v: &Value) -> Result<ArgPolicies, PolicyError> {
    let Value::Object(tools) = v else {
        return Err(err(
            String::new(),
            format!(
                "`arg_policies` must be an object of tool names, e.g. {{\"search\": {{\"query\": \"text\"}}}}; found {}",
                super::value::kind(v)
            ),
        ));
    };
    let mut out = ArgPolicies::default();
    for (tool, spec) in tools {
        let at = step(tool);
        let entry = match spec {
            Value::Object(args) => {
                let mut t = ToolPolicies::default();
                for (arg, p) in args {
                    let p = policy(p, &format!("{at}{}", step(arg)))?;
                    if arg == ANY {
                        t.all = Some(p);
                    } else {
                        t.args.push((arg.clone(), p));
                    }
                }
                t
            }
            other => ToolPolicies {
                all: Some(policy(other, &at)?),
                args: Vec::new(),
            },
        };
        out.tools.push((tool.clone(), entry));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fails(v: Value) -> (String, String) {
        match parse(&v) {
            Ok(p) => panic!("accepted {v}: {p:?}"),
            Err(e) => (e.at, e.message),
        }
    }

    #[test]
    fn shapes_and_lookup_order() {
        let p = parse(&json!({
            "search": {"query": {"policy": "rouge1", "threshold": 0.5}, "*": "ignore"},
            "book": "subset",
            "*": {"request_id": "present", "*": "text"}
        }))
        .unwrap();
        assert_eq!(p.lookup("search", "query"), &ArgPolicy::Rouge1 { threshold: 0.5 });
        assert_eq!(p.lookup("search", "request_id"), &ArgPolicy::Ignore);
        assert_eq!(p.lookup("book", "date"), &ArgPolicy::Subset);
        assert_eq!(p.lookup("other", "request_id"), &ArgPolicy::Present);
        assert_eq!(p.lookup("other", "city"), &ArgPolicy::Text);
        assert!(p.applies_to("anything"));
        let only = parse(&json!({"search": {"q": "ignore"}})).unwrap();
        assert!(!only.applies_to("book"));
        assert_eq!(only.lookup("search", "other"), &ArgPolicy::Exact);
        let camel = parse(&json!({"t": {"x": {"policy": "numeric", "absTol": 0.5}}})).unwrap();
        assert_eq!(
            camel.lookup("t", "x"),
            &ArgPolicy::Numeric {
                abs_tol: 0.5,
                rel_tol: 0.0
            }
        );
    }

    #[test]
    fn invalid_policies_name_their_path() {
        let rows = [
            (json!([]), "", "must be an object"),
            (json!({"t": 3}), ".t", "a name or an object"),
            (json!({"t": "fuzzy"}), ".t", "unknown argument policy"),
            (json!({"t": {"a": "regex"}}), ".t.a", "needs a pattern"),
            (json!({"t": {"a": {"policy": "rouge1"}}}), ".t.a", "needs a threshold"),
            (
                json!({"t": {"a": {"policy": "rouge1", "threshold": 2}}}),
                ".t.a.threshold",
                "from 0 to 1",
            ),
            (
                json!({"t": {"a": {"policy": "numeric", "abs_tol": -1}}}),
                ".t.a.abs_tol",
                "number from 0",
            ),
            (
                json!({"t": {"a": {"policy": "numeric", "tolerance": 1}}}),
                ".t.a.tolerance",
                "takes no",
            ),
            (
                json!({"t": {"a": {"policy": "regex", "pattern": "("}}}),
                ".t.a.pattern",
                "does not compile",
            ),
            // regex-lite's default size limit refuses a pattern that would compile huge.
            (
                json!({"t": {"a": {"policy": "regex", "pattern": "(?:a{1000}){1000}"}}}),
                ".t.a.pattern",
                "does not compile",
            ),
            (json!({"t": {"a": {"threshold": 1}}}), ".t.a", "needs `policy`"),
            (json!({"my tool": {"a": "x"}}), "[\"my tool\"].a", "unknown"),
        ];
        for (v, at, says) in rows {
            let (got_at, message) = fails(v.clone());
            assert_eq!(got_at, at, "{v}");
            assert!(message.contains(says), "{v}: {message}");
        }
    }

    #[test]
    fn regex_is_anchored() {
        let p = parse(&json!({"t": {"d": {"policy": "regex", "pattern": "\\d{4}-\\d{2}-\\d{2}"}}})).unwrap();
        let ArgPolicy::Regex(re) = p.lookup("t", "d") else {
            panic!()
        };
        assert!(re.full.is_match("2025-06-23"));
        assert!(!re.full.is_match("on 2025-06-23"));
        assert!(!re.full.is_match("2025-06-23T10:00"));
    }
}
