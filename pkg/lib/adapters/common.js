// What every agent adapter shares: reading an AgentTurn, calling the user's code with its
// failures wrapped, and writing JS values in the JSON shape ADK Python writes (snake_case keys,
// user data such as tool args kept verbatim). Pure JS, no Node or ADK imports, so the adapters
// run wherever the package runs.
import { EvalError } from '../errors.js';

export { EvalError };

/** Python's key spelling of a camelCase key, as ADK JS's own `toSnakeCase` does it. */
export const snakeKey = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
  && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value;
}

function base64(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * A JSON-safe deep copy. `rule(path)` (path = snake keys joined by ".", array indices left out,
 * `*` for an entry of a map whose keys are kept) says how to treat the value at a path:
 * `"raw"` copies it with its keys as they are (user data), `"keys"` keeps this object's keys but
 * goes on converting its values, anything else snake-cases the keys. Drops `undefined`,
 * functions and symbols as JSON.stringify does; bytes become base64 (genai's JSON for bytes).
 * Cycles, BigInt and non-finite numbers are errors (`code`, with the path where they were met).
 */
export function toJson(value, { rule = () => undefined, code = 'agent_reply', where = '', root = '$' } = {}) {
  const stack = new Set();
  const fail = (path, why) => {
    throw new EvalError(code, path, `${where}${where ? ': ' : ''}${why} at ${path}`);
  };
  const walk = (v, path, rulePath, mode) => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail(path, `${v} is not a JSON number`);
      return v;
    }
    if (typeof v === 'bigint') fail(path, 'a BigInt cannot be written as JSON');
    if (typeof v !== 'object') return undefined;
    // Bytes before toJSON: Node's Buffer has one, which would write `{type, data}` instead.
    if (v instanceof ArrayBuffer) return base64(new Uint8Array(v));
    if (ArrayBuffer.isView(v)) return base64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (typeof v.toJSON === 'function') v = v.toJSON();
    if (v === null || typeof v !== 'object') return walk(v, path, rulePath, mode);
    if (stack.has(v)) fail(path, 'the value refers to itself (a cycle)');
    stack.add(v);
    let out;
    if (Array.isArray(v)) {
      out = v.map((item, i) => {
        const x = walk(item, `${path}[${i}]`, rulePath, mode);
        return x === undefined ? null : x;
      });
    } else {
      out = {};
      const childMode = mode === 'raw' ? 'raw' : (rule(rulePath) === 'keys' ? 'keys' : 'convert');
      for (const key of Object.keys(v)) {
        const outKey = childMode === 'convert' ? snakeKey(key) : key;
        const childRulePath = childMode === 'keys' ? `${rulePath}.*` : (rulePath ? `${rulePath}.${outKey}` : outKey);
        const childPath = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
        const nextMode = childMode === 'raw' || rule(childRulePath) === 'raw' ? 'raw' : 'convert';
        const x = walk(v[key], childPath, childRulePath, nextMode);
        if (x !== undefined) out[outKey] = x;
      }
    }
    stack.delete(v);
    return out;
  };
  return walk(value, root, '', rule('') === 'raw' ? 'raw' : 'convert');
}

/** A JSON copy with keys as they are (tool args, responses, state). */
export const rawJson = (value, opts) => toJson(value, { ...opts, rule: () => 'raw' });

// ADK JS keeps these verbatim when it writes an event as snake_case (its PRESERVE_KEYS list):
// they hold user data (state, args, responses) or maps keyed by function-call ids.
const EVENT_RAW = new Set([
  'actions.state_delta', 'actions.artifact_delta', 'actions.requested_auth_configs',
  'actions.requested_tool_confirmations', 'actions.custom_metadata', 'actions.agent_state',
  'custom_metadata', 'content.parts.function_call.args', 'content.parts.function_response.response',
  'output', 'route',
]);

// ADK Python's Event field order (LlmResponse's fields, then Event's), for readable output.
const EVENT_ORDER = [
  'model_version', 'content', 'grounding_metadata', 'partial', 'turn_complete', 'finish_reason',
  'error_code', 'error_message', 'interrupted', 'custom_metadata', 'usage_metadata',
  'live_session_resumption_update', 'input_transcription', 'output_transcription', 'avg_logprobs',
  'logprobs_result', 'cache_metadata', 'citation_metadata', 'interaction_id', 'invocation_id',
  'author', 'actions', 'long_running_tool_ids', 'branch', 'id', 'timestamp',
];

/**
 * An ADK JS `Event` as ADK Python writes it into `invocation_events`: snake_case keys
 * (`function_call`, `usage_metadata`, `turn_complete`, ...), args/responses/state verbatim, and
 * `timestamp` in seconds (ADK JS stamps `Date.now()` milliseconds, Python `time.time()` seconds).
 */
export function adkEventToJson(event, where = 'ADK event') {
  const json = toJson(event, { rule: (p) => (EVENT_RAW.has(p) ? 'raw' : undefined), where });
  if (typeof json.timestamp === 'number') json.timestamp /= 1000;
  const ordered = {};
  for (const key of EVENT_ORDER) if (key in json) ordered[key] = json[key];
  for (const key of Object.keys(json)) if (!(key in ordered)) ordered[key] = json[key];
  return ordered;
}

// Inside a genai Schema: `properties` maps user property names to schemas; defaults and
// examples are user values; JSON-schema variants are raw JSON Schema documents.
const SCHEMA_KEYS = /(^|\.)(properties|defs)$/;
const SCHEMA_RAW = /(^|\.)(default|example|enum|parameters_json_schema|response_json_schema)$/;

/** genai `Tool` objects (camelCase in JS) as Python writes them: `function_declarations`, ... */
export function toolsToJson(tools, where = 'tool declarations') {
  if (tools === undefined || tools === null) return [];
  const list = Array.isArray(tools) ? tools : [tools];
  return list.map((tool, i) => toJson(tool, {
    rule: (p) => (SCHEMA_RAW.test(p) ? 'raw' : SCHEMA_KEYS.test(p) ? 'keys' : undefined),
    where, root: `$[${i}]`,
  }));
}

/** A system instruction (string, Content or Part list) as the string AgentDetails holds. */
export function instructionText(si) {
  if (si === undefined || si === null) return '';
  if (typeof si === 'string') return si;
  const parts = Array.isArray(si) ? si : Array.isArray(si.parts) ? si.parts : [si];
  return parts.map((p) => (typeof p === 'string' ? p : p && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t !== '').join('\n');
}

/** Checks the fields of an AgentTurn an adapter reads; a bad turn is an EvalError, not a TypeError. */
export function checkTurn(turn, who, fields = []) {
  if (!isPlainObject(turn)) {
    throw new EvalError('schema', '$', `${who}: expected an AgentTurn object, found ${describe(turn)}`);
  }
  for (const f of fields) {
    if (typeof turn[f] !== 'string' || turn[f] === '') {
      throw new EvalError('schema', `$.${f}`, `${who}: the turn's \`${f}\` must be a non-empty string, found ${describe(turn[f])}`);
    }
  }
  if (turn.signal !== undefined && turn.signal !== null
    && (typeof turn.signal !== 'object' || typeof turn.signal.aborted !== 'boolean')) {
    throw new EvalError('schema', '$.signal', `${who}: the turn's \`signal\` must be an AbortSignal, found ${describe(turn.signal)}`);
  }
}

/** The user's text of a turn: `turn.text`, else the texts of `userContent` joined by "\n" (ADK's rule). */
export function turnText(turn) {
  if (typeof turn.text === 'string') return turn.text;
  const parts = turn.userContent && Array.isArray(turn.userContent.parts) ? turn.userContent.parts : [];
  return parts.filter((p) => p && typeof p.text === 'string' && p.text !== '').map((p) => p.text).join('\n');
}

/** The abort reason of a signal, or an AbortError when it has none. */
export function abortReason(signal) {
  if (signal && signal.reason !== undefined) return signal.reason;
  const err = new Error('The agent turn was aborted');
  err.name = 'AbortError';
  return err;
}

function where(turn) {
  const bits = [];
  if (turn && typeof turn.evalId === 'string') bits.push(`eval case ${JSON.stringify(turn.evalId)}`);
  // 1-based, as the core counts turns in its messages.
  if (turn && Number.isInteger(turn.turnIndex)) bits.push(`turn ${turn.turnIndex + 1}`);
  return bits.length ? ` (${bits.join(', ')})` : '';
}

/**
 * The user's agent failed: an EvalError `agent_error` whose `cause` is the original error. An
 * abort is passed on as the signal's reason, so callers can tell cancellation from failure.
 */
export function agentFailure(err, who, turn) {
  if (turn && turn.signal && turn.signal.aborted) return abortReason(turn.signal);
  const msg = err instanceof Error ? err.message : String(err);
  return new EvalError('agent_error', '', `${who}: the agent failed${where(turn)}: ${msg}`, { cause: err });
}

/** Calls user code; a synchronous throw and a rejection both become `agentFailure`. */
export async function callUser(fn, args, who, turn) {
  try {
    return await fn(...args);
  } catch (err) {
    throw agentFailure(err, who, turn);
  }
}

/**
 * A framework module from the user's own install, loaded when first needed: `given` (the module
 * passed in the adapter's options), else `load()` — the adapter's own literal `import()`, so that
 * bundlers see it. Missing, it is an `unsupported` EvalError naming the package to install and
 * how to pass the module instead (`pass`); `classes` must be on the module.
 */
export async function importPeer({ load, name, given, option, who, classes, pass }) {
  let mod = given;
  if (mod === undefined) {
    try {
      mod = await load();
    } catch (cause) {
      throw new EvalError('unsupported', '', `${who}: cannot load '${name}' (${cause && cause.message ? cause.message : cause}). `
        + `Install it next to evalcore (npm install ${name}), or pass the module: ${pass}`, { cause });
    }
  }
  for (const cls of classes) {
    if (!mod || typeof mod[cls] !== 'function') {
      throw new EvalError('unsupported', `$.${option}`, `${who}: options.${option} must be the '${name}' module namespace; it has no ${cls} class`);
    }
  }
  return mod;
}

/** `options[key]` when it is an object (absent: `{}`); anything else is a `schema` error. */
export function objectOption(options, key, who) {
  const v = options?.[key];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new EvalError('schema', `$.options.${key}`, `${who}: options.${key} must be an object, found ${describe(v)}`);
  }
  return v;
}

/** A tool's result as genai's `FunctionResponse.response` (an object): others are `{result}`, as ADK wraps them. */
export function responseObject(value, opts) {
  const json = rawJson(value, opts);
  return isPlainObject(json) ? json : { result: json === undefined ? null : json };
}

export { isPlainObject };
