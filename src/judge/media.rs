//! The media parts (images, audio, documents, file URIs) of the contents a judge is shown, for
//! judges that can see them. ADK's judges read text only; these are sent only when the judge
//! option `media` is on. Items share the invocation's bytes (no copy until the request body).

use crate::judge::context::response_events;
use crate::schema::bytes::Bytes;
use crate::schema::{Content, Invocation};
use sha2::{Digest, Sha256};
use std::cell::OnceCell;
use std::rc::Rc;

/// Where a media item's bytes are.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// `inline_data`: the bytes themselves.
    Inline(Bytes),
    /// `file_data`: a URI the provider fetches (a Files API URI, `gs://`, `https://`).
    Uri(String),
}

/// One media part and whose content it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct MediaItem {
    /// "user prompt", "agent response" or "reference response".
    pub owner: &'static str,
    /// The part's `mime_type` as written (None when the part has none).
    pub mime: Option<String>,
    pub source: Source,
    pub name: Option<String>,
    /// SHA-256 of the inline bytes, computed once for every sample and retry that carries them.
    digest: OnceCell<[u8; 32]>,
}

impl MediaItem {
    pub fn new(owner: &'static str, mime: Option<String>, source: Source, name: Option<String>) -> MediaItem {
        MediaItem {
            owner,
            mime,
            source,
            name,
            digest: OnceCell::new(),
        }
    }

    /// Feeds what identifies the item in a request (owner, type, name, the bytes' digest or the
    /// URI) to `h`: a request's key covers its media without hashing the bytes once per call.
    pub fn identify(&self, h: &mut Sha256) {
        for field in [
            self.owner,
            self.mime.as_deref().unwrap_or(""),
            self.name.as_deref().unwrap_or(""),
        ] {
            h.update(field.as_bytes());
            h.update([0u8]);
        }
        match &self.source {
            Source::Inline(b) => h.update(self.digest.get_or_init(|| Sha256::digest(&b.0).into())),
            Source::Uri(u) => h.update(u.as_bytes()),
        }
        h.update([0u8]);
    }

    /// Bytes sent inline (0 for a URI).
    pub fn inline_len(&self) -> u64 {
        match &self.source {
            Source::Inline(b) => b.0.len() as u64,
            Source::Uri(_) => 0,
        }
    }

    /// The MIME type without parameters, lower case ("" when absent).
    pub fn essence(&self) -> String {
        mime_essence(self.mime.as_deref().unwrap_or(""))
    }

    /// The text shown to the judge just before the item, so it knows whose it is.
    pub fn label(&self, n: usize) -> String {
        let what = match &self.source {
            Source::Inline(b) => crate::schema::content::media_text(
                "inline_data",
                self.mime.as_deref(),
                self.name.as_deref(),
                Some(b.0.len()),
                None,
            ),
            Source::Uri(u) => crate::schema::content::media_text(
                "file_data",
                self.mime.as_deref(),
                self.name.as_deref(),
                None,
                Some(u),
            ),
        };
        format!("Attachment {n}, from the {}: {what}", self.owner)
    }
}

/// `type/subtype` of a MIME type: parameters dropped, trimmed, lower case.
pub fn mime_essence(mime: &str) -> String {
    mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// The media of a request; cloning shares it.
pub type Media = Rc<[MediaItem]>;

pub fn none() -> Media {
    Rc::from(Vec::new())
}

/// Appends the `inline_data` and `file_data` parts of `content`.
pub fn push_content(out: &mut Vec<MediaItem>, owner: &'static str, content: Option<&Content>) {
    for p in content.and_then(|c| c.parts.as_deref()).unwrap_or(&[]) {
        if let Some(b) = &p.inline_data {
            out.push(MediaItem::new(
                owner,
                b.mime_type.clone(),
                Source::Inline(b.data.clone().unwrap_or_default()),
                b.display_name.clone(),
            ));
        }
        if let Some(f) = &p.file_data {
            out.push(MediaItem::new(
                owner,
                f.mime_type.clone(),
                Source::Uri(f.file_uri.clone().unwrap_or_default()),
                f.display_name.clone(),
            ));
        }
    }
}

/// The media of an invocation's responses: the final response, and with `include_intermediate`
/// (the criterion's `include_intermediate_responses_in_final`) the intermediate ones before it,
/// as the response text is gathered.
pub fn push_responses(out: &mut Vec<MediaItem>, owner: &'static str, inv: &Invocation, include_intermediate: bool) {
    if include_intermediate {
        for c in response_events(inv) {
            push_content(out, owner, Some(&c));
        }
    }
    push_content(out, owner, inv.final_response.as_ref());
}

/// The user turn's media, then the agent's, then the reference's (when given).
pub fn for_turn(user: &Invocation, actual: Option<&Invocation>, reference: Option<&Invocation>, incl: bool) -> Media {
    let mut out = Vec::new();
    push_content(&mut out, "user prompt", Some(&user.user_content));
    if let Some(a) = actual {
        push_responses(&mut out, "agent response", a, incl);
    }
    if let Some(r) = reference {
        push_responses(&mut out, "reference response", r, incl);
    }
    Rc::from(out)
}

/// Every turn's media of a conversation, in turn order.
pub fn for_conversation(invs: &[Invocation]) -> Media {
    let mut out = Vec::new();
    for inv in invs {
        push_content(&mut out, "user prompt", Some(&inv.user_content));
        push_responses(&mut out, "agent response", inv, false);
    }
    Rc::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::content::{Blob, FileData, Part};

    fn inv(user: Vec<Part>, reply: Vec<Part>) -> Invocation {
        let mut i: Invocation =
            serde_json::from_value(serde_json::json!({"invocation_id": "i", "user_content": {"parts": []}})).unwrap();
        i.user_content.parts = Some(user);
        i.final_response = Some(Content {
            role: None,
            parts: Some(reply),
        });
        i
    }

    #[test]
    fn gathers_inline_and_file_parts_by_owner_sharing_bytes() {
        let png = Bytes(Rc::from(vec![1u8, 2, 3]));
        let user = vec![
            Part {
                text: Some("what is this?".into()),
                ..Part::default()
            },
            Part {
                inline_data: Some(Box::new(Blob {
                    data: Some(png.clone()),
                    mime_type: Some("image/PNG".into()),
                    display_name: None,
                })),
                ..Part::default()
            },
        ];
        let reply = vec![Part {
            file_data: Some(Box::new(FileData {
                file_uri: Some("gs://b/x.pdf".into()),
                mime_type: Some("application/pdf".into()),
                display_name: Some("x".into()),
            })),
            ..Part::default()
        }];
        let i = inv(user, reply);
        let m = for_turn(&i, Some(&i), None, false);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].owner, "user prompt");
        assert_eq!(m[0].essence(), "image/png");
        assert_eq!(m[0].inline_len(), 3);
        // The item shares the invocation's bytes.
        let Source::Inline(b) = &m[0].source else {
            unreachable!()
        };
        assert!(Rc::ptr_eq(&b.0, &png.0));
        assert_eq!(m[1].source, Source::Uri("gs://b/x.pdf".into()));
        assert_eq!(
            m[0].label(1),
            "Attachment 1, from the user prompt: [inline_data: image/PNG, 3 bytes]"
        );
        assert_eq!(
            m[1].label(2),
            "Attachment 2, from the agent response: [file_data: application/pdf \"x\", gs://b/x.pdf]"
        );
        assert!(for_turn(&inv(vec![], vec![]), None, None, false).is_empty());
    }
}
