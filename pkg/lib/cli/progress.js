//! The progress line `evalcore eval` draws on stderr while cases run, only when stderr is a
//! terminal: cases done/total, passed/failed, elapsed time, and a judge call's wait before its
//! next attempt; redrawn in place, cleared at the end.

import { textLine } from '../report/workflow.js';

const BAR = 20;

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
    : `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** One line of progress text (without control characters) for a Progress event. */
export function progressLine(p, { label = '', runs = 1, elapsedMs = 0, color = false, note = '' } = {}) {
  const total = Math.max(0, p.casesTotal ?? 0);
  const done = Math.min(total, Math.max(0, p.casesDone ?? 0));
  const filled = total === 0 ? 0 : Math.round((done / total) * BAR);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}]`;
  const green = (s) => (color ? `\x1b[32m${s}\x1b[39m` : s);
  const red = (s) => (color ? `\x1b[31m${s}\x1b[39m` : s);
  const parts = [];
  if (label) parts.push(textLine(label));
  // A remote run: the agent's turns here, the scoring over the endpoints' shards (while the agent
  // still runs, how far it is).
  if (p.stage) parts.push(p.stage === 'agent' ? 'agent' : p.agent ? `scoring (agent ${p.agent.casesDone}/${p.agent.casesTotal})` : 'scoring');
  if (runs > 1) parts.push(`run ${(p.run ?? 0) + 1}/${runs}`);
  parts.push(`${bar} ${done}/${total} cases`);
  if (p.shardsTotal !== undefined) parts.push(`shards ${p.shardsDone ?? 0}/${p.shardsTotal} (${p.shardsRunning ?? 0} running${p.retries ? `, ${p.retries} retried` : ''})`);
  parts.push(green(`${p.passed ?? 0} passed`));
  const failed = (p.failed ?? 0) + (p.notEvaluated ?? 0);
  parts.push(failed > 0 ? red(`${failed} failed`) : `${failed} failed`);
  parts.push(clock(elapsedMs));
  if (note) parts.push(note);
  return parts.join('  ');
}

/**
 * A progress display on `stream`: `update(progressEvent)`, `setLabel(text)`, `done()`. Draws
 * nothing unless the stream is a TTY (or `force`); colours unless `env.NO_COLOR` is set.
 */
export function createProgress(stream, { runs = 1, force = false, now = Date.now, env = process.env } = {}) {
  const active = force || Boolean(stream.isTTY);
  const start = now();
  let last = null;
  let label = '';
  // The run counter shows the furthest run reached: with cases of several runs in flight, the
  // run of the latest event can be an earlier one.
  let furthestRun = 0;
  // A remote agent run: the last event of each stage. Once scoring has begun the line shows it,
  // with the agent's count beside it until the agent is done.
  const stages = {};
  let retry = null;
  let timer = null;
  const color = active && Boolean(stream.isTTY) && !env.NO_COLOR;

  const draw = () => {
    if (!active || last === null) return;
    const t = now();
    const waiting = retry !== null && t < retry.until;
    const note = waiting ? `judge retry ${retry.attempt}/${retry.maxRetries} in ${Math.ceil((retry.until - t) / 1000)}s (${retry.why})` : '';
    const opts = { label, runs, elapsedMs: t - start, note };
    // A line wider than the terminal wraps, and `\r` then redraws only its last row: cut it
    // (without colours, whose escapes must not be cut in half).
    const plain = progressLine(last, opts);
    const width = stream.columns;
    const line = width && plain.length >= width ? plain.slice(0, width - 1) : progressLine(last, { ...opts, color });
    stream.write(`\r\x1b[2K${line}`);
  };

  return {
    active,
    setLabel(text) {
      label = text;
    },
    update(p) {
      if (p.phase === 'judge_retry' && p.retry) {
        const r = p.retry;
        const why = String(r.why ?? '').replace(/^judge call for [^:]*: /, '').slice(0, 60);
        retry = { attempt: r.attempt, maxRetries: r.maxRetries, until: now() + (r.delayMs ?? 0), why };
      }
      furthestRun = Math.max(furthestRun, p.run ?? 0);
      if (p.stage) stages[p.stage] = p;
      const agent = stages.agent;
      const shown = p.stage === 'agent' && stages.score ? stages.score : p;
      const agentBusy = shown.stage === 'score' && agent && agent.phase !== 'done' && agent.casesDone < agent.casesTotal;
      last = { ...shown, run: furthestRun, ...(agentBusy ? { agent: { casesDone: agent.casesDone, casesTotal: agent.casesTotal } } : {}) };
      if (active && timer === null) {
        timer = setInterval(draw, 1000);
        timer.unref?.();
      }
      draw();
    },
    done() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      if (active && last !== null) stream.write('\r\x1b[2K');
      last = null;
    },
  };
}
