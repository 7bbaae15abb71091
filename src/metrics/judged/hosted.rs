//! The metrics Google computes in its hosted evaluation service (agents-cli's
//! `multi_turn_task_success`, `final_response_quality`, ... and ADK 2.13's Vertex-only
//! `multi_turn_*_v1`), judged here through any judge with evalcore's own rubrics: each metric is
//! a fixed list of yes/no properties, asked with the prompt of ADK's rubric metric of the same
//! scope, and scores the share of properties met (voted over samples). The hosted service writes
//! its rubrics per case; these are fixed, so the numbers are evalcore's, not the service's.

use super::rubric::{frq_prompt, judge_conversation, per_invocation_rubric_metric, tuq_prompt, PerTurn, Rubrics};
use crate::judge::JudgePort;
use crate::metrics::{Ctx, NotEvaluated, Outcome};
use crate::schema::eval_set::{Rubric, RubricContent};
use crate::schema::Criterion;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// What a hosted metric is shown.
#[derive(Clone, Copy)]
enum Scope {
    /// The whole conversation, judged once at its last turn.
    Conversation,
    /// Each invocation's final response (with its tool use as evidence).
    Response,
    /// Each invocation's tool calls; invocations without any are not judged.
    ToolUse,
}

type Props = &'static [(&'static str, &'static str)];

const TASK_SUCCESS: Props = &[
    ("goals_met", "Every goal the user expressed during the conversation was accomplished, or the agent clearly explained why it could not be."),
    ("outcome_delivered", "By the end, the user has what they asked for: the information given or the actions done and confirmed."),
    ("no_false_completion", "The agent never claims an action succeeded that its tool calls and their outputs do not show."),
    ("no_abandoned_request", "The agent does not drop, forget or silently change a request the user made."),
];

const TRAJECTORY: Props = &[
    ("logical_steps", "Each step of the agent follows from the user's request and the results of earlier steps."),
    ("efficient", "The agent gets there without redundant, repeated or needless steps (tool calls or questions)."),
    ("recovers", "When a step fails or returns something unexpected, the agent notices and recovers sensibly (or nothing failed)."),
    ("uses_context", "The agent uses what the user already said instead of asking for it again."),
];

const TOOL_USE: Props = &[
    (
        "right_tools",
        "Each tool call uses the right tool for its step, and no call is unnecessary.",
    ),
    (
        "valid_arguments",
        "Every tool call's arguments fit the tool's declaration and are correct given the conversation.",
    ),
    (
        "outputs_used",
        "The agent uses the tools' outputs correctly in what it does and says next.",
    ),
    (
        "workable_order",
        "Calls that depend on each other come in an order that works.",
    ),
];

const RESPONSE: Props = &[
    ("addresses_request", "The response answers what the user asked."),
    (
        "grounded",
        "Every factual claim of the response is supported by the user's prompt or the tool outputs.",
    ),
    (
        "complete",
        "The response covers every part of the request, or says what it cannot do.",
    ),
    (
        "clear",
        "The response is clear, well organised and no longer than it needs to be.",
    ),
    (
        "follows_instructions",
        "The response follows the developer instructions and any constraint in the prompt.",
    ),
];

/// The hosted metrics judged here, by name; ADK's `_v1` names share agents-cli's definitions.
const HOSTED: &[(&str, Scope, Props)] = &[
    ("multi_turn_task_success", Scope::Conversation, TASK_SUCCESS),
    ("multi_turn_task_success_v1", Scope::Conversation, TASK_SUCCESS),
    ("multi_turn_trajectory_quality", Scope::Conversation, TRAJECTORY),
    ("multi_turn_trajectory_quality_v1", Scope::Conversation, TRAJECTORY),
    ("multi_turn_tool_use_quality", Scope::Conversation, TOOL_USE),
    ("multi_turn_tool_use_quality_v1", Scope::Conversation, TOOL_USE),
    ("final_response_quality", Scope::Response, RESPONSE),
    ("tool_use_quality", Scope::ToolUse, TOOL_USE),
];

/// The rubrics of a hosted metric: evalcore's fixed list.
pub fn builtin_rubrics(metric: &str) -> Vec<Rubric> {
    let props = HOSTED.iter().find(|(n, _, _)| *n == metric).map_or(&[][..], |h| h.2);
    props.iter().map(|(id, text)| rubric(id, text)).collect()
}

fn rubric(id: &str, text: &str) -> Rubric {
    Rubric {
        rubric_id: id.to_string(),
        rubric_content: RubricContent {
            text_property: Some(text.to_string()),
        },
        description: None,
        kind: None,
    }
}

/// A case's own rubrics in the hosted service's shape (`rubric_groups: {key: {rubrics: [{rubric_id,
/// content: {property: {description}}}]}}`), the group chosen by `rubric_group_key` when the
/// case has several. None when the case has no group.
fn case_rubrics(ctx: &Ctx, c: &Criterion, metric: &str) -> Result<Option<Vec<Rubric>>, NotEvaluated> {
    let Some(groups) = ctx
        .case_extra
        .and_then(|e| e.get("rubric_groups"))
        .and_then(Value::as_object)
    else {
        return Ok(None);
    };
    let key = c.field("rubric_group_key", "rubricGroupKey").and_then(Value::as_str);
    let group = match (key, groups.len()) {
        (_, 0) => return Ok(None),
        (Some(k), _) => groups.get(k).ok_or_else(|| {
            NotEvaluated::new(
                "invalid_input",
                format!("{metric}: rubric_group_key {k:?} is not among the case's rubric_groups"),
            )
        })?,
        (None, 1) => groups.values().next().unwrap_or(&Value::Null),
        (None, _) => {
            return Err(NotEvaluated::new(
                "invalid_input",
                format!("{metric}: the case has several rubric_groups; choose one with `rubric_group_key`"),
            ))
        }
    };
    let list = group
        .get("rubrics")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let rubrics: Vec<Rubric> = list
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let text = r.pointer("/content/property/description").and_then(Value::as_str)?;
            let id = r
                .get("rubric_id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("rubric_{i}"), str::to_string);
            Some(rubric(&id, text))
        })
        .collect();
    if rubrics.is_empty() {
        return Err(NotEvaluated::new(
            "no_rubrics",
            format!("{metric}: the case's rubric group has no rubric with `content.property.description`"),
        ));
    }
    Ok(Some(rubrics))
}

/// A hosted metric, judged: the criterion's `rubrics` when it gives some, else the case's own
/// rubric group (per-turn metrics, as the hosted service does), else the built-in list.
pub fn hosted<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let Some((_, scope, _)) = HOSTED.iter().find(|(n, _, _)| *n == metric) else {
            return Err(NotEvaluated::new(
                "unknown_metric",
                format!("{metric} is not a hosted metric"),
            ));
        };
        let given = &crate::metrics::judge_criterion(metric, c)?.rubrics;
        let rubrics = match (given.is_empty(), scope) {
            (false, _) => given.clone(),
            (true, Scope::Conversation) => builtin_rubrics(metric),
            (true, _) => case_rubrics(ctx, c, metric)?.unwrap_or_else(|| builtin_rubrics(metric)),
        };
        let how = |prompt, with_response, needs_calls| PerTurn {
            rubrics: Rubrics::Fixed(rubrics.clone()),
            prompt,
            with_response,
            needs_calls,
        };
        match scope {
            Scope::Conversation => judge_conversation(ctx, c, port, metric, rubrics).await,
            Scope::Response => per_invocation_rubric_metric(ctx, c, port, metric, how(frq_prompt, true, false)).await,
            Scope::ToolUse => per_invocation_rubric_metric(ctx, c, port, metric, how(tuq_prompt, false, true)).await,
        }
    })
}
