//! A custom LLM metric (agents-cli's `LLMMetric`): a criterion that carries `prompt_template`.
//! The template's `{prompt}` (the first user turn), `{response}` (the last final response),
//! `{agent_data}` (the whole trace as agent data JSON), `{reference}`, `{context}` and any other
//! `{field}` of the case are filled in, the judge answers `{"score", "explanation"}`, and the case
//! is scored once, at its last turn: the mean of the samples' scores, passed against the
//! threshold, or INFORMATIONAL when the criterion says `informational` (no threshold was given).

use super::rubric::at_last_turn;
use super::{ask_all, score_cell, Ask};
use crate::judge::context::{response_text, user_text};
use crate::judge::{media, prompts, CallKind, JudgeModelOptions, JudgePort};
use crate::metrics::{empty_outcome, Ctx, NotEvaluated, Outcome};
use crate::schema::content::text_of;
use crate::schema::criteria::{self, CriterionClass, Typed};
use crate::schema::result::EvalStatus;
use crate::schema::value::lax_bool;
use crate::schema::{Content, Criterion};
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// Whether `c` defines an LLM metric of its own.
pub fn is_llm_metric(c: &Criterion) -> bool {
    c.extra.contains_key("prompt_template")
}

/// Whether `c` defines a Python metric (agents-cli's `custom_function`), which cannot run here.
pub fn is_code_metric(c: &Criterion) -> bool {
    ["custom_function", "custom_function_file", "remote_custom_function"]
        .iter()
        .any(|k| c.extra.contains_key(*k))
}

/// The NOT_EVALUATED of a Python metric, saying how to write it for evalcore.
pub fn code_metric(name: &str) -> NotEvaluated {
    NotEvaluated::new(
        "unsupported",
        format!(
            "{name} is a Python function (agents-cli's custom_function), which evalcore cannot run: write it as a \
             JS custom metric, a function of {{actualInvocations, expectedInvocations, evalCase}} returning \
             {{score}}, passed as `customMetrics: {{ {name}: fn }}` to evaluate() or exported from a module given to \
             the CLI with --custom_metrics"
        ),
    )
}

/// An LLM metric's definition, read from its criterion.
pub struct Spec {
    pub template: String,
    pub system_instruction: Option<String>,
    pub informational: bool,
    pub options: JudgeModelOptions,
}

/// Reads the LLM metric of criterion `c`; the error names what is wrong.
pub fn read_spec(c: &Criterion, metric: &str) -> Result<Spec, String> {
    let template = match c.extra.get("prompt_template") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => return Err(format!("{metric}: `prompt_template` must be a non-empty string")),
    };
    let system_instruction = match c.field("judge_model_system_instruction", "judgeModelSystemInstruction") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(format!("{metric}: `judge_model_system_instruction` must be a string")),
    };
    let informational = match c.extra.get("informational") {
        None => false,
        Some(v) => lax_bool(v).ok_or_else(|| format!("{metric}: `informational` must be a boolean"))?,
    };
    let options = match criteria::check(CriterionClass::LlmAsAJudge, &c.extra, metric, "$").typed {
        Typed::Judge(j) => j.options,
        Typed::Invalid { message, .. } => return Err(message),
        _ => JudgeModelOptions::default(),
    };
    Ok(Spec {
        template,
        system_instruction,
        informational,
        options,
    })
}

/// A case field as template text: strings as they are, a Content or response candidate as its
/// text, anything else as JSON.
fn field_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) if o.contains_key("parts") => content_text(v),
        Value::Object(o) if o.contains_key("response") => o.get("response").map(content_text).unwrap_or_default(),
        other => other.to_string(),
    }
}

fn content_text(v: &Value) -> String {
    crate::schema::load::parse_as::<Content>(v)
        .map(|c| text_of(Some(&c)).into_owned())
        .unwrap_or_else(|_| v.to_string())
}

/// The value of placeholder `name` for this case, or why the case has none; `Ok(None)` leaves
/// the placeholder as written (braces that are not a field).
fn resolve(ctx: &Ctx, name: &str, metric: &str) -> Result<Option<String>, NotEvaluated> {
    let extra = ctx.case_extra;
    let missing = |what: &str| {
        NotEvaluated::new(
            "missing_field",
            format!("{metric}: the prompt template uses {{{name}}}, and this case has no {what}"),
        )
    };
    Ok(Some(match name {
        "prompt" => ctx.actual.first().map(user_text).unwrap_or_default(),
        "response" => ctx.actual.last().map(|a| response_text(a, false)).unwrap_or_default(),
        "agent_data" => crate::schema::agent_data::agent_data(ctx.actual, true).to_string(),
        "reference" => match extra.and_then(|e| e.get("reference")).filter(|v| !v.is_null()) {
            Some(r) => field_text(r),
            None => {
                let expected = ctx
                    .expected
                    .and_then(|e| e.last())
                    .and_then(|e| e.final_response.as_ref());
                match expected {
                    Some(r) => text_of(Some(r)).into_owned(),
                    None => return Err(missing("`reference`")),
                }
            }
        },
        "context" => match extra.and_then(|e| e.get("context")).filter(|v| !v.is_null()) {
            Some(c) => field_text(c),
            None => return Err(missing("`context`")),
        },
        _ => {
            let mut path = name.split('.');
            let root = path.next().and_then(|k| extra.and_then(|e| e.get(k)));
            match path.try_fold(root, |v, k| Some(v.and_then(|v| v.get(k)))) {
                Some(Some(v)) => field_text(v),
                _ => return Ok(None),
            }
        }
    }))
}

fn is_placeholder(s: &str) -> bool {
    let mut parts = s.split('.');
    let head_ok = parts.next().is_some_and(|h| {
        h.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    head_ok && parts.all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// The template with its placeholders filled in (the answer format appended when the template
/// does not ask for a score itself). Filling stops once the prompt passes `max` bytes: a
/// placeholder may repeat, and a small case must not make a prompt of many megabytes.
pub fn fill(ctx: &Ctx, spec: &Spec, metric: &str, max: u64) -> Result<String, NotEvaluated> {
    let t = &spec.template;
    let mut out = String::with_capacity(t.len().min(1 << 20));
    if let Some(s) = &spec.system_instruction {
        out.push_str(s);
        out.push_str("\n\n");
    }
    let mut rest = t.as_str();
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let inner = after.get(1..).and_then(|a| a.find('}').map(|close| (a, close)));
        match inner {
            Some((a, close)) if is_placeholder(a.get(..close).unwrap_or("")) => {
                let name = a.get(..close).unwrap_or("");
                match resolve(ctx, name, metric)? {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = a.get(close + 1..).unwrap_or("");
            }
            _ => {
                out.push('{');
                rest = after.get(1..).unwrap_or("");
            }
        }
        within(&out, max, metric)?;
    }
    out.push_str(rest);
    if !t.contains("score") {
        out.push_str(prompts::SCORE_FORMAT);
    }
    within(&out, max, metric)?;
    Ok(out)
}

fn within(prompt: &str, max: u64, metric: &str) -> Result<(), NotEvaluated> {
    if prompt.len() as u64 <= max {
        return Ok(());
    }
    Err(NotEvaluated::new(
        "prompt_too_large",
        format!(
            "{metric}: the filled prompt_template passed {} bytes, over `judge.maxPromptBytes` ({max}); no judge call was made",
            prompt.len()
        ),
    ))
}

pub fn llm_metric<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let spec = read_spec(c, metric).map_err(|m| NotEvaluated::new("invalid_criterion", m))?;
        let Some(last) = ctx.actual.len().checked_sub(1) else {
            return Ok(empty_outcome());
        };
        let prompt = fill(ctx, &spec, metric, port.max_prompt_bytes())?;
        let ask = Ask {
            invocation: last,
            prompt,
            samples: spec.options.samples(1),
            first_sample: 0,
            kind: CallKind::Judge,
            media: media::for_conversation(ctx.actual),
        };
        let answers = ask_all(port, metric, &spec.options, vec![ask]).await;
        let samples = answers.into_iter().next().unwrap_or_default();
        let mut cell = score_cell(&samples, c.threshold, None);
        if spec.informational && cell.score.is_some() {
            cell.status = EvalStatus::Informational;
        }
        Ok(at_last_turn(last, cell))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Invocation;
    use serde_json::json;

    fn ctx_with<'a>(actual: &'a [Invocation], extra: &'a crate::schema::content::JsonObject) -> Ctx<'a> {
        Ctx {
            actual,
            expected: None,
            scenario: None,
            call_index: None,
            case_rubrics: None,
            explain: false,
            case_extra: Some(extra),
        }
    }

    fn spec(template: &str) -> Spec {
        Spec {
            template: template.into(),
            system_instruction: None,
            informational: false,
            options: JudgeModelOptions::default(),
        }
    }

    #[test]
    fn placeholders_are_filled_and_other_braces_kept() {
        let inv = Invocation {
            user_content: Content::from_text("user", "Hi"),
            final_response: Some(Content::from_text("model", "Hello.")),
            ..Invocation::default()
        };
        let extra = json!({"context": {"parts": [{"text": "ctx"}]}, "meta": {"tier": "gold"}, "n": 3})
            .as_object()
            .cloned()
            .unwrap();
        let actual = [inv];
        let ctx = ctx_with(&actual, &extra);
        let t = "{prompt}|{response}|{context}|{meta.tier}|{n}|{missing}|{\"score\": 1}|{ x }|{";
        assert_eq!(
            fill(&ctx, &spec(t), "m", u64::MAX).unwrap(),
            "Hi|Hello.|ctx|gold|3|{missing}|{\"score\": 1}|{ x }|{"
        );
        let e = fill(&ctx, &spec("{reference}"), "m", u64::MAX).err().unwrap();
        assert_eq!(e.reason, "missing_field");
        assert!(fill(&ctx, &spec("rate {response}"), "m", u64::MAX)
            .unwrap()
            .ends_with(prompts::SCORE_FORMAT));
    }

    #[test]
    fn a_template_filled_past_the_bound_stops_there() {
        let inv = Invocation {
            user_content: Content::from_text("user", "Hi"),
            final_response: Some(Content::from_text("model", &"r".repeat(1000))),
            ..Invocation::default()
        };
        let extra = crate::schema::content::JsonObject::new();
        let actual = [inv];
        let ctx = ctx_with(&actual, &extra);
        let many = "{response}".repeat(100);
        let e = fill(&ctx, &spec(&many), "m", 10_000).err().unwrap();
        assert_eq!(e.reason, "prompt_too_large");
        assert!(
            e.message.contains("over `judge.maxPromptBytes` (10000)"),
            "{}",
            e.message
        );
        // A prompt of exactly the bound is kept (a template that asks for a score gets no format).
        let fits = fill(&ctx, &spec("{response} score"), "m", 1006).unwrap();
        assert_eq!(fits.len(), 1006);
        assert!(fill(&ctx, &spec("{response} score"), "m", 1005).is_err());
    }
}
