//! The eval set's object types as the quick scan reads them: each field with its aliases, what its
//! value must be, which fields are required, and whether unknown keys are allowed. Mirrors the
//! serde model in `eval_set.rs`, `invocation.rs` and `content.rs` for the fields it lists.

/// The types of ADK's data this scan reads (the model's own are in `eval_set`, `invocation`
/// and `content`).
#[derive(Clone, Copy)]
pub(super) enum Ty {
    EvalSet,
    EvalCase,
    SessionInput,
    Invocation,
    Intermediate,
    Event,
    Usage,
    ModalityCount,
    Content,
    Part,
    FunctionCall,
    FunctionResponse,
    Rubric,
    RubricContent,
    AppDetails,
    AgentDetails,
    Blob,
    FileData,
}

/// What a field's value must be for the typed parse to surely take it. `Opt*`, `Any` and
/// `OptObj`/`OptList` also take `null`.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Text,
    OptText,
    /// An eval id: text without escapes, within `maxIdBytes`, kept for the uniqueness check.
    Id,
    /// The eval set's id: text within `maxIdBytes`.
    SetId,
    OptBool,
    Number,
    OptNumber,
    OptInteger,
    Any,
    AnyObject,
    OptAnyObject,
    AnyList,
    OptBase64,
    Obj(Ty),
    OptObj(Ty),
    List(Ty),
    OptList(Ty),
    /// `intermediate_responses`: `[[author, [part...]]...]`.
    Pairs,
    /// `agent_details`: agent name to `AgentDetails`.
    Agents,
    /// A field this scan does not read: cannot tell.
    Never,
}

impl Kind {
    pub(super) fn nullable(self) -> bool {
        use Kind::*;
        matches!(
            self,
            OptText | OptBool | OptNumber | OptInteger | Any | OptAnyObject | OptBase64 | OptObj(_) | OptList(_)
        )
    }
}

/// An object type: its fields (each with its aliases), which must be present, whether unknown
/// keys are allowed (any value; otherwise they are errors), and a field that excludes all others.
pub(super) struct Shape {
    pub(super) fields: &'static [(&'static [&'static str], Kind)],
    pub(super) required: u32,
    pub(super) open: bool,
    pub(super) alone: u32,
}

pub(super) fn shape(t: Ty) -> &'static Shape {
    use Kind::*;
    match t {
        Ty::EvalSet => &Shape {
            fields: &[
                (&["eval_set_id"], SetId),
                (&["name"], OptText),
                (&["description"], OptText),
                (&["eval_cases"], List(Ty::EvalCase)),
                (&["creation_timestamp"], Number),
            ],
            required: 0b1001,
            open: true,
            alone: 0,
        },
        Ty::EvalCase => &Shape {
            fields: &[
                (&["eval_id", "evalId"], Id),
                // Without a scenario (which this scan does not read) the conversation is required.
                (&["conversation"], List(Ty::Invocation)),
                (&["session_input", "sessionInput"], OptObj(Ty::SessionInput)),
                (&["creation_timestamp", "creationTimestamp"], Number),
                (&["rubrics"], OptList(Ty::Rubric)),
                (&["final_session_state", "finalSessionState"], Any),
                (&["conversation_scenario", "conversationScenario"], Never),
            ],
            required: 0b11,
            open: true,
            alone: 0,
        },
        Ty::SessionInput => &Shape {
            fields: &[
                (&["app_name", "appName"], Text),
                (&["user_id", "userId"], Text),
                (&["session_id", "sessionId"], OptText),
                (&["state"], AnyObject),
            ],
            required: 0b11,
            open: true,
            alone: 0,
        },
        Ty::Invocation => &Shape {
            fields: &[
                (&["invocation_id", "invocationId"], Text),
                (&["user_content", "userContent"], Obj(Ty::Content)),
                (&["final_response", "finalResponse"], OptObj(Ty::Content)),
                (&["intermediate_data", "intermediateData"], OptObj(Ty::Intermediate)),
                (&["creation_timestamp", "creationTimestamp"], Number),
                (&["duration"], OptNumber),
                (&["model_duration", "modelDuration"], OptNumber),
                (&["tool_duration", "toolDuration"], OptNumber),
                (&["rubrics"], OptList(Ty::Rubric)),
                (&["app_details", "appDetails"], OptObj(Ty::AppDetails)),
            ],
            required: 0b10,
            open: false,
            alone: 0,
        },
        Ty::Intermediate => &Shape {
            fields: &[
                (&["tool_uses", "toolUses"], List(Ty::FunctionCall)),
                (&["tool_responses", "toolResponses"], List(Ty::FunctionResponse)),
                (&["intermediate_responses", "intermediateResponses"], Pairs),
                (&["invocation_events", "invocationEvents"], List(Ty::Event)),
            ],
            required: 0,
            open: false,
            // The event shape or the legacy one, not both.
            alone: 0b1000,
        },
        Ty::Event => &Shape {
            fields: &[
                (&["author"], Text),
                (&["content"], OptObj(Ty::Content)),
                (&["grounding_metadata", "groundingMetadata"], OptAnyObject),
                (&["usage_metadata", "usageMetadata"], OptObj(Ty::Usage)),
                (&["model_version", "modelVersion"], OptText),
            ],
            required: 0b1,
            open: true,
            alone: 0,
        },
        Ty::Usage => &Shape {
            fields: &[
                (&["prompt_token_count", "promptTokenCount"], OptInteger),
                (&["candidates_token_count", "candidatesTokenCount"], OptInteger),
                (&["total_token_count", "totalTokenCount"], OptInteger),
                (&["cached_content_token_count", "cachedContentTokenCount"], OptInteger),
                (&["tool_use_prompt_token_count", "toolUsePromptTokenCount"], OptInteger),
                (&["thoughts_token_count", "thoughtsTokenCount"], OptInteger),
                (
                    &["prompt_tokens_details", "promptTokensDetails"],
                    OptList(Ty::ModalityCount),
                ),
                (
                    &["cache_tokens_details", "cacheTokensDetails"],
                    OptList(Ty::ModalityCount),
                ),
                (
                    &["candidates_tokens_details", "candidatesTokensDetails"],
                    OptList(Ty::ModalityCount),
                ),
                (
                    &["tool_use_prompt_tokens_details", "toolUsePromptTokensDetails"],
                    OptList(Ty::ModalityCount),
                ),
                (&["traffic_type", "trafficType"], OptText),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::ModalityCount => &Shape {
            fields: &[(&["modality"], OptText), (&["token_count", "tokenCount"], OptInteger)],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::Content => &Shape {
            fields: &[(&["role"], OptText), (&["parts"], OptList(Ty::Part))],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::Part => &Shape {
            fields: &[
                (&["text"], OptText),
                (&["thought"], OptBool),
                (&["function_call", "functionCall"], OptObj(Ty::FunctionCall)),
                (&["function_response", "functionResponse"], OptObj(Ty::FunctionResponse)),
                (&["thought_signature", "thoughtSignature"], OptBase64),
                (&["inline_data", "inlineData"], OptObj(Ty::Blob)),
                (&["file_data", "fileData"], OptObj(Ty::FileData)),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::FunctionCall => &Shape {
            fields: &[
                (&["id"], OptText),
                (&["name"], OptText),
                (&["args"], OptAnyObject),
                (&["will_continue", "willContinue"], OptBool),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::FunctionResponse => &Shape {
            fields: &[
                (&["id"], OptText),
                (&["name"], OptText),
                (&["response"], OptAnyObject),
                (&["will_continue", "willContinue"], OptBool),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::Rubric => &Shape {
            fields: &[
                (&["rubric_id", "rubricId"], Text),
                (&["rubric_content", "rubricContent"], Obj(Ty::RubricContent)),
                (&["description"], OptText),
                (&["type"], OptText),
            ],
            required: 0b11,
            open: false,
            alone: 0,
        },
        Ty::RubricContent => &Shape {
            fields: &[(&["text_property", "textProperty"], OptText)],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::AppDetails => &Shape {
            fields: &[(&["agent_details", "agentDetails"], Agents)],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::AgentDetails => &Shape {
            fields: &[
                (&["name"], Text),
                (&["instructions"], Text),
                (&["tool_declarations", "toolDeclarations"], AnyList),
            ],
            required: 0b1,
            open: false,
            alone: 0,
        },
        Ty::Blob => &Shape {
            fields: &[
                (&["data"], OptBase64),
                (&["mime_type", "mimeType"], OptText),
                (&["display_name", "displayName"], OptText),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
        Ty::FileData => &Shape {
            fields: &[
                (&["file_uri", "fileUri"], OptText),
                (&["mime_type", "mimeType"], OptText),
                (&["display_name", "displayName"], OptText),
            ],
            required: 0,
            open: false,
            alone: 0,
        },
    }
}
