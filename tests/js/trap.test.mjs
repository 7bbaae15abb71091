// Issue 9 item 2: a trap is survived. Traps are forced two ways: the core's test hook
// (`unreachable`, deterministic) and real out-of-memory aborts in a child Node whose wasm memory
// is capped (`--wasm-max-mem-pages`), so every export meets a genuine trap without 4 GiB.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { __trapForTesting } from '../../pkg/lib/wasm/test_hooks.js';
import { MINIMAL_SET, PKG, actualFor, clone } from './helpers.mjs';

const { EvalError } = api;

function assertTrap(e) {
  assert.ok(e instanceof EvalError, `expected EvalError, got ${e && e.name}: ${e && e.message}`);
  assert.equal(e.code, 'trap');
  assert.match(e.message, /trapped/);
  return true;
}

const workingCalls = {
  loadEvalSet: () => assert.equal(api.loadEvalSet(MINIMAL_SET).eval_set_id, 'simple'),
  validateEvalSet: () => assert.equal(api.validateEvalSet(MINIMAL_SET).ok, true),
  loadEvalConfig: () => assert.ok(api.loadEvalConfig().criteria),
  rouge1: () => assert.equal(api.rouge1('the cat sat', 'the cat sat').fmeasure, 1),
  rouge1Batch: () => assert.equal(api.rouge1Batch([['a b', 'a b']]).fmeasure[0], 1),
  evaluateInvocations: async () => assert.equal((await api.evaluateInvocations({
    evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(),
  })).final_eval_status, 'PASSED'),
  prepareCase: () => assert.equal(api.prepareCase({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor() })
    .evaluate().final_eval_status, 'PASSED'),
  formatReport: () => assert.equal(typeof api.formatReport([]), 'string'),
  coreVersion: () => assert.match(api.coreVersion(), /^\d+\.\d+\.\d+/),
};

test('a sync trap is an EvalError "trap" and every export works on the fresh instance', async () => {
  for (const [name, check] of Object.entries(workingCalls)) {
    const before = api.coreMemory().replacements;
    assert.throws(() => __trapForTesting(), assertTrap, `trap before ${name}`);
    await check();
    assert.equal(api.coreMemory().replacements, before + 1, `${name}: the instance was replaced once`);
  }
});

test('a trap inside the executor (async) rejects with "trap"; nothing is uncaught; the next call works', async () => {
  await assert.rejects(__trapForTesting(0, { async: true }), assertTrap);
  await assert.rejects(__trapForTesting(0, { async: true }), assertTrap);
  for (const check of Object.values(workingCalls)) await check();
  const plan = await api.planJudgeCalls({
    evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(),
    config: { criteria: { final_response_match_v2: 0.5 } }, judge: { provider: 'openai', model: 'm' },
  });
  assert.ok(plan.count > 0);
});

test('a PreparedCase of a trapped instance answers EvalError "trap" (again and again); free() is quiet', () => {
  const prepared = api.prepareCase({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor() });
  assert.equal(prepared.evaluate().final_eval_status, 'PASSED');
  assert.throws(() => __trapForTesting(), assertTrap);
  assert.throws(() => prepared.evaluate(), (e) => assertTrap(e) && /prepare the case again/.test(e.message));
  assert.throws(() => prepared.evaluate(), assertTrap);
  prepared.free();
  const again = api.prepareCase({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor() });
  assert.equal(again.evaluate().final_eval_status, 'PASSED');
  again.free();
});

test('PreparedCase.evaluate() after free() is an EvalError "freed"', () => {
  const prepared = api.prepareCase({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor() });
  prepared.free();
  prepared.free();
  assert.throws(() => prepared.evaluate(), (e) => e instanceof EvalError && e.code === 'freed' && /freed/.test(e.message));
});

function fiveCases() {
  const set = clone(MINIMAL_SET);
  set.eval_cases = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ ...clone(MINIMAL_SET.eval_cases[0]), eval_id: id }));
  return set;
}
const goodReply = { finalResponse: 'It is sunny in Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] };

test('evaluate(): a trap in the run loop keeps the scored cases, fails the running one with "trap", runs the rest', async () => {
  const streamed = [];
  const progress = [];
  const result = await api.evaluate({
    evalSet: fiveCases(),
    concurrency: 1,
    agent: async (turn) => {
      if (turn.evalId === 'c') {
        // The instance traps while this case's turn is in flight (inside the executor).
        await __trapForTesting(0, { async: true }).catch(() => {});
      }
      return goodReply;
    },
    onCaseResult: (r) => streamed.push(r),
    onProgress: (p) => progress.push(p),
  });
  const byId = Object.fromEntries(result.eval_case_results.map((r) => [r.eval_id, r]));
  assert.deepEqual(Object.keys(byId).sort(), ['a', 'b', 'c', 'd', 'e']);
  assert.equal(result.eval_case_results.length, 5);
  for (const id of ['a', 'b', 'd', 'e']) assert.equal(byId[id].final_eval_status, 'PASSED', id);
  assert.equal(byId.c.final_eval_status, 'FAILED');
  assert.equal(byId.c.error.code, 'trap');
  assert.match(byId.c.error.message, /trapped/);
  assert.equal(byId.c.eval_set_id, 'simple');
  assert.equal(typeof byId.c.session_id, 'string');
  assert.equal(streamed.length, 5, 'every result, the trapped one included, reached onCaseResult');
  assert.equal(result.eval_set_id, 'simple');
  const last = progress[progress.length - 1];
  assert.equal(last.phase, 'done');
  assert.deepEqual([last.casesDone, last.casesTotal, last.passed, last.failed], [5, 5, 4, 1]);
});

test('evaluate() over runs: the trapped pair fails, every other (case, run) is scored, run_summary covers all', async () => {
  let trapped = false;
  const result = await api.evaluate({
    evalSet: fiveCases(),
    numRuns: 3,
    concurrency: 2,
    agent: async (turn) => {
      if (!trapped && turn.run === 1 && turn.evalId === 'b') {
        trapped = true;
        await __trapForTesting(0, { async: true }).catch(() => {});
      }
      return goodReply;
    },
  });
  const pairs = result.eval_case_results.map((r) => `${r.run}:${r.eval_id}`).sort();
  const expected = [];
  for (let run = 0; run < 3; run++) for (const id of ['a', 'b', 'c', 'd', 'e']) expected.push(`${run}:${id}`);
  assert.deepEqual(pairs, expected.sort(), 'each (case, run) exactly once');
  const failed = result.eval_case_results.filter((r) => r.final_eval_status !== 'PASSED');
  assert.ok(failed.length >= 1 && failed.length <= 2, `the running pairs (concurrency 2) fail: ${failed.length}`);
  assert.ok(failed.every((r) => r.error && r.error.code === 'trap'));
  assert.ok(failed.some((r) => r.run === 1 && r.eval_id === 'b'));
  assert.equal(result.run_summary.cases.length, 5);
  const b = result.run_summary.cases.find((c) => c.eval_id === 'b');
  assert.equal(b.statuses.length, 3);
});

test('a trap in an onCaseResult callback: the run completes; the callback error is reported with the result', async () => {
  let once = false;
  const turns = new Map();
  const streamed = [];
  const err = await api.evaluate({
    evalSet: fiveCases(),
    concurrency: 1,
    agent: async (turn) => {
      turns.set(turn.evalId, (turns.get(turn.evalId) ?? 0) + 1);
      return goodReply;
    },
    onCaseResult: (r) => {
      streamed.push(r.eval_id);
      if (!once) {
        once = true;
        __trapForTesting();
      }
    },
  }).then(() => null, (e) => e);
  // The trapped instance runs on until its frames return, but reaches nobody: no case is run twice.
  assert.deepEqual([...turns.values()], [1, 1, 1, 1, 1], JSON.stringify([...turns]));
  assert.deepEqual(streamed.sort(), ['a', 'b', 'c', 'd', 'e']);
  assert.ok(err instanceof AggregateError, String(err));
  assertTrap(err.errors[0]);
  assert.equal(err.result.eval_case_results.length, 5);
  assert.deepEqual(err.result.eval_case_results.map((r) => r.eval_id).sort(), ['a', 'b', 'c', 'd', 'e']);
});

// ---------------------------------------------------------------------------------------------
// Real traps: out of memory in a child whose wasm memory is capped at 12.5 MiB.

function inChild(script, flags = ['--wasm-max-mem-pages=200']) {
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: PKG, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 2 ** 20,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const CHILD_PRELUDE = `
import * as api from ${JSON.stringify(new URL('../../pkg/index.js', import.meta.url).href)};
const out = {};
const caseOf = (i, text) => ({ eval_id: 'c' + i, conversation: [{ invocation_id: 'x' + i,
  user_content: { role: 'user', parts: [{ text: 'hello there' }] }, final_response: { role: 'model', parts: [{ text }] } }] });
const bigSet = { eval_set_id: 's', eval_cases: Array.from({ length: 20000 }, (_, i) => caseOf(i, 'hello')) };
const small = { eval_set_id: 's', eval_cases: [caseOf(0, 'hi there')] };
const probe = async (name, f) => {
  try { await f(); out[name] = 'ok'; } catch (e) { out[name] = e instanceof api.EvalError ? e.code : 'NOT EvalError: ' + e; }
  out[name + ':after'] = api.rouge1('the cat', 'the cat').fmeasure;
};
`;

test('real out-of-memory traps on the sync exports: EvalError "trap", then the next call works', () => {
  const out = inChild(`${CHILD_PRELUDE}
const text = JSON.stringify(bigSet);
const long = 'word '.repeat(3e6);
await probe('loadEvalSet', () => api.loadEvalSet(text));
// A valid set in its usual shape is known valid from a scan that builds nothing, so it fits; a
// broken one is parsed into a tree to find every problem, which does not.
await probe('validateValid', () => { if (!api.validateEvalSet(text).ok) throw new Error('not ok'); });
const broken = text.replace('"invocation_id":"x0"', '"invocation_id":"x0","unknown_key":1');
await probe('validateEvalSet', () => api.validateEvalSet(broken));
await probe('rouge1', () => api.rouge1(long, long));
await probe('rouge1Batch', () => api.rouge1Batch([[long, long]]));
const evalCase = { eval_id: 'c', conversation: bigSet.eval_cases.map((c) => c.conversation[0]) };
await probe('evaluateInvocations', () => api.evaluateInvocations({ evalCase, actual: evalCase.conversation }));
await probe('prepareCase', () => api.prepareCase({ evalCase, actual: evalCase.conversation }));
const results = Array.from({ length: 20000 }, (_, i) => ({ eval_set_id: 's', eval_id: 'c' + i, final_eval_status: 'PASSED',
  overall_eval_metric_results: [], eval_metric_result_per_invocation: [] }));
await probe('formatReport', () => api.formatReport(results));
out.final = api.loadEvalSet(small).eval_cases.length;
console.log(JSON.stringify(out));
`);
  for (const name of ['loadEvalSet', 'validateEvalSet', 'rouge1', 'rouge1Batch', 'evaluateInvocations', 'prepareCase']) {
    assert.ok(out[name] === 'trap' || out[name] === 'too_large', `${name}: ${out[name]}`);
    assert.equal(out[`${name}:after`], 1, `${name}: the next call works`);
  }
  assert.equal(out.validateValid, 'ok');
  assert.equal(out['validateValid:after'], 1);
  assert.ok(['ok', 'trap', 'too_large'].includes(out.formatReport), `formatReport: ${out.formatReport}`);
  assert.equal(out.final, 1);
});

test('real out-of-memory traps in the run loop and the judge path: the process survives with complete results', () => {
  const out = inChild(`${CHILD_PRELUDE}
const set = { eval_set_id: 's', eval_cases: [0, 1, 2, 3].map((i) => caseOf(i, 'hi there')) };
const huge = 'word '.repeat(2.5e6);
const r = await api.evaluate({ evalSet: set, concurrency: 1,
  agent: (turn) => (turn.evalId === 'c1' ? huge : 'hi there') });
out.run = r.eval_case_results.map((x) => [x.eval_id, x.final_eval_status, x.error ? x.error.code : null]).sort();
const judge = { provider: 'openai', model: 'm', maxRetries: 0,
  fetch: async () => new Response(JSON.stringify({ choices: [{ message: { content: huge } }] }), { status: 200 }) };
try {
  const j = await api.evaluateInvocations({ evalCase: small.eval_cases[0], actual: small.eval_cases[0].conversation,
    config: { criteria: { final_response_match_v2: 0.5 } }, judge });
  out.judge = j.overall_eval_metric_results[0].eval_status;
} catch (e) { out.judge = e instanceof api.EvalError ? e.code : 'NOT EvalError: ' + e; }
let n = 0;
const judged = await api.evaluate({ evalSet: set, concurrency: 1, agent: (t) => 'hi there ' + t.evalId,
  config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
  judge: { provider: 'openai', model: 'm', maxRetries: 0, concurrency: 1,
    fetch: async () => new Response(JSON.stringify({ choices: [{ message: { content: ++n === 2 ? huge : '{"is_the_agent_response_valid": "valid"}' } }] }), { status: 200 }) } });
out.judgedRun = judged.eval_case_results.map((x) => [x.eval_id, x.final_eval_status, x.error ? x.error.code : null]).sort();
out.after = api.rouge1('a b', 'a b').fmeasure;
console.log(JSON.stringify(out));
`);
  assert.equal(out.judgedRun.length, 4, JSON.stringify(out.judgedRun));
  const bad = out.judgedRun.filter(([, status]) => status !== 'PASSED');
  assert.equal(bad.length, 1, `one case met the huge judge reply: ${JSON.stringify(out.judgedRun)}`);
  assert.ok(bad[0][2] === 'trap' || bad[0][1] === 'NOT_EVALUATED', JSON.stringify(bad));
  assert.equal(out.run.length, 4, JSON.stringify(out.run));
  for (const [id, status, code] of out.run) {
    if (id === 'c1') {
      assert.equal(status, 'FAILED');
      assert.ok(['trap', 'agent_error'].includes(code), `c1: ${code}`);
    } else {
      assert.equal(status, 'PASSED', `${id}: ${status} ${code}`);
    }
  }
  assert.ok(['trap', 'NOT_EVALUATED'].includes(out.judge), `judge: ${out.judge}`);
  assert.equal(out.after, 1);
});

test('a trap while an async call starts (its arguments do not fit): rejected with "trap", no unhandled rejection', () => {
  const out = inChild(`${CHILD_PRELUDE}
process.on('unhandledRejection', (e) => { out.unhandled = String(e); });
const huge = JSON.stringify({ eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [], x: 'y'.repeat(20 * 2 ** 20) }] });
await probe('evaluate', () => api.evaluate({ evalSet: huge, agent: () => 'x' }));
await probe('evaluateInvocations', () => api.evaluateInvocations({ evalCase: huge, actual: [], judge: { provider: 'openai', model: 'm' } }));
await probe('planJudgeCalls', () => api.planJudgeCalls({ evalCase: huge, actual: [], judge: { provider: 'openai', model: 'm' } }));
await new Promise((r) => setTimeout(r, 100));
console.log(JSON.stringify(out));
`);
  assert.equal(out.unhandled, undefined, out.unhandled);
  for (const name of ['evaluate', 'evaluateInvocations', 'planJudgeCalls']) {
    assert.ok(['trap', 'too_large'].includes(out[name]), `${name}: ${out[name]}`);
    assert.equal(out[`${name}:after`], 1);
  }
});

test('memory after a 100 MB rejection is back to its earlier size (instance and process RSS)', () => {
  const out = inChild(`
import * as api from ${JSON.stringify(new URL('../../pkg/index.js', import.meta.url).href)};
const settle = async () => { for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); } };
api.loadEvalSet('{"eval_set_id": "s", "eval_cases": []}');
await settle();
const out = { before: api.coreMemory().bytes, rssBefore: process.memoryUsage().rss };
let bytes = Buffer.from('{"eval_set_id": "' + 'a'.repeat(100 * 2 ** 20));
try { api.loadEvalSet(bytes); out.code = 'accepted'; } catch (e) { out.code = e.code; }
bytes = null;
out.peakRss = process.memoryUsage().rss;
await settle();
out.after = api.coreMemory().bytes;
out.rssAfter = process.memoryUsage().rss;
console.log(JSON.stringify(out));
`, ['--expose-gc']);
  assert.ok(['invalid_json', 'too_large'].includes(out.code), out.code);
  assert.ok(out.after <= out.before, `instance memory ${out.after} > ${out.before} before`);
  const MiB = 2 ** 20;
  assert.ok(out.rssAfter < out.rssBefore + 48 * MiB,
    `RSS ${Math.round(out.rssAfter / MiB)} MiB after, ${Math.round(out.rssBefore / MiB)} MiB before (peak ${Math.round(out.peakRss / MiB)} MiB)`);
});

test('setMemoryCeiling: an idle instance over the ceiling is replaced; Infinity keeps it; bad values are EvalErrors', () => {
  try {
    api.setMemoryCeiling(Infinity);
    api.rouge1('word '.repeat(2e6), 'word');
    const kept = api.coreMemory();
    assert.ok(kept.bytes > 16 * 2 ** 20, `memory grew: ${kept.bytes}`);
    api.setMemoryCeiling(16 * 2 ** 20);
    api.rouge1('a', 'a');
    const after = api.coreMemory();
    assert.ok(after.bytes < 16 * 2 ** 20, `replaced: ${after.bytes}`);
    assert.equal(after.replacements, kept.replacements + 1);
    assert.throws(() => api.setMemoryCeiling('big'), (e) => e instanceof EvalError && e.code === 'schema');
    assert.throws(() => api.setMemoryCeiling(-1), EvalError);
  } finally {
    api.setMemoryCeiling(64 * 2 ** 20);
  }
});

test('after traps, an input that fit before still gets its EvalError (the dead memory is not carried over)', () => {
  const out = inChild(`${CHILD_PRELUDE}
// Just under what fits: rejected (a type error at the end) with EvalError on a fresh instance.
const fits = JSON.stringify({ eval_set_id: 's', eval_cases: Array.from({ length: 3000 }, (_, i) => caseOf(i, 'hello')) }).slice(0, -2) + ',1]}';
await probe('before', () => api.loadEvalSet(fits));
const text = JSON.stringify(bigSet);
await probe('trap1', () => api.loadEvalSet(text));
await probe('trap2', () => api.loadEvalSet(text));
await probe('after', () => api.loadEvalSet(fits));
console.log(JSON.stringify(out));
`);
  assert.equal(out.before, 'schema');
  assert.equal(out.trap1, 'trap');
  assert.equal(out.trap2, 'trap');
  assert.equal(out.after, 'schema', 'the same input after two traps is its EvalError again, not a trap');
});

test('a trap during judged scoring: EvalError "trap", and the cassette keeps what was recorded before it', async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'evalcore-trap-cassette-'));
  try {
    const path = join(dir, 'cassette.json');
    let calls = 0;
    const fetch = async () => {
      calls++;
      if (calls === 2) await __trapForTesting(0, { async: true }).catch(() => {});
      return new Response(JSON.stringify({ choices: [{ message: { content: 'Label: valid' } }] }), { status: 200 });
    };
    await assert.rejects(api.evaluateInvocations({
      evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(),
      config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 2 } } } },
      judge: { provider: 'openai', model: 'm', fetch, concurrency: 1, cassette: { path, mode: 'record' } },
    }), assertTrap);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(Object.keys(saved.entries).length, 1, 'the first call, answered before the trap, is on disk');
    assert.equal(api.rouge1('a', 'a').fmeasure, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a trap while no case is running (in onProgress at the start): the whole run is tried again, every case scored', async () => {
  const turns = [];
  let trapped = false;
  const err = await api.evaluate({
    evalSet: fiveCases(),
    concurrency: 2,
    agent: async (turn) => { turns.push(turn.evalId); return goodReply; },
    onProgress: (p) => {
      if (p.phase === 'start' && !trapped) {
        trapped = true;
        __trapForTesting();
      }
    },
  }).then(() => null, (e) => e);
  assert.ok(err instanceof AggregateError, String(err));
  assertTrap(err.errors[0]);
  const statuses = err.result.eval_case_results.map((r) => `${r.eval_id}:${r.final_eval_status}`).sort();
  assert.deepEqual(statuses, ['a:PASSED', 'b:PASSED', 'c:PASSED', 'd:PASSED', 'e:PASSED']);
  assert.deepEqual(turns.sort(), ['a', 'b', 'c', 'd', 'e'], 'each case ran once, on the fresh instance');
});

test('limits set with setLimits hold on the replacement instance (after a trap and after a retirement)', () => {
  const before = api.getLimits();
  try {
    api.setLimits({ maxReplyBytes: 4096, maxParseBytes: 8 * 2 ** 20 });
    assert.throws(() => __trapForTesting(), assertTrap);
    assert.equal(api.getLimits().maxReplyBytes, 4096, 'after a trap');
    api.setMemoryCeiling(0);
    api.rouge1('a', 'a');
    assert.equal(api.getLimits().maxParseBytes, 8 * 2 ** 20, 'after a retirement');
    assert.throws(() => api.loadEvalSet(JSON.stringify({ eval_set_id: 's', eval_cases: [], pad: 'x'.repeat(9 * 2 ** 20) })),
      (e) => e instanceof EvalError && e.code === 'too_large');
  } finally {
    api.setMemoryCeiling(64 * 2 ** 20);
    api.setLimits(before);
  }
});
