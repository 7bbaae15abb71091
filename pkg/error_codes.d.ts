// Generated from src/error/codes.rs by tests/error_codes.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the vocabulary instead.

/** Every error code evalcore raises (an EvalError's `code`, a failed case's `error.code`, an
 * endpoint's `{error: {code}}`); compare against the ones you handle. */
export type ErrorCode =
  /** The input is not well-formed JSON (or nests too deeply, or is too large). */
  | "invalid_json"
  /** Well-formed JSON that does not match ADK's schema (wrong type, missing or unknown field). */
  | "schema"
  /** Two items that must be unique share an id (eval ids, rubric ids). */
  | "duplicate_id"
  /** Actual and expected invocation counts differ for a static conversation. */
  | "count_mismatch"
  /** A value the core understands but cannot act on (feature not available in this build). */
  | "unsupported"
  /** Input rejected before parsing because it exceeds a hard limit. */
  | "too_large"
  /** Binary input that is not a well-formed protobuf message (OTLP's default encoding). */
  | "invalid_protobuf"
  /** A failed case: the agent threw, rejected or answered something that is not a reply. */
  | "agent_error"
  /** A failed case: the agent did not answer a turn within the agent timeout (`agentTimeoutMs`). */
  | "agent_timeout"
  /** A failed case: its conversation_scenario needs a user simulator, and no `judge` was given. */
  | "needs_judge"
  /** A case's conversation stopped because the run was aborted (the case is skipped, not scored). */
  | "cancelled"
  /** A failed case: the user simulator's config cannot drive the case's scenario. */
  | "invalid_config"
  /** A failed case: the user simulator could not say the next user turn. */
  | "simulator_error"
  /** An agent's reply (or an adapter's framework result) is malformed at the error's path. */
  | "agent_reply"
  /** The endpoint's answer would be over `maxAnswerBytes` (HTTP 413). */
  | "answer_too_large"
  /** A run submission's `Idempotency-Key` header is not 1-255 printable ASCII characters. */
  | "bad_idempotency_key"
  /** The endpoint received a request URL it cannot parse. */
  | "bad_request"
  /** A request body did not arrive within `bodyTimeoutMs` (HTTP 408). */
  | "body_timeout"
  /** A callback the caller gave (`cassette.onRecord`, `onJudgeStats`) threw. */
  | "callback_error"
  /** The client went away before the endpoint answered (logged with status 499). */
  | "client_closed"
  /** A server, store or dev UI option (or `EVALCORE_*` variable) is malformed. */
  | "config"
  /** A run's case went to the dead-letter queue (or a run that has such cases failed). */
  | "dead_letter"
  /** `PreparedCase.evaluate()` after `free()`. */
  | "freed"
  /** The request's Host header is not one of the endpoint's `allowedHosts` (HTTP 403). */
  | "host_not_allowed"
  /** An `Idempotency-Key` reused for a different run submission (HTTP 409). */
  | "idempotency_conflict"
  /** A run's stored input is missing (its submission did not complete, or it was deleted). */
  | "input_missing"
  /** evalcore's own bug or an unexpected host failure, not the caller's input (HTTP 500). */
  | "internal"
  /** A body sent as `Content-Encoding: gzip` that does not inflate. */
  | "invalid_gzip"
  /** An id or name used as a file or key segment that is not a single safe path segment. */
  | "invalid_path"
  /** A YAML config (agents-cli's eval_config.yaml) that does not parse; the message says where. */
  | "invalid_yaml"
  /** A store's file system or bucket operation failed. */
  | "io"
  /** No consumer reported a run's case after it was sent the most times allowed. */
  | "lost"
  /** A media URI in a request that the endpoint's media URI rules refuse. */
  | "media_uri_refused"
  /** A route asked with a method it does not serve (HTTP 405). */
  | "method_not_allowed"
  /** A finished run's stored result of a case is gone. */
  | "missing_result"
  /** A failed case of a traces evaluation: no recorded session matched it. */
  | "no_session"
  /** A path that names something other than a regular file. */
  | "not_a_file"
  /** A worker route whose binding (the trace sessions object) is not configured (HTTP 501). */
  | "not_configured"
  /** A file, folder, eval set, case, app or route that does not exist. */
  | "not_found"
  /** A call that needs the wasm module (or the extras module) before it was initialised. */
  | "not_initialised"
  /** The request's Origin is not one of the endpoint's CORS origins (HTTP 403). */
  | "origin_not_allowed"
  /** A remote run or shard failed on the endpoint (after its retries). */
  | "remote_failed"
  /** No endpoint of a remote run could be reached. */
  | "remote_unavailable"
  /** A run's result asked for before the run is done (HTTP 409). */
  | "run_not_done"
  /** A runs route on a server that keeps no runs (HTTP 404). */
  | "runs_not_configured"
  /** `strict`: a metric came back NOT_EVALUATED (the error's `result` holds the run). */
  | "strict"
  /** A run's case used up its invocation's subrequest budget (`EVALCORE_RUN_SUBREQUESTS`). */
  | "subrequests"
  /** The viewer: a file URL that is not of the page's own origin (only those are opened from the URL). */
  | "not_same_origin"
  /** The viewer: a run asked for by something other than its URL (`https://<endpoint>/v1/runs/r_<id>`). */
  | "not_a_run"
  /** The viewer: something other than an `EvalError` was thrown while it opened or read a file. */
  | "error"
  /** A request or run with more cases than the endpoint's `maxCases` / `maxRunCases` (HTTP 413). */
  | "too_many_cases"
  /** A request or case that takes more judge calls than the endpoint's `maxCalls` (HTTP 413). */
  | "too_many_judge_calls"
  /** The endpoint is at its concurrency limit; retry later (HTTP 429). */
  | "too_many_requests"
  /** More runs than `maxRuns` in one request (413), or more unfinished runs than `maxActiveRuns` (429). */
  | "too_many_runs"
  /** The trace receiver holds as many sessions as it may; retry once they are scored (HTTP 429). */
  | "traces_full"
  /** The wasm instance trapped (abort, out of memory); it was replaced, the next call works. */
  | "trap"
  /** The request lacks the endpoint's bearer token, or has a wrong one (HTTP 401). */
  | "unauthorized"
  /** A run's case failed on its consumer for a reason that has no code of its own. */
  | "unit_failed"
  /** A request names an agent the server does not run. */
  | "unknown_agent"
  /** A request body's Content-Type or Content-Encoding the route does not take (HTTP 415). */
  | "unsupported_media_type"
  /** An endpoint answered this HTTP status without an `{error: {code}}` body. */
  | `http_${number}`;

/** Why a metric's result is NOT_EVALUATED: its `details.reason` (`details.error` says it in words). */
export type NotEvaluatedReason =
  /** The metric name is neither built in nor a custom metric (the message names the closest known one). */
  | "unknown_metric"
  /** A criterion value the metric's criterion class rejects (`match_type: "INORDER"`, a rubric without an id). */
  | "invalid_criterion"
  /** An always-on efficiency metric was named in `criteria`. */
  | "threshold_not_allowed"
  /** A Vertex-AI-only metric (`response_evaluation_score`, `multi_turn_*_v1`). */
  | "unsupported"
  /** A reference-based metric on a case without expected invocations. */
  | "missing_expected"
  /** A reference-based metric on a case with a different number of expected invocations. */
  | "count_mismatch"
  /** `per_turn_user_simulator_quality_v1` on a static conversation. */
  | "missing_scenario"
  /** There is nothing to score (no actual invocations). */
  | "no_invocations"
  /** `tool_parameter_match` on an invocation that expects no tool calls (and on the case when none does). */
  | "no_expected_calls"
  /** The per-invocation cells of a metric (a custom one) that gave only a case-level result. */
  | "no_per_invocation_result"
  /** A metric reads a field of an invocation that was not recorded (a trace that lacked it). */
  | "not_recorded"
  /** A judged metric (or a simulated user) without a `judge` option. */
  | "needs_judge"
  /** The judge failed after its retries: HTTP error, timeout, network error, a malformed or oversized reply. */
  | "judge_error"
  /** The judge answered, but no answer carried a verdict evalcore could read. */
  | "unparsable_answer"
  /** A judged metric on an invocation with nothing to judge (no response text, no tool calls). */
  | "nothing_to_judge"
  /** A rubric metric with no rubric in its criterion or on the case. */
  | "no_rubrics"
  /** The invocation contradicts itself for a judge (its first event's author is not in `app_details`). */
  | "invalid_input"
  /** A custom judged metric's prompt template names a field this case does not have. */
  | "missing_field"
  /** The user simulator's first turn has no user content to compare. */
  | "missing_user_text"
  /** An earlier turn of a conversation judged as a whole at its last turn. */
  | "judged_at_last_turn"
  /** Replay (`judge_mode: replay`) without a recorded answer for the call. */
  | "cassette_miss"
  /** The judge's `maxCalls` was spent before this call. */
  | "budget_exhausted"
  /** A dry run: the judge call was listed, not sent. */
  | "dry_run"
  /** The run was aborted before the judge answered. */
  | "cancelled"
  /** With `judge.media`: a media part the judge's provider cannot take. */
  | "media_unsupported"
  /** With `judge.media`: a call's inline media over `judge.maxMediaBytes` (or a provider's own limit). */
  | "media_too_large"
  /** A judge prompt over `judge.maxPromptBytes`; nothing was sent. */
  | "prompt_too_large"
  /** A custom metric threw, returned something that is not a score, or answered over `maxReplyBytes`. */
  | "custom_metric_error"
  /** A custom metric returned no score (or said NOT_EVALUATED); its own reason, if it gave one, is quoted. */
  | "custom_not_evaluated"
  /** An efficiency figure of an invocation without invocation_events (hand-written or legacy data). */
  | "no_invocation_events"
  /** No event carries usage_metadata or model_version, ADK's mark of a model call. */
  | "model_calls_not_reported"
  /** No event carries usage_metadata: the agent reported no token counts. */
  | "usage_not_reported"
  /** Some invocations reported no token counts (ADK's mean counts them as 0). */
  | "usage_partly_reported"
  /** A duration is measured only when evalcore runs the agent. */
  | "duration_not_measured"
  /** The agent reported no model / tool `timings`: the split is unknown. */
  | "model_tool_time_not_reported"
  /** Some invocations have no model / tool split; each mean is over those that have one. */
  | "model_tool_time_partly_reported";
