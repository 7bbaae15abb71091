//! What the endpoint sends back, bounded like what it reads: a JSON EvalSetResult written case by
//! case and refused with a 413 `answer_too_large` before it passes maxAnswerBytes (never held as
//! one string), or an ndjson stream of lines, each at most maxAnswerBytes, written only as fast
//! as the client reads them.
import { runHealth } from '../health.js';
import { HttpError } from './http.js';

export const NDJSON = 'application/x-ndjson';

const encoder = new TextEncoder();

const tooLarge = (max) => new HttpError(413, 'answer_too_large', '',
  `the answer would be more than ${max} bytes (maxAnswerBytes); ask for it as a stream (Accept: ${NDJSON}: one case per line), or score fewer cases per request (evalIds)`);

/** Bytes in chunks as a response body, read one chunk per pull. */
function chunksBody(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/**
 * An EvalSetResult as a JSON response of at most `max` bytes: its fields in their order, each
 * case result serialised (and `redact`ed) on its own; past `max` a 413 is thrown at once.
 */
export function boundedJson(result, max, redact) {
  const chunks = [];
  let total = 0;
  const add = (text) => {
    const bytes = encoder.encode(text);
    total += bytes.byteLength;
    if (total > max) throw tooLarge(max);
    chunks.push(bytes);
  };
  const cases = result.eval_case_results;
  // The result's own fields around a marker where the cases go (a JSON string, so no value's
  // text can hold it unescaped).
  const marker = JSON.stringify(`\u0000cases:${Math.random().toString(36).slice(2)}`);
  const outer = redact(JSON.stringify({ ...result, eval_case_results: JSON.parse(marker) }));
  const at = outer.indexOf(marker);
  add(`${outer.slice(0, at)}[`);
  cases.forEach((c, i) => add(`${i === 0 ? '' : ','}${redact(JSON.stringify(c))}`));
  add(`]${outer.slice(at + marker.length)}`);
  return new Response(chunksBody(chunks), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(total) },
  });
}

/**
 * An ndjson response written line by line. `push(value)` queues a line (false once the client
 * has gone, or after a line over `max`, which ends the stream with an `answer_too_large` error
 * line); `ready()` resolves when the client has read what is queued, so a producer that awaits it
 * holds at most about 1 MiB; `close()` ends it. `onCancel(reason)` is told when the client stops.
 */
export function ndjsonStream(max, redact, onCancel) {
  let controller;
  let open = true;
  const waiting = [];
  const wake = () => {
    while (waiting.length > 0) waiting.shift()();
  };
  const body = new ReadableStream({
    start(c) {
      controller = c;
    },
    pull() {
      wake();
    },
    cancel(reason) {
      open = false;
      wake();
      onCancel(reason ?? new Error('the client cancelled the response'));
    },
  }, { highWaterMark: 1 << 20, size: (chunk) => chunk.byteLength });
  const enqueue = (text) => {
    try {
      controller.enqueue(encoder.encode(`${text}\n`));
      return true;
    } catch {
      open = false;
      return false;
    }
  };
  const stream = {
    response: new Response(body, { status: 200, headers: { 'content-type': `${NDJSON}; charset=utf-8`, 'cache-control': 'no-store' } }),
    get open() {
      return open;
    },
    push(value) {
      return stream.pushText(JSON.stringify(value));
    },
    /** A line already JSON text (a stored case result), redacted and bounded as `push`'s. */
    pushText(text) {
      if (!open) return false;
      const line = redact(text);
      if (encoder.encode(line).byteLength <= max) return enqueue(line);
      const e = tooLarge(max);
      enqueue(JSON.stringify({ error: { code: e.code, path: '', message: `a line of ${e.message}` } }));
      stream.close();
      onCancel(e);
      return false;
    },
    /** An empty line: a quiet stream shows it is alive (readers skip empty lines). */
    keepAlive() {
      return open && enqueue('');
    },
    ready() {
      if (!open || controller.desiredSize > 0) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
    close() {
      if (!open) return;
      open = false;
      wake();
      try {
        controller.close();
      } catch {
        // Already cancelled by the client.
      }
    },
  };
  return stream;
}

/** What a stream keeps of a case result for its summary (not its invocations). */
export function slim(r) {
  return {
    eval_id: r.eval_id,
    ...(r.run === undefined ? {} : { run: r.run }),
    final_eval_status: r.final_eval_status,
    ...(r.error ? { error: r.error } : {}),
    overall_eval_metric_results: (r.overall_eval_metric_results ?? []).map((m) => ({
      metric_name: m.metric_name,
      eval_status: m.eval_status,
      ...(m.details ? { details: { reason: m.details.reason, error: m.details.error } } : {}),
    })),
  };
}

/** The last line of a stream: the EvalSetResult without its cases, the counts and runHealth. */
export function summaryOf(result, calls) {
  const { eval_case_results: cases, ...rest } = result;
  // Cases the core did not run (judge budget spent, cancelled) are `skipped`, not lost.
  const counts = { cases: cases.length, passed: 0, failed: 0, not_evaluated: 0, skipped: Array.isArray(result.skipped) ? result.skipped.length : 0 };
  for (const r of cases) {
    if (r.final_eval_status === 'PASSED') counts.passed++;
    else if (r.final_eval_status === 'FAILED') counts.failed++;
    else counts.not_evaluated++;
  }
  const h = runHealth(result);
  return {
    ...rest, counts, judge_calls: calls,
    run_health: { count: h.count, byReason: h.byReason, caseErrors: h.caseErrors, summary: h.summary },
  };
}
