//! A run's result, assembled as a local run's is: the EvalSetResult's own fields made by the
//! core's model (named and stamped as ADK names a new result; with several runs, the run summary
//! computed by the core over every case), the run's judge counters, and its case results in the
//! eval set's order, run after run, read from the store one by one as the answer is written, so
//! no process holds a large result whole.
import { loadEvalSetResult } from '../../wasm/api.js';
import { createEvalSetResult } from '../../store/adk_layout.js';
import { HttpError } from '../http.js';
import { NDJSON } from '../answer.js';

/** The app name a run's result is named after (as `evaluate` names a result without `appName`). */
export const RUN_APP = 'evalcore';
/** Fields a result carries after its cases (the core's run summary, evalcore's counters). */
const TRAILING = ['run_summary', 'judge_stats', 'dead_letter'];
/** Case results read ahead while the answer is written. */
const READ_AHEAD = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A metric result without its details (judge rationales, explanations). */
const bare = ({ details: _d, ...m }) => m;

/**
 * A case result cut to what the run summary reads (statuses, errors, scores, thresholds,
 * criteria): no invocations, no details. A run of 10,000 cases x 5 runs is assembled in a
 * Durable Object's 128 MB.
 */
function forSummary(r) {
  return {
    eval_set_id: r.eval_set_id, eval_id: r.eval_id, final_eval_status: r.final_eval_status, run: r.run,
    ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
    overall_eval_metric_results: (r.overall_eval_metric_results ?? []).map(bare),
    eval_metric_result_per_invocation: (r.eval_metric_result_per_invocation ?? []).map((p) => ({ eval_metric_results: (p.eval_metric_results ?? []).map(bare) })),
  };
}

/**
 * What the result of a finished run is made of: `{fields, records, deadLetter}`. `ledger` the
 * run's, `head` its input head, `readJson(key)` a stored case result.
 */
export async function assembleResult(ledger, head, readJson) {
  const made = createEvalSetResult(RUN_APP, head.evalSet.eval_set_id, [], {
    timestamp: ledger.meta.created / 1000, ...(head.name ? { name: head.name } : {}),
  });
  const ordered = ledger.inResultOrder().filter((r) => r.status !== 'DEAD');
  const { eval_case_results: _none, ...fields } = loadEvalSetResult(made);
  if (head.numRuns > 1) {
    const cases = [];
    for (const r of ordered) cases.push(forSummary(await readJson(r.key)));
    fields.run_summary = loadEvalSetResult({ ...made, eval_case_results: cases }, { runSummary: true }).run_summary;
  }
  if (ledger.judgeStats !== null) fields.judge_stats = ledger.judgeStats;
  const deadLetter = ledger.deadLetters();
  if (deadLetter.length > 0) fields.dead_letter = deadLetter;
  return { fields, records: ordered.map((r) => ({ key: r.key, bytes: r.bytes ?? 0, unit: r.unit, eval_id: r.eval_id })) };
}

/** Reads `keys` in order with up to READ_AHEAD reads in flight. */
function readAhead(keys, read) {
  const started = [];
  let i = 0;
  const fill = () => {
    while (started.length < READ_AHEAD && i < keys.length) {
      const p = read(keys[i++]);
      p.catch(() => {});
      started.push(p);
    }
  };
  return {
    async next() {
      fill();
      const p = started.shift();
      return p === undefined ? undefined : p;
    },
  };
}

/**
 * The answer to `GET /v1/runs/{id}/result`: `doc` (assembleResult's) as one JSON EvalSetResult
 * (refused with a 413 when its stored parts pass `max`), or with `ndjson` one case result per line
 * and then `{"result": {the other fields}}`.
 */
export function resultStream(doc, read, { ndjson, max, redact }) {
  const { fields, records } = doc;
  const marker = JSON.stringify(`\u0000cases:${Math.random().toString(36).slice(2)}`);
  // The cases where a local run has them: after the result's own fields, before what evalcore adds.
  const lead = Object.fromEntries(Object.entries(fields).filter(([k]) => !TRAILING.includes(k)));
  const trail = Object.fromEntries(TRAILING.filter((k) => k in fields).map((k) => [k, fields[k]]));
  const outer = redact(JSON.stringify({ ...lead, eval_case_results: JSON.parse(marker), ...trail }));
  const at = outer.indexOf(marker);
  if (!ndjson) {
    const total = records.reduce((n, r) => n + r.bytes + 1, outer.length);
    if (total > max) {
      throw new HttpError(413, 'answer_too_large', '', `the result is about ${total} bytes; the limit is ${max} (maxAnswerBytes): ask for it as a stream (Accept: ${NDJSON}: one case per line, then the result's other fields)`);
    }
  }
  const reader = readAhead(records.map((r) => r.key), read);
  let i = 0;
  let phase = 'start';
  const body = new ReadableStream({
    async pull(controller) {
      if (phase === 'start') {
        phase = 'cases';
        if (!ndjson) controller.enqueue(encoder.encode(`${outer.slice(0, at)}[`));
        return;
      }
      if (phase === 'cases' && i < records.length) {
        const bytes = await reader.next();
        if (bytes === null) {
          controller.error(new Error(`the stored result of ${records[i].eval_id} (${records[i].unit}) is gone`));
          return;
        }
        let text = redact(decoder.decode(bytes));
        if (ndjson && encoder.encode(text).byteLength > max) {
          text = JSON.stringify({ error: { code: 'answer_too_large', path: '', message: `the result of ${records[i].eval_id} is more than ${max} bytes (maxAnswerBytes)` } });
        }
        controller.enqueue(encoder.encode(ndjson ? `${text}\n` : `${i === 0 ? '' : ','}${text}`));
        i++;
        return;
      }
      controller.enqueue(encoder.encode(ndjson ? `${redact(JSON.stringify({ result: fields }))}\n` : `]${outer.slice(at + marker.length)}`));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': `${ndjson ? NDJSON : 'application/json'}; charset=utf-8`, 'cache-control': 'no-store' },
  });
}
