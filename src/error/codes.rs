//! Every error code evalcore raises, in one table: the codes of the core's `EvalError`s
//! ([`ErrorCode`]), the codes it gives a failed case ([`CaseErrorCode`]) and the codes only the JS
//! skin raises for what happens on the host ([`HostErrorCode`]). The `.d.ts` union `ErrorCode`,
//! `pkg/lib/error_codes.js` and docs/errors.md are generated from here (tests/error_codes.rs).
//!
//! Three enums rather than one so the main wasm module carries no code it cannot produce: only
//! `ErrorCode` is serialised at run time (an `EvalError`'s code), the case codes are text
//! constants where they are raised, and a host code the core never builds costs it nothing.
//! The reasons a metric is NOT_EVALUATED ([`NotEvaluatedReason`]) are the second vocabulary.

/// A closed set of codes with their stable strings and a one-line doc each; `ALL` and `doc`
/// serve the native generator (unused in wasm, so they are not linked there).
macro_rules! vocabulary {
    ($(#[doc = $what:literal])* pub enum $name:ident { $($(#[doc = $doc:literal])+ $v:ident = $s:literal,)+ }) => {
        $(#[doc = $what])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[doc = $doc])+ $v,)+
        }

        impl $name {
            /// Every code, in the table's order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];

            /// The stable string (the `code` a user sees).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s,)+
                }
            }

            /// When the code is raised (the table's doc comment).
            pub const fn doc(self) -> &'static str {
                match self {
                    $($name::$v => concat!($($doc),+),)+
                }
            }
        }

        // By hand rather than derived: the string comes from `as_str`, one table for both (a
        // derived impl's per-variant calls measured ~450 bytes more in the main module).
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// Codes of the `EvalError`s core functions return (a failed case's `error.code` may be one too).
    pub enum ErrorCode {
        /// The input is not well-formed JSON (or nests too deeply, or is too large).
        InvalidJson = "invalid_json",
        /// Well-formed JSON that does not match ADK's schema (wrong type, missing or unknown field).
        Schema = "schema",
        /// Two items that must be unique share an id (eval ids, rubric ids).
        DuplicateId = "duplicate_id",
        /// Actual and expected invocation counts differ for a static conversation.
        CountMismatch = "count_mismatch",
        /// A value the core understands but cannot act on (feature not available in this build).
        Unsupported = "unsupported",
        /// Input rejected before parsing because it exceeds a hard limit.
        TooLarge = "too_large",
        /// Binary input that is not a well-formed protobuf message (OTLP's default encoding).
        InvalidProtobuf = "invalid_protobuf",
    }
}

vocabulary! {
    /// Codes the core gives a failed case (its `error.code`) beside those of [`ErrorCode`]: what
    /// went wrong while it ran the case's conversation. The run loop uses them as text constants.
    pub enum CaseErrorCode {
        /// A failed case: the agent threw, rejected or answered something that is not a reply.
        AgentError = "agent_error",
        /// A failed case: the agent did not answer a turn within the agent timeout (`agentTimeoutMs`).
        AgentTimeout = "agent_timeout",
        /// A failed case: its conversation_scenario needs a user simulator, and no `judge` was given.
        NeedsJudge = "needs_judge",
        /// A case's conversation stopped because the run was aborted (the case is skipped, not scored).
        Cancelled = "cancelled",
        /// A failed case: the user simulator's config cannot drive the case's scenario.
        InvalidConfig = "invalid_config",
        /// A failed case: the user simulator could not say the next user turn.
        SimulatorError = "simulator_error",
    }
}

vocabulary! {
    /// Codes only the JS raises: host-side failures (files, agents, remotes, the servers, the viewer).
    pub enum HostErrorCode {
        /// An agent's reply (or an adapter's framework result) is malformed at the error's path.
        AgentReply = "agent_reply",
        /// The endpoint's answer would be over `maxAnswerBytes` (HTTP 413).
        AnswerTooLarge = "answer_too_large",
        /// A run submission's `Idempotency-Key` header is not 1-255 printable ASCII characters.
        BadIdempotencyKey = "bad_idempotency_key",
        /// The endpoint received a request URL it cannot parse.
        BadRequest = "bad_request",
        /// A request body did not arrive within `bodyTimeoutMs` (HTTP 408).
        BodyTimeout = "body_timeout",
        /// A callback the caller gave (`cassette.onRecord`, `onJudgeStats`) threw.
        CallbackError = "callback_error",
        /// The client went away before the endpoint answered (logged with status 499).
        ClientClosed = "client_closed",
        /// A server, store or dev UI option (or `EVALCORE_*` variable) is malformed.
        Config = "config",
        /// A run's case went to the dead-letter queue (or a run that has such cases failed).
        DeadLetter = "dead_letter",
        /// `PreparedCase.evaluate()` after `free()`.
        Freed = "freed",
        /// The request's Host header is not one of the endpoint's `allowedHosts` (HTTP 403).
        HostNotAllowed = "host_not_allowed",
        /// An `Idempotency-Key` reused for a different run submission (HTTP 409).
        IdempotencyConflict = "idempotency_conflict",
        /// A run's stored input is missing (its submission did not complete, or it was deleted).
        InputMissing = "input_missing",
        /// evalcore's own bug or an unexpected host failure, not the caller's input (HTTP 500).
        Internal = "internal",
        /// A body sent as `Content-Encoding: gzip` that does not inflate.
        InvalidGzip = "invalid_gzip",
        /// An id or name used as a file or key segment that is not a single safe path segment.
        InvalidPath = "invalid_path",
        /// A YAML config (agents-cli's eval_config.yaml) that does not parse; the message says where.
        InvalidYaml = "invalid_yaml",
        /// A store's file system or bucket operation failed.
        Io = "io",
        /// No consumer reported a run's case after it was sent the most times allowed.
        Lost = "lost",
        /// A media URI in a request that the endpoint's media URI rules refuse.
        MediaUriRefused = "media_uri_refused",
        /// A route asked with a method it does not serve (HTTP 405).
        MethodNotAllowed = "method_not_allowed",
        /// A finished run's stored result of a case is gone.
        MissingResult = "missing_result",
        /// A failed case of a traces evaluation: no recorded session matched it.
        NoSession = "no_session",
        /// A path that names something other than a regular file.
        NotAFile = "not_a_file",
        /// A worker route whose binding (the trace sessions object) is not configured (HTTP 501).
        NotConfigured = "not_configured",
        /// A file, folder, eval set, case, app or route that does not exist.
        NotFound = "not_found",
        /// A call that needs the wasm module (or the extras module) before it was initialised.
        NotInitialised = "not_initialised",
        /// The request's Origin is not one of the endpoint's CORS origins (HTTP 403).
        OriginNotAllowed = "origin_not_allowed",
        /// A remote run or shard failed on the endpoint (after its retries).
        RemoteFailed = "remote_failed",
        /// No endpoint of a remote run could be reached.
        RemoteUnavailable = "remote_unavailable",
        /// A run's result asked for before the run is done (HTTP 409).
        RunNotDone = "run_not_done",
        /// A runs route on a server that keeps no runs (HTTP 404).
        RunsNotConfigured = "runs_not_configured",
        /// `strict`: a metric came back NOT_EVALUATED (the error's `result` holds the run).
        Strict = "strict",
        /// A run's case used up its invocation's subrequest budget (`EVALCORE_RUN_SUBREQUESTS`).
        Subrequests = "subrequests",
        /// The viewer: a file URL that is not of the page's own origin (only those are opened from the URL).
        NotSameOrigin = "not_same_origin",
        /// The viewer: a run asked for by something other than its URL (`https://<endpoint>/v1/runs/r_<id>`).
        NotARun = "not_a_run",
        /// The viewer: something other than an `EvalError` was thrown while it opened or read a file.
        Error = "error",
        /// A request or run with more cases than the endpoint's `maxCases` / `maxRunCases` (HTTP 413).
        TooManyCases = "too_many_cases",
        /// A request or case that takes more judge calls than the endpoint's `maxCalls` (HTTP 413).
        TooManyJudgeCalls = "too_many_judge_calls",
        /// The endpoint is at its concurrency limit; retry later (HTTP 429).
        TooManyRequests = "too_many_requests",
        /// More runs than `maxRuns` in one request (413), or more unfinished runs than `maxActiveRuns` (429).
        TooManyRuns = "too_many_runs",
        /// The trace receiver holds as many sessions as it may; retry once they are scored (HTTP 429).
        TracesFull = "traces_full",
        /// The wasm instance trapped (abort, out of memory); it was replaced, the next call works.
        Trap = "trap",
        /// The request lacks the endpoint's bearer token, or has a wrong one (HTTP 401).
        Unauthorized = "unauthorized",
        /// A run's case failed on its consumer for a reason that has no code of its own.
        UnitFailed = "unit_failed",
        /// A request names an agent the server does not run.
        UnknownAgent = "unknown_agent",
        /// A request body's Content-Type or Content-Encoding the route does not take (HTTP 415).
        UnsupportedMediaType = "unsupported_media_type",
    }
}

/// A family of host codes: `http_` and the status, when an endpoint answered an HTTP error
/// without an `{error: {code}}` body (`http_502`).
pub const HTTP_STATUS_PREFIX: &str = "http_";

vocabulary! {
    /// Why a metric's result is NOT_EVALUATED (or an informational figure is missing): the
    /// `details.reason` beside `details.error`, the words. The core raises these at the metric,
    /// judge and run sites named in tests/error_codes.rs, which checks every one is listed here.
    pub enum NotEvaluatedReason {
        /// The metric name is neither built in nor a custom metric (the message names the closest known one).
        UnknownMetric = "unknown_metric",
        /// A criterion value the metric's criterion class rejects (`match_type: "INORDER"`, a rubric without an id).
        InvalidCriterion = "invalid_criterion",
        /// An always-on efficiency metric was named in `criteria`.
        ThresholdNotAllowed = "threshold_not_allowed",
        /// A Vertex-AI-only metric (`response_evaluation_score`, `multi_turn_*_v1`).
        Unsupported = "unsupported",
        /// A reference-based metric on a case without expected invocations.
        MissingExpected = "missing_expected",
        /// A reference-based metric on a case with a different number of expected invocations.
        CountMismatch = "count_mismatch",
        /// `per_turn_user_simulator_quality_v1` on a static conversation.
        MissingScenario = "missing_scenario",
        /// There is nothing to score (no actual invocations).
        NoInvocations = "no_invocations",
        /// `tool_parameter_match` on an invocation that expects no tool calls (and on the case when none does).
        NoExpectedCalls = "no_expected_calls",
        /// The per-invocation cells of a metric (a custom one) that gave only a case-level result.
        NoPerInvocationResult = "no_per_invocation_result",
        /// A metric reads a field of an invocation that was not recorded (a trace that lacked it).
        NotRecorded = "not_recorded",
        /// A judged metric (or a simulated user) without a `judge` option.
        NeedsJudge = "needs_judge",
        /// The judge failed after its retries: HTTP error, timeout, network error, a malformed or oversized reply.
        JudgeError = "judge_error",
        /// The judge answered, but no answer carried a verdict evalcore could read.
        UnparsableAnswer = "unparsable_answer",
        /// A judged metric on an invocation with nothing to judge (no response text, no tool calls).
        NothingToJudge = "nothing_to_judge",
        /// A rubric metric with no rubric in its criterion or on the case.
        NoRubrics = "no_rubrics",
        /// The invocation contradicts itself for a judge (its first event's author is not in `app_details`).
        InvalidInput = "invalid_input",
        /// A custom judged metric's prompt template names a field this case does not have.
        MissingField = "missing_field",
        /// The user simulator's first turn has no user content to compare.
        MissingUserText = "missing_user_text",
        /// An earlier turn of a conversation judged as a whole at its last turn.
        JudgedAtLastTurn = "judged_at_last_turn",
        /// Replay (`judge_mode: replay`) without a recorded answer for the call.
        CassetteMiss = "cassette_miss",
        /// The judge's `maxCalls` was spent before this call.
        BudgetExhausted = "budget_exhausted",
        /// A dry run: the judge call was listed, not sent.
        DryRun = "dry_run",
        /// The run was aborted before the judge answered.
        Cancelled = "cancelled",
        /// With `judge.media`: a media part the judge's provider cannot take.
        MediaUnsupported = "media_unsupported",
        /// With `judge.media`: a call's inline media over `judge.maxMediaBytes` (or a provider's own limit).
        MediaTooLarge = "media_too_large",
        /// A judge prompt over `judge.maxPromptBytes`; nothing was sent.
        PromptTooLarge = "prompt_too_large",
        /// A custom metric threw, returned something that is not a score, or answered over `maxReplyBytes`.
        CustomMetricError = "custom_metric_error",
        /// A custom metric returned no score (or said NOT_EVALUATED); its own reason, if it gave one, is quoted.
        CustomNotEvaluated = "custom_not_evaluated",
        /// An efficiency figure of an invocation without invocation_events (hand-written or legacy data).
        NoInvocationEvents = "no_invocation_events",
        /// No event carries usage_metadata or model_version, ADK's mark of a model call.
        ModelCallsNotReported = "model_calls_not_reported",
        /// No event carries usage_metadata: the agent reported no token counts.
        UsageNotReported = "usage_not_reported",
        /// Some invocations reported no token counts (ADK's mean counts them as 0).
        UsagePartlyReported = "usage_partly_reported",
        /// A duration is measured only when evalcore runs the agent.
        DurationNotMeasured = "duration_not_measured",
        /// The agent reported no model / tool `timings`: the split is unknown.
        ModelToolTimeNotReported = "model_tool_time_not_reported",
        /// Some invocations have no model / tool split; each mean is over those that have one.
        ModelToolTimePartlyReported = "model_tool_time_partly_reported",
    }
}
