//! The run loop (`evaluate`): for each run and each case, drive the conversation through the
//! host's agent (static turns, or the simulated user), build the actual invocations, score
//! them, stream each result, and assemble ADK's EvalSetResult (typed, written once by the
//! caller) with a spread summary over runs.

use super::agent::invocation_from_reply;
use super::client::JudgeClient;
use super::simulator::{next_message, Next, SimulatorConfig};
use super::summary::run_summary;
use super::{AgentError, Host};
use crate::error::{CaseErrorCode, ErrorCode};
use crate::judge::JudgePort;
use crate::metrics::case::{evaluate_case_with, CaseRun, Ports};
use crate::metrics::custom::CustomPort;
use crate::report::pyfmt::float_repr;
use crate::schema::eval_result::{Carried, EvalCaseResult, EvalSetResult, JudgePlan, Skipped};
use crate::schema::load::value_of;
use crate::schema::result::{Detail, EvalStatus};
use crate::schema::{Content, EvalCase, EvalConfig, EvalSet, Invocation};
use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

/// What `evaluate` was asked to do.
pub struct RunArgs {
    pub eval_set: EvalSet,
    pub config: EvalConfig,
    pub num_runs: u32,
    pub concurrency: usize,
    pub eval_ids: Option<Vec<String>>,
    pub app_name: String,
    pub detail: Detail,
    pub efficiency_metrics: bool,
    /// Longest wait for one agent turn, in milliseconds (0: none).
    pub agent_timeout_ms: f64,
}

#[derive(Default)]
struct Tally {
    done: usize,
    passed: usize,
    failed: usize,
    not_evaluated: usize,
}

fn inference_failure(
    set_id: &str,
    case: &EvalCase,
    run: u32,
    session: &Session,
    code: &str,
    message: &str,
) -> EvalCaseResult<'static> {
    let mut r = EvalCaseResult::failed(set_id, &case.eval_id, code, message);
    r.session_id = session.id.clone();
    r.user_id = Some(session.user_id.clone());
    r.run = Some(run);
    r
}

/// A case whose conversation could not be completed.
fn conversation_failure(
    set_id: &str,
    case: &EvalCase,
    run: u32,
    session: &Session,
    f: Failure,
) -> EvalCaseResult<'static> {
    let mut r = EvalCaseResult::failed(set_id, &case.eval_id, f.code, &f.message);
    if let Some(e) = r.error.as_mut() {
        e.turn = f.turn.and_then(|t| u32::try_from(t).ok());
        e.stack = f.stack;
    }
    r.session_id = session.id.clone();
    r.user_id = Some(session.user_id.clone());
    r.run = Some(run);
    r
}

struct Session {
    id: String,
    user_id: String,
    app_name: String,
    state: Value,
}

/// ADK's session for one conversation: app and user from session_input (else ADK's fallbacks
/// `EvaluationGenerator` / `test_user_id`), a pinned session_id or a fresh random one (ADK:
/// `adk-eval-session-<uuid4>`), so no two conversations, runs or evaluate calls share a session.
fn session_of(case: &EvalCase, host: &dyn Host) -> Session {
    let si = case.session_input.as_ref();
    let hex = |digits: u32| -> String {
        (0..digits)
            .map(|_| char::from_digit((host.random() * 16.0) as u32 % 16, 16).unwrap_or('0'))
            .collect()
    };
    Session {
        id: si.and_then(|s| s.session_id.clone()).unwrap_or_else(|| {
            format!(
                "adk-eval-session-{}-{}-{}-{}-{}",
                hex(8),
                hex(4),
                hex(4),
                hex(4),
                hex(12)
            )
        }),
        user_id: si.map(|s| s.user_id.clone()).unwrap_or_else(|| "test_user_id".into()),
        app_name: si
            .map(|s| s.app_name.clone())
            .unwrap_or_else(|| "EvaluationGenerator".to_string()),
        state: si.map(|s| Value::Object(s.state.clone())).unwrap_or_else(|| json!({})),
    }
}

// A failed case's codes (src/error/codes.rs), as the text its result carries: constants, so the
// module holds the strings and no table to look them up in.
const AGENT_ERROR: &str = CaseErrorCode::AgentError.as_str();
const AGENT_TIMEOUT: &str = CaseErrorCode::AgentTimeout.as_str();
const NEEDS_JUDGE: &str = CaseErrorCode::NeedsJudge.as_str();
const CANCELLED: &str = CaseErrorCode::Cancelled.as_str();
const INVALID_CONFIG: &str = CaseErrorCode::InvalidConfig.as_str();
const SIMULATOR_ERROR: &str = CaseErrorCode::SimulatorError.as_str();
const UNSUPPORTED: &str = ErrorCode::Unsupported.as_str();

/// Why a conversation could not be completed: the case's `error`.
struct Failure {
    code: &'static str,
    message: String,
    /// 1-based turn the agent failed on.
    turn: Option<usize>,
    stack: Option<String>,
}

impl Failure {
    fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            turn: None,
            stack: None,
        }
    }

    /// The agent's failure on (0-based) `turn`.
    fn at(turn: usize, code: &'static str, message: impl std::fmt::Display) -> Failure {
        Failure {
            code,
            message: format!("turn {}: {message}", turn + 1),
            turn: Some(turn + 1),
            stack: None,
        }
    }
}

/// Runs one conversation: returns the actual invocations, or why it could not be completed.
async fn converse(
    host: &dyn Host,
    judge: Option<&JudgeClient>,
    sim: Result<&SimulatorConfig, &str>,
    args: &RunArgs,
    case: &EvalCase,
    run: u32,
    session: &Session,
) -> Result<Vec<Invocation>, Failure> {
    let set_id = args.eval_set.eval_set_id.as_str();
    let agent_timeout_ms = args.agent_timeout_ms;
    let mut actual: Vec<Invocation> = Vec::new();
    let mut turn: usize = 0;
    loop {
        if host.aborted() {
            return Err(Failure::new(CANCELLED, "the run was cancelled"));
        }
        let user_content: Content = if let Some(conv) = &case.conversation {
            match conv.get(turn) {
                Some(e) => e.user_content.clone(),
                None => break,
            }
        } else if let Some(scenario) = &case.conversation_scenario {
            let sim = sim.map_err(|m| Failure::new(INVALID_CONFIG, m))?;
            if sim.audio {
                return Err(Failure::new(
                    UNSUPPORTED,
                    "the user simulator is `llm_audio`: audio simulation needs a live audio model, which evalcore \
                     does not call (use `llm_backed` to simulate the user in text)",
                ));
            }
            let Some(j) = judge else {
                return Err(Failure::new(
                    NEEDS_JUDGE,
                    "this case has a conversation_scenario: the simulated user is an LLM, so pass a `judge`",
                ));
            };
            match next_message(j as &dyn JudgePort, scenario, sim, &actual).await {
                Ok(Next::Say(t)) => Content::from_text("user", &t),
                Ok(Next::Stop) => break,
                Err(m) => return Err(Failure::new(SIMULATOR_ERROR, m)),
            }
        } else {
            break;
        };
        let text = user_content.text().into_owned();
        // Only the invocation added since the previous turn crosses: the host keeps the
        // conversation's history itself, so a long conversation costs linear, not quadratic, work.
        let turn_json = json!({
            "evalSetId": set_id, "evalId": case.eval_id, "run": run, "turnIndex": turn,
            "sessionId": session.id, "userId": session.user_id, "appName": session.app_name,
            "state": session.state, "userContent": value_of(&user_content), "text": text,
            "previousInvocation": actual.last().map(value_of),
            "timeoutMs": (agent_timeout_ms > 0.0).then_some(agent_timeout_ms),
        });
        let started = host.now_ms();
        let reply = with_timeout(host, host.agent(turn_json.to_string()), agent_timeout_ms).await;
        let elapsed = (host.now_ms() - started) / 1000.0;
        let reply = match reply {
            Some(Ok(r)) => r,
            Some(Err(AgentError::Aborted)) => return Err(Failure::new(CANCELLED, "the run was cancelled")),
            Some(Err(AgentError::Failed { message, stack })) => {
                return Err(Failure {
                    stack,
                    ..Failure::at(turn, AGENT_ERROR, message)
                })
            }
            None if host.aborted() => return Err(Failure::new(CANCELLED, "the run was cancelled")),
            None => {
                return Err(Failure::at(
                    turn,
                    AGENT_TIMEOUT,
                    format_args!(
                        "the agent did not answer within {} (raise the agent timeout: `agentTimeoutMs`, CLI --agent_timeout)",
                        seconds(agent_timeout_ms)
                    ),
                ))
            }
        };
        crate::schema::budget::check_reply(&reply, "the agent's reply")
            .map_err(|m| Failure::at(turn, AGENT_ERROR, m))?;
        let v: Value = serde_json::from_str(&reply)
            .map_err(|e| Failure::at(turn, AGENT_ERROR, format_args!("the agent's reply is not JSON: {e}")))?;
        let id = format!("e-{}-{}-{}", run, case.eval_id, turn);
        let inv = invocation_from_reply(&v, id, user_content, started / 1000.0, Some(elapsed.max(0.0)))
            .map_err(|m| Failure::at(turn, AGENT_ERROR, m))?;
        actual.push(inv);
        turn += 1;
    }
    Ok(actual)
}

/// `call` raced against the host's clock: `None` when `timeout_ms` passed first (0: no timeout).
async fn with_timeout<T>(
    host: &dyn Host,
    call: futures_util::future::LocalBoxFuture<'_, T>,
    timeout_ms: f64,
) -> Option<T> {
    if timeout_ms <= 0.0 {
        return Some(call.await);
    }
    match futures_util::future::select(call, host.sleep(timeout_ms)).await {
        futures_util::future::Either::Left((v, _)) => Some(v),
        futures_util::future::Either::Right(((), _)) => None,
    }
}

/// `30 s`, `1.5 s`, `250 ms`.
fn seconds(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms} ms")
    } else {
        format!("{} s", ms / 1000.0)
    }
}

/// Runs the eval set. `custom` serves custom metrics; `judge` both judged metrics and the
/// simulated user.
pub async fn evaluate(
    host: Rc<dyn Host>,
    args: RunArgs,
    judge: Option<JudgeClient>,
    custom: Option<&dyn CustomPort>,
) -> EvalSetResult {
    let sim = SimulatorConfig::from_config(args.config.user_simulator_config.as_ref());
    let set_id = args.eval_set.eval_set_id.clone();
    let wanted: Option<std::collections::HashSet<&str>> = args
        .eval_ids
        .as_ref()
        .map(|ids| ids.iter().map(String::as_str).collect());
    let cases: Vec<&EvalCase> = args
        .eval_set
        .eval_cases
        .iter()
        .filter(|c| wanted.as_ref().is_none_or(|ids| ids.contains(c.eval_id.as_str())))
        .collect();
    let total = cases.len() * args.num_runs as usize;
    let tally = RefCell::new(Tally::default());
    let skipped: RefCell<Vec<Skipped>> = RefCell::new(Vec::new());
    let skip = |case: &EvalCase, run: u32, reason: &str| {
        skipped.borrow_mut().push(Skipped {
            eval_id: case.eval_id.clone(),
            run,
            reason: reason.to_string(),
        })
    };
    let emit_progress = |phase: &str, run: u32, eval_id: Option<&str>| {
        let t = tally.borrow();
        host.emit(
            json!({"type": "progress", "phase": phase, "run": run, "casesDone": t.done, "casesTotal": total,
                "passed": t.passed, "failed": t.failed, "notEvaluated": t.not_evaluated, "evalId": eval_id})
            .to_string(),
        );
    };
    emit_progress("start", 0, None);
    let tasks = (0..args.num_runs).flat_map(|run| cases.iter().map(move |c| (run, *c)));
    let host_ref: &dyn Host = &*host;
    let judge_ref = judge.as_ref();
    let sim_ref = &sim;
    let args_ref = &args;
    let set_id_ref = set_id.as_str();
    let results: Vec<EvalCaseResult<'static>> = stream::iter(tasks)
        .map(|(run, case)| {
            let tally = &tally;
            let skip = &skip;
            let emit_progress = &emit_progress;
            async move {
                let session = session_of(case, host_ref);
                if host_ref.aborted() || judge_ref.is_some_and(JudgeClient::budget_exhausted) {
                    let why = if host_ref.aborted() {
                        "cancelled"
                    } else {
                        "budget_exhausted"
                    };
                    skip(case, run, why);
                    return None;
                }
                let sim = sim_ref.as_ref().map_err(String::as_str);
                let result = match converse(host_ref, judge_ref, sim, args_ref, case, run, &session).await {
                    Err(f) if f.code == CANCELLED => {
                        skip(case, run, "cancelled");
                        return None;
                    }
                    // A case that needs what evalcore cannot do is not evaluated rather than failed.
                    Err(f) if f.code == UNSUPPORTED => {
                        let mut r = conversation_failure(set_id_ref, case, run, &session, f);
                        r.final_eval_status = EvalStatus::NotEvaluated;
                        r
                    }
                    Err(f) => conversation_failure(set_id_ref, case, run, &session, f),
                    Ok(actual) => score(args_ref, judge_ref, custom, case, actual, run, &session).await,
                };
                {
                    let mut t = tally.borrow_mut();
                    t.done += 1;
                    match result.final_eval_status {
                        EvalStatus::Passed => t.passed += 1,
                        EvalStatus::Failed => t.failed += 1,
                        _ => t.not_evaluated += 1,
                    }
                }
                let text = serde_json::to_string(&result).unwrap_or_else(|_| "null".into());
                host_ref.emit(format!("{{\"type\":\"case_result\",\"result\":{text}}}"));
                emit_progress("case", run, Some(&case.eval_id));
                Some(result)
            }
        })
        .buffer_unordered(args.concurrency.max(1))
        .filter_map(|r| async move { r })
        .collect()
        .await;
    emit_progress("done", args.num_runs.saturating_sub(1), None);
    let now = host.now_ms() / 1000.0;
    let result_id = format!("{}_{}_{}", args.app_name, set_id, float_repr(now));
    let skipped = skipped.into_inner();
    EvalSetResult {
        eval_set_result_name: Some(result_id.replace('/', "_")),
        eval_set_result_id: result_id,
        eval_set_id: set_id,
        creation_timestamp: now,
        run_summary: (args.num_runs > 1).then(|| Carried::Built(run_summary(&results, args.num_runs))),
        eval_case_results: results,
        judge_stats: judge.as_ref().map(|j| Carried::Built(j.judge_stats())),
        judge_plan: judge
            .as_ref()
            .map(JudgeClient::planned)
            .filter(|p| !p.is_empty())
            .map(|p| Carried::Built(JudgePlan::of(p))),
        skipped: (!skipped.is_empty()).then_some(Carried::Built(skipped)),
        cancelled: host.aborted().then_some(true),
    }
}

async fn score(
    args: &RunArgs,
    judge: Option<&JudgeClient>,
    custom: Option<&dyn CustomPort>,
    case: &EvalCase,
    actual: Vec<Invocation>,
    run: u32,
    session: &Session,
) -> EvalCaseResult<'static> {
    let set_id = &args.eval_set.eval_set_id;
    let ports = Ports {
        judge: judge.map(|j| j as &dyn JudgePort),
        custom,
        metrics: &[],
    };
    let case_run = CaseRun {
        efficiency_metrics: args.efficiency_metrics,
        call_index: None,
        explain: args.detail.explains(),
        checked: false,
        gaps: &[],
    };
    match evaluate_case_with(case, &actual, &args.config, &case_run, ports).await {
        Err(e) => inference_failure(set_id, case, run, session, e.code.as_str(), &e.message),
        Ok(outcome) => {
            let actual = actual.into_iter().map(Cow::Owned).collect();
            let mut r = EvalCaseResult::of(set_id, case, actual, outcome, args.detail).into_owned();
            r.session_id = session.id.clone();
            r.user_id = Some(session.user_id.clone());
            r.run = Some(run);
            r
        }
    }
}
