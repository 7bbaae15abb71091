//! google.genai's Content / Part / FunctionCall shapes as ADK files carry them (camelCase aliases, extras forbidden).

use super::bytes::Bytes;
use super::de;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;

pub type JsonObject = Map<String, Value>;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Content {
    #[serde(deserialize_with = "de::opt_role", default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Cow<'static, str>>,
    #[serde(
        default,
        deserialize_with = "de::opt_vec_obj",
        skip_serializing_if = "Option::is_none"
    )]
    pub parts: Option<Vec<Part>>,
}

/// One part of a Content: text, a function call or response, media, or another genai part kind.
/// Unknown fields are rejected, as in google.genai.
// Rare and large fields are boxed: a Part stays small, which keeps big eval sets compact and
// fast to walk.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Part {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought: Option<bool>,
    #[serde(default, alias = "thoughtSignature", skip_serializing_if = "Option::is_none")]
    pub thought_signature: Option<Bytes>,
    #[serde(
        default,
        alias = "functionCall",
        deserialize_with = "de::opt_box_obj",
        skip_serializing_if = "Option::is_none"
    )]
    pub function_call: Option<Box<FunctionCall>>,
    #[serde(
        default,
        alias = "functionResponse",
        deserialize_with = "de::opt_box_obj",
        skip_serializing_if = "Option::is_none"
    )]
    pub function_response: Option<Box<FunctionResponse>>,
    #[serde(
        default,
        alias = "inlineData",
        deserialize_with = "de::opt_box_obj",
        skip_serializing_if = "Option::is_none"
    )]
    pub inline_data: Option<Box<Blob>>,
    #[serde(
        default,
        alias = "fileData",
        deserialize_with = "de::opt_box_obj",
        skip_serializing_if = "Option::is_none"
    )]
    pub file_data: Option<Box<FileData>>,
    #[serde(default, alias = "executableCode", skip_serializing_if = "Option::is_none")]
    pub executable_code: Option<Box<JsonObject>>,
    #[serde(default, alias = "codeExecutionResult", skip_serializing_if = "Option::is_none")]
    pub code_execution_result: Option<Box<JsonObject>>,
    #[serde(default, alias = "videoMetadata", skip_serializing_if = "Option::is_none")]
    pub video_metadata: Option<Box<JsonObject>>,
    #[serde(default, alias = "mediaResolution", skip_serializing_if = "Option::is_none")]
    pub media_resolution: Option<Box<Value>>,
    #[serde(default, alias = "toolCall", skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<Box<JsonObject>>,
    #[serde(default, alias = "toolResponse", skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Box<JsonObject>>,
    #[serde(default, alias = "partMetadata", skip_serializing_if = "Option::is_none")]
    pub part_metadata: Option<Box<JsonObject>>,
    #[serde(default, alias = "audioTranscription", skip_serializing_if = "Option::is_none")]
    pub audio_transcription: Option<Box<JsonObject>>,
    #[serde(default, alias = "mediaProcessing", skip_serializing_if = "Option::is_none")]
    pub media_processing: Option<Box<JsonObject>>,
    #[serde(default, alias = "speechMetadata", skip_serializing_if = "Option::is_none")]
    pub speech_metadata: Option<Box<JsonObject>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FunctionCall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<JsonObject>,
    #[serde(default, alias = "partialArgs", skip_serializing_if = "Option::is_none")]
    pub partial_args: Option<Vec<Value>>,
    #[serde(default, alias = "willContinue", skip_serializing_if = "Option::is_none")]
    pub will_continue: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FunctionResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<JsonObject>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    #[serde(default, alias = "willContinue", skip_serializing_if = "Option::is_none")]
    pub will_continue: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Blob {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Bytes>,
    #[serde(default, alias = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, alias = "displayName", skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FileData {
    #[serde(default, alias = "fileUri", skip_serializing_if = "Option::is_none")]
    pub file_uri: Option<String>,
    #[serde(default, alias = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, alias = "displayName", skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

impl Content {
    /// ADK's text extraction rule: the non-empty `text` of every part (thoughts included), joined by "\n".
    /// Borrowed when a single part carries text, which is the common case.
    pub fn text(&self) -> Cow<'_, str> {
        let mut texts = self
            .parts
            .iter()
            .flatten()
            .filter_map(|p| p.text.as_deref().filter(|t| !t.is_empty()));
        let Some(first) = texts.next() else {
            return Cow::Borrowed("");
        };
        let Some(second) = texts.next() else {
            return Cow::Borrowed(first);
        };
        let mut out = String::with_capacity(first.len() + second.len() + 1);
        out.push_str(first);
        for t in std::iter::once(second).chain(texts) {
            out.push('\n');
            out.push_str(t);
        }
        Cow::Owned(out)
    }

    /// Builds `{role, parts: [{text}]}`.
    pub fn from_text(role: &str, text: &str) -> Content {
        Content {
            role: Some(de::role_of(role)),
            parts: Some(vec![Part {
                text: Some(text.to_string()),
                ..Part::default()
            }]),
        }
    }

    pub fn function_calls(&self) -> impl Iterator<Item = &FunctionCall> {
        self.parts.iter().flatten().filter_map(|p| p.function_call.as_deref())
    }

    pub fn function_responses(&self) -> impl Iterator<Item = &FunctionResponse> {
        self.parts
            .iter()
            .flatten()
            .filter_map(|p| p.function_response.as_deref())
    }
}

/// A media part in words, for people and judges: `[inline_data: image/png "name", 1234 bytes]`,
/// `[file_data: application/pdf, gs://bucket/doc.pdf]`.
pub fn media_text(
    kind: &str,
    mime: Option<&str>,
    name: Option<&str>,
    size: Option<usize>,
    uri: Option<&str>,
) -> String {
    let mut s = format!("[{kind}: {}", mime.filter(|m| !m.is_empty()).unwrap_or("unknown type"));
    if let Some(n) = name.filter(|n| !n.is_empty()) {
        s.push_str(&format!(" {n:?}"));
    }
    if let Some(n) = size {
        s.push_str(&format!(", {n} bytes"));
    }
    if let Some(u) = uri {
        s.push_str(&format!(", {}", if u.is_empty() { "no URI" } else { u }));
    }
    s.push(']');
    s
}

impl Part {
    /// [`media_text`] of an `inline_data` or `file_data` part; None for other parts.
    pub fn media_text(&self) -> Option<String> {
        if let Some(b) = &self.inline_data {
            let size = b.data.as_ref().map_or(0, |d| d.0.len());
            return Some(media_text(
                "inline_data",
                b.mime_type.as_deref(),
                b.display_name.as_deref(),
                Some(size),
                None,
            ));
        }
        let f = self.file_data.as_ref()?;
        Some(media_text(
            "file_data",
            f.mime_type.as_deref(),
            f.display_name.as_deref(),
            None,
            Some(f.file_uri.as_deref().unwrap_or("")),
        ))
    }
}

/// Text of an optional Content; missing content gives "" as in ADK's deterministic metrics.
pub fn text_of(c: Option<&Content>) -> Cow<'_, str> {
    c.map(Content::text).unwrap_or(Cow::Borrowed(""))
}
