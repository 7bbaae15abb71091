//! Deserialization helpers for pydantic's rules that serde's derive does not have: structs only
//! from JSON objects (serde would also take an array, positionally), list fields that may be
//! absent but not null, and lax numbers (`true` is 1, `"2.5"` is 2.5).

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// `T` read only from a JSON object.
pub struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(V(PhantomData)).map(Obj)
    }
}

pub fn obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Obj::deserialize(d).map(|o| o.0)
}

pub fn opt_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<Obj<T>>::deserialize(d).map(|o| o.map(|o| o.0))
}

pub fn opt_box_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Box<T>>, D::Error> {
    Option::<Obj<T>>::deserialize(d).map(|o| o.map(|o| Box::new(o.0)))
}

/// A list of objects, allocated to fit when it has one element: most part and tool-call lists
/// do, and serde's default would reserve room for four.
pub struct ObjList<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let Some(first) = seq.next_element::<Obj<T>>()? else {
                    return Ok(Vec::new());
                };
                let Some(second) = seq.next_element::<Obj<T>>()? else {
                    return Ok(vec![first.0]);
                };
                let mut v = Vec::with_capacity(4);
                v.push(first.0);
                v.push(second.0);
                while let Some(next) = seq.next_element::<Obj<T>>()? {
                    v.push(next.0);
                }
                Ok(v)
            }
        }
        d.deserialize_seq(V(PhantomData)).map(ObjList)
    }
}

pub fn vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    ObjList::deserialize(d).map(|l| l.0)
}

pub fn opt_vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    Option::<ObjList<T>>::deserialize(d).map(|o| o.map(|l| l.0))
}

/// A value that may be absent (`#[serde(default)]` gives None) but not null.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A list that may be absent (`#[serde(default)]` gives None) but not null.
pub fn present_vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    vec_obj(d).map(Some)
}

/// A role without an allocation for the two every conversation repeats.
pub fn role_of(s: &str) -> Cow<'static, str> {
    match s {
        "user" => Cow::Borrowed("user"),
        "model" => Cow::Borrowed("model"),
        other => Cow::Owned(other.to_string()),
    }
}

pub fn opt_role<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'static, str>>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Cow<'static, str>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(role_of(v)))
        }
    }
    d.deserialize_option(V)
}

/// A number as pydantic's lax float reads it: numbers, booleans, numeric strings.
#[derive(Clone, Copy)]
pub struct LaxF64(pub f64);

impl<'de> Deserialize<'de> for LaxF64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = LaxF64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<LaxF64, E> {
                Ok(LaxF64(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LaxF64, E> {
                Ok(LaxF64(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LaxF64, E> {
                Ok(LaxF64(v as f64))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<LaxF64, E> {
                Ok(LaxF64(if v { 1.0 } else { 0.0 }))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<LaxF64, E> {
                super::value::lax_float(&serde_json::Value::String(v.to_string()))
                    .map(LaxF64)
                    .ok_or_else(|| E::custom(format!("expected a number, found the string {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}

pub fn lax_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    LaxF64::deserialize(d).map(|x| x.0)
}

pub fn opt_lax_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<LaxF64>::deserialize(d).map(|o| o.map(|x| x.0))
}

/// An integer as pydantic's lax int reads it: integers, whole floats, booleans, integer strings.
struct LaxI64(i64);

impl<'de> Deserialize<'de> for LaxI64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = LaxI64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LaxI64, E> {
                Ok(LaxI64(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LaxI64, E> {
                i64::try_from(v)
                    .map(LaxI64)
                    .map_err(|_| E::custom("integer out of range"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<LaxI64, E> {
                if v.fract() == 0.0 && v.abs() < 9.0e18 {
                    Ok(LaxI64(v as i64))
                } else {
                    Err(E::custom(format!("expected an integer, found {v}")))
                }
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<LaxI64, E> {
                Ok(LaxI64(i64::from(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<LaxI64, E> {
                v.trim()
                    .parse()
                    .map(LaxI64)
                    .map_err(|_| E::custom(format!("expected an integer, found the string {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}

pub fn opt_lax_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<LaxI64>::deserialize(d).map(|o| o.map(|x| x.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug, Default)]
    #[serde(deny_unknown_fields)]
    struct S {
        #[serde(default)]
        a: Option<i64>,
    }

    #[derive(Deserialize, Debug)]
    struct Holder {
        #[serde(deserialize_with = "obj")]
        s: S,
        #[serde(default, deserialize_with = "opt_lax_f64")]
        x: Option<f64>,
    }

    #[test]
    fn objects_only_and_lax_numbers() {
        assert!(serde_json::from_str::<Holder>(r#"{"s": {"a": 1}, "x": true}"#).is_ok());
        assert!(serde_json::from_str::<Holder>(r#"{"s": [], "x": 1}"#).is_err());
        assert!(serde_json::from_str::<Holder>(r#"{"s": {"b": 1}}"#).is_err());
        let h = serde_json::from_str::<Holder>(r#"{"s": {"a": 3}, "x": "2.5"}"#).unwrap();
        assert_eq!((h.s.a, h.x), (Some(3), Some(2.5)));
        assert!(serde_json::from_str::<Holder>(r#"{"s": {}, "x": "abc"}"#).is_err());
    }
}
