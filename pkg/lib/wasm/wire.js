// Values to JSON text for the core and envelopes back: shared by the API and the run loop.
import { EvalError, fromWire } from '../errors.js';
import { extras, main } from './exports.js';

/** Throws `not_initialised` until the main module is ready (what every public call checks first). */
export { instance as ensureReady } from './instance.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Text longer than this is refused before it crosses into wasm. Copying it in needs up to
// 3 bytes per UTF-16 unit of linear memory at once, and parsing copies again; near 2^28 units a
// wasm32 instance runs out of its 4 GiB and the allocation failure aborts (a trap). 2^27 units
// (128 Mi, at most 384 MiB of UTF-8) was measured to load safely; real eval sets are far smaller.
export const MAX_TEXT_LENGTH = 2 ** 27;

export function checkLength(text, what) {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${what}: ${text.length} UTF-16 code units exceed the limit of ${MAX_TEXT_LENGTH}`);
  }
  return text;
}

export function describe(value) {
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
export function toJson(value, what, exact = false) {
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

/** A (candidate, reference) pair of texts, as the ROUGE functions take it: strings within the length limit. */
export function checkTextPair(fn, candidate, reference) {
  for (const [name, v] of [['candidate', candidate], ['reference', reference]]) {
    if (typeof v !== 'string') throw new EvalError('schema', '', `${fn}: ${name} must be a string, found ${describe(v)}`);
    checkLength(v, `${fn}: ${name}`);
  }
}

/** JSON.stringify with its failures (cycles, BigInt, depth, size) as EvalError. */
export function stringify(value, what, exact = false) {
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

// JSON.stringify writes a lone surrogate (and only a lone one) as an escape such as `\ud800`,
// which the core's UTF-8 JSON rejects. An escaped backslash before `u` is text.
const LONE_SURROGATE = /(?<=(?:^|[^\\])(?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * {@link stringify}, with each lone surrogate written as U+FFFD (as a string crossing into wasm
 * gets it from TextEncoder): for what must be shown whatever text it holds (reports).
 */
export function stringifyWellFormed(value, what, exact = false) {
  const text = stringify(value, what, exact);
  return text.includes('\\ud') ? text.replace(LONE_SURROGATE, '\\ufffd') : text;
}

/** JSON text to embed as a member of a larger JSON object: raw strings must not be blank. */
export function toMember(value, what, exact = false) {
  const text = toJson(value, what, exact);
  if (typeof value === 'string' && text.trim() === '') {
    throw new EvalError('invalid_json', '', `${what}: expected JSON text, found an empty string`);
  }
  return text;
}

/**
 * What a main-module export answers for a text only the extras module reads (an agents-cli
 * dataset or config, a legacy or @iqai/adk eval set: `api::TO_EXTRAS` in src/api): the skin
 * makes the same call there.
 */
export const TO_EXTRAS = '{"extras":true}';

/** The `ok` member's JSON text of a successful envelope (else it throws, as unwrap does). */
function okText(envelope, at) {
  if (envelope.startsWith('{"ok":')) return envelope.slice(6, -1);
  try {
    unwrap(envelope);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, e.path.replace(/^\$?/, at), e.message, { cause: e });
  }
  return 'null';
}

/**
 * An eval set as the main module's run loop reads it: a legacy list or an @iqai/adk set (a text
 * that may be one is asked about) is read by the extras module first, as `loadEvalSet` reads it.
 */
export function evalSetMember(evalSet) {
  const text = toMember(evalSet, 'evalSet');
  if (!/^[\s\ufeff]*\[/.test(text) && !text.includes('"evalSetId"') && !text.includes('"evalCases"')) return text;
  if (main.loadEvalSetJson(text, '') !== TO_EXTRAS) return text;
  return okText(extras.loadOtherEvalSetBytes(new TextEncoder().encode(text), ''), '$.evalSet');
}

/**
 * A config as the main module scores with it: agents-cli's (`metrics_to_run`, `custom_metrics`
 * as a list; a text that may be one is asked about) is converted by the extras module first, as
 * `loadEvalConfig` converts it.
 */
export function configMember(config, text = toMember(config, 'config', true)) {
  if (!text.includes('"metrics_to_run"') && !/"custom_metrics"\s*:\s*\[/.test(text)) return text;
  if (main.loadEvalConfigJson(text, '') !== TO_EXTRAS) return text;
  return okText(extras.loadAgentsCliConfigJson(text, ''), '$.config');
}

/** `{"ok": v}` → v; `{"error": e}` → throws EvalError. */
export function unwrap(text) {
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

export function requireObject(args, fn) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new EvalError('schema', '', `${fn}: expected an options object, found ${describe(args)}`);
  }
}

/** The args JSON of evaluateInvocations / PreparedCase.fromJson, built without re-parsing inputs. */
export function caseArgs(args, fn, withConfig, wire = null) {
  requireObject(args, fn);
  return caseMembers(args, fn, withConfig, wire, true);
}

function caseMembers(args, fn, withConfig, wire, large) {
  const { evalCase, actual, config, evalSetId, includeInvocations, perInvocation, efficiencyMetrics, explain, missing, session } = args;
  const members = [];
  // An absent member is left out so the core reports it with its own path.
  if (large && evalCase !== undefined) members.push(`"evalCase":${toMember(evalCase, 'evalCase')}`);
  if (large && actual !== undefined) members.push(`"actual":${toMember(actual, 'actual')}`);
  if (withConfig && config !== undefined && config !== null) {
    members.push(`"config":${configMember(config)}`);
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
  if (withConfig && explain !== undefined) members.push(`"explain":${stringify(explain, 'explain')}`);
  if (missing !== undefined && missing !== null) members.push(`"missing":${stringify(missing, 'missing')}`);
  if (session !== undefined && session !== null) members.push(`"session":${stringify(session, 'session')}`);
  // The skin's own wire (src/api/columns.rs): per-invocation results as columns, without the
  // invocations the skin already holds.
  if (wire !== null) {
    // `held` from an earlier result: refer to it; the caller's objects: only where they read the same.
    members.push(`"columns":true,"callerInvocations":${wire.held !== null && !wire.callerObjects}`);
    if (wire.callerObjects) members.push('"callerObjects":true');
  }
  return checkLength(`{${members.join(',')}}`, fn);
}


/**
 * {@link caseArgs} as three texts: `args.evalCase` and `args.actual` as JSON text (undefined when
 * left out, so the core reports them missing), and the other members as one JSON object. The
 * core parses the two large members where they are, so a 20 MB `actual` read from a file is
 * never copied into a joined string (src/api/mod.rs, `PreparedCase::parse_parts`).
 */
export function caseParts(args, fn, withConfig, wire = null) {
  requireObject(args, fn);
  const { evalCase, actual } = args;
  if (wire !== null && wire.held === null) {
    // The caller's own objects: the core leaves the echoed invocations out of the result where
    // its normalised parse reads the same as them (src/api/columns.rs), and the rows refer to
    // these, as ADK's results hold the invocations they were given.
    // `wire` is the caller's fresh `{held: null}`: it learns the objects to rebuild rows from.
    const held = callerObjects(evalCase, actual);
    if (held !== null) Object.assign(wire, { held, callerObjects: true });
  }
  const caseText = evalCase === undefined ? undefined : toMember(evalCase, 'evalCase');
  const actualText = actual === undefined ? undefined : toMember(actual, 'actual');
  const rest = caseMembers(args, fn, withConfig, wire, false);
  const total = (caseText?.length ?? 0) + (actualText?.length ?? 0) + rest.length;
  if (total > MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${fn}: ${total} UTF-16 code units exceed the limit of ${MAX_TEXT_LENGTH}`);
  }
  return [caseText, actualText, rest];
}

function isPlain(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof ArrayBuffer);
}

/** `{actual, expected}` when the case and the invocations are the caller's objects, else null. */
function callerObjects(evalCase, actual) {
  if (!isPlain(evalCase) || !Array.isArray(actual)) return null;
  const conversation = evalCase.conversation;
  return { actual, expected: Array.isArray(conversation) ? conversation : null };
}

/**
 * JSON bytes (a file) to a value: the core parses them first (its depth and size rules, so no
 * input makes the host's parser spend unbounded memory), then `JSON.parse` reads its compact output.
 */
export function parseJsonBytes(bytes, what) {
  if (bytes.byteLength > 3 * MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${what}: ${bytes.byteLength} bytes exceed the limit of ${MAX_TEXT_LENGTH} UTF-16 code units`);
  }
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return unwrap(main.parseJsonBytes(view));
}
