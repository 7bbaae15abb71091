//! `POST /v1/evaluate`: the body read (JSON, or ndjson whose first line is the request and whose
//! further lines steer the judge while the run goes on), then a slot of maxConcurrent taken (a
//! client still sending its body holds none), the job prepared and run, and the result answered
//! as bounded JSON or streamed case by case. The client leaving cancels the run.
import { HttpError } from './http.js';
import { NDJSON, boundedJson, ndjsonStream, summaryOf } from './answer.js';
import { checkPlannedCalls, prepareJob } from './job.js';
import { firstLine, followControl } from './pace.js';
import { runJob } from './run_job.js';
import { CLIENT_CLOSED } from './log.js';

/** At most `max` evaluations at once: `take()` gives a release function, or throws a 429. */
export function slots(max) {
  let inFlight = 0;
  return {
    take() {
      if (inFlight >= max) {
        throw new HttpError(429, 'too_many_requests', '', `this server runs at most ${max} evaluations at once (maxConcurrent); retry later`, { 'retry-after': '1' });
      }
      inFlight++;
      let released = false;
      return () => {
        if (!released) {
          released = true;
          inFlight--;
        }
      };
    },
  };
}

/**
 * The route over the server's `{limits, agents, judge, pace, redact, slots, readJson}`:
 * `(request, deadline, entry) => Response`, `entry` the request's log entry (a stream logs
 * when it ends).
 */
export function evaluateRoute(server) {
  const { limits, redact } = server;

  /** `{body, rest}`: the request and, for an ndjson body still open, a reader over its control lines. */
  async function readRequest(request, deadline) {
    if (!(request.headers.get('content-type') ?? '').toLowerCase().includes(NDJSON)) return { body: await server.readJson(request, deadline), rest: null };
    const { first, rest } = await firstLine(request.body, limits.maxBodyBytes, deadline);
    try {
      return { body: server.parseJson(first), rest };
    } catch (e) {
      rest?.reader.cancel().catch(() => {});
      throw e;
    }
  }

  return async function route(request, deadline, entry) {
    const { body, rest } = await readRequest(request, deadline);
    let release = null;
    let owner = true;
    try {
      release = server.slots.take();
      const job = prepareJob(body, server);
      // The run stops when its client goes away (or the stream is cancelled), or with the error
      // of a bad control line.
      const abort = new AbortController();
      const signal = request.signal;
      if (signal) {
        if (signal.aborted) abort.abort(signal.reason);
        else signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
      }
      if (job.judged) await checkPlannedCalls(job, server.pace.judgeFor(null).judge, limits.maxCalls);
      followControl(rest, server.pace, abort.signal, (err) => abort.abort(err), limits.maxBodyBytes);
      if ((request.headers.get('accept') ?? '').includes(NDJSON)) {
        owner = false;
        entry.defer();
        return streamed(job, abort, release, entry);
      }
      try {
        const { result } = await runJob(job, server, abort.signal);
        return boundedJson(result, limits.maxAnswerBytes, redact);
      } catch (e) {
        throw abort.signal.reason instanceof HttpError ? abort.signal.reason : e;
      } finally {
        abort.abort(new Error('the evaluation ended'));
      }
    } catch (e) {
      rest?.reader.cancel().catch(() => {});
      throw e;
    } finally {
      if (owner) release?.();
    }
  };

  /** The run as ndjson: a line per case result (and judge events), then a summary or an error line. */
  function streamed(job, abort, release, entry) {
    const out = ndjsonStream(limits.maxAnswerBytes, redact, (reason) => abort.abort(reason));
    const withStats = job.body.caseJudgeStats === true;
    runJob(job, server, abort.signal, {
      ready: out.ready,
      onResult: (r, stats) => {
        // A sharded run's client counts a case's judge calls only with the case it keeps.
        if (withStats && stats) out.push({ judge_stats: { eval_id: r.eval_id, ...stats } });
        out.push(r);
      },
      onThrottle: (ms) => out.push({ judge_throttled: { retry_after_ms: ms } }),
    }).then(({ result, calls }) => {
      out.push({ summary: summaryOf(result, calls) });
      entry.end(200);
    }, (e) => {
      const reason = abort.signal.reason;
      // Stopped by the client leaving (nothing to tell it), or by a bad control line or a line
      // over the limit (their error).
      if (abort.signal.aborted && !(reason instanceof HttpError)) {
        entry.end(CLIENT_CLOSED, 'client_closed');
        return;
      }
      const err = reason instanceof HttpError ? reason : e instanceof HttpError ? e : server.internal(e);
      out.push({ error: { code: err.code, path: err.path, message: err.message } });
      entry.end(200, err.code);
    }).finally(() => {
      // The control lines are read no further.
      if (!abort.signal.aborted) abort.abort(new Error('the evaluation ended'));
      release();
      out.close();
    });
    return out.response;
  }
}
