//! OTLP/JSON: `ExportTraceServiceRequest` / `ExportLogsServiceRequest` objects as the OTLP/HTTP
//! exporters send them, one or several (JSON lines, as the collector's file exporter writes).
//! OTLP's encoding rules: lowerCamelCase names (protobuf's original snake_case accepted too),
//! hex trace and span ids, 64-bit integers as strings or numbers, enums as numbers or names.

use super::model::{id_from_text, Attrs, Batch, LogRecord, Span, SpanEvent, Value};
use super::Warning;
use crate::error::{EvalError, Result};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

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

/// A `uint64`/`fixed64` as the protobuf JSON mapping allows it: a decimal string or a number.
fn u64_lax<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a 64-bit integer (a number or a decimal string)")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom("a time must not be negative"))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<u64, E> {
            if v >= 0.0 && v.fract() == 0.0 && v < 1.8e19 {
                Ok(v as u64)
            } else {
                Err(E::custom("a time must be a whole number of nanoseconds"))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<u64, E> {
            v.parse()
                .map_err(|_| E::custom(format!("{v:?} is not a 64-bit unsigned integer")))
        }
        fn visit_unit<E: de::Error>(self) -> std::result::Result<u64, E> {
            Ok(0)
        }
    }
    d.deserialize_any(V)
}

/// `status.code`: whether it is STATUS_CODE_ERROR (2), given as a number or a name.
fn status_code<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a status code")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<bool, E> {
            Ok(v == 2)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<bool, E> {
            Ok(v == 2)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<bool, E> {
            Ok(v == "STATUS_CODE_ERROR" || v == "2")
        }
        fn visit_unit<E: de::Error>(self) -> std::result::Result<bool, E> {
            Ok(false)
        }
    }
    d.deserialize_any(V)
}

/// An `AnyValue` object (`{"stringValue": ...}`, `{"intValue": "5"}`, `{"kvlistValue": {"values": [...]}}`).
#[derive(Default)]
struct Any<'a>(Value<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for Any<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor(std::marker::PhantomData))
    }
}

struct AnyVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for AnyVisitor<'a> {
    type Value = Any<'a>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an OTLP AnyValue object")
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Any<'a>, E> {
        Ok(Any(Value::Empty))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Any<'a>, A::Error> {
        let mut out = Value::Empty;
        while let Some(Str(key)) = map.next_key::<Str<'a>>()? {
            out = match key.as_ref() {
                "stringValue" | "string_value" => string_value(map.next_value::<&'a serde_json::value::RawValue>()?)?,
                "boolValue" | "bool_value" => Value::Bool(map.next_value()?),
                "intValue" | "int_value" => Value::Int(map.next_value::<Lax>()?.0),
                "doubleValue" | "double_value" => Value::Double(map.next_value::<LaxF64>()?.0),
                "bytesValue" | "bytes_value" => {
                    let Str(s) = map.next_value::<Str<'a>>()?;
                    Value::Bytes(
                        super::model::unbase64(&s).ok_or_else(|| de::Error::custom("bytesValue is not base64"))?,
                    )
                }
                "arrayValue" | "array_value" => Value::Array(map.next_value::<Values<'a>>()?.0),
                "kvlistValue" | "kvlist_value" => Value::Map(map.next_value::<KvList<'a>>()?.0),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
        }
        Ok(Any(out))
    }
}

/// Longest escaped string decoded as it is read; longer ones stay JSON literals until needed.
const DECODE_NOW: usize = 4096;

/// A `stringValue` from its JSON literal: borrowed when it has no escapes, decoded when short,
/// else kept as the literal ([`Value::Raw`]): ADK's `call_llm` spans carry each request's whole
/// history, escaped, and only the first is ever read.
fn string_value<E: de::Error>(raw: &serde_json::value::RawValue) -> std::result::Result<Value<'_>, E> {
    let lit = raw.get();
    let inner = lit
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .ok_or_else(|| E::custom("stringValue must be a string"))?;
    if !inner.contains('\\') {
        Ok(Value::Str(Cow::Borrowed(inner)))
    } else if inner.len() < DECODE_NOW {
        serde_json::from_str::<String>(lit)
            .map(|s| Value::Str(Cow::Owned(s)))
            .map_err(E::custom)
    } else {
        Ok(Value::Raw(lit))
    }
}

/// A string, borrowed from the input when it has no escapes (serde's own `Cow` impl always copies).
struct Str<'a>(Cow<'a, str>);
impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Str<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> std::result::Result<Str<'a>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Str<'a>, E> {
                Ok(Str(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// An `int64` as a number or a decimal string.
struct Lax(i64);
impl<'de> Deserialize<'de> for Lax {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Lax;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a 64-bit integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Lax, E> {
                Ok(Lax(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Lax, E> {
                i64::try_from(v)
                    .map(Lax)
                    .map_err(|_| E::custom("intValue does not fit in 64 bits"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Lax, E> {
                v.parse()
                    .map(Lax)
                    .map_err(|_| E::custom(format!("intValue {v:?} is not an integer")))
            }
        }
        d.deserialize_any(V)
    }
}

/// A `double` as a number or one of protobuf JSON's strings ("NaN", "Infinity", "1.5").
struct LaxF64(f64);
impl<'de> Deserialize<'de> for LaxF64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LaxF64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a double")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<LaxF64, E> {
                Ok(LaxF64(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<LaxF64, E> {
                Ok(LaxF64(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<LaxF64, E> {
                Ok(LaxF64(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<LaxF64, E> {
                v.parse()
                    .map(LaxF64)
                    .map_err(|_| E::custom(format!("doubleValue {v:?} is not a number")))
            }
        }
        d.deserialize_any(V)
    }
}

/// `{"values": [AnyValue...]}`.
struct Values<'a>(Vec<Value<'a>>);
impl<'de: 'a, 'a> Deserialize<'de> for Values<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct W<'b> {
            #[serde(borrow)]
            values: Vec<Any<'b>>,
        }
        let w = W::deserialize(d)?;
        Ok(Values(w.values.into_iter().map(|a| a.0).collect()))
    }
}

/// `{"values": [KeyValue...]}`.
struct KvList<'a>(Attrs<'a>);
impl<'de: 'a, 'a> Deserialize<'de> for KvList<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct W<'b> {
            #[serde(borrow, deserialize_with = "attrs")]
            values: Attrs<'b>,
        }
        Ok(KvList(W::deserialize(d)?.values))
    }
}

/// `[{"key": ..., "value": AnyValue}...]`.
fn attrs<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> std::result::Result<Attrs<'a>, D::Error> {
    struct V<'a>(std::marker::PhantomData<&'a ()>);
    impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
        type Value = Attrs<'a>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of {key, value} attributes")
        }
        fn visit_unit<E: de::Error>(self) -> std::result::Result<Attrs<'a>, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Attrs<'a>, A::Error> {
            #[derive(Deserialize)]
            struct Kv<'b> {
                #[serde(borrow)]
                key: Cow<'b, str>,
                #[serde(borrow, default)]
                value: Any<'b>,
            }
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(4).min(64));
            while let Some(kv) = seq.next_element::<Kv<'a>>()? {
                out.push((kv.key, kv.value.0));
            }
            Ok(out)
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
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
