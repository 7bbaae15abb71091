//! OTLP/JSON's value encodings, as the protobuf JSON mapping allows them: 64-bit integers as
//! numbers or strings, doubles as numbers or "NaN"-style strings, enums as numbers or names,
//! `AnyValue` objects in all their variants, and strings borrowed from the input where they can.

use super::model::{Attrs, Value};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// A `uint64`/`fixed64` as the protobuf JSON mapping allows it: a decimal string or a number.
pub(super) fn u64_lax<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
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
pub(super) fn status_code<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
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
pub(super) struct Any<'a>(pub(super) Value<'a>);

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
                #[cfg(feature = "traces-raw")]
                "stringValue" | "string_value" => string_value(map.next_value::<&'a serde_json::value::RawValue>()?)?,
                #[cfg(not(feature = "traces-raw"))]
                "stringValue" | "string_value" => Value::Str(map.next_value::<Str<'a>>()?.0),
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
#[cfg(feature = "traces-raw")]
const DECODE_NOW: usize = 4096;

/// A `stringValue` from its JSON literal: borrowed when it has no escapes, decoded when short,
/// else kept as the literal ([`Value::Raw`]): ADK's `call_llm` spans carry each request's whole
/// history, escaped, and only the first is ever read.
#[cfg(feature = "traces-raw")]
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
pub(super) fn attrs<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> std::result::Result<Attrs<'a>, D::Error> {
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
