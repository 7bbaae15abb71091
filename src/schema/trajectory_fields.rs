//! The fields of the trajectory criterion classes: ADK's `match_type` (with evalcore's SUBSET and
//! SUPERSET) and `ignore_args`, evalcore's `arg_policies` and tool_trajectory_f1's `alignment`.

pub use super::arg_policies::{ArgPolicies, ArgPolicy};
use serde_json::Value;

/// How the actual trajectory must relate to the expected one (docs/metrics.md, "SUBSET and SUPERSET").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchType {
    #[default]
    Exact,
    InOrder,
    AnyOrder,
    /// evalcore: every expected call is made (the expected calls are a subset of the actual ones).
    Subset,
    /// evalcore: no call outside the expected ones (the expected calls are a superset).
    Superset,
}

impl MatchType {
    pub const ALL: [MatchType; 5] = [
        MatchType::Exact,
        MatchType::InOrder,
        MatchType::AnyOrder,
        MatchType::Subset,
        MatchType::Superset,
    ];
    /// ADK's own three, in the order of their numbers (0, 1, 2).
    pub const ADK: [MatchType; 3] = [MatchType::Exact, MatchType::InOrder, MatchType::AnyOrder];

    pub fn as_str(self) -> &'static str {
        match self {
            MatchType::Exact => "EXACT",
            MatchType::InOrder => "IN_ORDER",
            MatchType::AnyOrder => "ANY_ORDER",
            MatchType::Subset => "SUBSET",
            MatchType::Superset => "SUPERSET",
        }
    }
}

/// How `tool_trajectory_f1` pairs expected and actual calls (google/adk-python#5306).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Alignment {
    /// The largest one-to-one pairing in any order (maximum bipartite matching).
    #[default]
    Unordered,
    /// The largest pairing that keeps both orders (longest common subsequence).
    Ordered,
}

impl Alignment {
    pub const ALL: [Alignment; 2] = [Alignment::Unordered, Alignment::Ordered];

    pub fn as_str(self) -> &'static str {
        match self {
            Alignment::Unordered => "unordered",
            Alignment::Ordered => "ordered",
        }
    }
}

/// The fields of the trajectory criterion classes (each class reads its own; the rest keep their
/// defaults).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrajectoryFields {
    pub match_type: MatchType,
    pub ignore_args: bool,
    /// Empty: ADK's comparison (Python equality of the whole `args`).
    pub arg_policies: ArgPolicies,
    pub alignment: Alignment,
}

/// ADK's `match_type` normalisation: an integer 0/1/2, or a name after trim, upper-case and
/// `-`/space -> `_`.
pub fn parse_match_type(v: &Value) -> Option<MatchType> {
    let from_int = |i: i64| match i {
        0 => Some(MatchType::Exact),
        1 => Some(MatchType::InOrder),
        2 => Some(MatchType::AnyOrder),
        _ => None,
    };
    match v {
        Value::Bool(b) => from_int(i64::from(*b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => from_int(i),
            None => n
                .as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 8.0)
                .and_then(|f| from_int(f as i64)),
        },
        Value::String(s) => match s.trim().to_uppercase().replace(['-', ' '], "_").as_str() {
            "EXACT" => Some(MatchType::Exact),
            "IN_ORDER" => Some(MatchType::InOrder),
            "ANY_ORDER" => Some(MatchType::AnyOrder),
            "SUBSET" => Some(MatchType::Subset),
            "SUPERSET" => Some(MatchType::Superset),
            _ => None,
        },
        _ => None,
    }
}
