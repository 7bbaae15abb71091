// Generated from src/error/codes.rs by tests/error_codes.rs (scripts/build.sh writes it;
// `cargo test` fails when it is stale). Do not edit: change the vocabulary instead.

/** The codes the core itself raises (a core function's EvalError, a failed case's `error.code`). */
export const CORE_ERROR_CODES = Object.freeze([
  'invalid_json',
  'schema',
  'duplicate_id',
  'count_mismatch',
  'unsupported',
  'too_large',
  'invalid_protobuf',
  'agent_error',
  'agent_timeout',
  'needs_judge',
  'cancelled',
  'invalid_config',
  'simulator_error',
]);

/** Every error code evalcore raises: the core's, then those the JS skin raises for the host. */
export const ERROR_CODES = Object.freeze([
  ...CORE_ERROR_CODES,
  'agent_reply',
  'answer_too_large',
  'bad_idempotency_key',
  'bad_request',
  'body_timeout',
  'callback_error',
  'client_closed',
  'config',
  'dead_letter',
  'freed',
  'host_not_allowed',
  'idempotency_conflict',
  'input_missing',
  'internal',
  'invalid_gzip',
  'invalid_path',
  'invalid_yaml',
  'io',
  'lost',
  'media_uri_refused',
  'method_not_allowed',
  'missing_result',
  'no_session',
  'not_a_file',
  'not_configured',
  'not_found',
  'not_initialised',
  'origin_not_allowed',
  'remote_failed',
  'remote_unavailable',
  'run_not_done',
  'runs_not_configured',
  'strict',
  'subrequests',
  'not_same_origin',
  'not_a_run',
  'error',
  'too_many_cases',
  'too_many_judge_calls',
  'too_many_requests',
  'too_many_runs',
  'traces_full',
  'trap',
  'unauthorized',
  'unit_failed',
  'unknown_agent',
  'unsupported_media_type',
]);

/** A family of codes: this prefix and the HTTP status an endpoint answered without an error body. */
export const HTTP_STATUS_PREFIX = 'http_';

/** Every reason a metric's result is NOT_EVALUATED (its `details.reason`). */
export const NOT_EVALUATED_REASONS = Object.freeze([
  'unknown_metric',
  'invalid_criterion',
  'threshold_not_allowed',
  'unsupported',
  'missing_expected',
  'count_mismatch',
  'missing_scenario',
  'no_invocations',
  'no_expected_calls',
  'no_per_invocation_result',
  'not_recorded',
  'needs_judge',
  'judge_error',
  'unparsable_answer',
  'nothing_to_judge',
  'no_rubrics',
  'invalid_input',
  'missing_field',
  'missing_user_text',
  'judged_at_last_turn',
  'cassette_miss',
  'budget_exhausted',
  'dry_run',
  'cancelled',
  'media_unsupported',
  'media_too_large',
  'prompt_too_large',
  'custom_metric_error',
  'custom_not_evaluated',
  'no_invocation_events',
  'model_calls_not_reported',
  'usage_not_reported',
  'usage_partly_reported',
  'duration_not_measured',
  'model_tool_time_not_reported',
  'model_tool_time_partly_reported',
]);

const CODES = new Set(ERROR_CODES);

/** Whether `code` is one of the vocabulary (`http_` and a status included). */
export function isErrorCode(code) {
  return CODES.has(code) || (typeof code === 'string' && /^http_[1-5][0-9][0-9]$/.test(code));
}
