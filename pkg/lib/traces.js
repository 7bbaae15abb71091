// OpenTelemetry traces in: OTLP/JSON (one request or JSON lines), OTLP protobuf bytes, or the
// request objects; the core reads them all and derives ADK's sessions (src/traces/).
//
// The import is its own wasm module (pkg/wasm-traces/, src/wasm/traces.rs), compiled on first
// use so the main module keeps to its size ceiling: the Node entry gives it the file's bytes and
// its glue; the browser/worker entry needs `await initTraces(source?)` once, which imports the
// glue then (so a page that never reads traces never loads it). An instance that traps, or holds
// more memory than the main module's ceiling after a call, is replaced by a fresh one.
import { EvalError } from './errors.js';
import { coreMemory, getLimits } from './api.js';
import { describe, toJson, unwrap } from './wire.js';

const utf8 = new TextEncoder();
let compiled = null; // WebAssembly.Module
let glue = null; // the live instance's glue
let readSource = null; // the Node entry's reader of the .wasm bytes
let createGlue = null; // the module's glue factory (scripts/glue-factory.mjs)

/** @internal The Node entry: the glue, and how to read the module's bytes when first needed. */
export function setTracesSource(read, glueFactory) {
  readSource = read;
  createGlue = glueFactory;
}

/**
 * Compiles the trace import's module (browser, worker): `source` is a `WebAssembly.Module`, the
 * .wasm bytes, a `Response` or a URL; without it, `evalcore_traces_bg.wasm` next to the glue is
 * fetched. The Node entry needs no call. Idempotent.
 */
export async function initTraces(source) {
  if (createGlue === null) createGlue = (await import('../wasm-traces/evalcore_traces_factory.js')).createGlue;
  if (compiled !== null) return;
  let s = source ?? new URL('../wasm-traces/evalcore_traces_bg.wasm', import.meta.url);
  if (s instanceof WebAssembly.Module) {
    compiled = s;
    return;
  }
  if (typeof s === 'string' || s instanceof URL) s = await fetch(s);
  if (s && typeof s.arrayBuffer === 'function') s = await s.arrayBuffer();
  compiled = await WebAssembly.compile(s);
}

function live() {
  if (glue !== null) return glue;
  if (createGlue === null || (compiled === null && readSource === null)) {
    throw new EvalError('not_initialised', '', 'evalcore: the trace import is a second wasm module: '
      + 'call `await initTraces()` once first (the Node entry loads it by itself)');
  }
  if (compiled === null) compiled = new WebAssembly.Module(readSource());
  const g = createGlue((exports) => exports);
  g.initSync({ module: compiled });
  glue = g;
  return g;
}

/** @internal The trace module's linear memory in bytes (0 before its first use), for benches. */
export function tracesMemory() {
  const ex = glue && glue.rawExports();
  return ex && ex.memory ? ex.memory.buffer.byteLength : 0;
}

/** The main module's limits and memory ceiling, when it is initialised (else the defaults). */
function mainSettings() {
  try {
    return [getLimits(), coreMemory().ceiling];
  } catch {
    return [null, 64 * 2 ** 20];
  }
}

/** One raw export; the main module's limits and memory ceiling apply here too. */
function call(name, ...args) {
  const g = live();
  const [limits, ceiling] = mainSettings();
  try {
    if (limits !== null) g.setLimitsJson(JSON.stringify(limits));
    return g[name](...args);
  } catch (e) {
    glue = null;
    throw new EvalError('trap', '', `evalcore: the trace module trapped (${e instanceof Error ? e.message : String(e)}); `
      + 'it was replaced, so the next call works', { cause: e });
  } finally {
    const ex = glue && glue.rawExports();
    if (ex && ex.memory && ex.memory.buffer.byteLength > ceiling) glue = null;
  }
}

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
  return unwrap(call('loadTracesBytes', bytes, lens, opts(options)));
}

/**
 * Each recorded session as an eval case whose conversation is what it did (ADK's dev UI "add
 * session"): `{ evalSet, warnings, text? }`; `text: true` adds the set as ADK writes the file,
 * with numbers exactly as recorded.
 */
export function tracesToEvalSet(input, options) {
  const [bytes, lens] = joined(input);
  return unwrap(call('tracesToEvalSetBytes', bytes, lens, opts(options)));
}
