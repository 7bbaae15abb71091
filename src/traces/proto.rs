//! OTLP protobuf, OTLP/HTTP's default body: `ExportTraceServiceRequest` and
//! `ExportLogsServiceRequest`, read by a small wire-format reader that knows only these
//! messages (field numbers from opentelemetry-proto's trace/v1, logs/v1 and common/v1).
//! Unknown fields are skipped, as protobuf requires; a truncated or malformed message is an
//! error naming the byte offset.

use super::model::{id_from_bytes, Attrs, Batch, LogRecord, Span, SpanEvent, Value};
use super::Warning;
use crate::error::{ErrorCode, EvalError, Result};
use std::borrow::Cow;

/// AnyValue nesting deeper than this is refused (a hostile message could nest without bound).
const MAX_DEPTH: u32 = 64;

enum Wire<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32,
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf` in the whole input, for messages.
    base: usize,
}

fn bad(at: usize, what: &str) -> EvalError {
    EvalError::new(
        ErrorCode::InvalidProtobuf,
        "",
        format!("the protobuf input is malformed at byte {at}: {what}"),
    )
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8], base: usize) -> Self {
        Reader { buf, pos: 0, base }
    }

    fn at(&self) -> usize {
        self.base + self.pos
    }

    fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self
                .buf
                .get(self.pos)
                .ok_or_else(|| bad(self.at(), "it ends inside a varint"))?;
            self.pos += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(bad(self.at(), "a varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.buf.len());
        let end = end.ok_or_else(|| bad(self.at(), "a field runs past the end of its message (truncated input?)"))?;
        let out = self.buf.get(self.pos..end).ok_or_else(|| bad(self.at(), "truncated"))?;
        self.pos = end;
        Ok(out)
    }

    /// The next field, or None at the end of the message.
    fn next(&mut self) -> Result<Option<(u64, Wire<'a>, usize)>> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let (field, wire) = (key >> 3, key & 7);
        if field == 0 {
            return Err(bad(self.at(), "field number 0"));
        }
        let start = self.at();
        let w = match wire {
            0 => Wire::Varint(self.varint()?),
            1 => {
                let b = self.take(8)?;
                Wire::Fixed64(b.iter().rev().fold(0u64, |acc, x| (acc << 8) | *x as u64))
            }
            2 => {
                let n = usize::try_from(self.varint()?).map_err(|_| bad(start, "a length past the address space"))?;
                let at = self.at();
                return Ok(Some((field, Wire::Bytes(self.take(n)?), at)));
            }
            5 => {
                self.take(4)?;
                Wire::Fixed32
            }
            _ => {
                return Err(bad(
                    start,
                    "a wire type this format does not use (groups or an unknown type)",
                ))
            }
        };
        Ok(Some((field, w, start)))
    }
}

fn text(b: &[u8], at: usize) -> Result<Cow<'_, str>> {
    std::str::from_utf8(b)
        .map(Cow::Borrowed)
        .map_err(|_| bad(at, "a string field is not UTF-8"))
}

/// Calls `f` for each field of the message `buf` (at input offset `base`).
fn each<'a>(buf: &'a [u8], base: usize, mut f: impl FnMut(u64, Wire<'a>, usize) -> Result<()>) -> Result<()> {
    let mut r = Reader::new(buf, base);
    while let Some((field, w, at)) = r.next()? {
        f(field, w, at)?;
    }
    Ok(())
}

fn any(buf: &[u8], base: usize, depth: u32) -> Result<Value<'_>> {
    if depth > MAX_DEPTH {
        return Err(bad(base, "attribute values nest too deeply"));
    }
    let mut out = Value::Empty;
    each(buf, base, |field, w, at| {
        out = match (field, w) {
            (1, Wire::Bytes(b)) => Value::Str(text(b, at)?),
            (2, Wire::Varint(v)) => Value::Bool(v != 0),
            (3, Wire::Varint(v)) => Value::Int(v as i64),
            (4, Wire::Fixed64(v)) => Value::Double(f64::from_bits(v)),
            (5, Wire::Bytes(b)) => {
                let mut items = Vec::new();
                each(b, at, |f, w, at| {
                    if let (1, Wire::Bytes(b)) = (f, w) {
                        items.push(any(b, at, depth + 1)?);
                    }
                    Ok(())
                })?;
                Value::Array(items)
            }
            (6, Wire::Bytes(b)) => Value::Map(kvlist(b, at, depth + 1)?),
            (7, Wire::Bytes(b)) => Value::Bytes(b.to_vec()),
            _ => return Ok(()),
        };
        Ok(())
    })?;
    Ok(out)
}

fn key_value(buf: &[u8], base: usize, depth: u32) -> Result<(Cow<'_, str>, Value<'_>)> {
    let (mut key, mut value) = (Cow::Borrowed(""), Value::Empty);
    each(buf, base, |field, w, at| {
        match (field, w) {
            (1, Wire::Bytes(b)) => key = text(b, at)?,
            (2, Wire::Bytes(b)) => value = any(b, at, depth)?,
            _ => {}
        }
        Ok(())
    })?;
    Ok((key, value))
}

/// The `KeyValue` items of field `1` of a `KeyValueList`.
fn kvlist(buf: &[u8], base: usize, depth: u32) -> Result<Attrs<'_>> {
    let mut out = Vec::new();
    each(buf, base, |field, w, at| {
        if let (1, Wire::Bytes(b)) = (field, w) {
            out.push(key_value(b, at, depth)?);
        }
        Ok(())
    })?;
    Ok(out)
}

/// `Resource` (attributes = 1) or `InstrumentationScope` (name = 1) as wanted.
fn resource(buf: &[u8], base: usize) -> Result<Attrs<'_>> {
    let mut out = Vec::new();
    each(buf, base, |field, w, at| {
        if let (1, Wire::Bytes(b)) = (field, w) {
            out.push(key_value(b, at, 0)?);
        }
        Ok(())
    })?;
    Ok(out)
}

fn scope_name(buf: &[u8], base: usize) -> Result<Cow<'_, str>> {
    let mut name = Cow::Borrowed("");
    each(buf, base, |field, w, at| {
        if let (1, Wire::Bytes(b)) = (field, w) {
            name = text(b, at)?;
        }
        Ok(())
    })?;
    Ok(name)
}

/// The raw ids of a span, checked after the message is read.
#[derive(Default)]
struct Ids<'a> {
    trace: &'a [u8],
    span: &'a [u8],
    parent: &'a [u8],
}

fn span(buf: &[u8], base: usize) -> Result<(Span<'_>, Ids<'_>)> {
    let mut s = Span::default();
    let mut ids = Ids::default();
    each(buf, base, |field, w, at| {
        match (field, w) {
            (1, Wire::Bytes(b)) => ids.trace = b,
            (2, Wire::Bytes(b)) => ids.span = b,
            (4, Wire::Bytes(b)) => ids.parent = b,
            (5, Wire::Bytes(b)) => s.name = text(b, at)?,
            (7, Wire::Fixed64(v)) => s.start = v,
            (8, Wire::Fixed64(v)) => s.end = v,
            (9, Wire::Bytes(b)) => s.attrs.push(key_value(b, at, 0)?),
            (11, Wire::Bytes(b)) => {
                let mut e = SpanEvent::default();
                each(b, at, |f, w, at| {
                    match (f, w) {
                        (1, Wire::Fixed64(v)) => e.time = v,
                        (2, Wire::Bytes(b)) => e.name = text(b, at)?,
                        (3, Wire::Bytes(b)) => e.attrs.push(key_value(b, at, 0)?),
                        _ => {}
                    }
                    Ok(())
                })?;
                s.events.push(e);
            }
            (15, Wire::Bytes(b)) => each(b, at, |f, w, _| {
                if let (3, Wire::Varint(v)) = (f, w) {
                    s.error = v == 2;
                }
                Ok(())
            })?,
            (1 | 2 | 4 | 5 | 7 | 8 | 9 | 11 | 15, _) => return Err(bad(at, "a span field has the wrong wire type")),
            _ => {}
        }
        Ok(())
    })?;
    s.end = s.end.max(s.start);
    Ok((s, ids))
}

fn log_record<'a>(buf: &'a [u8], base: usize, resource: usize) -> Result<LogRecord<'a>> {
    let mut l = LogRecord {
        resource,
        ..LogRecord::default()
    };
    each(buf, base, |field, w, at| {
        match (field, w) {
            (1, Wire::Fixed64(v)) => l.time = v,
            (11, Wire::Fixed64(v)) if l.time == 0 => l.time = v,
            (5, Wire::Bytes(b)) => l.body = any(b, at, 0)?,
            (6, Wire::Bytes(b)) => l.attrs.push(key_value(b, at, 0)?),
            (9, Wire::Bytes(b)) => l.trace_id = id_from_bytes(b, 16).unwrap_or(0),
            (10, Wire::Bytes(b)) => l.span_id = id_from_bytes(b, 8).unwrap_or(0) as u64,
            (12, Wire::Bytes(b)) => l.event_name = text(b, at)?,
            (1 | 5 | 6 | 9 | 10 | 12, _) => return Err(bad(at, "a log record field has the wrong wire type")),
            _ => {}
        }
        Ok(())
    })?;
    Ok(l)
}

/// Reads an `ExportTraceServiceRequest` into `batch`.
fn read_traces<'a>(buf: &'a [u8], batch: &mut Batch<'a>) -> Result<()> {
    let mut r_i = 0;
    each(buf, 0, |field, w, at| {
        let (1, Wire::Bytes(rs)) = (field, w) else {
            return Ok(());
        };
        let resource_index = batch.resources.len();
        batch.resources.push(Vec::new());
        let mut s_i = 0;
        each(rs, at, |field, w, at| {
            match (field, w) {
                (1, Wire::Bytes(b)) => {
                    let attrs = resource(b, at)?;
                    if let Some(slot) = batch.resources.get_mut(resource_index) {
                        *slot = attrs;
                    }
                }
                (2 | 1000, Wire::Bytes(ss)) => {
                    let mut scope = Cow::Borrowed("");
                    let mut k = 0;
                    each(ss, at, |field, w, at| {
                        match (field, w) {
                            (1, Wire::Bytes(b)) => scope = scope_name(b, at)?,
                            (2, Wire::Bytes(b)) => {
                                let (mut s, ids) = span(b, at)?;
                                let path = || format!("$.resourceSpans[{r_i}].scopeSpans[{s_i}].spans[{k}]");
                                let parent = if ids.parent.is_empty() {
                                    Some(0)
                                } else {
                                    id_from_bytes(ids.parent, 8)
                                };
                                match (id_from_bytes(ids.trace, 16), id_from_bytes(ids.span, 8), parent) {
                                    (Some(t), Some(id), Some(p)) if t != 0 && id != 0 => {
                                        s.trace_id = t;
                                        s.span_id = id as u64;
                                        s.parent = p as u64;
                                        s.resource = resource_index;
                                        s.scope = scope.clone();
                                        s.at = (0, r_i, s_i, k);
                                        batch.spans.push(s);
                                    }
                                    _ => batch.warnings.push(Warning::bad_ids(path())),
                                }
                                k += 1;
                            }
                            _ => {}
                        }
                        Ok(())
                    })?;
                    s_i += 1;
                }
                _ => {}
            }
            Ok(())
        })?;
        r_i += 1;
        Ok(())
    })
}

/// Reads an `ExportLogsServiceRequest` into `batch`.
fn read_logs<'a>(buf: &'a [u8], batch: &mut Batch<'a>) -> Result<()> {
    each(buf, 0, |field, w, at| {
        let (1, Wire::Bytes(rl)) = (field, w) else {
            return Ok(());
        };
        let resource_index = batch.resources.len();
        batch.resources.push(Vec::new());
        each(rl, at, |field, w, at| {
            match (field, w) {
                (1, Wire::Bytes(b)) => {
                    let attrs = resource(b, at)?;
                    if let Some(slot) = batch.resources.get_mut(resource_index) {
                        *slot = attrs;
                    }
                }
                (2, Wire::Bytes(sl)) => each(sl, at, |field, w, at| {
                    if let (2, Wire::Bytes(b)) = (field, w) {
                        batch.logs.push(log_record(b, at, resource_index)?);
                    }
                    Ok(())
                })?,
                _ => {}
            }
            Ok(())
        })
    })
}

/// Reads OTLP protobuf: a trace request, or failing that a logs request (the two share their
/// outer shape; a span's first field is its id, a log record's its time).
pub fn read<'a>(buf: &'a [u8], batch: &mut Batch<'a>) -> Result<()> {
    let mut traces = Batch::default();
    match read_traces(buf, &mut traces) {
        Ok(()) => {
            batch.resources.append(&mut traces.resources);
            batch.spans.append(&mut traces.spans);
            batch.warnings.append(&mut traces.warnings);
            Ok(())
        }
        Err(e) => {
            let mut logs = Batch::default();
            if read_logs(buf, &mut logs).is_ok() && !logs.logs.is_empty() {
                let shift = batch.resources.len();
                batch.resources.append(&mut logs.resources);
                batch.logs.extend(logs.logs.into_iter().map(|mut l| {
                    l.resource += shift;
                    l
                }));
                Ok(())
            } else {
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u64, wire: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![((n << 3) | wire) as u8];
        if wire == 2 {
            out.push(payload.len() as u8);
        }
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn reads_a_span_and_refuses_truncation() {
        let kv = [field(1, 2, b"k"), field(2, 2, &field(3, 0, &[5]))].concat();
        let sp = [
            field(1, 2, &[1; 16]),
            field(2, 2, &[2; 8]),
            field(5, 2, b"call_llm"),
            field(7, 1, &10u64.to_le_bytes()),
            field(8, 1, &20u64.to_le_bytes()),
            field(9, 2, &kv),
        ]
        .concat();
        let ss = [field(1, 2, &field(1, 2, b"gcp.vertex.agent")), field(2, 2, &sp)].concat();
        let req = field(1, 2, &field(2, 2, &ss));
        let mut b = Batch::default();
        read(&req, &mut b).unwrap();
        assert_eq!(b.spans.len(), 1);
        assert_eq!(b.spans[0].name, "call_llm");
        assert_eq!(b.spans[0].scope, "gcp.vertex.agent");
        assert_eq!((b.spans[0].start, b.spans[0].end), (10, 20));
        assert_eq!(b.spans[0].attrs[0].1, Value::Int(5));
        for cut in 1..req.len() {
            let mut b = Batch::default();
            let _ = read(&req[..cut], &mut b); // never panics
        }
        let mut b = Batch::default();
        let e = read(&req[..req.len() - 3], &mut b).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidProtobuf);
    }
}
