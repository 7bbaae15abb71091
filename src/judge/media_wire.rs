//! Media in each provider's request format, and what each provider takes: Gemini `inlineData`
//! and `fileData` parts, OpenAI-compatible `image_url` (data URLs), `input_audio` and `file`
//! parts, Anthropic `image` and `document` blocks. The bytes are written as base64 straight into
//! the request body when it is serialised (no intermediate string per item).

use super::media::{MediaItem, Source};
use super::Provider;
use crate::schema::bytes::StandardBase64;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
use std::fmt;

/// Why a request with media cannot be sent: a NOT_EVALUATED reason (`media_unsupported`,
/// `media_too_large`) and a message naming the item.
#[derive(Debug, Clone, PartialEq)]
pub struct MediaRefusal {
    pub reason: &'static str,
    pub message: String,
}

/// A request body under construction: JSON, with media bytes kept as references until written.
pub(crate) enum Wire<'a> {
    Json(Value),
    Map(Vec<(String, Wire<'a>)>),
    List(Vec<Wire<'a>>),
    /// A JSON string: `prefix` then the standard base64 of `bytes`.
    Base64 {
        prefix: String,
        bytes: &'a [u8],
    },
}

struct PrefixedBase64<'a>(&'a str, &'a [u8]);

impl fmt::Display for PrefixedBase64<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)?;
        fmt::Display::fmt(&StandardBase64(self.1), f)
    }
}

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Wire::Json(v) => v.serialize(s),
            Wire::Map(entries) => {
                let mut m = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
            Wire::List(items) => {
                let mut l = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    l.serialize_element(v)?;
                }
                l.end()
            }
            Wire::Base64 { prefix, bytes } => s.collect_str(&PrefixedBase64(prefix, bytes)),
        }
    }
}

/// `v` with the node at `path` (object keys and array indexes) replaced by `with`.
pub(crate) fn graft<'a>(v: Value, path: &[&str], with: Wire<'a>) -> Wire<'a> {
    let Some((head, rest)) = path.split_first() else {
        return with;
    };
    // The children, keyed (arrays by index), and the one on the path.
    let children: Vec<(Option<String>, Value)> = match v {
        Value::Object(m) => m.into_iter().map(|(k, x)| (Some(k), x)).collect(),
        Value::Array(a) => a.into_iter().map(|x| (None, x)).collect(),
        other => return Wire::Json(other),
    };
    let is_object = children.first().is_some_and(|(k, _)| k.is_some());
    let mut with = Some(with);
    let mut keyed = Vec::new();
    let mut listed = Vec::new();
    for (i, (k, child)) in children.into_iter().enumerate() {
        let here = k.as_deref().map_or(head.parse() == Ok(i), |k| k == *head);
        let node = match (here, with.take()) {
            (true, Some(w)) => graft(child, rest, w),
            (_, w) => {
                with = w;
                Wire::Json(child)
            }
        };
        match k {
            Some(k) => keyed.push((k, node)),
            None => listed.push(node),
        }
    }
    if is_object {
        Wire::Map(keyed)
    } else {
        Wire::List(listed)
    }
}

/// An item's values for a part template.
struct Vars<'v, 'a> {
    text: &'v str,
    mime: &'v str,
    kind: &'v str,
    format: &'v str,
    /// `$data`: a prefix, then the standard base64 of the bytes.
    data: Option<(String, &'a [u8])>,
}

/// A part from its template: the strings `$text`, `$mime`, `$kind`, `$format` become the item's
/// values and `$data` its bytes (shapes as data keep the code small).
fn fill<'a>(t: Value, v: &Vars<'_, 'a>) -> Wire<'a> {
    match t {
        Value::Object(m) => {
            let mut out = Vec::new();
            for (k, x) in m {
                out.push((k, fill(x, v)));
            }
            Wire::Map(out)
        }
        Value::String(s) => match s.as_str() {
            "$data" => match &v.data {
                Some((prefix, bytes)) => Wire::Base64 {
                    prefix: prefix.clone(),
                    bytes,
                },
                None => Wire::Json(Value::Null),
            },
            "$text" => Wire::Json(Value::String(v.text.to_string())),
            "$mime" => Wire::Json(Value::String(v.mime.to_string())),
            "$kind" => Wire::Json(Value::String(v.kind.to_string())),
            "$format" => Wire::Json(Value::String(v.format.to_string())),
            _ => Wire::Json(Value::String(s)),
        },
        other => Wire::Json(other),
    }
}

fn part<'a>(template: &str, v: &Vars<'_, 'a>) -> Wire<'a> {
    fill(serde_json::from_str(template).unwrap_or(Value::Null), v)
}

/// MIME types Gemini takes (its image, audio, video and document lists).
const GEMINI_TYPES: [&str; 24] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
    "audio/wav",
    "audio/mp3",
    "audio/mpeg",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "video/mp4",
    "video/mpeg",
    "video/mov",
    "video/avi",
    "video/x-flv",
    "video/mpg",
    "video/webm",
    "video/wmv",
    "video/3gpp",
    "application/pdf",
    "text/plain",
    "text/csv",
];
const OPENAI_IMAGES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const ANTHROPIC_IMAGES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/// Anthropic's limit for one image sent as base64.
const ANTHROPIC_IMAGE_BYTES: u64 = 5 * 1024 * 1024;

/// What each provider takes, for messages.
fn takes(provider: Provider) -> &'static str {
    match provider {
        Provider::Gemini => "images (png, jpeg, webp, heic, heif), audio (wav, mp3, aiff, aac, ogg, flac), video (mp4, mpeg, mov, avi, flv, mpg, webm, wmv, 3gpp), PDF and plain text or CSV, inline or as file URIs",
        Provider::OpenAi => "images (png, jpeg, webp, gif) inline or as http(s) URLs, wav and mp3 audio inline, and PDF inline",
        Provider::Anthropic => "images (jpeg, png, gif, webp; at most 5 MiB each) and PDF documents, inline or as https URLs; no audio or video",
    }
}

/// The prompt, then each item after its label, as the provider's list of parts / blocks.
pub(crate) fn media_parts<'a>(
    provider: Provider,
    prompt: &str,
    media: &'a [MediaItem],
) -> Result<Wire<'a>, MediaRefusal> {
    let text_template = match provider {
        Provider::Gemini => r#"{"text":"$text"}"#,
        Provider::OpenAi | Provider::Anthropic => r#"{"type":"text","text":"$text"}"#,
    };
    let text_part = |t: &str| -> Wire<'a> {
        part(
            text_template,
            &Vars {
                text: t,
                mime: "",
                kind: "",
                format: "",
                data: None,
            },
        )
    };
    let mut parts = vec![text_part(prompt)];
    for (i, m) in media.iter().enumerate() {
        let n = i + 1;
        let refuse = |reason: &'static str, why: String| MediaRefusal {
            reason,
            message: format!("attachment {n} (from the {}) {why}", m.owner),
        };
        let mime = m.essence();
        let (bytes, uri): (&'a [u8], &str) = match &m.source {
            Source::Inline(b) => (&b.0, ""),
            Source::Uri(u) => (&[], u.as_str()),
        };
        let inline = matches!(m.source, Source::Inline(_));
        let what = if inline { "inline_data" } else { "file_data" };
        if mime.is_empty() {
            return Err(refuse(
                "media_unsupported",
                "has no mime_type; a judge needs one to read it".into(),
            ));
        }
        if (inline && bytes.is_empty()) || (!inline && uri.is_empty()) {
            return Err(refuse(
                "media_unsupported",
                format!("is {mime} {what} without data or URI"),
            ));
        }
        let listed = |list: &[&str]| list.contains(&mime.as_str());
        let pdf = mime == "application/pdf";
        let wav = matches!(mime.as_str(), "audio/wav" | "audio/x-wav" | "audio/wave");
        let mp3 = matches!(mime.as_str(), "audio/mp3" | "audio/mpeg");
        let uri_lower = uri.to_ascii_lowercase();
        // (template, prefix of `$data`, `$kind`, `$format`), or None when the provider cannot take it.
        let shape: Option<(&str, String, &str, &str)> = match provider {
            Provider::Gemini if listed(&GEMINI_TYPES) => Some(if inline {
                (
                    r#"{"inlineData":{"mimeType":"$mime","data":"$data"}}"#,
                    String::new(),
                    "",
                    "",
                )
            } else {
                (
                    r#"{"fileData":{"mimeType":"$mime","fileUri":"$text"}}"#,
                    String::new(),
                    "",
                    "",
                )
            }),
            Provider::OpenAi if listed(&OPENAI_IMAGES) && inline => Some((
                r#"{"type":"image_url","image_url":{"url":"$data"}}"#,
                format!("data:{mime};base64,"),
                "",
                "",
            )),
            Provider::OpenAi
                if listed(&OPENAI_IMAGES)
                    && (uri_lower.starts_with("https://") || uri_lower.starts_with("http://")) =>
            {
                Some((
                    r#"{"type":"image_url","image_url":{"url":"$text"}}"#,
                    String::new(),
                    "",
                    "",
                ))
            }
            Provider::OpenAi if inline && (wav || mp3) => Some((
                r#"{"type":"input_audio","input_audio":{"data":"$data","format":"$format"}}"#,
                String::new(),
                "",
                if wav { "wav" } else { "mp3" },
            )),
            Provider::OpenAi if inline && pdf => Some((
                r#"{"type":"file","file":{"filename":"$text","file_data":"$data"}}"#,
                "data:application/pdf;base64,".into(),
                "",
                "",
            )),
            Provider::Anthropic if listed(&ANTHROPIC_IMAGES) || pdf => {
                let kind = if pdf { "document" } else { "image" };
                if inline && !pdf && m.inline_len() > ANTHROPIC_IMAGE_BYTES {
                    return Err(refuse(
                        "media_too_large",
                        format!(
                            "is a {mime} image of {} bytes; anthropic judges take images up to 5 MiB ({ANTHROPIC_IMAGE_BYTES} bytes)",
                            m.inline_len()
                        ),
                    ));
                }
                if inline {
                    Some((
                        r#"{"type":"$kind","source":{"type":"base64","media_type":"$mime","data":"$data"}}"#,
                        String::new(),
                        kind,
                        "",
                    ))
                } else if uri_lower.starts_with("https://") {
                    Some((
                        r#"{"type":"$kind","source":{"type":"url","url":"$text"}}"#,
                        String::new(),
                        kind,
                        "",
                    ))
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some((template, prefix, kind, format)) = shape else {
            let at = if inline { String::new() } else { format!(" at {uri:?}") };
            return Err(refuse(
                "media_unsupported",
                format!(
                    "is {mime} {what}{at}, which {} judges do not take (they take {})",
                    provider.as_str(),
                    takes(provider)
                ),
            ));
        };
        let name = m.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("document.pdf");
        parts.push(text_part(&m.label(n)));
        parts.push(part(
            template,
            &Vars {
                // `$text` is the URI of a file_data part, or a PDF's file name.
                text: if inline { name } else { uri },
                mime: &mime,
                kind,
                format,
                data: inline.then_some((prefix, bytes)),
            },
        ));
    }
    Ok(Wire::List(parts))
}

#[cfg(test)]
mod tests {
    use crate::judge::media::{MediaItem, Source};
    use crate::judge::provider::{build, Provider};
    use crate::schema::bytes::Bytes;
    use serde_json::{json, Value};

    fn inline(owner: &'static str, mime: &str, bytes: &[u8]) -> MediaItem {
        MediaItem::new(owner, Some(mime.into()), Source::Inline(Bytes(bytes.into())), None)
    }

    fn uri(mime: &str, u: &str) -> MediaItem {
        MediaItem::new("agent response", Some(mime.into()), Source::Uri(u.into()), None)
    }

    fn body(p: Provider, media: &[MediaItem]) -> Result<Value, super::MediaRefusal> {
        let cfg = json!({"temperature": 0.5});
        let r = build(p, "http://x", "m", "PROMPT", media, Some(&cfg), &[], 64)?;
        Ok(serde_json::from_str(&r.body).unwrap())
    }

    #[test]
    fn without_media_the_body_is_the_text_only_one() {
        for p in [Provider::Gemini, Provider::OpenAi, Provider::Anthropic] {
            let r = build(p, "http://x", "m", "PROMPT", &[], None, &[], 64).unwrap();
            let v: Value = serde_json::from_str(&r.body).unwrap();
            let text = match p {
                Provider::Gemini => &v["contents"][0]["parts"][0]["text"],
                _ => &v["messages"][0]["content"],
            };
            assert_eq!(text, "PROMPT");
        }
    }

    #[test]
    fn each_provider_gets_its_own_parts_after_the_prompt_with_labels() {
        let png = inline(
            "user prompt",
            "image/png; charset=binary",
            &[0x89, b'P', b'N', b'G', 0xfb, 0xff],
        );
        let wav = inline("agent response", "audio/wav", b"RIFF");
        let g = body(Provider::Gemini, &[png.clone(), wav.clone()]).unwrap();
        let parts = &g["contents"][0]["parts"];
        assert_eq!(parts[0]["text"], "PROMPT");
        assert_eq!(
            parts[1]["text"],
            "Attachment 1, from the user prompt: [inline_data: image/png; charset=binary, 6 bytes]"
        );
        assert_eq!(
            parts[2],
            json!({"inlineData": {"mimeType": "image/png", "data": "iVBOR/v/"}})
        );
        assert_eq!(
            parts[4],
            json!({"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}})
        );
        // The rest of the body is unchanged, in its order.
        assert_eq!(g["generationConfig"]["temperature"], 0.5);

        let o = body(Provider::OpenAi, &[png.clone(), wav.clone()]).unwrap();
        let c = &o["messages"][0]["content"];
        assert_eq!(c[0], json!({"type": "text", "text": "PROMPT"}));
        assert_eq!(
            c[2],
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBOR/v/"}})
        );
        assert_eq!(
            c[4],
            json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}})
        );
        assert_eq!(o["temperature"], 0.5);

        let a = body(
            Provider::Anthropic,
            &[png, inline("user prompt", "application/pdf", b"%PDF")],
        )
        .unwrap();
        let c = &a["messages"][0]["content"];
        assert_eq!(
            c[2],
            json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR/v/"}})
        );
        assert_eq!(
            c[4],
            json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}})
        );
        assert_eq!(a["max_tokens"], 64);
    }

    #[test]
    fn file_uris_where_the_provider_fetches_them() {
        let g = body(Provider::Gemini, &[uri("image/jpeg", "gs://b/cat.jpg")]).unwrap();
        assert_eq!(
            g["contents"][0]["parts"][2],
            json!({"fileData": {"mimeType": "image/jpeg", "fileUri": "gs://b/cat.jpg"}})
        );
        let o = body(Provider::OpenAi, &[uri("image/jpeg", "https://h/cat.jpg")]).unwrap();
        assert_eq!(o["messages"][0]["content"][2]["image_url"]["url"], "https://h/cat.jpg");
        let a = body(Provider::Anthropic, &[uri("application/pdf", "https://h/d.pdf")]).unwrap();
        assert_eq!(
            a["messages"][0]["content"][2],
            json!({"type": "document", "source": {"type": "url", "url": "https://h/d.pdf"}})
        );
    }

    #[test]
    fn what_a_provider_cannot_take_is_refused_with_the_item_named() {
        let wav = inline("agent response", "audio/wav", b"RIFF");
        let e = body(Provider::Anthropic, &[wav]).unwrap_err();
        assert_eq!(e.reason, "media_unsupported");
        assert!(
            e.message.starts_with(
                "attachment 1 (from the agent response) is audio/wav inline_data, which anthropic judges do not take"
            ),
            "{}",
            e.message
        );
        let e = body(Provider::OpenAi, &[uri("image/png", "gs://b/x.png")]).unwrap_err();
        assert!(e.message.contains("gs://b/x.png"), "{}", e.message);
        let e = body(Provider::OpenAi, &[inline("user prompt", "video/mp4", b"x")]).unwrap_err();
        assert_eq!(e.reason, "media_unsupported");
        let e = body(Provider::Gemini, &[inline("user prompt", "application/zip", b"x")]).unwrap_err();
        assert!(e.message.contains("application/zip"), "{}", e.message);
        let mut no_type = inline("user prompt", "", b"x");
        no_type.mime = None;
        assert!(body(Provider::Gemini, &[no_type])
            .unwrap_err()
            .message
            .contains("no mime_type"));
        let big = inline("user prompt", "image/png", &vec![0u8; 5 * 1024 * 1024 + 1]);
        let e = body(Provider::Anthropic, &[big.clone()]).unwrap_err();
        assert_eq!(e.reason, "media_too_large");
        // Gemini and OpenAI take it (the per-call budget is the client's).
        assert!(body(Provider::Gemini, &[big]).is_ok());
    }

    #[test]
    fn large_media_are_written_once_as_standard_base64() {
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 256) as u8).collect();
        let r = build(
            Provider::OpenAi,
            "http://x",
            "m",
            "p",
            &[inline("user prompt", "image/png", &bytes)],
            None,
            &[],
            64,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&r.body).unwrap();
        let url = v["messages"][0]["content"][2]["image_url"]["url"].as_str().unwrap();
        let b64 = url.strip_prefix("data:image/png;base64,").unwrap();
        assert_eq!(crate::schema::bytes::decode(b64).unwrap(), bytes);
        assert!(!b64.contains('-') && !b64.contains('_'));
    }
}
