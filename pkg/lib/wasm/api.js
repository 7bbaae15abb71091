// The public API over the raw wasm exports: values in, JSON text across, envelopes unwrapped.
//
// Every raw export takes JSON text and returns `{"ok": value}` or
// `{"error": {code, path, message}}`; this file turns inputs into that text (strings pass as
// they are, bytes are decoded, anything else is JSON.stringify'd) and errors into EvalError.
import { EvalError, fromWire } from '../errors.js';
import {
  MAX_TEXT_LENGTH, TO_EXTRAS, checkLength, checkTextPair, configMember, describe, toJson, stringify, unwrap, requireObject,
  caseParts,
} from './wire.js';
import {
  callOn, callSync, checkAlive, coreMemory, instance, onFreshInstance, setMemoryCeiling,
} from './instance.js';
import { extras, main } from './exports.js';
import { evaluateInvocationsJudged } from './run.js';
import { expandColumns } from './columns.js';

export { EvalError, coreMemory, setMemoryCeiling };

const ensureReady = instance;

/**
 * Parses an eval set in any shape found in practice (current schema, legacy test-file list,
 * legacy named list) and returns the current schema, normalised to snake_case.
 */
export function loadEvalSet(input, options) {
  ensureReady();
  const opts = options === undefined || options === null ? '' : toJson(options, 'options');
  const bytes = asBytes(input, 'input');
  const text = bytes ? null : toJson(input, 'input');
  const raw = bytes ? main.loadEvalSetBytes(bytes, opts) : main.loadEvalSetJson(text, opts);
  return unwrap(raw === TO_EXTRAS ? extras.loadOtherEvalSetBytes(bytes ?? utf8.encode(text), opts) : raw);
}

const utf8 = new TextEncoder();

/**
 * File contents as bytes go to the core as they are (it checks the UTF-8 itself): no decoding
 * to a JS string and encoding back, which costs about 3 ms per MB.
 */
function asBytes(input, what) {
  if (!(input instanceof Uint8Array) && !(input instanceof ArrayBuffer)) return null;
  if (input.byteLength > 3 * MAX_TEXT_LENGTH) {
    throw new EvalError('too_large', '', `${what}: ${input.byteLength} bytes exceed the limit of ${MAX_TEXT_LENGTH} UTF-16 code units`);
  }
  if (input.byteLength > maxTextBytes) {
    throw new EvalError('too_large', '', `${what}: ${input.byteLength} bytes of JSON are over the limit of ${maxTextBytes} (raise maxTextBytes with setLimits)`);
  }
  return input instanceof ArrayBuffer ? new Uint8Array(input) : input;
}

/**
 * Reads an agents-cli EvaluationDataset (or any eval set loadEvalSet takes) with what it
 * recorded: `{ eval_set, actual, grading, inference }`. `actual` holds, by eval id, the
 * invocations of the cases that are traces (complete turns), `grading` lists those ids and
 * `inference` the cases that need an agent to run. `options.id` names the eval set.
 */
export function loadEvaluationDataset(input, options) {
  ensureReady();
  const opts = options === undefined || options === null ? '' : toJson(options, 'options');
  const bytes = asBytes(input, 'input') ?? utf8.encode(toJson(input, 'input'));
  return unwrap(extras.loadEvaluationDatasetBytes(bytes, opts));
}

/**
 * An eval set as an agents-cli EvaluationDataset (`{eval_cases: [...]}`), to hand a run's traces
 * to agents-cli or keep a dataset in its format: the cases of `actual` (eval id -> invocations),
 * or of `result` (an EvalSetResult with its invocations; the first run of each case), are
 * written as traces; the others as inference input. Read back, it gives the same data.
 */
export function toEvaluationDataset(args) {
  ensureReady();
  requireObject(args, 'toEvaluationDataset');
  const { evalSet, actual, result } = args;
  let traces = actual;
  if (result !== undefined && result !== null) {
    if (actual !== undefined) throw new EvalError('schema', '$.result', 'toEvaluationDataset: give `actual` or `result`, not both');
    traces = actualOf(result);
  }
  return unwrap(extras.toEvaluationDatasetJson(stringify({ evalSet, actual: traces ?? undefined }, 'args')));
}

/** The invocations of each case's first run in an EvalSetResult, by eval id. */
function actualOf(result) {
  const list = Array.isArray(result?.eval_case_results) ? result.eval_case_results : null;
  if (list === null) throw new EvalError('schema', '$.result', 'toEvaluationDataset: `result` must be an EvalSetResult (eval_case_results)');
  const out = {};
  list.forEach((r, i) => {
    if (r?.eval_id === undefined || Object.hasOwn(out, r.eval_id)) return;
    const per = r.eval_metric_result_per_invocation;
    if (!Array.isArray(per) || per.some((p) => !p?.actual_invocation)) {
      if (r.error) return; // a case the agent could not complete has no trace
      throw new EvalError('schema', `$.result.eval_case_results[${i}]`, `toEvaluationDataset: case "${r.eval_id}" has no actual invocations in this result (was it written with includeInvocations: false?)`);
    }
    out[r.eval_id] = per.map((p) => p.actual_invocation);
  });
  return out;
}

/**
 * Reads an EvalSetResult in every shape ADK has written (2.x files, 1.x double-encoded files,
 * camelCase, statuses as names or ADK's integers) and evalcore's own: JSON text, the file's
 * bytes or a parsed value. Returns evalcore's shape (statuses as names). `{ runSummary: true }`
 * adds the run summary (AgentEvaluator's verdicts per case and metric) when the result has none.
 */
export function loadEvalSetResult(input, options) {
  ensureReady();
  const opts = options === undefined || options === null ? '' : toJson(options, 'options');
  const bytes = asBytes(input, 'input');
  if (bytes) return unwrap(main.loadEvalSetResultBytes(bytes, opts));
  return unwrap(main.loadEvalSetResultJson(toJson(input, 'input', true), opts));
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
  let raw = bytes ? main.validateEvalSetBytes(bytes) : main.validateEvalSetJson(text);
  if (raw === TO_EXTRAS) {
    try {
      raw = extras.validateOtherEvalSetBytes(bytes ?? utf8.encode(text));
    } catch (e) {
      if (e instanceof EvalError) return { ok: false, errors: [e] };
      throw e;
    }
  }
  const report = JSON.parse(raw);
  const errors = Array.isArray(report.errors) ? report.errors.map(fromWire) : [];
  return { ok: report.ok === true && errors.length === 0, errors };
}

/**
 * The core's parse limits: `{maxTextBytes, maxParseBytes, maxReplyBytes, maxIdBytes}`. Every JSON text the
 * core parses (eval sets, configs, results, judge and agent replies) is measured first and
 * refused with `too_large` when it is longer than maxTextBytes or when parsing it would take
 * more than maxParseBytes of memory; one judge, agent or custom-metric answer may be at most
 * maxReplyBytes; an eval_set_id or eval_id at most maxIdBytes (results repeat them in every
 * case). `setLimits({...})` changes the ones given and returns the limits in force.
 */
export function setLimits(limits) {
  ensureReady();
  if (limits !== undefined && limits !== null && (typeof limits !== 'object' || Array.isArray(limits))) {
    throw new EvalError('schema', '$options', `setLimits: expected {maxTextBytes?, maxParseBytes?, maxReplyBytes?, maxIdBytes?}, found ${describe(limits)}`);
  }
  const now = unwrap(main.setLimitsJson(limits === undefined || limits === null ? '' : toJson(limits, 'limits')));
  maxTextBytes = now.maxTextBytes;
  // A replacement instance (after a trap or a retirement) starts from these, not the defaults.
  limitsJson = JSON.stringify(now);
  return now;
}

// The core's maxTextBytes, mirrored so bytes over it are refused before they are copied in.
let maxTextBytes = 512 * 1024 * 1024;
let limitsJson = null;
onFreshInstance((g) => {
  if (limitsJson !== null) unwrap(main.on.setLimitsJson(g, limitsJson));
});

/** The core's parse limits in force (see setLimits). */
export function getLimits() {
  return setLimits();
}

function configOptions(options, fn) {
  if (options === undefined || options === null) return '';
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new EvalError('schema', '$options', `${fn}: options must be {strict?: boolean, metrics?: string[]}, found ${describe(options)}`);
  }
  return toJson(options, 'options');
}

/**
 * An eval config with criteria in object form; undefined/null gives ADK's default criteria.
 * Throws what ADK rejects; with `{strict: true}`, also every warning of validateEvalConfig.
 */
export function loadEvalConfig(input, options) {
  ensureReady();
  const opts = configOptions(options, 'loadEvalConfig');
  const text = input === undefined || input === null ? '' : toJson(input, 'input', true);
  const raw = main.loadEvalConfigJson(text, opts);
  return unwrap(raw === TO_EXTRAS ? extras.loadAgentsCliConfigJson(text, opts) : raw);
}

/**
 * Every problem of a config at once, each with its JSON path: `errors` (what ADK rejects),
 * `warnings` (what ADK accepts but ignores or cannot evaluate: unknown metrics, misplaced or
 * misspelt keys, invalid criterion values). `{strict: true}` counts warnings as errors.
 * Never throws for bad data.
 */
export function validateEvalConfig(input, options) {
  ensureReady();
  let text;
  let opts;
  try {
    opts = configOptions(options, 'validateEvalConfig');
    text = input === undefined || input === null ? '' : toJson(input, 'input', true);
  } catch (e) {
    if (e instanceof EvalError) return { ok: false, errors: [e], warnings: [] };
    throw e;
  }
  let raw = main.validateEvalConfigJson(text, opts);
  if (raw === TO_EXTRAS) {
    try {
      raw = extras.validateAgentsCliConfigJson(text, opts);
    } catch (e) {
      if (e instanceof EvalError) return { ok: false, errors: [e], warnings: [] };
      throw e;
    }
  }
  const report = JSON.parse(raw);
  const errors = Array.isArray(report.errors) ? report.errors.map(fromWire) : [];
  const warnings = Array.isArray(report.warnings) ? report.warnings.map(fromWire) : [];
  return { ok: errors.length === 0, errors, warnings };
}

/** ADK 2.13's response_match_score arithmetic (ROUGE-1 with NLTK-mode Porter stemming). */
export function rouge1(candidate, reference) {
  ensureReady();
  checkTextPair('rouge1', candidate, reference);
  const [precision, recall, fmeasure] = main.rouge1(candidate, reference);
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
    // A lone surrogate crosses as U+FFFD (one UTF-16 unit either way, so the lengths hold) and,
    // like any symbol, is no part of a token: the same scores as rouge1 and as ADK in Python.
    const [c, r] = pairs[i];
    texts[2 * i] = c;
    texts[2 * i + 1] = r;
    lens[2 * i] = c.length;
    lens[2 * i + 1] = r.length;
  }
  const flat = main.rouge1Batch(checkLength(texts.join(''), 'rouge1Batch'), lens);
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

// rouge1Spans: where ROUGE-1's token overlap falls in the two texts (the viewer's highlight),
// computed by the core's tokenizer and stemmer so the marked words agree with rouge1's score.
function side(flat, at) {
  const aligned = flat[at] === 1;
  const n = flat[at + 1];
  const spans = new Array(n);
  let p = at + 2;
  for (let i = 0; i < n; i++, p += 4) {
    spans[i] = { start: flat[p], end: flat[p + 1], tokens: flat[p + 2], matched: flat[p + 3] };
  }
  return [{ aligned, spans }, p];
}

/**
 * The words of `candidate` and `reference` that ROUGE-1 tokenizes, as UTF-16 spans
 * `{start, end, tokens, matched}`; `matched` counts the tokens in the overlap, so each side's
 * total is the overlap rouge1 uses. `aligned: false` means one span covers the whole text.
 */
export function rouge1Spans(candidate, reference) {
  ensureReady();
  checkTextPair('rouge1Spans', candidate, reference);
  const flat = main.rouge1Spans(candidate, reference);
  const [cand, next] = side(flat, 0);
  const [ref] = side(flat, next);
  return { candidate: cand, reference: ref };
}

/**
 * Scores one case without running an agent. With `judge` the LLM-judged metrics are judged
 * through the host's fetch; with `customMetrics` ({name: fn}) those metrics are computed by the
 * host's functions. Without either the deterministic metrics are scored at once.
 */
export async function evaluateInvocations(args) {
  ensureReady();
  if (args !== null && typeof args === 'object'
    && ((args.judge !== undefined && args.judge !== null) || (args.customMetrics !== undefined && args.customMetrics !== null))) {
    return evaluateInvocationsJudged(args);
  }
  const wire = { held: null };
  const result = unwrap(main.evaluateInvocationsJson(...caseParts(args, 'evaluateInvocations', true, wire)));
  expandColumns(result, wire.held);
  return result;
}

/**
 * A case parsed once, to be scored under many configs. Call free() when done (or rely on GC).
 * It lives in the wasm instance that prepared it: after that instance trapped, evaluate() throws
 * EvalError `trap` (prepare the case again).
 */
class PreparedCase {
  #slot;
  // The case's invocations as JS objects (the core's parse), once a result has carried them:
  // later results refer to these instead of having the core echo them again.
  #held;

  constructor(slot, held) {
    this.#slot = slot;
    this.#held = held;
    collector.register(this, slot, this);
  }

  evaluate(config, options) {
    ensureReady();
    const slot = this.#slot;
    if (slot.handle !== null || slot.trapped) {
      try {
        checkAlive(slot.gen);
      } catch (e) {
        // Its instance is gone: let go of the handle (and with it the old memory).
        slot.trapped = true;
        this.free();
        throw e;
      }
    }
    if (slot.handle === null) {
      throw new EvalError('freed', '', 'PreparedCase.evaluate: this PreparedCase has been freed; prepare the case again');
    }
    const cfg = config === undefined || config === null ? '' : configMember(config, toJson(config, 'config', true));
    let includeInvocations;
    let perInvocation;
    let efficiencyMetrics;
    let explain;
    if (options !== undefined && options !== null) {
      requireObject(options, 'PreparedCase.evaluate');
      ({ includeInvocations, perInvocation, efficiencyMetrics, explain } = options);
    }
    const held = this.#held;
    const opts = stringify({
      includeInvocations, perInvocation, efficiencyMetrics, explain, columns: true, callerInvocations: held !== null,
    }, 'options');
    const result = unwrap(callOn(slot.gen, () => main.on.preparedCaseEvaluateJson(slot.handle, cfg, opts)));
    const carried = expandColumns(result, held);
    if (carried !== null) this.#held = carried;
    return result;
  }

  free() {
    const slot = this.#slot;
    if (slot.handle !== null) {
      collector.unregister(this);
      release(slot);
    }
  }
}
if (typeof Symbol.dispose === 'symbol') {
  PreparedCase.prototype[Symbol.dispose] = PreparedCase.prototype.free;
}

// The Rust object goes with its PreparedCase: on free(), or when the PreparedCase is collected.
// The slot holds the handle (and through it the instance), so nothing else may keep it.
function release(slot) {
  const { handle, gen } = slot;
  slot.handle = null;
  gen.handles--;
  if (gen.trap === null) {
    try {
      callOn(gen, () => handle.free());
    } catch {
      // Its instance died meanwhile: the memory goes with the instance.
    }
  }
}
// workerd has no FinalizationRegistry: there only free() releases.
const collector = typeof FinalizationRegistry === 'undefined'
  ? { register() {}, unregister() {} }
  : new FinalizationRegistry(release);

/** Parses `evalCase` + `actual` once; `evaluate(config)` then scores without re-parsing. */
export function prepareCase(args) {
  ensureReady();
  const parts = caseParts(args, 'prepareCase', false);
  return callSync((g, gen) => {
    let handle;
    try {
      handle = main.on.preparedCaseFromJson(g, ...parts);
    } catch (e) {
      // The core throws its error envelope as a string.
      if (typeof e === 'string') {
        unwrap(e);
        throw new EvalError('internal', '', 'evalcore: PreparedCase.fromJson failed without an error');
      }
      throw e;
    }
    gen.handles++;
    return new PreparedCase({ handle, gen }, null);
  });
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
  return unwrap(main.formatReportJson(toJson(list, 'results'), opts));
}

/**
 * Every metric the core knows, from its registry: `[{name, kind, needs_judge, criterion_class,
 * description, min, max, higher_is_better}]` (`kind`: scored, judged, informational, unsupported).
 */
export function metricsInfo() {
  ensureReady();
  return JSON.parse(main.metricsInfoJson());
}

/** The Rust crate's version, for diagnostics. */
export function coreVersion() {
  ensureReady();
  return main.coreVersion();
}

export { planJudgeCalls } from './run.js';
// `evaluate` is exported by the entries from evaluate.js, which stands above this facade.

