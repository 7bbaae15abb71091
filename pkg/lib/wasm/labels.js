// People's verdicts on judged results. The labels file (`"kind": "evalcore.labels"`, version 1;
// docs/compare.md) read with a JSON path for every mistake, the judged verdicts of a loaded
// result that a person can label (the viewer lists them), and calibration: each label matched
// to the judge's verdict the results hold, then per metric, rubric and judge model the core's
// agreement, Wilson interval and Cohen's kappa (src/compare/stats.rs). A label the results
// cannot answer is listed with the reason, never dropped silently.
import { EvalError } from '../errors.js';
import { describe } from './wire.js';

export const LABELS_KIND = 'evalcore.labels';
export const LABELS_VERSION = 1;
/** The kappa below which a judge is flagged when none is given: "substantial" agreement (Landis and Koch). */
export const DEFAULT_KAPPA_THRESHOLD = 0.6;

const LABEL_WORDS = ['agree', 'disagree', 'pass', 'fail'];
const flip = (v) => (v === 'pass' ? 'fail' : 'pass');

function text(o, key, path, required) {
  const v = o[key];
  if ((v === undefined || v === null) && !required) return null;
  if (typeof v === 'string' && (v !== '' || !required)) return v;
  if (v === undefined || v === null) throw new EvalError('schema', `${path}.${key}`, `missing \`${key}\`: a label names its ${key.replace(/_id$|_name$/, '').replace('_', ' ')}`);
  throw new EvalError('schema', `${path}.${key}`, `\`${key}\` must be a non-empty string, found ${describe(v)}`);
}

function whole(o, key, path) {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (!Number.isSafeInteger(v) || v < 0) throw new EvalError('schema', `${path}.${key}`, `\`${key}\` must be a whole number from 0, found ${JSON.stringify(v)}`);
  return v;
}

function verdict(o, key, path) {
  const v = text(o, key, path, false);
  if (v !== null && v !== 'pass' && v !== 'fail') throw new EvalError('schema', `${path}.${key}`, `\`${key}\` must be "pass" or "fail", found ${JSON.stringify(v)}`);
  return v;
}

/** One entry of `labels`, its person's verdict (`human`) resolved. */
function readLabel(v, path) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new EvalError('schema', path, `a label is an object, found ${describe(v)}`);
  const judge = verdict(v, 'judge_verdict', path);
  const said = text(v, 'label', path, true);
  if (!LABEL_WORDS.includes(said)) throw new EvalError('schema', `${path}.label`, `\`label\` must be "agree", "disagree", "pass" or "fail", found ${JSON.stringify(said)}`);
  if ((said === 'agree' || said === 'disagree') && judge === null) {
    throw new EvalError('schema', `${path}.judge_verdict`, `label "${said}" needs \`judge_verdict\` ("pass" or "fail"): what the judge said when the person labelled it`);
  }
  if (v.note !== undefined && v.note !== null && typeof v.note !== 'string') throw new EvalError('schema', `${path}.note`, `\`note\` must be a string, found ${describe(v.note)}`);
  const index = whole(v, 'invocation_index', path);
  if (index === null) throw new EvalError('schema', `${path}.invocation_index`, 'missing `invocation_index`: which invocation of the case (0 for the first)');
  return {
    eval_set_id: text(v, 'eval_set_id', path, true),
    eval_id: text(v, 'eval_id', path, true),
    run: whole(v, 'run', path),
    invocation_index: index,
    invocation_id: text(v, 'invocation_id', path, false),
    metric_name: text(v, 'metric_name', path, true),
    rubric_id: text(v, 'rubric_id', path, false),
    judge_verdict: judge,
    label: said,
    note: v.note ?? null,
    human: said === 'agree' ? judge : said === 'disagree' ? flip(judge) : said,
    path,
  };
}

/**
 * A label's key: eval set, case, run, invocation (and its id: the runs of ADK's files carry no
 * run number, their invocations' ids tell them apart), metric and rubric.
 */
export const labelKey = (l) => JSON.stringify([l.eval_set_id, l.eval_id, l.run ?? 0, l.invocation_index, l.invocation_id || null, l.metric_name, l.rubric_id ?? null]);

/**
 * Reads a labels file's parsed value (`root`: its path in messages). Two labels of one key are
 * an error (`duplicate_id`): which one counts would be a guess.
 */
export function readLabels(value, root = '$labels') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EvalError('schema', root, `a labels file is an object {"kind": "${LABELS_KIND}", "version": 1, "labels": [...]}, found ${describe(value)}`);
  }
  if (value.kind !== LABELS_KIND) throw new EvalError('schema', `${root}.kind`, `a labels file says "kind": "${LABELS_KIND}", found ${JSON.stringify(value.kind) ?? 'none'}`);
  if (Number.isSafeInteger(value.version) && value.version > LABELS_VERSION) {
    throw new EvalError('unsupported', `${root}.version`, `labels file version ${value.version} is newer than this evalcore reads (up to ${LABELS_VERSION}): update evalcore`);
  }
  if (value.version !== LABELS_VERSION) throw new EvalError('schema', `${root}.version`, `\`version\` must be ${LABELS_VERSION}, found ${JSON.stringify(value.version) ?? 'none'}`);
  if (!Array.isArray(value.labels)) throw new EvalError('schema', `${root}.labels`, '`labels` must be an array of labels');
  const seen = new Set();
  const out = [];
  // An index loop: a sparse array's holes are labels too (undefined ones, refused).
  for (let i = 0; i < value.labels.length; i++) {
    const l = readLabel(value.labels[i], `${root}.labels[${i}]`);
    const key = labelKey(l);
    if (seen.has(key)) throw new EvalError('duplicate_id', l.path, 'a second label for the same eval set, case, run, invocation, metric and rubric: keep one');
    seen.add(key);
    out.push(l);
  }
  return out;
}

/** The judge model of a metric result: its criterion's `judge_model_options.judge_model`. */
export function criterionModel(m) {
  const o = m?.criterion?.judge_model_options ?? m?.criterion?.judgeModelOptions;
  const model = o?.judge_model ?? o?.judgeModel;
  return typeof model === 'string' && model !== '' ? model : null;
}

/** The verdict of a metric result on an invocation (or of one of its rubrics): "pass", "fail", or null with why not. */
export function judgeVerdict(m, rubricId) {
  if (rubricId === null || rubricId === undefined) {
    if (m.eval_status === 'PASSED') return { verdict: 'pass' };
    if (m.eval_status === 'FAILED') return { verdict: 'fail' };
    return { verdict: null, reason: m.eval_status === 'NOT_EVALUATED' ? 'not_evaluated' : 'not_judged' };
  }
  const r = (m.details?.rubric_scores ?? []).find((x) => x.rubric_id === rubricId);
  if (!r) return { verdict: null, reason: 'unmatched' };
  if (typeof r.score !== 'number') return { verdict: null, reason: 'not_evaluated' };
  return { verdict: r.score >= 0.5 ? 'pass' : 'fail' };
}

/** Case results of loaded results by eval id: `Map(eval_id -> [{ set, result }])`. */
function index(results) {
  const idx = new Map();
  for (const r of results) {
    for (const c of r.eval_case_results ?? []) {
      const set = c.eval_set_id || r.eval_set_id;
      if (!idx.has(c.eval_id)) idx.set(c.eval_id, []);
      idx.get(c.eval_id).push({ set, result: c });
    }
  }
  return idx;
}

const actualId = (c, i) => c.eval_metric_result_per_invocation?.[i]?.actual_invocation?.invocation_id || null;

/** The case result a label names, or why there is none. */
function findCase(l, idx) {
  const run = l.run ?? 0;
  const cands = (idx.get(l.eval_id) ?? []).filter(({ set, result }) => set === l.eval_set_id && (result.run ?? 0) === run
    && result.eval_metric_result_per_invocation?.[l.invocation_index] !== undefined).map((x) => x.result);
  if (!cands.length) {
    return { reason: 'unmatched', message: `no result of eval set "${l.eval_set_id}" case "${l.eval_id}" (run ${run}) with an invocation ${l.invocation_index} among the results (were per-invocation results saved?)` };
  }
  let list = cands;
  if (l.invocation_id && cands.some((c) => actualId(c, l.invocation_index))) {
    list = cands.filter((c) => actualId(c, l.invocation_index) === l.invocation_id);
    if (!list.length) {
      const found = cands.map((c) => actualId(c, l.invocation_index)).filter(Boolean).join(', ');
      return { reason: 'stale', message: `invocation ${l.invocation_index} of case "${l.eval_id}" in the results is not the one labelled (invocation_id ${found}, the label's ${l.invocation_id})` };
    }
  }
  if (list.length > 1) {
    return { reason: 'ambiguous', message: `${list.length} results hold case "${l.eval_id}" run ${run}: give the label a \`run\` or an \`invocation_id\` to say which` };
  }
  return { result: list[0] };
}

/** The judge's verdict (and model) on what `l` labels, or why there is none. */
function judged(l, c, model) {
  const m = (c.eval_metric_result_per_invocation[l.invocation_index].eval_metric_results ?? []).find((x) => x.metric_name === l.metric_name);
  const where = `invocation ${l.invocation_index} of case "${l.eval_id}"`;
  if (!m) return { reason: 'unmatched', message: `${where} has no result for metric ${l.metric_name}` };
  const v = judgeVerdict(m, l.rubric_id);
  if (v.verdict === null) {
    const why = m.details?.reason ?? m.details?.error ?? (m.eval_status === 'INFORMATIONAL' ? 'the metric is informational' : 'no reason given');
    const message = v.reason === 'unmatched' ? `${l.metric_name} has no rubric "${l.rubric_id}" on ${where}` : `the judge gave no verdict on ${l.metric_name} (${where}): ${why}`;
    return { reason: v.reason === 'not_judged' ? 'not_evaluated' : v.reason, message };
  }
  const overall = (c.overall_eval_metric_results ?? []).find((x) => x.metric_name === l.metric_name);
  return { verdict: v.verdict, model: model || criterionModel(m) || criterionModel(overall) || 'unspecified' };
}

/**
 * Calibration of `results` (loaded results) against `labels` (read by readLabels), with
 * `stats(counts)` the core's agreement numbers (four per 2x2 table).
 */
export function calibrateLabels(labels, results, { kappaThreshold = DEFAULT_KAPPA_THRESHOLD, judgeModel = null } = {}, stats) {
  const idx = index(results);
  const groups = new Map();
  const skipped = [];
  for (const l of labels) {
    const found = findCase(l, idx);
    const j = found.result ? judged(l, found.result, judgeModel) : found;
    if (!j.verdict) {
      skipped.push({ path: l.path, reason: j.reason, message: j.message });
      continue;
    }
    const key = JSON.stringify([l.metric_name, l.rubric_id ?? null, j.model]);
    if (!groups.has(key)) groups.set(key, { metric_name: l.metric_name, rubric_id: l.rubric_id ?? null, judge_model: j.model, t: [0, 0, 0, 0] });
    groups.get(key).t[(j.verdict === 'pass' ? 0 : 2) + (l.human === 'pass' ? 0 : 1)]++;
  }
  const list = [...groups.values()].sort((a, b) => cmp(a.metric_name, b.metric_name) || cmp(a.rubric_id ?? '', b.rubric_id ?? '') || cmp(a.judge_model, b.judge_model));
  const numbers = list.length ? stats(Uint32Array.from(list.flatMap((g) => g.t))) : [];
  const metrics = list.map((g, i) => {
    const [agreement, lo, hi, k] = [0, 1, 2, 3].map((j) => numbers[4 * i + j]);
    const kappa = Number.isNaN(k) ? null : k;
    const flagReason = kappa === null
      ? 'kappa is undefined: the judge and the person gave one and the same verdict throughout; label cases of both kinds'
      : kappa < kappaThreshold ? `kappa ${Number(kappa.toFixed(3))} is below ${kappaThreshold}` : null;
    const [pp, pf, fp, ff] = g.t;
    return {
      metric_name: g.metric_name, rubric_id: g.rubric_id, judge_model: g.judge_model, n: pp + pf + fp + ff, agreement,
      agreement_ci95: [lo, hi], kappa,
      confusion: { judge_pass_human_pass: pp, judge_pass_human_fail: pf, judge_fail_human_pass: fp, judge_fail_human_fail: ff },
      flagged: flagReason !== null, flag_reason: flagReason,
    };
  });
  return { metrics, kappa_threshold: kappaThreshold, labels: labels.length, used: labels.length - skipped.length, skipped };
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a person can label in a loaded result: every judged verdict (per case run, invocation,
 * metric, and per rubric), as `[{ key fields..., judge_verdict, model, rubric_id }]`. `judged`
 * says which metrics are judged (the core's metricsInfo: `needs_judge`).
 */
export function labelables(result, judged) {
  const out = [];
  for (const c of result.eval_case_results ?? []) {
    (c.eval_metric_result_per_invocation ?? []).forEach((inv, i) => {
      for (const m of inv.eval_metric_results ?? []) {
        if (!judged(m.metric_name)) continue;
        const base = {
          eval_set_id: c.eval_set_id || result.eval_set_id, eval_id: c.eval_id, run: c.run ?? null, invocation_index: i,
          invocation_id: inv.actual_invocation?.invocation_id || null, metric_name: m.metric_name, model: criterionModel(m),
        };
        out.push({ ...base, rubric_id: null, judge_verdict: judgeVerdict(m, null).verdict, score: m.score ?? null, status: m.eval_status });
        for (const r of m.details?.rubric_scores ?? []) {
          out.push({ ...base, rubric_id: r.rubric_id, judge_verdict: judgeVerdict(m, r.rubric_id).verdict, score: r.score ?? null, rationale: r.rationale ?? null });
        }
      }
    });
  }
  return out;
}
