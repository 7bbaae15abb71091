//! OTLP/JSON: `ExportTraceServiceRequest` / `ExportLogsServiceRequest` objects as the OTLP/HTTP
//! exporters send them, one or several (JSON lines, as the collector's file exporter writes).
//! OTLP's encoding rules: lowerCamelCase names (protobuf's original snake_case accepted too),
//! hex trace and span ids, 64-bit integers as strings or numbers, enums as numbers or names.

use super::json_values::{attrs, status_code, u64_lax, Any};
use super::model::{id_from_text, Attrs, Batch, LogRecord, Span, SpanEvent};
use super::Warning;
use crate::error::{EvalError, Result};
use serde::Deserialize;
use std::borrow::Cow;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Request<'a> {
    #[serde(borrow, alias = "resource_spans")]
    #[serde(rename = "resourceSpans")]
    resource_spans: Vec<ResourceSpans<'a>>,
    #[serde(borrow, alias = "resource_logs")]
    #[serde(rename = "resourceLogs")]
    resource_logs: Vec<ResourceLogs<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Resource<'a> {
    #[serde(borrow, deserialize_with = "attrs")]
    attributes: Attrs<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Scope<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourceSpans<'a> {
    #[serde(borrow)]
    resource: Resource<'a>,
    #[serde(
        borrow,
        rename = "scopeSpans",
        alias = "scope_spans",
        alias = "instrumentationLibrarySpans"
    )]
    scope_spans: Vec<ScopeSpans<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ScopeSpans<'a> {
    #[serde(borrow, alias = "instrumentationLibrary")]
    scope: Scope<'a>,
    #[serde(borrow)]
    spans: Vec<JSpan<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Status {
    #[serde(deserialize_with = "status_code")]
    code: bool,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JSpan<'a> {
    #[serde(borrow, rename = "traceId", alias = "trace_id")]
    trace_id: Cow<'a, str>,
    #[serde(borrow, rename = "spanId", alias = "span_id")]
    span_id: Cow<'a, str>,
    #[serde(borrow, rename = "parentSpanId", alias = "parent_span_id")]
    parent_span_id: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(
        rename = "startTimeUnixNano",
        alias = "start_time_unix_nano",
        deserialize_with = "u64_lax"
    )]
    start: u64,
    #[serde(
        rename = "endTimeUnixNano",
        alias = "end_time_unix_nano",
        deserialize_with = "u64_lax"
    )]
    end: u64,
    #[serde(borrow, deserialize_with = "attrs")]
    attributes: Attrs<'a>,
    #[serde(borrow)]
    events: Vec<JEvent<'a>>,
    status: Status,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JEvent<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(rename = "timeUnixNano", alias = "time_unix_nano", deserialize_with = "u64_lax")]
    time: u64,
    #[serde(borrow, deserialize_with = "attrs")]
    attributes: Attrs<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourceLogs<'a> {
    #[serde(borrow)]
    resource: Resource<'a>,
    #[serde(borrow, rename = "scopeLogs", alias = "scope_logs")]
    scope_logs: Vec<ScopeLogs<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ScopeLogs<'a> {
    #[serde(borrow, rename = "logRecords", alias = "log_records")]
    log_records: Vec<JLog<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JLog<'a> {
    #[serde(borrow, rename = "traceId", alias = "trace_id")]
    trace_id: Cow<'a, str>,
    #[serde(borrow, rename = "spanId", alias = "span_id")]
    span_id: Cow<'a, str>,
    #[serde(rename = "timeUnixNano", alias = "time_unix_nano", deserialize_with = "u64_lax")]
    time: u64,
    #[serde(borrow, rename = "eventName", alias = "event_name")]
    event_name: Cow<'a, str>,
    #[serde(borrow)]
    body: Any<'a>,
    #[serde(borrow, deserialize_with = "attrs")]
    attributes: Attrs<'a>,
}

/// Reads one or more OTLP/JSON requests (whitespace or newlines between them) into `batch`.
pub fn read<'a>(text: &'a str, batch: &mut Batch<'a>) -> Result<()> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Request<'a>>();
    let mut n = 0usize;
    loop {
        match stream.next() {
            None => break,
            Some(Ok(req)) => {
                flatten(req, n, batch);
                n += 1;
            }
            Some(Err(e)) => return Err(json_error(&e, n)),
        }
    }
    if n == 0 {
        return Err(EvalError::schema("$", "the input holds no OTLP request (it is empty)"));
    }
    Ok(())
}

fn json_error(e: &serde_json::Error, n: usize) -> EvalError {
    let what = if e.is_data() {
        "is not an OTLP request"
    } else {
        "is not valid JSON"
    };
    let code = if e.is_data() {
        crate::error::ErrorCode::Schema
    } else {
        crate::error::ErrorCode::InvalidJson
    };
    EvalError::new(
        code,
        if n == 0 { "$".to_string() } else { format!("$[{n}]") },
        format!(
            "request {} {what}: {e} (line {}, column {})",
            n + 1,
            e.line(),
            e.column()
        ),
    )
}

fn flatten<'a>(req: Request<'a>, n: usize, batch: &mut Batch<'a>) {
    let req_at = |rest: String| {
        if n == 0 {
            format!("${rest}")
        } else {
            format!("$[{n}]{rest}")
        }
    };
    for (r, rs) in req.resource_spans.into_iter().enumerate() {
        let resource = batch.resources.len();
        batch.resources.push(rs.resource.attributes);
        for (s, ss) in rs.scope_spans.into_iter().enumerate() {
            for (k, sp) in ss.spans.into_iter().enumerate() {
                let at = || req_at(format!(".resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"));
                let trace = id_from_text(&sp.trace_id, 16);
                let id = id_from_text(&sp.span_id, 8);
                let parent = if sp.parent_span_id.is_empty() {
                    Some(0)
                } else {
                    id_from_text(&sp.parent_span_id, 8)
                };
                let (Some(trace_id), Some(span_id), Some(parent)) = (trace, id, parent) else {
                    batch.warnings.push(Warning::bad_ids(at()));
                    continue;
                };
                batch.spans.push(Span {
                    trace_id,
                    span_id: span_id as u64,
                    parent: parent as u64,
                    name: sp.name,
                    start: sp.start,
                    end: sp.end.max(sp.start),
                    attrs: sp.attributes,
                    events: sp
                        .events
                        .into_iter()
                        .map(|e| SpanEvent {
                            name: e.name,
                            time: e.time,
                            attrs: e.attributes,
                        })
                        .collect(),
                    error: sp.status.code,
                    resource,
                    scope: ss.scope.name.clone(),
                    at: (n, r, s, k),
                });
            }
        }
    }
    for rl in req.resource_logs {
        let resource = batch.resources.len();
        batch.resources.push(rl.resource.attributes);
        for sl in rl.scope_logs {
            for l in sl.log_records {
                batch.logs.push(LogRecord {
                    trace_id: id_from_text(&l.trace_id, 16).unwrap_or(0),
                    span_id: id_from_text(&l.span_id, 8).unwrap_or(0) as u64,
                    time: l.time,
                    event_name: l.event_name,
                    body: l.body.0,
                    attrs: l.attributes,
                    resource,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Value;
    use super::*;

    #[test]
    fn reads_otlp_json_and_lines() {
        let one = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"s"}}]},
          "scopeSpans":[{"scope":{"name":"sc"},"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708",
          "name":"x","startTimeUnixNano":"1000","endTimeUnixNano":2000,"status":{"code":"STATUS_CODE_ERROR"},
          "attributes":[{"key":"i","value":{"intValue":"9007199254740993"}},{"key":"d","value":{"doubleValue":1.0}},
          {"key":"m","value":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{"values":[{"boolValue":true}]}}}]}}}]}]}]}]}"#;
        let text = format!("{one}\n{one}\n");
        let mut b = Batch::default();
        read(&text, &mut b).unwrap();
        assert_eq!(b.spans.len(), 2);
        let s = &b.spans[0];
        assert_eq!(
            (s.start, s.end, s.error, s.span_id),
            (1000, 2000, true, 0x0102030405060708)
        );
        assert_eq!(s.attrs[0].1, Value::Int(9007199254740993));
        assert_eq!(s.attrs[2].1.to_json().to_string(), r#"{"a":[true]}"#);
        assert_eq!(b.spans[1].at.0, 1);
    }

    #[test]
    fn errors_say_where() {
        let mut b = Batch::default();
        let e = read("{\"resourceSpans\": [\n  {\"scopeSpans\": [}]}", &mut b).unwrap_err();
        assert!(e.message.contains("line 2"), "{}", e.message);
        let e = read("", &mut b).unwrap_err();
        assert_eq!(e.path, "$");
        let mut b = Batch::default();
        read(
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz","spanId":"01"}]}]}]}"#,
            &mut b,
        )
        .unwrap();
        assert!(b.spans.is_empty());
        assert_eq!(b.warnings[0].path, "$.resourceSpans[0].scopeSpans[0].spans[0]");
    }
}
