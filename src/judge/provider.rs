//! Providers' wire formats: Gemini `generateContent`, OpenAI-compatible chat completions and
//! Anthropic messages. Building a request and reading a reply are pure; sending is the host's.

use super::media::MediaItem;
pub use super::media_wire::MediaRefusal;
use super::media_wire::{graft, media_parts};
use serde_json::{json, Map, Value};

pub use super::Provider;

/// An HTTP request for the host to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Builds the provider request for one prompt. `config` is a criterion's `judge_model_config`
/// (genai GenerateContentConfig); its sampling fields are mapped where the provider has them.
/// `media` (empty unless the judge takes media) follow the prompt, each after a text label saying
/// whose it is; a part the provider cannot take refuses the whole request.
#[allow(clippy::too_many_arguments)]
pub fn build(
    provider: Provider,
    base_url: &str,
    model: &str,
    prompt: &str,
    media: &[MediaItem],
    config: Option<&Value>,
    extra_headers: &[(String, String)],
    max_tokens: u32,
) -> Result<HttpRequest, MediaRefusal> {
    let base = base_url.trim_end_matches('/');
    let cfg = |snake: &str, camel: &str| config.and_then(|c| c.get(camel).or_else(|| c.get(snake))).cloned();
    let temperature = cfg("temperature", "temperature");
    let top_p = cfg("top_p", "topP");
    let max_out = cfg("max_output_tokens", "maxOutputTokens");
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    // Where the prompt sits in the body: with media, that node becomes the list of parts.
    let (url, body, prompt_at): (String, Value, [&str; 3]) = match provider {
        Provider::Gemini => {
            let mut gen = Map::new();
            if let Some(Value::Object(c)) = config {
                for (k, v) in c {
                    // Tools and function calling never apply to a judge.
                    if !matches!(
                        k.as_str(),
                        "tools"
                            | "tool_config"
                            | "toolConfig"
                            | "automatic_function_calling"
                            | "automaticFunctionCalling"
                            | "http_options"
                            | "httpOptions"
                    ) {
                        gen.insert(crate::schema::value::camel(k), v.clone());
                    }
                }
            }
            let mut b = json!({"contents": [{"role": "user", "parts": [{"text": prompt}]}]});
            if !gen.is_empty() {
                if let Some(o) = b.as_object_mut() {
                    let system = gen.remove("systemInstruction");
                    o.insert("generationConfig".into(), Value::Object(gen));
                    if let Some(s) = system {
                        o.insert("systemInstruction".into(), s);
                    }
                }
            }
            (
                format!("{base}/models/{model}:generateContent"),
                b,
                ["contents", "0", "parts"],
            )
        }
        Provider::OpenAi => {
            let mut b = json!({"model": model, "messages": [{"role": "user", "content": prompt}]});
            if let Some(o) = b.as_object_mut() {
                if let Some(t) = temperature {
                    o.insert("temperature".into(), t);
                }
                if let Some(t) = top_p {
                    o.insert("top_p".into(), t);
                }
                if let Some(t) = max_out {
                    o.insert("max_tokens".into(), t);
                }
            }
            (format!("{base}/chat/completions"), b, ["messages", "0", "content"])
        }
        Provider::Anthropic => {
            headers.push(("anthropic-version".to_string(), "2023-06-01".to_string()));
            let mut b = json!({"model": model, "max_tokens": max_out.unwrap_or(json!(max_tokens)),
                "messages": [{"role": "user", "content": prompt}]});
            if let Some(o) = b.as_object_mut() {
                if let Some(t) = temperature {
                    o.insert("temperature".into(), t);
                }
                if let Some(t) = top_p {
                    o.insert("top_p".into(), t);
                }
            }
            (format!("{base}/messages"), b, ["messages", "0", "content"])
        }
    };
    for (k, v) in extra_headers {
        headers.retain(|(h, _)| !h.eq_ignore_ascii_case(k));
        headers.push((k.clone(), v.clone()));
    }
    let body = if media.is_empty() {
        body.to_string()
    } else {
        let parts = media_parts(provider, prompt, media)?;
        let inline: usize = media.iter().map(|m| m.inline_len() as usize).sum();
        // One pass: the base64 of each item is written straight into the body.
        let mut out = Vec::with_capacity(prompt.len() + inline.div_ceil(3) * 4 + 1024);
        serde_json::to_writer(&mut out, &graft(body, &prompt_at, parts)).map_err(|e| MediaRefusal {
            reason: "media_unsupported",
            message: format!("the request could not be written: {e}"),
        })?;
        String::from_utf8(out).unwrap_or_default()
    };
    Ok(HttpRequest { url, headers, body })
}

/// Whether `provider` takes every item of `media` (the refusal `build` would give), without
/// writing any body.
pub fn check_media(provider: Provider, media: &[MediaItem]) -> Result<(), MediaRefusal> {
    media_parts(provider, "", media).map(drop)
}

/// What a reply body says: the answer text, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Text(String),
    /// A well-formed reply that carries no answer (no candidates/choices, blocked).
    Empty(String),
    /// Not the provider's reply format.
    Malformed(String),
}

/// Reads a 2xx reply body. Thought parts (Gemini `thought: true`, Anthropic `thinking` blocks)
/// are not part of the answer.
pub fn read_reply(provider: Provider, body: &str) -> Reply {
    if let Err(m) = crate::schema::budget::check_reply(body, "the reply") {
        return Reply::Malformed(m);
    }
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => return Reply::Malformed(format!("the reply is not JSON ({e})")),
    };
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        return Reply::Malformed(format!("the reply carries an error: {}", error_text(err)));
    }
    match provider {
        Provider::OpenAi => {
            let Some(choices) = v.get("choices").and_then(Value::as_array) else {
                return Reply::Malformed("the reply has no `choices` array".into());
            };
            let Some(first) = choices.first() else {
                return Reply::Empty("the reply has no choices".into());
            };
            let content = first.get("message").and_then(|m| m.get("content"));
            match content {
                Some(Value::String(s)) => Reply::Text(s.clone()),
                Some(Value::Array(parts)) => Reply::Text(
                    parts
                        .iter()
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join(""),
                ),
                Some(Value::Null) | None => {
                    let refusal = first
                        .get("message")
                        .and_then(|m| m.get("refusal"))
                        .and_then(Value::as_str);
                    match refusal {
                        Some(r) => Reply::Empty(format!("the model refused: {r}")),
                        None => Reply::Text(String::new()),
                    }
                }
                Some(_) => Reply::Malformed("`choices[0].message.content` is neither text nor parts".into()),
            }
        }
        Provider::Gemini => {
            let Some(cands) = v.get("candidates").and_then(Value::as_array) else {
                let why = v
                    .get("promptFeedback")
                    .and_then(|p| p.get("blockReason"))
                    .and_then(Value::as_str)
                    .map(|r| format!("the prompt was blocked ({r})"))
                    .unwrap_or_else(|| "the reply has no candidates".into());
                return Reply::Empty(why);
            };
            let Some(first) = cands.first() else {
                return Reply::Empty("the reply has no candidates".into());
            };
            let parts = first
                .get("content")
                .and_then(|c| c.get("parts"))
                .and_then(Value::as_array);
            let texts: Vec<&str> = parts
                .into_iter()
                .flatten()
                .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .filter(|t| !t.is_empty())
                .collect();
            Reply::Text(texts.join("\n"))
        }
        Provider::Anthropic => {
            let Some(blocks) = v.get("content").and_then(Value::as_array) else {
                return Reply::Malformed("the reply has no `content` array".into());
            };
            Reply::Text(
                blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join(""),
            )
        }
    }
}

/// The message of a provider error body (OpenAI, Google and Anthropic shapes), for messages.
pub fn error_text(err: &Value) -> String {
    match err {
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| o.get("error").map(error_text))
            .unwrap_or_else(|| err.to_string()),
        _ => err.to_string(),
    }
}

/// Whether a failed status is worth retrying (ADK's list: 408, 429 and 5xx).
pub fn retryable_status(status: u16) -> bool {
    status == 408 || status == 429 || (500..600).contains(&status)
}

/// `Retry-After` in milliseconds: delta seconds, or an HTTP date relative to `now_ms`.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    let v = value.trim();
    if let Some(secs) = crate::schema::value::parse_f64(v) {
        return (secs.is_finite() && secs >= 0.0).then_some(secs * 1000.0);
    }
    http_date_ms(v).map(|t| (t - now_ms).max(0.0))
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as Unix milliseconds.
fn http_date_ms(s: &str) -> Option<f64> {
    let mut it = s.split_whitespace();
    let _day = it.next()?;
    let d: i64 = it.next()?.parse().ok()?;
    let mon = match it.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let y: i64 = it.next()?.parse().ok()?;
    let mut hms = it.next()?.split(':').map(|x| x.parse::<i64>().ok());
    let (h, mi, se) = (hms.next()??, hms.next()??, hms.next()??);
    // Out-of-range fields are no date (and a huge hour or year would overflow the sum below).
    if !(1..=31).contains(&d)
        || !(0..=9999).contains(&y)
        || !(0..24).contains(&h)
        || !(0..60).contains(&mi)
        || !(0..=60).contains(&se)
    {
        return None;
    }
    // days from civil (Howard Hinnant)
    let (yy, mm) = if mon <= 2 { (y - 1, mon + 9) } else { (y, mon - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some(((days * 86400 + h * 3600 + mi * 60 + se) * 1000) as f64)
}

/// A rough token estimate for dry runs (4 characters per token).
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_each_provider() {
        let r = build(
            Provider::OpenAi,
            "http://x/v1/",
            "m",
            "hi",
            &[],
            None,
            &[("authorization".into(), "Bearer k".into())],
            1024,
        )
        .unwrap();
        assert_eq!(r.url, "http://x/v1/chat/completions");
        let b: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(b["messages"][0]["content"], "hi");
        assert!(r.headers.iter().any(|(k, v)| k == "authorization" && v == "Bearer k"));
        let r = build(
            Provider::Gemini,
            "http://g",
            "gemini-2.5-flash",
            "hi",
            &[],
            Some(&json!({"temperature": 0.2})),
            &[],
            1024,
        )
        .unwrap();
        assert_eq!(r.url, "http://g/models/gemini-2.5-flash:generateContent");
        let b: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(b["generationConfig"]["temperature"], 0.2);
        let r = build(Provider::Anthropic, "http://a", "claude", "hi", &[], None, &[], 1024).unwrap();
        assert_eq!(r.url, "http://a/messages");
        assert!(r.headers.iter().any(|(k, _)| k == "anthropic-version"));
    }

    #[test]
    fn reads_replies() {
        assert_eq!(
            read_reply(Provider::OpenAi, r#"{"choices":[{"message":{"content":"ok"}}]}"#),
            Reply::Text("ok".into())
        );
        assert!(matches!(
            read_reply(Provider::OpenAi, r#"{"choices":[]}"#),
            Reply::Empty(_)
        ));
        assert!(matches!(read_reply(Provider::OpenAi, "{not json"), Reply::Malformed(_)));
        assert_eq!(
            read_reply(
                Provider::Gemini,
                r#"{"candidates":[{"content":{"parts":[{"text":"t","thought":true},{"text":"a"}]}}]}"#
            ),
            Reply::Text("a".into())
        );
        assert!(matches!(
            read_reply(Provider::Gemini, r#"{"candidates":[]}"#),
            Reply::Empty(_)
        ));
        assert_eq!(
            read_reply(
                Provider::Anthropic,
                r#"{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"b"}]}"#
            ),
            Reply::Text("b".into())
        );
    }

    #[test]
    fn retry_after() {
        assert_eq!(retry_after_ms("2", 0.0), Some(2000.0));
        assert_eq!(retry_after_ms("Thu, 01 Jan 1970 00:00:10 GMT", 4000.0), Some(6000.0));
        assert_eq!(retry_after_ms("soon", 0.0), None);
        // Found by fuzzing: an hour this large overflowed the date arithmetic (a panic in debug).
        assert_eq!(retry_after_ms("h 00 Jan 970 8888888666666:6688888:01", 0.0), None);
        assert_eq!(retry_after_ms("Sun, 06 Nov 99999999999999 08:49:37 GMT", 0.0), None);
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 24:00:00 GMT", 0.0), None);
        assert_eq!(
            retry_after_ms("Fri, 31 Dec 9999 23:59:60 GMT", 0.0),
            Some(253_402_300_800_000.0)
        );
    }
}
