// OpenTelemetry traces in: OTLP/JSON (one request or JSON lines), OTLP protobuf bytes, or the
// request objects; the core reads them all and derives ADK's sessions (src/traces/).
//
// The import is in the extras module (pkg/lib/wasm/extras.js): the Node entry loads it on first use,
// the browser/worker entry needs `await initExtras()` once.
import { EvalError } from '../errors.js';
import { extras } from './exports.js';
import { describe, toJson, unwrap } from './wire.js';

const utf8 = new TextEncoder();

/** One input as bytes: text and objects as UTF-8 JSON, bytes as they are (JSON or protobuf). */
function bytesOf(input, at) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (typeof input === 'string') return utf8.encode(toJson(input, at));
  if (input !== null && typeof input === 'object') return utf8.encode(toJson(input, at));
  throw new EvalError('schema', '', `${at} is ${describe(input)}: give OTLP/JSON text, OTLP protobuf bytes or an OTLP request object`);
}

/** Every input (one, or an array of them) joined into one buffer, with each one's length. */
function joined(input) {
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw new EvalError('schema', '', 'no trace input given');
  const parts = list.map((x, i) => bytesOf(x, list.length > 1 ? `input ${i + 1}` : 'input'));
  const lens = new Uint32Array(parts.map((p) => p.byteLength));
  const all = new Uint8Array(lens.reduce((a, b) => a + b, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return [all, lens];
}

const opts = (options) => (options === undefined || options === null ? '' : toJson(options, 'options'));

/**
 * OpenTelemetry traces (ADK Python schema 1 and 2, ADK JS, GenAI semantic conventions, the AI
 * SDK's spans) as ADK sessions: `{ sessions: [{ session_id, app_name?, user_id?, source,
 * invocations, missing? }], warnings }`, the invocations as ADK derives them from a session.
 */
export function loadTraces(input, options) {
  const [bytes, lens] = joined(input);
  return unwrap(extras.loadTracesBytes(bytes, lens, opts(options)));
}

/**
 * Each recorded session as an eval case whose conversation is what it did (ADK's dev UI "add
 * session"): `{ evalSet, warnings, text? }`; `text: true` adds the set as ADK writes the file,
 * with numbers exactly as recorded.
 */
export function tracesToEvalSet(input, options) {
  const [bytes, lens] = joined(input);
  return unwrap(extras.tracesToEvalSetBytes(bytes, lens, opts(options)));
}

/**
 * The traces of a batch of spans without building sessions: `{ traces: [{ trace_id, session_id?,
 * spans, logs, root }], warnings }` (what an online receiver files a batch under).
 */
export function traceIndex(input) {
  const [bytes, lens] = joined(input);
  return unwrap(extras.traceIndexBytes(bytes, lens));
}
