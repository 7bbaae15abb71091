//! The host's capabilities as JS callbacks. The JS skin (`pkg/lib/wasm/run.js`) wraps `fetch`, the
//! agent and custom metrics so that their promises always resolve to a JSON string (a result or
//! `{"error": {kind, message}}`) and never reject; a synchronous throw, a rejection and a
//! malformed value arrive here as distinct kinds.

use crate::metrics::custom::CustomPort;
use crate::run::{AgentError, FetchError, Host, HttpCall, HttpReply};
use futures_util::future::LocalBoxFuture;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// The object `pkg/lib/wasm/run.js` passes in.
    pub type JsHost;
    #[wasm_bindgen(method)]
    fn fetch(this: &JsHost, url: &str, headers: &str, body: &str, timeout_ms: f64) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn sleep(this: &JsHost, ms: f64) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn now(this: &JsHost) -> f64;
    #[wasm_bindgen(method)]
    fn random(this: &JsHost) -> f64;
    #[wasm_bindgen(method)]
    fn agent(this: &JsHost, turn: &str) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn emit(this: &JsHost, event: &str);
    #[wasm_bindgen(method)]
    fn aborted(this: &JsHost) -> bool;
    #[wasm_bindgen(method, js_name = hasCustom)]
    fn has_custom(this: &JsHost, name: &str) -> bool;
    #[wasm_bindgen(method)]
    fn custom(this: &JsHost, name: &str, payload: &str) -> js_sys::Promise;
}

pub struct WasmHost(pub JsHost);

/// Why a host callback's answer could not be read.
enum AnswerError {
    /// Over `maxReplyBytes` or the parse budget: refused before (or instead of) parsing.
    TooLarge(String),
    Other(String),
}

impl AnswerError {
    fn message(self) -> String {
        match self {
            AnswerError::TooLarge(m) | AnswerError::Other(m) => m,
        }
    }
}

async fn text_of(p: js_sys::Promise) -> Result<Value, AnswerError> {
    let v = JsFuture::from(p)
        .await
        .map_err(|_| AnswerError::Other("the host callback rejected".to_string()))?;
    // Measure before copying: a huge answer is refused without bringing it into wasm memory.
    let units = v.dyn_ref::<js_sys::JsString>().map_or(0, js_sys::JsString::length);
    if !crate::schema::budget::reply_may_fit(u64::from(units)) {
        return Err(AnswerError::TooLarge(format!(
            "the answer is too large ({units} UTF-16 code units, over the limit of {} bytes; raise `maxReplyBytes` with setLimits)",
            crate::schema::budget::limits().max_reply_bytes
        )));
    }
    let s = v
        .as_string()
        .ok_or_else(|| AnswerError::Other("the host callback resolved to a non-string".to_string()))?;
    crate::schema::budget::check(&s, "the answer").map_err(|e| AnswerError::TooLarge(e.message))?;
    serde_json::from_str(&s).map_err(|e| AnswerError::Other(format!("the host callback's answer is not JSON: {e}")))
}

fn error_of(v: &Value) -> Option<(String, String)> {
    let e = v.get("error")?;
    Some((
        e.get("kind").and_then(Value::as_str).unwrap_or("failed").to_string(),
        e.get("message").and_then(Value::as_str).unwrap_or("").to_string(),
    ))
}

/// The host's sleep. Dropped before it ends (the core stopped waiting: a judge call answered
/// before its timeout timer), it calls the promise's `cancel()`, so the host's timer goes too.
struct Sleep {
    wait: JsFuture,
    promise: js_sys::Promise,
    done: bool,
}

impl std::future::Future for Sleep {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        match std::pin::Pin::new(&mut self.wait).poll(cx) {
            std::task::Poll::Ready(_) => {
                self.done = true;
                std::task::Poll::Ready(())
            }
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let cancel = js_sys::Reflect::get(&self.promise, &JsValue::from_str("cancel")).ok();
        if let Some(f) = cancel.as_ref().and_then(|c| c.dyn_ref::<js_sys::Function>()) {
            let _ = f.call0(&self.promise);
        }
    }
}

impl Host for WasmHost {
    fn fetch(&self, call: HttpCall) -> LocalBoxFuture<'_, Result<HttpReply, FetchError>> {
        let headers = serde_json::to_string(&call.headers).unwrap_or_else(|_| "[]".into());
        let p = self.0.fetch(&call.url, &headers, &call.body, call.timeout_ms);
        Box::pin(async move {
            let v = text_of(p).await.map_err(|e| match e {
                AnswerError::TooLarge(m) => FetchError::TooLarge(m),
                AnswerError::Other(m) => FetchError::NotAResponse(m),
            })?;
            if let Some((kind, message)) = error_of(&v) {
                return Err(match kind.as_str() {
                    "timeout" => FetchError::Timeout,
                    "aborted" => FetchError::Aborted,
                    "thrown" => FetchError::Thrown(message),
                    "not_response" => FetchError::NotAResponse(message),
                    "unreachable" => FetchError::Unreachable(message),
                    _ => FetchError::Network(message),
                });
            }
            let status = v.get("status").and_then(Value::as_u64).unwrap_or(0) as u16;
            let headers = v
                .get("headers")
                .and_then(Value::as_array)
                .map(|hs| {
                    hs.iter()
                        .filter_map(|h| {
                            let k = h.get(0)?.as_str()?.to_string();
                            let v = h.get(1)?.as_str()?.to_string();
                            Some((k, v))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let body = v.get("body").and_then(Value::as_str).unwrap_or("").to_string();
            Ok(HttpReply { status, headers, body })
        })
    }

    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        let promise = self.0.sleep(ms);
        Box::pin(Sleep {
            wait: JsFuture::from(promise.clone()),
            promise,
            done: false,
        })
    }

    fn now_ms(&self) -> f64 {
        self.0.now()
    }

    fn random(&self) -> f64 {
        self.0.random()
    }

    fn agent(&self, turn_json: String) -> LocalBoxFuture<'_, Result<String, AgentError>> {
        let p = self.0.agent(&turn_json);
        Box::pin(async move {
            let v = text_of(p).await.map_err(|e| AgentError::failed(e.message()))?;
            if let Some((kind, message)) = error_of(&v) {
                return Err(if kind == "aborted" {
                    AgentError::Aborted
                } else {
                    let stack = v.pointer("/error/stack").and_then(Value::as_str).map(str::to_string);
                    AgentError::Failed { message, stack }
                });
            }
            Ok(v.get("ok").map(Value::to_string).unwrap_or_else(|| "null".into()))
        })
    }

    fn emit(&self, event_json: String) {
        self.0.emit(&event_json);
    }

    fn aborted(&self) -> bool {
        self.0.aborted()
    }
}

/// Custom metrics through the same host object.
pub struct WasmCustom<'a>(pub &'a JsHost);

impl CustomPort for WasmCustom<'_> {
    fn has(&self, name: &str) -> bool {
        self.0.has_custom(name)
    }

    fn call(&self, name: &str, payload: String) -> LocalBoxFuture<'_, Result<String, String>> {
        let p = self.0.custom(name, &payload);
        Box::pin(async move {
            let v = text_of(p).await.map_err(AnswerError::message)?;
            if let Some((_, message)) = error_of(&v) {
                return Err(message);
            }
            Ok(v.get("ok").map(Value::to_string).unwrap_or_else(|| "null".into()))
        })
    }
}
