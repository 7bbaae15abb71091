// The public API over the raw wasm exports: values in, JSON text across, envelopes unwrapped.
//
// Every raw export takes JSON text and returns `{"ok": value}` or
// `{"error": {code, path, message}}`; this file turns inputs into that text (strings pass as
// they are, bytes are decoded, anything else is JSON.stringify'd) and errors into EvalError.
import * as raw from '../wasm/evalcore_core.js';
import { EvalError, fromWire } from './errors.js';
import { ensureReady } from './state.js';

export { EvalError };

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Text longer than this is refused before it crosses into wasm. Copying it in needs up to
// 3 bytes per UTF-16 unit of linear memory at once, and parsing copies again; near 2^28 units a
// wasm32 instance runs out of its 4 GiB and the allocation failure aborts (a trap). 2^27 units
// (128 Mi, at most 384 MiB of UTF-8) was measured to load safely; real eval sets are far smaller.
const MAX_TEXT_LENGTH = 2 ** 27;

function checkLength(text, what) {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${what}: ${text.length} UTF-16 code units exceed the limit of ${MAX_TEXT_LENGTH}`);
  }
  return text;
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

// JSON.stringify writes -0 as "0". A config's threshold of -0.0 is echoed back in every result
// (ADK keeps the sign), so configs are written with a replacer that keeps it; a random tag makes
// the placeholder impossible to meet in real data. Other inputs skip the replacer (it doubles
// the cost of stringify, and nothing else echoes a signed zero).
const NEG_ZERO = `\u0000evalcore:-0:${Math.random().toString(36).slice(2)}\u0000`;
const NEG_ZERO_JSON = JSON.stringify(NEG_ZERO);
const keepNegativeZero = (key, v) => (v === 0 && 1 / v < 0 ? NEG_ZERO : v);

/** JSON text for the core. `what` names the argument in messages; `exact` keeps -0. */
function toJson(value, what, exact = false) {
  if (typeof value === 'string') {
    // wasm-bindgen would silently replace a lone surrogate with U+FFFD; JSON.stringify escapes
    // it and the core rejects the escape. Reject both the same way.
    if (typeof value.isWellFormed === 'function' && !value.isWellFormed()) {
      throw new EvalError('invalid_json', '', `${what}: the text contains a lone UTF-16 surrogate, which is not valid Unicode`);
    }
    return checkLength(value, what);
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    // UTF-8 takes 1 to 3 bytes per UTF-16 unit: past 3x the limit the text cannot fit.
    if (value.byteLength > 3 * MAX_TEXT_LENGTH) {
      throw new EvalError('too_large', '', `${what}: ${value.byteLength} bytes exceed the limit of ${MAX_TEXT_LENGTH} UTF-16 code units`);
    }
    let text;
    try {
      text = utf8.decode(value);
    } catch (cause) {
      throw new EvalError('invalid_json', '', `${what}: the bytes are not valid UTF-8`, { cause });
    }
    return checkLength(text, what);
  }
  return stringify(value, what, exact);
}

/** JSON.stringify with its failures (cycles, BigInt, depth, size) as EvalError. */
function stringify(value, what, exact = false) {
  let text;
  try {
    text = exact ? JSON.stringify(value, keepNegativeZero) : JSON.stringify(value);
  } catch (cause) {
    if (cause instanceof RangeError && /string length/i.test(cause.message)) {
      throw new EvalError('too_large', '', `${what}: the value is too large to write as JSON text`, { cause });
    }
    const why = cause instanceof RangeError
      ? 'it nests too deeply'
      : String(cause && cause.message ? cause.message : cause);
    throw new EvalError('invalid_json', '', `${what}: the value cannot be written as JSON (${why})`, { cause });
  }
  if (text === undefined) {
    throw new EvalError('invalid_json', '', `${what}: expected JSON text or a JSON value, found ${describe(value)}`);
  }
  checkLength(text, what);
  return exact && text.includes(NEG_ZERO_JSON) ? text.replaceAll(NEG_ZERO_JSON, '-0.0') : text;
}

/** JSON text to embed as a member of a larger JSON object: raw strings must not be blank. */
function toMember(value, what, exact = false) {
  const text = toJson(value, what, exact);
  if (typeof value === 'string' && text.trim() === '') {
    throw new EvalError('invalid_json', '', `${what}: expected JSON text, found an empty string`);
  }
  return text;
}

/** `{"ok": v}` → v; `{"error": e}` → throws EvalError. */
function unwrap(text) {
  const envelope = JSON.parse(text);
  if (envelope !== null && typeof envelope === 'object') {
    if ('error' in envelope) {
      const err = fromWire(envelope.error);
      // Start the stack at the public function, not inside this file's plumbing.
      if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(err, unwrap);
      throw err;
    }
    if ('ok' in envelope) return envelope.ok;
  }
  throw new EvalError('internal', '', 'evalcore: the core returned neither "ok" nor "error"');
}

function requireObject(args, fn) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new EvalError('schema', '', `${fn}: expected an options object, found ${describe(args)}`);
  }
}

/** The args JSON of evaluateInvocations / PreparedCase.fromJson, built without re-parsing inputs. */
function caseArgs(args, fn, withConfig) {
  requireObject(args, fn);
  const { evalCase, actual, config, evalSetId, includeInvocations, perInvocation, efficiencyMetrics } = args;
  const members = [];
  // An absent member is left out so the core reports it with its own path.
  if (evalCase !== undefined) members.push(`"evalCase":${toMember(evalCase, 'evalCase')}`);
  if (actual !== undefined) members.push(`"actual":${toMember(actual, 'actual')}`);
  if (withConfig && config !== undefined && config !== null) {
    members.push(`"config":${toMember(config, 'config', true)}`);
  }
  if (evalSetId !== undefined && evalSetId !== null) members.push(`"evalSetId":${stringify(evalSetId, 'evalSetId')}`);
  if (withConfig && includeInvocations !== undefined) {
    members.push(`"includeInvocations":${stringify(includeInvocations, 'includeInvocations')}`);
  }
  if (withConfig && perInvocation !== undefined) {
    members.push(`"perInvocation":${stringify(perInvocation, 'perInvocation')}`);
  }
  if (withConfig && efficiencyMetrics !== undefined) {
    members.push(`"efficiencyMetrics":${stringify(efficiencyMetrics, 'efficiencyMetrics')}`);
  }
  return checkLength(`{${members.join(',')}}`, fn);
}

/**
 * Parses an eval set in any shape found in practice (current schema, legacy test-file list,
 * legacy named list) and returns the current schema, normalised to snake_case.
 */
export function loadEvalSet(input, options) {
  ensureReady();
  const opts = options === undefined || options === null ? '' : toJson(options, 'options');
  const bytes = asBytes(input, 'input');
  if (bytes) return unwrap(raw.loadEvalSetBytes(bytes, opts));
  return unwrap(raw.loadEvalSetJson(toJson(input, 'input'), opts));
}

/**
 * File contents as bytes go to the core as they are (it checks the UTF-8 itself): no decoding
 * to a JS string and encoding back, which costs about 3 ms per MB.
 */
function asBytes(input, what) {
  if (!(input instanceof Uint8Array) && !(input instanceof ArrayBuffer)) return null;
  if (input.byteLength > 3 * MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${what}: ${input.byteLength} bytes exceed the limit of ${MAX_TEXT_LENGTH} UTF-16 code units`);
  }
  return input instanceof ArrayBuffer ? new Uint8Array(input) : input;
}

/** Every problem of an eval set at once, each with its path. Never throws for bad data. */
export function validateEvalSet(input) {
  ensureReady();
  let text;
  let bytes;
  try {
    bytes = asBytes(input, 'input');
    if (!bytes) text = toJson(input, 'input');
  } catch (e) {
    if (e instanceof EvalError) return { ok: false, errors: [e] };
    throw e;
  }
  const report = JSON.parse(bytes ? raw.validateEvalSetBytes(bytes) : raw.validateEvalSetJson(text));
  const errors = Array.isArray(report.errors) ? report.errors.map(fromWire) : [];
  return { ok: report.ok === true && errors.length === 0, errors };
}

/** An eval config with criteria in object form; undefined/null gives ADK's default criteria. */
export function loadEvalConfig(input) {
  ensureReady();
  return unwrap(raw.loadEvalConfigJson(input === undefined || input === null ? '' : toJson(input, 'input', true)));
}

/** ADK 2.13's response_match_score arithmetic (ROUGE-1 with NLTK-mode Porter stemming). */
export function rouge1(candidate, reference) {
  ensureReady();
  if (typeof candidate !== 'string') {
    throw new EvalError('schema', '', `rouge1: candidate must be a string, found ${describe(candidate)}`);
  }
  if (typeof reference !== 'string') {
    throw new EvalError('schema', '', `rouge1: reference must be a string, found ${describe(reference)}`);
  }
  checkLength(candidate, 'rouge1: candidate');
  checkLength(reference, 'rouge1: reference');
  const [precision, recall, fmeasure] = raw.rouge1(candidate, reference);
  return { precision, recall, fmeasure };
}

/**
 * ROUGE-1 of many pairs in one call across the wasm boundary (what bulk scoring wants):
 * `pairs` is `[[candidate, reference], ...]`; the result has one Float64Array per measure.
 */
export function rouge1Batch(pairs) {
  ensureReady();
  if (!Array.isArray(pairs)) {
    throw new EvalError('schema', '', `rouge1Batch: expected an array of [candidate, reference] pairs, found ${describe(pairs)}`);
  }
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i];
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string') {
      throw new EvalError('schema', `$[${i}]`, `rouge1Batch: pair ${i} must be [candidate: string, reference: string], found ${describe(p)}`);
    }
  }
  const lens = new Uint32Array(2 * pairs.length);
  const texts = new Array(2 * pairs.length);
  for (let i = 0; i < pairs.length; i++) {
    const [c, r] = pairs[i];
    if ((typeof c.isWellFormed === 'function' && !c.isWellFormed()) || (typeof r.isWellFormed === 'function' && !r.isWellFormed())) {
      throw new EvalError('invalid_json', `$[${i}]`, `rouge1Batch: pair ${i} contains a lone UTF-16 surrogate, which is not valid Unicode`);
    }
    texts[2 * i] = c;
    texts[2 * i + 1] = r;
    lens[2 * i] = c.length;
    lens[2 * i + 1] = r.length;
  }
  const flat = raw.rouge1Batch(checkLength(texts.join(''), 'rouge1Batch'), lens);
  const n = pairs.length;
  const precision = new Float64Array(n);
  const recall = new Float64Array(n);
  const fmeasure = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    precision[i] = flat[3 * i];
    recall[i] = flat[3 * i + 1];
    fmeasure[i] = flat[3 * i + 2];
  }
  return { precision, recall, fmeasure };
}

/**
 * Scores one case without running an agent. `judge` is accepted for the LLM-judged metrics;
 * this build scores the deterministic ones and reports the others as NOT_EVALUATED.
 */
export async function evaluateInvocations(args) {
  ensureReady();
  return unwrap(raw.evaluateInvocationsJson(caseArgs(args, 'evaluateInvocations', true)));
}

/** A case parsed once, to be scored under many configs. Call free() when done (or rely on GC). */
class PreparedCase {
  #handle;

  constructor(handle) {
    this.#handle = handle;
  }

  evaluate(config, options) {
    ensureReady();
    if (this.#handle === null) throw new Error('evalcore: this PreparedCase has been freed');
    const cfg = config === undefined || config === null ? '' : toJson(config, 'config', true);
    let opts = '';
    if (options !== undefined && options !== null) {
      requireObject(options, 'PreparedCase.evaluate');
      const { includeInvocations, perInvocation, efficiencyMetrics } = options;
      if (includeInvocations !== undefined || perInvocation !== undefined || efficiencyMetrics !== undefined) {
        opts = stringify({ includeInvocations, perInvocation, efficiencyMetrics }, 'options');
      }
    }
    return unwrap(this.#handle.evaluateJson(cfg, opts));
  }

  free() {
    if (this.#handle !== null) {
      this.#handle.free();
      this.#handle = null;
    }
  }
}
if (typeof Symbol.dispose === 'symbol') {
  PreparedCase.prototype[Symbol.dispose] = PreparedCase.prototype.free;
}

/** Parses `evalCase` + `actual` once; `evaluate(config)` then scores without re-parsing. */
export function prepareCase(args) {
  ensureReady();
  const text = caseArgs(args, 'prepareCase', false);
  let handle;
  try {
    handle = raw.PreparedCase.fromJson(text);
  } catch (e) {
    // The core throws its error envelope as a string.
    if (typeof e === 'string') {
      unwrap(e);
      throw new EvalError('internal', '', 'evalcore: PreparedCase.fromJson failed without an error');
    }
    throw e;
  }
  return new PreparedCase(handle);
}

/** ADK's console summary (and with `{detailed: true}` the per-case tables) as text. */
export function formatReport(results, options) {
  ensureReady();
  let list = results;
  if (list !== null && typeof list === 'object' && !Array.isArray(list)
    && !(list instanceof Uint8Array) && !(list instanceof ArrayBuffer) && 'eval_case_results' in list) {
    list = list.eval_case_results;
  }
  const opts = options === undefined || options === null ? '' : toJson(options, 'options');
  return unwrap(raw.formatReportJson(toJson(list, 'results'), opts));
}

/** The Rust crate's version, for diagnostics. */
export function coreVersion() {
  ensureReady();
  return raw.coreVersion();
}
