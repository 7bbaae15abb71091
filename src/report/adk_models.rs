//! google-adk 2.13 / google-genai's pydantic models as field tables, in their field order: each
//! field's type (for the text pydantic writes) and default (for full and compact dumps).

#[derive(Clone, Copy)]
pub(super) enum Ty {
    /// Written as it is (strings, booleans, ints, free-form values).
    Any,
    Float,
    Status,
    Bytes,
    /// `intermediate_data`: the events shape or the legacy lists, told apart by their keys.
    Intermediate,
    Model(&'static Model),
    List(&'static Ty),
    Dict(&'static Ty),
    /// ADK's `(author, parts)` tuples.
    Pair(&'static Ty),
}

/// A field's pydantic default: written in full dumps when absent, left out of compact ones.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Dflt {
    Required,
    Null,
    EmptyList,
    EmptyObject,
    Zero,
    EmptyStr,
    False,
}

pub(super) struct Model {
    pub(super) fields: &'static [(&'static str, Ty, Dflt)],
    /// Unknown keys are written after the fields (pydantic `extra="allow"` or ignored-but-ours).
    pub(super) keep_extra: bool,
}

use Dflt::{EmptyList, EmptyObject, EmptyStr, False, Null, Required, Zero};
use Ty::{Any, Bytes, Float, Intermediate, List, Pair, Status};

const fn model(fields: &'static [(&'static str, Ty, Dflt)]) -> Model {
    Model {
        fields,
        keep_extra: false,
    }
}

pub(super) static EVAL_SET_RESULT: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_set_result_id", Any, Required),
        ("eval_set_result_name", Any, Null),
        ("eval_set_id", Any, Required),
        ("eval_case_results", List(&Ty::Model(&EVAL_CASE_RESULT)), EmptyList),
        ("creation_timestamp", Float, Zero),
    ],
};
static EVAL_CASE_RESULT: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_set_file", Any, Null),
        ("eval_set_id", Any, EmptyStr),
        ("eval_id", Any, EmptyStr),
        ("final_eval_status", Status, Required),
        ("eval_metric_results", Any, Null),
        (
            "overall_eval_metric_results",
            List(&Ty::Model(&EVAL_METRIC_RESULT)),
            Required,
        ),
        (
            "eval_metric_result_per_invocation",
            List(&Ty::Model(&PER_INVOCATION)),
            Required,
        ),
        ("session_id", Any, Required),
        ("session_details", Ty::Model(&SESSION), Null),
        ("user_id", Any, Null),
    ],
};
static EVAL_METRIC_RESULT: Model = model(&[
    ("metric_name", Any, Required),
    ("threshold", Float, Null),
    ("criterion", Ty::Model(&BASE_CRITERION), Null),
    ("custom_function_path", Any, Null),
    ("score", Float, Null),
    ("eval_status", Status, Required),
    ("details", Ty::Model(&DETAILS), EmptyObject),
]);
static DETAILS: Model = model(&[
    ("rubric_scores", List(&Ty::Model(&RUBRIC_SCORE)), Null),
    ("token_usage_details", Ty::Model(&TOKEN_USAGE), Null),
    ("duration_details", Ty::Model(&DURATIONS), Null),
]);
static PER_INVOCATION: Model = model(&[
    ("actual_invocation", Ty::Model(&INVOCATION), Required),
    ("expected_invocation", Ty::Model(&INVOCATION), Null),
    ("eval_metric_results", List(&Ty::Model(&EVAL_METRIC_RESULT)), EmptyList),
]);
static TOKEN_USAGE: Model = model(&[
    ("total_tokens", Float, Null),
    ("input_tokens", Float, Null),
    ("prompt_tokens", Float, Null),
    ("cached_tokens", Float, Null),
    ("tool_use_tokens", Float, Null),
    ("output_tokens", Float, Null),
    ("candidates_tokens", Float, Null),
    ("reasoning_tokens", Float, Null),
]);
static DURATIONS: Model = model(&[
    ("total_seconds", Float, Null),
    ("model_seconds", Float, Null),
    ("tool_seconds", Float, Null),
    ("framework_seconds", Float, Null),
]);
static BASE_CRITERION: Model = Model {
    keep_extra: true,
    fields: &[
        ("threshold", Float, Required),
        ("include_intermediate_responses_in_final", Any, False),
    ],
};
static RUBRIC_SCORE: Model = model(&[
    ("rubric_id", Any, Required),
    ("rationale", Any, Null),
    ("score", Float, Null),
]);
static SESSION: Model = Model {
    keep_extra: true,
    fields: &[
        ("id", Any, Required),
        ("app_name", Any, Required),
        ("user_id", Any, Required),
        ("state", Any, EmptyObject),
        ("events", Any, EmptyList),
        ("last_update_time", Float, Zero),
    ],
};

pub(super) static EVAL_SET: Model = model(&[
    ("eval_set_id", Any, Required),
    ("name", Any, Null),
    ("description", Any, Null),
    ("eval_cases", List(&Ty::Model(&EVAL_CASE)), Required),
    ("creation_timestamp", Float, Zero),
]);
static EVAL_CASE: Model = Model {
    keep_extra: true,
    fields: &[
        ("eval_id", Any, Required),
        ("conversation", List(&Ty::Model(&INVOCATION)), Null),
        ("conversation_scenario", Ty::Model(&SCENARIO), Null),
        ("session_input", Ty::Model(&SESSION_INPUT), Null),
        ("creation_timestamp", Float, Zero),
        ("rubrics", List(&Ty::Model(&RUBRIC)), Null),
        ("final_session_state", Any, EmptyObject),
    ],
};
static SESSION_INPUT: Model = Model {
    keep_extra: true,
    fields: &[
        ("app_name", Any, Required),
        ("user_id", Any, Required),
        ("session_id", Any, Null),
        ("state", Any, EmptyObject),
    ],
};
static SCENARIO: Model = model(&[
    ("starting_prompt", Any, Required),
    ("conversation_plan", Any, Required),
    ("user_persona", Any, Null),
]);
static INVOCATION: Model = model(&[
    ("invocation_id", Any, EmptyStr),
    ("user_content", Ty::Model(&CONTENT), Required),
    ("final_response", Ty::Model(&CONTENT), Null),
    ("intermediate_data", Intermediate, Null),
    ("creation_timestamp", Float, Zero),
    ("duration", Float, Null),
    ("model_duration", Float, Null),
    ("tool_duration", Float, Null),
    ("rubrics", List(&Ty::Model(&RUBRIC)), Null),
    ("app_details", Ty::Model(&APP_DETAILS), Null),
]);
pub(super) static INTERMEDIATE_DATA: Model = model(&[
    ("tool_uses", List(&Ty::Model(&FUNCTION_CALL)), EmptyList),
    ("tool_responses", List(&Ty::Model(&FUNCTION_RESPONSE)), EmptyList),
    (
        "intermediate_responses",
        List(&Pair(&List(&Ty::Model(&PART)))),
        EmptyList,
    ),
]);
pub(super) static INVOCATION_EVENTS: Model =
    model(&[("invocation_events", List(&Ty::Model(&INVOCATION_EVENT)), EmptyList)]);
static INVOCATION_EVENT: Model = model(&[
    ("author", Any, Required),
    ("content", Ty::Model(&CONTENT), Null),
    ("grounding_metadata", Any, Null),
    ("usage_metadata", Ty::Model(&USAGE), Null),
    ("model_version", Any, Null),
]);
static RUBRIC: Model = model(&[
    ("rubric_id", Any, Required),
    ("rubric_content", Ty::Model(&RUBRIC_CONTENT), Required),
    ("description", Any, Null),
    ("type", Any, Null),
]);
static RUBRIC_CONTENT: Model = model(&[("text_property", Any, Null)]);
static APP_DETAILS: Model = model(&[("agent_details", Ty::Dict(&Ty::Model(&AGENT_DETAILS)), EmptyObject)]);
static AGENT_DETAILS: Model = model(&[
    ("name", Any, Required),
    ("instructions", Any, EmptyStr),
    ("tool_declarations", Any, EmptyList),
]);

static CONTENT: Model = model(&[("parts", List(&Ty::Model(&PART)), Null), ("role", Any, Null)]);
static PART: Model = model(&[
    ("media_resolution", Any, Null),
    ("code_execution_result", Ty::Model(&CODE_RESULT), Null),
    ("executable_code", Ty::Model(&EXECUTABLE_CODE), Null),
    ("file_data", Ty::Model(&FILE_DATA), Null),
    ("function_call", Ty::Model(&FUNCTION_CALL), Null),
    ("function_response", Ty::Model(&FUNCTION_RESPONSE), Null),
    ("inline_data", Ty::Model(&BLOB), Null),
    ("text", Any, Null),
    ("thought", Any, Null),
    ("thought_signature", Bytes, Null),
    ("video_metadata", Ty::Model(&VIDEO_METADATA), Null),
    ("tool_call", Any, Null),
    ("tool_response", Any, Null),
    ("part_metadata", Any, Null),
    ("audio_transcription", Any, Null),
    ("media_processing", Any, Null),
    ("speech_metadata", Any, Null),
]);
static FUNCTION_CALL: Model = model(&[
    ("id", Any, Null),
    ("args", Any, Null),
    ("name", Any, Null),
    ("partial_args", Any, Null),
    ("will_continue", Any, Null),
]);
static FUNCTION_RESPONSE: Model = model(&[
    ("will_continue", Any, Null),
    ("scheduling", Any, Null),
    ("parts", Any, Null),
    ("id", Any, Null),
    ("name", Any, Null),
    ("response", Any, Null),
]);
static BLOB: Model = model(&[
    ("data", Bytes, Null),
    ("display_name", Any, Null),
    ("mime_type", Any, Null),
]);
static FILE_DATA: Model = model(&[
    ("display_name", Any, Null),
    ("file_uri", Any, Null),
    ("mime_type", Any, Null),
]);
static EXECUTABLE_CODE: Model = model(&[("code", Any, Null), ("language", Any, Null), ("id", Any, Null)]);
static CODE_RESULT: Model = model(&[("outcome", Any, Null), ("output", Any, Null), ("id", Any, Null)]);
static VIDEO_METADATA: Model = model(&[
    ("end_offset", Any, Null),
    ("fps", Float, Null),
    ("start_offset", Any, Null),
]);
static USAGE: Model = model(&[
    ("cache_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("cached_content_token_count", Any, Null),
    ("candidates_token_count", Any, Null),
    ("candidates_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("prompt_token_count", Any, Null),
    ("prompt_tokens_details", List(&Ty::Model(&MODALITY_COUNT)), Null),
    ("thoughts_token_count", Any, Null),
    ("tool_use_prompt_token_count", Any, Null),
    (
        "tool_use_prompt_tokens_details",
        List(&Ty::Model(&MODALITY_COUNT)),
        Null,
    ),
    ("total_token_count", Any, Null),
    ("traffic_type", Any, Null),
]);
static MODALITY_COUNT: Model = model(&[("modality", Any, Null), ("token_count", Any, Null)]);
