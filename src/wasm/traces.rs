//! The trace import's exports in the extras module (src/wasm/extras.rs): the import adds ~80 KB
//! gzip, past the main module's size ceiling, for something most runs never call.

use crate::api;
use wasm_bindgen::prelude::*;

/// `loadTraces(inputs, options)`: the inputs' bytes joined, with each one's length (OTLP/JSON
/// text or protobuf); `options` is `{"sessionIds"?}` JSON or "". Returns an envelope.
#[wasm_bindgen(js_name = loadTracesBytes)]
pub fn load_traces_bytes(joined: &[u8], lens: &[u32], options: &str) -> String {
    api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::load_traces(&inputs, options)))
}

/// `tracesToEvalSet(inputs, options)`: as [`load_traces_bytes`]; `options` is `{"evalSetId",
/// "sessionIds"?, "text"?}` JSON. Returns an envelope.
#[wasm_bindgen(js_name = tracesToEvalSetBytes)]
pub fn traces_to_eval_set_bytes(joined: &[u8], lens: &[u32], options: &str) -> String {
    api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::traces_to_eval_set(&inputs, options)))
}

/// `traceIndex(inputs)`: as [`load_traces_bytes`], without options. Returns an envelope.
#[wasm_bindgen(js_name = traceIndexBytes)]
pub fn trace_index_bytes(joined: &[u8], lens: &[u32]) -> String {
    api::envelope(api::split_inputs(joined, lens).and_then(|inputs| api::trace_index(&inputs)))
}
