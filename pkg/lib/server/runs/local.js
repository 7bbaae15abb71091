//! Runs kept by one server process in a folder (`evalcore serve --runs_dir DIR`): the same job
//! API as the Workers deployment, the same units of work, with the process standing in for the
//! platform: a queue in memory (retries with back-off, then the run's dead letters), the ledger
//! appended to a file as each result is kept, the case results and the input as files. A server
//! that is killed and started again on the same folder resumes every unfinished run: a unit whose
//! result was kept is never done again; only the units in flight at the kill are.
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsStore } from '../../store/fs.js';
import { EVENTS_PAGE, Ledger } from './ledger.js';
import { JudgePace, localPace, onAbort } from './pace.js';
import { runFiles } from './files.js';
import { evalIdOf, workBatch } from './work.js';
import { assembleResult } from './result.js';
import { RUN_ID } from './input.js';
import { readRunFolder } from './folder.js';
import { HttpError } from '../http.js';

const decoder = new TextDecoder();

/**
 * The `runs` option of createHandler for a folder: `{dir, maxAttempts?, retryDelayMs?}`.
 * Attempts per unit (default 3) before it is a dead letter; the first retry waits retryDelayMs
 * (default 1 s), each next one twice as long.
 */
export function localRuns({ dir, maxAttempts = 3, retryDelayMs = 1000, log = () => {} }) {
  return (server) => {
    const engine = new LocalRuns(dir, server, { maxAttempts, retryDelayMs, log });
    return { backend: () => engine, engine };
  };
}

class LocalRuns {
  constructor(dir, server, options) {
    this.dir = dir;
    this.server = server;
    this.options = options;
    this.filesOf = runFiles(fsStore(dir), { cacheLimit: 16 });
    this.runs = new Map();
    this.creating = new Map();
    this.order = [];
    this.turn = 0;
    this.busy = 0;
    this.closing = new AbortController();
    this.tidying = new Set();
    this.pace = localPace(new JudgePace({ perMinute: server.judgeCallsPerMinute ?? null }));
    this.scoring = { judge: server.judge, agents: server.agents, limits: server.limits };
    this.ready = this.resume().catch((e) => options.log({ error: `cannot resume the runs in ${dir}: ${e.message}` }));
  }

  path(id, name) {
    return join(this.dir, 'runs', id, name);
  }

  /** Every run in the folder read back; the unfinished ones queued where they stopped. */
  async resume() {
    let ids = [];
    try {
      ids = (await readdir(join(this.dir, 'runs'))).filter((n) => RUN_ID.test(n));
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
    const report = (error) => this.options.log({ error });
    for (const id of ids) {
      // One run that cannot be read stops no other.
      try {
        const head = await this.filesOf.head(id).catch(() => null);
        const read = await readRunFolder(this.dir, id, head, report);
        if (read === null) continue;
        const run = this.newRun(id, read.ledger, read.bodyHash);
        if (read.remade) await this.saveMeta(run);
        this.runs.set(id, run);
      } catch (e) {
        report(`run ${id}: cannot be read back: ${e.message}`);
      }
    }
    this.order = [...this.runs.values()].sort((a, b) => b.ledger.meta.created - a.ledger.meta.created);
    for (const run of this.runs.values()) if (!run.ledger.final) await this.enqueue(run);
  }

  newRun(id, ledger, bodyHash) {
    return { id, ledger, bodyHash, queue: [], attempts: new Map(), waiters: new Set(), abort: new AbortController(), chain: Promise.resolve(), lastError: new Map() };
  }

  async saveMeta(run) {
    await this.filesOf.putJson(`runs/${run.id}/meta.json`, { meta: run.ledger.meta, bodyHash: run.bodyHash });
  }

  /** Queues the units of `run` that have no result yet, in the eval set's order, run after run. */
  async enqueue(run) {
    const head = await this.filesOf.head(run.id);
    if (head === null) {
      run.ledger.fail({ code: 'input_missing', message: `the input of run ${run.id} is missing from ${this.dir}` }, Date.now());
      await this.saveMeta(run);
      return;
    }
    for (let r = 0; r < head.numRuns; r++) {
      for (const p of head.places) {
        const unit = `${r}.${p.index}`;
        if (!run.ledger.has(unit)) run.queue.push({ unit, chunk: p.chunk });
      }
    }
    this.pump();
  }

  // ---- the queue -------------------------------------------------------------------------

  /** Starts work while there are free slots and queued units, taking runs in turn. */
  pump() {
    const max = this.server.limits.runConcurrency;
    while (this.busy < max && !this.closing.signal.aborted) {
      const run = this.nextRun();
      if (run === null) return;
      const item = run.queue.shift();
      this.busy++;
      this.work(run, item).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  nextRun() {
    const active = [...this.runs.values()].filter((r) => r.queue.length > 0 && !r.ledger.final);
    if (active.length === 0) return null;
    this.turn = (this.turn + 1) % active.length;
    return active[this.turn];
  }

  async work(run, item) {
    const { unit } = item;
    await workBatch({
      runId: run.id,
      items: [{
        unit, chunk: item.chunk,
        ack: () => {},
        retry: (e) => this.retry(run, item, e),
      }],
      coordinator: this.coordinator(run),
      files: this.filesOf,
      scoring: this.scoring,
      pace: this.pace,
      concurrency: 1,
      log: this.options.log,
    }).catch((e) => this.retry(run, item, e));
  }

  /** A unit that failed: queued again after a back-off, or a dead letter after maxAttempts. */
  retry(run, item, error) {
    if (this.closing.signal.aborted || run.ledger.final) return;
    const n = (run.attempts.get(item.unit) ?? 0) + 1;
    run.attempts.set(item.unit, n);
    if (n >= this.options.maxAttempts) {
      const last = run.lastError.get(item.unit) ?? { code: 'unit_failed', path: '', message: String(error?.message ?? error) };
      this.filesOf.head(run.id).then((head) => this.deadLetter(run, item.unit, evalIdOf(head, item.unit), {
        ...last, message: `given up after ${n} attempts: ${last.message}`,
      }));
      return;
    }
    const t = setTimeout(() => {
      run.queue.unshift(item);
      this.pump();
    }, this.options.retryDelayMs * 2 ** (n - 1));
    t.unref?.();
  }

  // ---- the coordinator of one run (what the Durable Object is on Workers) ----------------

  coordinator(run) {
    return {
      claim: async (units) => {
        if (run.ledger.start(Date.now())) await this.saveMeta(run);
        return { status: run.ledger.status, pending: run.ledger.pending(units) };
      },
      record: async (entry) => ({ kept: await this.keep(run, entry) }),
      failed: async (unit, error) => {
        run.lastError.set(unit, error);
      },
      deadLetter: (unit, evalId, error) => this.deadLetter(run, unit, evalId, error),
      watch: (onCancel) => {
        const offRun = onAbort(run.abort.signal, onCancel);
        const offClosing = onAbort(this.closing.signal, onCancel);
        return () => {
          offRun();
          offClosing();
        };
      },
    };
  }

  /** A result kept (the first for its unit), appended to the ledger file before anyone hears of it. */
  keep(run, entry) {
    const done = run.chain.then(async () => {
      const rec = run.ledger.record(entry, Date.now());
      if (rec === null) return false;
      try {
        await appendFile(this.path(run.id, 'ledger.ndjson'), `${JSON.stringify(rec)}\n`);
      } catch (e) {
        this.options.log({ error: `cannot append to the ledger of run ${run.id}: ${e.message}` });
      }
      await this.changed(run);
      return true;
    });
    run.chain = done.catch(() => {});
    return done;
  }

  async deadLetter(run, unit, evalId, error) {
    return this.keep(run, { unit, eval_id: evalId, status: 'DEAD', key: null, bytes: 0, stats: null, error });
  }

  /** After a change: the meta saved when the run ended, everyone waiting for events woken. */
  async changed(run) {
    if (run.ledger.final) {
      await this.saveMeta(run);
      run.queue.length = 0;
      this.cleanup(run);
    }
    for (const w of run.waiters) w();
    run.waiters.clear();
  }

  /** Removes case files no ledger line names (attempts a kill cut short). */
  cleanup(run) {
    const kept = new Set([...run.ledger.units.values()].map((r) => r.key));
    const tidy = this.filesOf.listCases(run.id).then((keys) => Promise.all(keys.filter((k) => !kept.has(k)).map((k) => this.filesOf.remove(k)))).catch(() => {});
    this.tidying.add(tidy);
    tidy.finally(() => this.tidying.delete(tidy));
  }

  // ---- the backend the routes call ---------------------------------------------------------

  get files() {
    return this.filesOf;
  }

  async view(id) {
    await this.ready;
    return this.runs.get(id)?.ledger.view() ?? null;
  }

  async bodyHash(id) {
    return this.runs.get(id)?.bodyHash ?? null;
  }

  /**
   * Makes run `id` of a submission whose chunks are written (`prepared`: `{head, units,
   * plannedJudgeCalls}`): `{created, used, view}`; `used` false when the id was taken (the
   * submission's chunks are then the caller's to remove).
   */
  async create(id, prepared, { bodyHash, created }) {
    await this.ready;
    if (this.creating.has(id)) await this.creating.get(id).catch(() => {});
    if (this.runs.has(id)) return { created: false, used: false, view: this.runs.get(id).ledger.view() };
    const active = [...this.runs.values()].filter((r) => !r.ledger.final).length + this.creating.size;
    if (active >= this.server.limits.maxActiveRuns) {
      throw new HttpError(429, 'too_many_runs', '', `this server keeps at most ${this.server.limits.maxActiveRuns} unfinished runs (maxActiveRuns); wait for one to end, or cancel one`, { 'retry-after': '30' });
    }
    const making = (async () => {
      await this.filesOf.putHead(id, prepared.head);
      const ledger = new Ledger({
        id, name: prepared.head.name, created, total: prepared.units.length, evalSetId: prepared.head.evalSet.eval_set_id,
        numRuns: prepared.head.numRuns, plannedJudgeCalls: prepared.plannedJudgeCalls,
      });
      const run = this.newRun(id, ledger, bodyHash);
      await this.saveMeta(run);
      this.runs.set(id, run);
      this.order.unshift(run);
      await this.enqueue(run);
      return run;
    })();
    this.creating.set(id, making);
    try {
      const run = await making;
      return { created: true, used: true, view: run.ledger.view() };
    } finally {
      this.creating.delete(id);
    }
  }

  async list({ limit, cursor }) {
    await this.ready;
    // A cursor is a position this listing gave: digits, nothing else (Infinity, 1e400, -5 are none).
    if (cursor !== null && !/^\d{1,9}$/.test(cursor)) throw new HttpError(400, 'schema', '$cursor', 'cursor must be the one a previous page gave');
    const from = cursor === null ? 0 : Number(cursor);
    const page = this.order.slice(from, from + limit);
    const next = from + limit < this.order.length ? String(from + limit) : null;
    return { runs: page.map((r) => r.ledger.view()), cursor: next };
  }

  async waitEvents(id, after, waitMs, signal) {
    const run = this.runs.get(id);
    const page = () => ({ records: run.ledger.eventsAfter(after, EVENTS_PAGE), view: run.ledger.view() });
    if (run.ledger.bySeq.length > after || run.ledger.final) return page();
    await new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        run.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, waitMs);
      run.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
    return page();
  }

  readCase(key) {
    return this.filesOf.getBytes(key);
  }

  async cancel(id) {
    const run = this.runs.get(id);
    if (run.ledger.cancel(Date.now())) {
      run.abort.abort(new Error('the run was cancelled'));
      run.queue.length = 0;
      await run.chain;
      await this.changed(run);
    }
    return run.ledger.view();
  }

  async resultDoc(id) {
    const run = this.runs.get(id);
    run.result ??= (async () => {
      const head = await this.filesOf.head(id);
      return assembleResult(run.ledger, head, async (key) => JSON.parse(decoder.decode(await this.filesOf.getBytes(key))));
    })();
    try {
      return await run.result;
    } catch (e) {
      run.result = undefined;
      throw e;
    }
  }

  /** Stops taking work; what is in flight is abandoned (done again at the next start). */
  async close() {
    this.closing.abort(new Error('the server is stopping'));
    for (const run of this.runs.values()) for (const w of run.waiters) w();
    // What was being written (a ledger line, the tidying of an ended run's files) is finished,
    // so another server started on the folder finds none of it half-done.
    await Promise.all([...[...this.runs.values()].map((r) => r.chain), ...this.tidying]);
  }
}
