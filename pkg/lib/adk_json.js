//! ADK's files as pydantic writes them: model field order, Python floats (`1.0`), statuses as
//! integers, bytes in URL-safe base64, and either every field (`model_dump_json(indent=2)`,
//! results and migrated sets) or only the non-null, non-default ones (eval sets ADK saves).
//!
//! The model tables below are google-adk 2.13 / google-genai 2.34's field lists, in order. A
//! value the table does not describe is written as it is (plain JSON).
import { EvalError } from './errors.js';
import { PERSONAS } from './cli/personas.js';

export const STATUS_CODES = Object.freeze({ PASSED: 1, FAILED: 2, NOT_EVALUATED: 3, INFORMATIONAL: 4 });
const STATUS_NAMES = Object.freeze({ 1: 'PASSED', 2: 'FAILED', 3: 'NOT_EVALUATED', 4: 'INFORMATIONAL' });

/** A status as ADK's integer; accepts the name (any case) or the integer. */
export function statusCode(value, path = '') {
  if (typeof value === 'number' && STATUS_NAMES[value] !== undefined) return value;
  if (typeof value === 'string') {
    const name = value.trim().toUpperCase().replace(/^EVALSTATUS\./, '');
    if (STATUS_CODES[name] !== undefined) return STATUS_CODES[name];
  }
  throw new EvalError('schema', path, `expected an eval status (PASSED, FAILED, NOT_EVALUATED, INFORMATIONAL or 1-4), found ${JSON.stringify(value) ?? String(value)}`);
}

/** A status as its name (`"PASSED"` ...); accepts the name or ADK's integer. */
export function statusName(value, path = '') {
  return STATUS_NAMES[statusCode(value, path)];
}

/** Seconds since the epoch with sub-millisecond digits, like Python's `time.time()`. */
export function pythonTime() {
  return (performance.timeOrigin + performance.now()) / 1000;
}

/** A built-in persona id (`"EXPERT"`, ...) as the persona object ADK dumps for it; anything else as it is. */
export function expandPersona(value) {
  return typeof value === 'string' && Object.hasOwn(PERSONAS, value) ? PERSONAS[value] : value;
}

// ---------------------------------------------------------------------------------------------
// Python number text

/** A float as pydantic's JSON writes it: `1.0`, `0.5`, `1e-6`, `1e+16`; non-finite → null. */
export function pydanticFloat(x) {
  if (!Number.isFinite(x)) return 'null';
  if (Object.is(x, -0)) return '-0.0';
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-5 || a >= 1e16)) return x.toExponential();
  const s = String(x);
  return Number.isInteger(x) ? `${s}.0` : s;
}

/** A float as Python's `repr` / `str` writes it: `1.0`, `1e-05`, `1e+16`, `nan`, `inf`. */
export function pythonFloat(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Object.is(x, -0)) return '-0.0';
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  const s = String(x);
  return Number.isInteger(x) ? `${s}.0` : s;
}

// ---------------------------------------------------------------------------------------------
// Model tables: [field, type, default]. A default of REQUIRED means pydantic has none (the
// field is never left out); types are 'str' 'bool' 'int' 'float' 'status' 'bytes' 'any', a model
// name, or { list }, { dict }, { pair } (ADK's `(author, parts)` tuples), 'intermediate', 'persona'.

const REQUIRED = Symbol('required');
const list = (of) => ({ list: of });
const dict = (of) => ({ dict: of });

const MODELS = {
  // evalcore's result objects (EvalCaseResult ignores unknown keys in ADK, so ours are kept).
  EvalSetResult: {
    extra: 'keep',
    fields: [['eval_set_result_id', 'str', REQUIRED], ['eval_set_result_name', 'str', null], ['eval_set_id', 'str', REQUIRED],
      ['eval_case_results', list('EvalCaseResult'), []], ['creation_timestamp', 'float', 0]],
  },
  EvalCaseResult: {
    extra: 'keep',
    fields: [['eval_set_file', 'str', null], ['eval_set_id', 'str', ''], ['eval_id', 'str', ''],
      ['final_eval_status', 'status', REQUIRED], ['eval_metric_results', 'any', null],
      ['overall_eval_metric_results', list('EvalMetricResult'), REQUIRED],
      ['eval_metric_result_per_invocation', list('EvalMetricResultPerInvocation'), REQUIRED],
      ['session_id', 'str', REQUIRED], ['session_details', 'Session', null], ['user_id', 'str', null]],
  },
  EvalMetricResult: {
    fields: [['metric_name', 'str', REQUIRED], ['threshold', 'float', null], ['criterion', 'BaseCriterion', null],
      ['custom_function_path', 'str', null], ['score', 'float', null], ['eval_status', 'status', REQUIRED],
      ['details', 'EvalMetricResultDetails', {}]],
  },
  EvalMetricResultDetails: {
    fields: [['rubric_scores', list('RubricScore'), null], ['token_usage_details', 'TokenUsageDetails', null],
      ['duration_details', 'DurationDetails', null]],
  },
  EvalMetricResultPerInvocation: {
    fields: [['actual_invocation', 'Invocation', REQUIRED], ['expected_invocation', 'Invocation', null],
      ['eval_metric_results', list('EvalMetricResult'), []]],
  },
  TokenUsageDetails: {
    fields: ['total_tokens', 'input_tokens', 'prompt_tokens', 'cached_tokens', 'tool_use_tokens', 'output_tokens',
      'candidates_tokens', 'reasoning_tokens'].map((f) => [f, 'float', null]),
  },
  DurationDetails: {
    fields: ['total_seconds', 'model_seconds', 'tool_seconds', 'framework_seconds'].map((f) => [f, 'float', null]),
  },
  BaseCriterion: {
    extra: 'keep',
    fields: [['threshold', 'float', REQUIRED], ['include_intermediate_responses_in_final', 'bool', false]],
  },
  RubricScore: { fields: [['rubric_id', 'str', REQUIRED], ['rationale', 'str', null], ['score', 'float', null]] },
  Session: {
    extra: 'keep',
    fields: [['id', 'str', REQUIRED], ['app_name', 'str', REQUIRED], ['user_id', 'str', REQUIRED], ['state', 'any', {}],
      ['events', 'any', []], ['last_update_time', 'float', 0]],
  },

  // Eval sets.
  EvalSet: {
    extra: 'drop',
    fields: [['eval_set_id', 'str', REQUIRED], ['name', 'str', null], ['description', 'str', null],
      ['eval_cases', list('EvalCase'), REQUIRED], ['creation_timestamp', 'float', 0]],
  },
  EvalCase: {
    extra: 'keep',
    fields: [['eval_id', 'str', REQUIRED], ['conversation', list('Invocation'), null],
      ['conversation_scenario', 'ConversationScenario', null], ['session_input', 'SessionInput', null],
      ['creation_timestamp', 'float', 0], ['rubrics', list('Rubric'), null], ['final_session_state', 'any', {}]],
  },
  SessionInput: {
    extra: 'keep',
    fields: [['app_name', 'str', REQUIRED], ['user_id', 'str', REQUIRED], ['session_id', 'str', null], ['state', 'any', {}]],
  },
  ConversationScenario: {
    fields: [['starting_prompt', 'str', REQUIRED], ['conversation_plan', 'str', REQUIRED], ['user_persona', 'persona', null]],
  },
  Invocation: {
    fields: [['invocation_id', 'str', ''], ['user_content', 'Content', REQUIRED], ['final_response', 'Content', null],
      ['intermediate_data', 'intermediate', null], ['creation_timestamp', 'float', 0], ['duration', 'float', null],
      ['model_duration', 'float', null], ['tool_duration', 'float', null], ['rubrics', list('Rubric'), null],
      ['app_details', 'AppDetails', null]],
  },
  IntermediateData: {
    fields: [['tool_uses', list('FunctionCall'), []], ['tool_responses', list('FunctionResponse'), []],
      ['intermediate_responses', list({ pair: list('Part') }), []]],
  },
  InvocationEvents: { fields: [['invocation_events', list('InvocationEvent'), []]] },
  InvocationEvent: {
    fields: [['author', 'str', REQUIRED], ['content', 'Content', null], ['grounding_metadata', 'any', null],
      ['usage_metadata', 'UsageMetadata', null], ['model_version', 'str', null]],
  },
  Rubric: {
    fields: [['rubric_id', 'str', REQUIRED], ['rubric_content', 'RubricContent', REQUIRED], ['description', 'str', null],
      ['type', 'str', null]],
  },
  RubricContent: { fields: [['text_property', 'str', null]] },
  AppDetails: { fields: [['agent_details', dict('AgentDetails'), {}]] },
  AgentDetails: { fields: [['name', 'str', REQUIRED], ['instructions', 'str', ''], ['tool_declarations', 'any', []]] },

  // google.genai types.
  Content: { fields: [['parts', list('Part'), null], ['role', 'str', null]] },
  Part: {
    fields: [['media_resolution', 'any', null], ['code_execution_result', 'CodeExecutionResult', null],
      ['executable_code', 'ExecutableCode', null], ['file_data', 'FileData', null], ['function_call', 'FunctionCall', null],
      ['function_response', 'FunctionResponse', null], ['inline_data', 'Blob', null], ['text', 'str', null],
      ['thought', 'bool', null], ['thought_signature', 'bytes', null], ['video_metadata', 'VideoMetadata', null],
      ['tool_call', 'any', null], ['tool_response', 'any', null], ['part_metadata', 'any', null],
      ['audio_transcription', 'any', null], ['media_processing', 'any', null], ['speech_metadata', 'any', null]],
  },
  FunctionCall: {
    fields: [['id', 'str', null], ['args', 'any', null], ['name', 'str', null], ['partial_args', 'any', null],
      ['will_continue', 'bool', null]],
  },
  FunctionResponse: {
    fields: [['will_continue', 'bool', null], ['scheduling', 'any', null], ['parts', 'any', null], ['id', 'str', null],
      ['name', 'str', null], ['response', 'any', null]],
  },
  Blob: { fields: [['data', 'bytes', null], ['display_name', 'str', null], ['mime_type', 'str', null]] },
  FileData: { fields: [['display_name', 'str', null], ['file_uri', 'str', null], ['mime_type', 'str', null]] },
  ExecutableCode: { fields: [['code', 'str', null], ['language', 'any', null], ['id', 'str', null]] },
  CodeExecutionResult: { fields: [['outcome', 'any', null], ['output', 'str', null], ['id', 'str', null]] },
  VideoMetadata: { fields: [['end_offset', 'str', null], ['fps', 'float', null], ['start_offset', 'str', null]] },
  UsageMetadata: {
    fields: [['cache_tokens_details', list('ModalityTokenCount'), null], ['cached_content_token_count', 'int', null],
      ['candidates_token_count', 'int', null], ['candidates_tokens_details', list('ModalityTokenCount'), null],
      ['prompt_token_count', 'int', null], ['prompt_tokens_details', list('ModalityTokenCount'), null],
      ['thoughts_token_count', 'int', null], ['tool_use_prompt_token_count', 'int', null],
      ['tool_use_prompt_tokens_details', list('ModalityTokenCount'), null], ['total_token_count', 'int', null],
      ['traffic_type', 'any', null]],
  },
  ModalityTokenCount: { fields: [['modality', 'any', null], ['token_count', 'int', null]] },
};

const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
for (const model of Object.values(MODELS)) {
  model.names = new Set();
  for (const [name] of model.fields) {
    model.names.add(name);
    model.names.add(camel(name));
  }
}

// ---------------------------------------------------------------------------------------------
// The dump: a tree of raw JSON fragments, then pretty-printed.

/** A number or other scalar already written as JSON text. */
class Raw {
  constructor(text) {
    this.text = text;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Standard or URL-safe base64 (padding optional) as pydantic writes bytes: URL-safe, padded. */
function urlSafeBase64(value) {
  if (typeof value !== 'string') return value;
  const s = value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return s + '='.repeat((4 - (s.length % 4)) % 4);
}

function convert(value, type, compact) {
  if (value === undefined || value === null) return null;
  if (typeof type === 'string') {
    switch (type) {
      case 'float':
        return typeof value === 'number' ? new Raw(pydanticFloat(value)) : plain(value);
      case 'status':
        return new Raw(String(statusCode(value)));
      case 'bytes':
        return urlSafeBase64(value);
      case 'intermediate':
        return convert(value, isObject(value) && ('invocation_events' in value || 'invocationEvents' in value)
          ? 'InvocationEvents' : 'IntermediateData', compact);
      case 'persona':
        return plain(expandPersona(value));
      case 'str': case 'bool': case 'int': case 'any':
        return plain(value);
      default:
        return model(value, MODELS[type], compact);
    }
  }
  if (type.list) return Array.isArray(value) ? value.map((v) => convert(v, type.list, compact)) : plain(value);
  if (type.dict) {
    if (!isObject(value)) return plain(value);
    const out = new Map();
    for (const [k, v] of Object.entries(value)) out.set(k, convert(v, type.dict, compact));
    return out;
  }
  if (type.pair) {
    return Array.isArray(value) && value.length === 2 ? [plain(value[0]), convert(value[1], type.pair, compact)] : plain(value);
  }
  return plain(value);
}

function model(value, spec, compact) {
  if (!isObject(value)) return plain(value);
  const out = new Map();
  for (const [name, type, dflt] of spec.fields) {
    let v = value[name];
    if (v === undefined) v = value[camel(name)];
    if (compact) {
      if (v === undefined || v === null) continue;
      if (dflt !== REQUIRED && deepEqual(v, dflt)) continue;
    } else if (v === undefined) {
      v = dflt === REQUIRED ? null : dflt;
    }
    out.set(name, convert(v, type, compact));
  }
  if (spec.extra === 'keep') {
    for (const [k, v] of Object.entries(value)) {
      if (spec.names.has(k) || v === undefined || (compact && v === null)) continue;
      out.set(k, plain(v));
    }
  }
  return out;
}

/** A JSON value with numbers as JS writes them (non-finite → null, as pydantic does). */
function plain(value) {
  if (typeof value === 'number') return new Raw(Number.isFinite(value) ? String(value) : 'null');
  if (Array.isArray(value)) return value.map(plain);
  if (isObject(value)) {
    if (typeof value.toJSON === 'function') return plain(value.toJSON());
    const out = new Map();
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out.set(k, plain(v));
    return out;
  }
  if (typeof value === 'bigint') return new Raw(value.toString());
  return value;
}

function write(node, indent, out) {
  if (node === null || node === undefined) out.push('null');
  else if (node instanceof Raw) out.push(node.text);
  else if (typeof node === 'string' || typeof node === 'boolean') out.push(JSON.stringify(node));
  else if (Array.isArray(node)) {
    if (node.length === 0) { out.push('[]'); return; }
    const pad = `\n${' '.repeat(indent + 2)}`;
    out.push('[');
    node.forEach((v, i) => {
      out.push(i === 0 ? pad : `,${pad}`);
      write(v, indent + 2, out);
    });
    out.push(`\n${' '.repeat(indent)}]`);
  } else if (node instanceof Map) {
    if (node.size === 0) { out.push('{}'); return; }
    const pad = `\n${' '.repeat(indent + 2)}`;
    out.push('{');
    let first = true;
    for (const [k, v] of node) {
      out.push(first ? pad : `,${pad}`, JSON.stringify(k), ': ');
      first = false;
      write(v, indent + 2, out);
    }
    out.push(`\n${' '.repeat(indent)}}`);
  } else out.push('null');
}

/**
 * `value` (model `type`, e.g. 'EvalSetResult', 'EvalSet') as pydantic's
 * `model_dump_json(indent=2)` writes it; `compact` leaves out null and default fields as
 * `exclude_none/exclude_defaults` do. No trailing newline, as ADK writes its files.
 */
export function dumpAdkJson(value, type, { compact = false } = {}) {
  if (!MODELS[type]) throw new EvalError('internal', '', `evalcore: no ADK model named ${type}`);
  const out = [];
  write(convert(value, type, compact), 0, out);
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// Python's json.dumps (used for ids ADK derives from hashes)

const pyEscape = (s) => s.replace(/[\\"]|[^\x20-\x7e]/g, (c) => {
  switch (c) {
    case '\\': return '\\\\';
    case '"': return '\\"';
    case '\n': return '\\n';
    case '\r': return '\\r';
    case '\t': return '\\t';
    case '\b': return '\\b';
    case '\f': return '\\f';
    default: return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
});

/**
 * Python's `json.dumps(value, sort_keys=True)`: separators `", "` and `": "`, ASCII only
 * (`\uXXXX` escapes, surrogate pairs for astral characters), keys sorted by code point.
 */
export function pythonJsonDumps(value) {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    // JSON cannot tell 1 from 1.0; an integral number is written as Python's int.
    return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : pythonFloat(value);
  }
  if (typeof value === 'string') return `"${pyEscape(value)}"`;
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort(byCodePoint);
  return `{${keys.map((k) => `"${pyEscape(k)}": ${pythonJsonDumps(value[k])}`).join(', ')}}`;
}

function byCodePoint(a, b) {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
