//! Deserialization helpers for pydantic's rules that serde's derive does not have: structs only
//! from JSON objects (serde would also take an array, positionally), list fields that may be
//! absent but not null, and lax numbers (`true` is 1, `"2.5"` is 2.5).

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
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

pub fn vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Vec::<Obj<T>>::deserialize(d).map(|v| v.into_iter().map(|o| o.0).collect())
}

pub fn opt_vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    Option::<Vec<Obj<T>>>::deserialize(d).map(|o| o.map(|v| v.into_iter().map(|o| o.0).collect()))
}

/// A value that may be absent (`#[serde(default)]` gives None) but not null.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A list that may be absent (`#[serde(default)]` gives None) but not null.
pub fn present_vec_obj<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    vec_obj(d).map(Some)
}

/// A number as pydantic's lax float reads it: numbers, booleans, numeric strings.
#[derive(Clone, Copy)]
pub struct LaxF64(pub f64);

impl<'de> Deserialize<'de> for LaxF64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        super::config::lax_float(&v)
            .filter(|_| !v.is_null())
            .map(LaxF64)
            .ok_or_else(|| de::Error::custom(format!("expected a number, found {}", super::config::kind(&v))))
    }
}

pub fn lax_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    LaxF64::deserialize(d).map(|x| x.0)
}

pub fn opt_lax_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<LaxF64>::deserialize(d).map(|o| o.map(|x| x.0))
}

/// An integer as pydantic's lax int reads it: integers, whole floats, booleans, integer strings.
pub fn opt_lax_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    let Some(v) = v else { return Ok(None) };
    let n = match &v {
        serde_json::Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e18)
                .map(|f| f as i64)
        }),
        serde_json::Value::Bool(b) => Some(i64::from(*b)),
        serde_json::Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    n.map(Some)
        .ok_or_else(|| de::Error::custom(format!("expected an integer, found {}", super::config::kind(&v))))
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
        let h = serde_json::from_str::<Holder>(r#"{"s": {}, "x": "2.5"}"#).unwrap();
        assert_eq!(h.x, Some(2.5));
        assert!(serde_json::from_str::<Holder>(r#"{"s": {}, "x": "abc"}"#).is_err());
    }
}
