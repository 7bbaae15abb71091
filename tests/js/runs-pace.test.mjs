// The pure parts of runs: the judge key's shared pace (budget spacing, the hold and AIMD after a
// 429, far starts confirmed), a paced fetch over it, and a run's ledger (first result kept,
// dead letters, the end, the orders events and results come in). Time is given, not waited for.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JudgePace, localPace, pacedFetch } from '../../pkg/lib/server/runs/pace.js';
import { Ledger, parseUnit } from '../../pkg/lib/server/runs/ledger.js';

/** Starts granted to `callers` callers each asking again as soon as its start has come, over `ms`. */
function simulate(pace, { ms, from = 0, callers = 8, step = 1 }) {
  const starts = [];
  const due = Array.from({ length: callers }, () => from);
  for (let t = from; t < from + ms; t += step) {
    for (let c = 0; c < callers; c++) {
      if (due[c] > t) continue;
      const { at } = pace.acquire(t);
      starts.push(at);
      due[c] = at + 1;
    }
  }
  return starts.filter((s) => s < from + ms);
}

const inWindow = (starts, a, b) => starts.filter((s) => s >= a && s < b).length;

describe('JudgePace', () => {
  test('a budget spaces starts evenly, below it in every window, close to it overall', () => {
    const pace = new JudgePace({ perMinute: 600 });
    const starts = simulate(pace, { ms: 60_000 });
    assert.ok(starts.length <= 600 && starts.length >= 0.97 * 600, `${starts.length} starts in a minute`);
    for (let t = 0; t < 59_000; t += 250) assert.ok(inWindow(starts, t, t + 1000) <= 10, `at most 10 starts in the second from ${t}`);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]);
    assert.ok(Math.min(...gaps) >= 100, `starts at least 100 ms apart (${Math.min(...gaps)})`);
  });

  test('a 429 holds every start for its Retry-After, halves the pace, and the pace climbs back additively', () => {
    const pace = new JudgePace({ perMinute: 1200, recoverMs: 30_000, headroom: 0 });
    simulate(pace, { ms: 5000 });
    pace.throttled(5000, 2000);
    assert.equal(pace.stats.cuts, 1);
    assert.equal(pace.rateAt(5000), 600);
    const { at } = pace.acquire(5001);
    assert.ok(at >= 7000, `no start before the hold ends (${at})`);
    assert.equal(pace.rateAt(5000 + 15_000), 900, 'halfway back after half of recoverMs');
    assert.equal(pace.rateAt(5000 + 30_000), 1200);
    assert.equal(pace.rateAt(5000 + 90_000), 1200, 'never above the budget');
    // More 429s of calls already under way count as the same congestion: one cut.
    pace.throttled(5100, 1000);
    pace.throttled(5200, 1000);
    assert.equal(pace.stats.cuts, 1);
    assert.equal(pace.stats.throttled, 3);
    // A 429 after the congestion passed cuts again, from where the pace had climbed.
    pace.throttled(5000 + 15_000, 1000);
    assert.equal(pace.stats.cuts, 2);
    assert.equal(pace.rateAt(20_000), 450);
  });

  test('a far start is confirmed when it comes: kept without a 429, moved after the hold with one', () => {
    const pace = new JudgePace({ perMinute: 600, headroom: 0 });
    const starts = [0, 1, 2, 3].map(() => pace.acquire(0));
    assert.deepEqual(starts.map((s) => s.at), [0, 100, 200, 300]);
    assert.deepEqual(pace.confirm(300, starts[3].gen, {}, 300), { at: 300, gen: starts[3].gen, toleranceMs: 100 });
    // A caller that comes later than its slot's tolerance would crowd the next starts: a new slot.
    const late = pace.confirm(520, starts[3].gen, {}, 300);
    assert.equal(late.at, 520);
    assert.equal(pace.stats.missed, 1);
    const later = pace.acquire(610);
    assert.equal(later.at, 620);
    pace.throttled(615, 1000);
    const moved = pace.confirm(620, later.gen, {}, 620);
    assert.ok(moved.at >= 1615, `the start moved after the hold (${moved.at})`);
    assert.notEqual(moved.gen, later.gen);
  });

  test('a run may ask for less than the key\'s budget; without a budget only 429s slow the key', () => {
    const pace = new JudgePace({ perMinute: 6000, headroom: 0 });
    const a = { run: 'a', runPerMinute: 60 };
    assert.equal(pace.acquire(0, a).at, 0);
    assert.deepEqual(pace.acquire(0, a), { at: 1000, gen: 0, again: true }, 'run a waits for its own pace, reserving nothing');
    assert.equal(pace.acquire(0, { run: 'b' }).at, 10, 'another run is not held by it');
    assert.equal(pace.acquire(1000, a).at, 1000);
    assert.equal(pace.acquire(1500, a).again, true);
    const free = new JudgePace();
    assert.deepEqual([0, 0, 0].map(() => free.acquire(0).at), [0, 0, 0]);
    for (let t = 0; t < 10_000; t += 10) free.acquire(t);
    free.throttled(10_000, 500);
    assert.ok(free.rateAt(10_000) > 0 && free.rateAt(10_000) < 3500, `cut to half the observed ~6000 a minute (${free.rateAt(10_000)})`);
    const later = new JudgePace();
    later.restore(free.snapshot());
    assert.equal(later.rateAt(10_000), free.rateAt(10_000), 'a restart keeps the cut');
  });

  test('pacedFetch waits for its start, confirms a far one, reports a 429, stops with its signal', async () => {
    const pace = new JudgePace({ perMinute: 600, headroom: 0 });
    let now = 0;
    const port = localPace(pace, () => now);
    const slept = [];
    const sleep = async (ms) => {
      slept.push(ms);
      now += ms;
    };
    const answers = [200, 429, 200];
    const send = async () => new Response('{}', { status: answers.shift(), headers: { 'retry-after': '2' } });
    const f = pacedFetch(send, port, { sleep });
    for (let i = 0; i < 3; i++) pace.acquire(0);
    assert.equal((await f('x')).status, 200);
    assert.equal(pace.stats.confirmed, 1, 'a start 300 ms out is confirmed');
    assert.equal((await f('x')).status, 429);
    assert.equal(pace.stats.throttled, 1);
    assert.ok(pace.holdUntil >= now + 1900);
    // A caller woken later than its slot allows asks for a new one instead of crowding the next.
    const overslept = pacedFetch(async () => new Response('{}'), port, { sleep: async (ms) => { now += ms + 500; } });
    const missedBefore = pace.stats.missed;
    pace.acquire(now);
    await overslept('x');
    assert.ok(pace.stats.missed > missedBefore, 'the late start was not made');
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(pacedFetch(send, port, { sleep, signal: abort.signal })('x'), { name: 'AbortError' });
    assert.ok(slept.every((ms) => ms >= 0));
  });
});

describe('Ledger', () => {
  const meta = { id: 'r_000000000000000000000001', name: null, created: 1000, total: 3, evalSetId: 's', numRuns: 1 };
  const entry = (unit, status, extra = {}) => ({ unit, eval_id: `c${unit.split('.')[1]}`, status, key: `k/${unit}`, bytes: 10, stats: { requests: 1, sent: 1, attempts: 1 }, ...extra });

  test('the first result of a unit is kept; the run ends when every unit is in', () => {
    const l = new Ledger(meta);
    assert.equal(l.status, 'queued');
    assert.ok(l.record(entry('0.2', 'PASSED'), 1100));
    assert.equal(l.status, 'running');
    assert.equal(l.record(entry('0.2', 'FAILED'), 1200), null, 'a second result of a unit is not kept');
    assert.deepEqual(l.pending(['0.0', '0.1', '0.2']), ['0.0', '0.1']);
    l.record(entry('0.0', 'NOT_EVALUATED'), 1300);
    l.record(entry('0.1', 'FAILED'), 1400);
    assert.equal(l.status, 'done');
    assert.deepEqual(l.counts, { cases: 3, scored: 3, passed: 1, failed: 1, not_evaluated: 1, dead_letter: 0 });
    assert.equal(l.judgeStats.requests, 3);
    assert.deepEqual(l.eventsAfter(1).map((r) => r.unit), ['0.0', '0.1']);
    assert.deepEqual(l.inResultOrder().map((r) => r.unit), ['0.0', '0.1', '0.2']);
    assert.equal(l.record(entry('0.9', 'PASSED'), 1500), null, 'an ended run takes no more');
    assert.equal(l.view().finished, new Date(1400).toISOString());
  });

  test('dead letters end a run as failed, and are listed; a cancel stops it; a ledger is rebuilt from its records', () => {
    const l = new Ledger(meta);
    const kept = [l.record(entry('0.0', 'PASSED'), 1100), l.deadLetter('0.1', 'c1', { code: 'unit_failed', message: 'boom' }, 1200), l.record(entry('0.2', 'PASSED'), 1300)];
    assert.equal(l.status, 'failed');
    assert.equal(l.view().error.code, 'dead_letter');
    assert.deepEqual(l.deadLetters(), [{ eval_id: 'c1', run: 0, error: { code: 'unit_failed', message: 'boom' } }]);
    const again = new Ledger({ ...meta }, [...kept].reverse());
    again.finishIfComplete(2000);
    assert.deepEqual(again.counts, l.counts);
    assert.deepEqual(again.bySeq.map((r) => r.unit), l.bySeq.map((r) => r.unit));
    const c = new Ledger(meta);
    c.record(entry('0.0', 'PASSED'), 1100);
    assert.ok(c.cancel(1200));
    assert.equal(c.status, 'cancelled');
    assert.equal(c.record(entry('0.1', 'PASSED'), 1300), null);
    assert.equal(c.cancel(1400), false);
  });

  test('unit names', () => {
    assert.deepEqual(parseUnit('2.41'), { run: 2, index: 41 });
    for (const bad of ['', '1', 'a.1', '1.-1', '1.2.3', '99999.1', null]) assert.equal(parseUnit(bad), null, String(bad));
  });
});
