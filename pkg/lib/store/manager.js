//! ADK's EvalSetsManager and EvalSetResultsManager over a Store, in ADK's layout:
//!   <app>/<eval_set_id>.evalset.json                              (written compact, as ADK does)
//!   <app>/.adk/eval_history/<result name>.evalset_result.json     (every field, integer statuses)
//! Values are the core's model: read with loadEvalSet / loadEvalSetResult, written with the core's
//! ADK writers. Changes to one eval set are queued, so concurrent calls on one manager never lose
//! a case.
import { EvalError } from '../errors.js';
import { loadEvalSet, loadEvalSetResult } from '../wasm/api.js';
import { adkEvalSetResultText, adkEvalSetText, pythonTime } from '../wasm/adk_text.js';
import {
  EVAL_HISTORY_KEY, EVAL_SET_FILE_SUFFIX, RESULT_FILE_SUFFIX, createEvalSetResult, loadEvalSetBytes,
  validateNewEvalSetId, validatePathSegment,
} from './adk_layout.js';
import { checkStore } from './store.js';

const encoder = new TextEncoder();
const show = (v) => JSON.stringify(v) ?? String(v);

const setKey = (app, setId) => `${app}/${setId}${EVAL_SET_FILE_SUFFIX}`;
const historyPrefix = (app) => `${app}/${EVAL_HISTORY_KEY}/`;
const resultKey = (app, resultId) => `${historyPrefix(app)}${resultId}${RESULT_FILE_SUFFIX}`;

/** `fn()`; an EvalError it throws gets `what` in front of its message (code and path kept). */
function naming(what, fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EvalError) throw new EvalError(e.code, e.path, `${what}: ${e.message}`, { cause: e });
    throw e;
  }
}

/** One eval case checked by the core's eval set loader; its paths start at the case (`$`). */
function checkedCase(evalCase, setId) {
  if (evalCase === null || typeof evalCase !== 'object' || Array.isArray(evalCase)) {
    throw new EvalError('schema', '$', `expected an EvalCase object, found ${evalCase === null ? 'null' : Array.isArray(evalCase) ? 'an array' : typeof evalCase}`);
  }
  try {
    return loadEvalSet({ eval_set_id: setId, eval_cases: [evalCase] }).eval_cases[0];
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    const m = /^\$\.eval_cases\[0\](.*)$/.exec(e.path);
    throw new EvalError(e.code, m ? `$${m[1]}` : e.path, `eval case: ${e.message}`, { cause: e });
  }
}

/**
 * The eval-set manager over `store`. `options.now` (seconds since the epoch, like Python's
 * `time.time()`) stamps new sets and results; the default is the clock.
 */
export function evalSetsManager(store, { now = pythonTime } = {}) {
  checkStore(store, 'evalSetsManager');
  if (typeof now !== 'function') throw new EvalError('config', 'now', 'evalSetsManager: options.now must be a function returning seconds since the epoch');
  const queues = new Map();
  const stamp = () => {
    const t = now();
    if (typeof t !== 'number' || !Number.isFinite(t)) throw new EvalError('config', 'now', `evalSetsManager: options.now() gave ${typeof t === 'number' ? String(t) : show(t)}, not seconds since the epoch`);
    return t;
  };

  /** Runs `fn` after every earlier change to `key` has finished (one process, one manager). */
  function serialised(key, fn) {
    const before = queues.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.then(() => {}, () => {});
    queues.set(key, tail);
    tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return run;
  }

  async function readSet(app, setId) {
    const key = setKey(app, setId);
    const bytes = await store.get(key);
    if (bytes === null) return null;
    return naming(`eval set ${key}`, () => loadEvalSetBytes(bytes, { legacyId: setId }).evalSet);
  }

  async function writeSet(app, setId, evalSet) {
    await store.put(setKey(app, setId), encoder.encode(adkEvalSetText(evalSet, { compact: true })));
  }

  async function existingSet(app, setId) {
    const evalSet = await readSet(app, setId);
    if (evalSet === null) {
      throw new EvalError('not_found', '', `eval set ${show(setId)} not found for app ${show(app)}; create it first (createEvalSet)`);
    }
    return evalSet;
  }

  function caseIdOf(caseId) {
    if (typeof caseId !== 'string' || caseId === '') throw new EvalError('schema', '', `eval case id must be a non-empty string, found ${show(caseId)}`);
    return caseId;
  }

  /** Checks names, then reads, changes and writes the set under its queue. */
  function changeSet(app, setId, change) {
    validatePathSegment(app, 'app_name');
    validatePathSegment(setId, 'eval_set_id');
    return serialised(setKey(app, setId), async () => {
      const evalSet = await existingSet(app, setId);
      change(evalSet);
      await writeSet(app, setId, evalSet);
    });
  }

  /** The eval set, or null when there is none. A legacy list file takes `setId` as its id. */
  async function getEvalSet(app, setId) {
    validatePathSegment(app, 'app_name');
    validatePathSegment(setId, 'eval_set_id');
    return readSet(app, setId);
  }

  return {
    /** The eval set ids of `app`, sorted; [] when it has none. */
    async listEvalSets(app) {
      validatePathSegment(app, 'app_name');
      const keys = await store.list(`${app}/`);
      return keys.filter((k) => k.endsWith(EVAL_SET_FILE_SUFFIX))
        .map((k) => k.slice(app.length + 1, -EVAL_SET_FILE_SUFFIX.length))
        .filter((id) => id !== '')
        .sort();
    },

    getEvalSet,

    /** Creates an empty set (`name` = id, stamped now); `duplicate_id` when it exists. */
    async createEvalSet(app, setId) {
      validatePathSegment(app, 'app_name');
      validateNewEvalSetId(setId);
      return serialised(setKey(app, setId), async () => {
        if ((await store.get(setKey(app, setId))) !== null) {
          throw new EvalError('duplicate_id', '', `eval set ${show(setId)} already exists for app ${show(app)}`);
        }
        const text = adkEvalSetText({ eval_set_id: setId, name: setId, eval_cases: [], creation_timestamp: stamp() }, { compact: true });
        await store.put(setKey(app, setId), encoder.encode(text));
        return loadEvalSet(text);
      });
    },

    /** The case with `caseId`, or null when the set or the case is missing. */
    async getEvalCase(app, setId, caseId) {
      caseIdOf(caseId);
      const evalSet = await getEvalSet(app, setId);
      return evalSet?.eval_cases.find((c) => c.eval_id === caseId) ?? null;
    },

    /** Appends `evalCase` (checked by the core); the set must exist and the id be new. */
    async addEvalCase(app, setId, evalCase) {
      return changeSet(app, setId, (evalSet) => {
        const checked = checkedCase(evalCase, setId);
        if (evalSet.eval_cases.some((c) => c.eval_id === checked.eval_id)) {
          throw new EvalError('duplicate_id', '$.eval_id', `eval case ${show(checked.eval_id)} already exists in eval set ${show(setId)} of app ${show(app)}; update it instead (updateEvalCase)`);
        }
        evalSet.eval_cases.push(checked);
      });
    },

    /** Replaces the case with `evalCase.eval_id` where it stands (as ADK 2.13 does). */
    async updateEvalCase(app, setId, evalCase) {
      return changeSet(app, setId, (evalSet) => {
        const checked = checkedCase(evalCase, setId);
        const i = evalSet.eval_cases.findIndex((c) => c.eval_id === checked.eval_id);
        if (i < 0) {
          throw new EvalError('not_found', '$.eval_id', `eval case ${show(checked.eval_id)} not found in eval set ${show(setId)} of app ${show(app)}; add it first (addEvalCase)`);
        }
        evalSet.eval_cases[i] = checked;
      });
    },

    /** Removes the case `caseId`; `not_found` when it is not there. */
    async deleteEvalCase(app, setId, caseId) {
      caseIdOf(caseId);
      return changeSet(app, setId, (evalSet) => {
        const i = evalSet.eval_cases.findIndex((c) => c.eval_id === caseId);
        if (i < 0) throw new EvalError('not_found', '', `eval case ${show(caseId)} not found in eval set ${show(setId)} of app ${show(app)}`);
        evalSet.eval_cases.splice(i, 1);
      });
    },

    /** Stores a new EvalSetResult of `evalCaseResults` (ADK's id and stamp) and returns it. */
    async saveEvalSetResult(app, setId, evalCaseResults) {
      validatePathSegment(app, 'app_name');
      validatePathSegment(setId, 'eval_set_id');
      if (!Array.isArray(evalCaseResults)) {
        throw new EvalError('schema', '$', `saveEvalSetResult: expected an array of EvalCaseResult, found ${evalCaseResults === null ? 'null' : typeof evalCaseResults}`);
      }
      const result = createEvalSetResult(app, setId, evalCaseResults, { timestamp: stamp() });
      let text;
      try {
        text = adkEvalSetResultText(result);
      } catch (e) {
        // Paths point into the argument: `$[2].final_eval_status`.
        const m = e instanceof EvalError ? /^\$\.eval_case_results(\[\d+\].*)$/.exec(e.path) : null;
        if (m) throw new EvalError(e.code, `$${m[1]}`, `eval case result: ${e.message}`, { cause: e });
        throw e;
      }
      await store.put(resultKey(app, result.eval_set_result_name), encoder.encode(text));
      return loadEvalSetResult(text);
    },

    /** The result with `resultId` (its file name without the suffix), or null. */
    async getEvalSetResult(app, resultId) {
      validatePathSegment(app, 'app_name');
      validatePathSegment(resultId, 'eval_set_result_id');
      const key = resultKey(app, resultId);
      const bytes = await store.get(key);
      if (bytes === null) return null;
      return naming(`eval set result ${key}`, () => loadEvalSetResult(bytes));
    },

    /** The result ids of `app`, sorted. */
    async listEvalSetResults(app) {
      validatePathSegment(app, 'app_name');
      const prefix = historyPrefix(app);
      const keys = await store.list(prefix);
      return keys.filter((k) => k.endsWith(RESULT_FILE_SUFFIX))
        .map((k) => k.slice(prefix.length, -RESULT_FILE_SUFFIX.length))
        .filter((id) => id !== '')
        .sort();
    },
  };
}
