// What the fuzzer feeds the built package: structure-aware mutations of real eval sets, configs,
// results, judge replies (a fake fetch) and agent replies (a fake agent), plus size-amplifying
// inputs; and one target per public entry point. Runs inside the fuzzer's worker.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEvalSetFile } from '../../pkg/lib/node/evalsets.js';
import { readConfig } from '../../pkg/lib/node/config.js';
import { readJsonFile } from '../../pkg/lib/node/files.js';
import * as api from '../../pkg/index.js';
import { __trapForTesting } from '../../pkg/lib/wasm/test_hooks.js';
import { readEvalSetResult } from '../../pkg/lib/node/history.js';
import {
  calibrate, calibrationText, compareRuns, comparisonAnnotations, comparisonJUnit, comparisonMarkdown, comparisonText, runTrend, toJUnit, toJson, toMarkdown,
} from '../../pkg/lib/report/reports.js';
import { convertOpenAIMessages, fromFunction } from '../../pkg/lib/adapters/generic.js';
import { adkApiJson, sessionInvocations } from '../../pkg/lib/wasm/adk_text.js';
import { devUiRoutes } from '../../pkg/lib/server/devui.js';
import { evalSetsManager } from '../../pkg/lib/store/manager.js';
import { memoryStore } from '../../pkg/lib/store/store.js';

const { EvalError } = api;

/** mulberry32: a small deterministic PRNG; one per input, seeded from (seed, iteration). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
  return r;
}

export function loadCorpus(root) {
  const ex = join(root, 'examples', 'hello_world');
  const json = (f) => JSON.parse(readFileSync(join(ex, f), 'utf8'));
  const evalSet = json('hello_world.evalset.json');
  const turns = json('recorded_turns.json');
  const configs = [json('test_config.json'), json('judged_config.json'),
    { criteria: { response_match_score: 0.8, trajectory_precision: 0.5, trajectory_recall: 0.5 } },
    { criteria: { rubric_based_final_response_quality_v1: { threshold: 0.5, rubrics: [{ rubric_id: 'r1', rubric_content: { text_property: 'is polite' } }] } } },
    { criteria: { safety_v1: 0.5, per_turn_user_simulator_quality_v1: 0.5, tool_trajectory_avg_score: { threshold: 1, match_type: 'IN_ORDER' } } }];
  const cases = evalSet.eval_cases.filter((c) => Array.isArray(turns[c.eval_id]));
  const result = api.prepareCase({ evalCase: cases[0], actual: turns[cases[0].eval_id] }).evaluate(configs[0]);
  return { evalSet, turns, configs, cases, results: [result] };
}

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// ---------------------------------------------------------------------------------------------
// Values

const WORDS = ['roll', 'die', 'prime', 'the', 'cat', 'é', 'ß', 'İ', '日本', '🙂', 'ﬁ', '\u0301', '\u200d', 'a\u0000b', '"', '\\', '\n'];
const EDGE_NUMBERS = [0, -0, 1, -1, 0.5, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 64, 12345678901234567890, 1.7976931348623157e308];

function text(r, max = 40) {
  const n = r.int(max);
  const out = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  let s = out.join(r.pick([' ', '', '  ', '\t']));
  if (r.chance(0.05)) s += '\uD800';  // a lone surrogate
  return s;
}

function scalar(r) {
  switch (r.int(7)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.pick(EDGE_NUMBERS);
    case 3: return r.int(1000) - 500;
    case 4: return text(r);
    case 5: return r.pick(['', 'EXACT', 'IN_ORDER', 'any order', 'inf', 'nan', 'model', 'user', 'PASSED', '-0.0']);
    default: return text(r, 5);
  }
}

function randomValue(r, depth = 0) {
  if (depth > 3 || r.chance(0.5)) return scalar(r);
  if (r.chance(0.5)) return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
  const o = {};
  for (let i = r.int(4); i > 0; i--) o[r.pick(['text', 'role', 'parts', 'name', 'args', 'threshold', 'x', text(r, 2)])] = randomValue(r, depth + 1);
  return o;
}

/** Every [parent, key] of a JSON value, to pick a node to mutate. */
function nodes(v, out = [], depth = 0) {
  if (v === null || typeof v !== 'object' || depth > 40) return out;
  for (const k of Object.keys(v)) {
    out.push([v, k]);
    nodes(v[k], out, depth + 1);
  }
  return out;
}

const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** One structure-aware mutation of `v` in place (or a replacement, returned). */
function mutateOnce(r, v) {
  const all = nodes(v);
  if (all.length === 0) return randomValue(r);
  const [parent, key] = r.pick(all);
  switch (r.int(10)) {
    case 0: delete parent[key]; break;
    case 1: parent[key] = scalar(r); break;
    case 2: parent[key] = randomValue(r); break;
    case 3: if (!Array.isArray(parent)) { parent[camel(key)] = parent[key]; if (camel(key) !== key) delete parent[key]; } break;
    case 4: if (!Array.isArray(parent)) parent[text(r, 2) || 'extra'] = scalar(r); break;
    case 5: if (Array.isArray(parent[key])) parent[key].push(...clone(parent[key]).slice(0, 3)); break;
    case 6: if (Array.isArray(parent[key])) parent[key].reverse(); else parent[key] = [parent[key]]; break;
    case 7: parent[key] = typeof parent[key] === 'string' ? parent[key] + text(r) : String(parent[key]); break;
    case 8: if (typeof parent[key] === 'object' && parent[key] !== null) parent[key] = clone(parent[key]); else parent[key] = {}; break;
    default: parent[key] = clone(r.pick(all)[0][r.pick(all)[1]] ?? null); break;
  }
  return v;
}

/** Mutation rounds for one argument: none half the time, so other arguments get deep too. */
const some = (r) => (r.chance(0.5) ? 0 : 1 + r.int(2));

export function mutate(r, value, rounds = 1 + r.int(4)) {
  let v = clone(value);
  for (let i = 0; i < rounds; i++) v = mutateOnce(r, v) ?? v;
  return v;
}

// Size amplifiers: what made the core spend memory or time out of proportion.
const MiB = 2 ** 20;
export const AMPLIFIERS = {
  deepArrays: (r) => `${'['.repeat(1000 + r.int(200000))}`,
  deepObjects: (r) => `${'{"a":'.repeat(100 + r.int(5000))}1${'}'.repeat(50)}`,
  hugeString: (r) => JSON.stringify({ eval_set_id: 's', eval_cases: [{ eval_id: 'x'.repeat((1 + r.int(16)) * MiB), conversation: [] }] }),
  manyKeys: (r) => `{"eval_set_id":"s","eval_cases":[],${Array.from({ length: 1000 + r.int(100000) }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  manyCases: (r) => JSON.stringify({ eval_set_id: 's', eval_cases: Array.from({ length: 1000 + r.int(20000) }, (_, i) => ({ eval_id: `c${i}`, conversation: [] })) }),
  manyBrokenInvocations: (r) => JSON.stringify({ eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: Array.from({ length: 1000 + r.int(5000) }, () => ({})) }] }),
  longNumber: (r) => `{"eval_set_id":"s","eval_cases":[],"n":${'9'.repeat(1000 + r.int(1000000))}}`,
  manyEscapes: (r) => `{"eval_set_id":"${'\\u00e9'.repeat(1000 + r.int(500000))}","eval_cases":[]}`,
};

function asInput(r, value) {
  const t = JSON.stringify(value);
  switch (r.int(5)) {
    case 0: return value;
    case 1: return t;
    case 2: return Buffer.from(t);
    case 3: { // text damage: truncation, a BOM, an invalid UTF-8 byte
      const b = Buffer.from(t);
      const cut = b.subarray(0, r.int(b.length + 1));
      return r.chance(0.5) ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), cut]) : Buffer.concat([cut, Buffer.from([r.pick([0xff, 0xc0, 0x80])])]);
    }
    default: return `${' '.repeat(r.int(3))}${t}${r.chance(0.5) ? ' ' : ',1'}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Hosts: a fake judge (fetch) and a fake agent, answering mutated replies

function judgeBody(r, provider) {
  const answer = r.pick([
    '{"is_the_agent_response_valid": "valid"}', '"is_the_agent_response_valid": **invalid**', 'Label: valid', 'Property: is polite\nRationale: x\nVerdict: yes',
    'sentence: a\nlabel: supported', text(r, 200), '', '{"not": "an answer"}', 'Label: valid'.repeat(r.int(10000)),
  ]);
  if (provider === 'gemini') return { candidates: [{ content: { parts: [{ text: answer }] } }] };
  if (provider === 'anthropic') return { content: [{ type: 'text', text: answer }] };
  return { choices: [{ message: { content: answer } }] };
}

function fakeFetch(r, provider) {
  const mode = r.int(9);
  const amp = r.chance(0.1) ? (1 + r.int(24)) * MiB : 0;
  return (url, init) => {
    switch (mode) {
      case 0: throw new Error('sync throw');
      case 1: return Promise.reject(new TypeError('network down'));
      case 2: return Promise.resolve({ not: 'a response' });
      case 3: return new Promise((resolve, reject) => {
        // Slow, but it honours its signal (a fetch that ignores it is the core's timeout to fix).
        const t = setTimeout(() => resolve(new Response('{}', { status: 200 })), 50 + r.int(300));
        init.signal.addEventListener('abort', () => { clearTimeout(t); reject(new DOMException('aborted', 'AbortError')); });
      });
      case 8: return r.chance(0.5) ? new Promise(() => {}) // ignores its signal: the timeout must still hold
        : Promise.resolve({ status: 200, headers: new Headers(), text: () => new Promise(() => {}) });
      case 4: return Promise.resolve(new Response(r.pick(['', 'not json', '{"error": {"message": "x"}}', '[]']), { status: r.pick([200, 400, 429, 500, 503]), headers: { 'retry-after': r.pick(['0', '1', 'soon', '-1']) } }));
      default: {
        let body = JSON.stringify(mutate(r, judgeBody(r, provider), r.int(3)));
        if (amp) body = JSON.stringify(judgeBody(r, provider)).replace('"', `"${'x'.repeat(amp)}`);
        return Promise.resolve(new Response(body, { status: 200 }));
      }
    }
  };
}

function fakeAgent(r, corpus) {
  const seedTurn = corpus.turns[corpus.cases[0].eval_id][0];
  return (turn) => {
    switch (r.int(9)) {
      case 0: throw new Error('agent throws');
      case 1: return Promise.reject(new Error('agent rejects'));
      case 2: return undefined;
      case 3: return { finalResponse: text(r), toolCalls: [{ name: 'roll_die', args: mutate(r, { sides: 6 }) }] };
      case 4: return mutate(r, { finalResponse: 'ok', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }] });
      case 5: return { events: mutate(r, seedTurn.intermediate_data?.invocation_events ?? [], 2) };
      case 6: { const o = { finalResponse: 'x' }; o.self = o; return o; }           // not JSON
      case 7: return r.chance(0.1) ? 'word '.repeat((1 + r.int(4)) * MiB) : text(r); // sometimes huge
      default: return String(turn.text);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Targets: each returns a promise; an EvalError is an answer, anything else thrown is a finding.

const provider = (r) => r.pick(['openai', 'gemini', 'anthropic']);
const pickCase = (r, c) => r.pick(c.cases);

export const TARGETS = {
  loadEvalSet: (r, c) => api.loadEvalSet(asInput(r, mutate(r, c.evalSet, some(r))), r.chance(0.2) ? mutate(r, { id: 'x', sessionInput: { app_name: 'a', user_id: 'u', state: {} } }) : undefined),
  validateEvalSet: (r, c) => api.validateEvalSet(asInput(r, mutate(r, c.evalSet))),
  amplified: (r, c) => {
    const name = r.pick(Object.keys(AMPLIFIERS));
    const t = AMPLIFIERS[name](r);
    const fn = r.pick([() => api.loadEvalSet(Buffer.from(t)), () => api.validateEvalSet(t), () => api.loadEvalConfig(t),
      () => api.formatReport(t), () => api.evaluateInvocations({ evalCase: t, actual: [] }),
      () => api.evaluate({ evalSet: t, agent: () => 'ok' }),
      () => api.planJudgeCalls({ evalCase: t, actual: [], judge: { provider: 'openai', model: 'm' } })]);
    return fn();
  },
  loadEvalConfig: (r, c) => api.loadEvalConfig(asInput(r, mutate(r, r.pick(c.configs)))),
  rouge1: (r) => api.rouge1(text(r, 200), text(r, 200)),
  rouge1Batch: (r) => { const bad = r.chance(0.2); return api.rouge1Batch(Array.from({ length: r.int(50) }, () => (bad && r.chance(0.1) ? [text(r), 1] : [text(r), text(r)]))); },
  evaluateInvocations: (r, c) => {
    const ec = pickCase(r, c);
    return api.evaluateInvocations({ evalCase: mutate(r, ec, some(r)), actual: mutate(r, c.turns[ec.eval_id], some(r)), config: mutate(r, r.pick(c.configs), some(r)) });
  },
  preparedCase: (r, c) => {
    const ec = pickCase(r, c);
    const p = api.prepareCase({ evalCase: mutate(r, ec, some(r)), actual: mutate(r, c.turns[ec.eval_id], some(r)) });
    try {
      for (let i = 0; i < 3; i++) p.evaluate(mutate(r, r.pick(c.configs), some(r)), r.chance(0.3) ? { perInvocation: r.chance(0.5), includeInvocations: r.chance(0.5) } : undefined);
    } finally {
      p.free();
    }
    if (r.chance(0.3)) p.evaluate();
  },
  formatReport: (r, c) => api.formatReport(mutate(r, c.results, some(r)), mutate(r, { detailed: r.chance(0.5) })),
  judged: (r, c) => {
    const ec = pickCase(r, c);
    const pv = provider(r);
    return api.evaluateInvocations({
      evalCase: ec, actual: c.turns[ec.eval_id], config: mutate(r, c.configs[1], some(r)),
      // Short timeouts and many calls in flight: a stuck fetch costs 200 ms per attempt, not a minute.
      judge: { provider: pv, model: 'm', fetch: fakeFetch(r, pv), timeoutMs: 200, maxRetries: r.chance(0.2) ? 1 : 0, concurrency: 64 },
    });
  },
  planJudgeCalls: (r, c) => {
    const ec = pickCase(r, c);
    const judge = r.pick([() => ({ provider: provider(r), model: 'm' }), () => mutate(r, { provider: 'openai', model: 'm', concurrency: 2 }),
      () => 'x'.repeat(r.int(2e6)), () => [1, 2], () => 42])();
    return api.planJudgeCalls({ evalCase: ec, actual: c.turns[ec.eval_id], config: c.configs[1], judge });
  },
  customMetric: (r, c) => {
    const ec = pickCase(r, c);
    const value = r.pick([() => 0.5, () => null, () => undefined, () => NaN, () => ({ score: scalar(r) }), () => mutate(r, { score: 1, per_invocation: [1, 0] }),
      () => { throw new Error('metric throws'); }, () => Promise.reject(new Error('metric rejects')), () => 'x'.repeat(r.int(4) * MiB)]);
    return api.evaluateInvocations({ evalCase: ec, actual: c.turns[ec.eval_id], config: { criteria: { mine: 0.5 } }, customMetrics: { mine: () => value() } });
  },
  reports: (r, c) => {
    const set = { eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: c.results };
    const input = mutate(r, r.chance(0.5) ? [set] : c.results, some(r));
    return r.pick([toJUnit, toJson, toMarkdown])(input);
  },
  compareRuns: (r, c) => {
    const set = () => mutate(r, { eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: c.results }, some(r));
    const side = () => (r.chance(0.5) ? [set(), asInput(r, set())] : asInput(r, set()));
    if (r.chance(0.2)) return runTrend(side());
    const cmp = compareRuns(side(), side(), r.chance(0.2) ? mutate(r, { alpha: 0.05 }) : undefined);
    return r.pick([comparisonText, comparisonMarkdown, comparisonJUnit, comparisonAnnotations])(cmp);
  },
  calibrate: (r, c) => {
    const first = c.results[0];
    const labels = { kind: 'evalcore.labels', version: 1, labels: [
      { eval_set_id: 's', eval_id: first.eval_id, invocation_index: 0, metric_name: 'response_match_score', judge_verdict: 'pass', label: 'agree', note: 'n' },
      { eval_set_id: 's', eval_id: first.eval_id, invocation_index: 0, metric_name: 'tool_trajectory_avg_score', rubric_id: 'r', label: 'fail' }] };
    const set = { eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: c.results };
    const options = r.chance(0.2) ? mutate(r, { kappaThreshold: 0.6, judgeModel: 'm' }) : undefined;
    return calibrationText(calibrate(asInput(r, mutate(r, labels, some(r))), asInput(r, mutate(r, set, some(r))), options));
  },
  history: (r, c) => {
    const set = { eval_set_result_id: 'r', eval_set_id: 's', creation_timestamp: 1, eval_case_results: c.results };
    const value = mutate(r, set, some(r));
    return readEvalSetResult(r.pick([() => value, () => JSON.stringify(value), () => JSON.stringify(JSON.stringify(value)), () => asInput(r, value)])());
  },
  openaiMessages: (r) => {
    const log = [
      { role: 'system', content: 'be brief' }, { role: 'user', content: 'roll a die' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'roll_die', arguments: '{"sides": 6}' } }] },
      { role: 'tool', tool_call_id: 't1', content: '{"result": 4}' },
      { role: 'assistant', content: 'You rolled a 4.', usage: { prompt_tokens: 3, completion_tokens: 4 } },
    ];
    return convertOpenAIMessages(mutate(r, log, some(r) + 1), r.chance(0.2) ? mutate(r, { author: 'agent' }) : undefined);
  },
  functionAgent: (r, c) => {
    const agent = fromFunction(() => mutate(r, { text: 'ok', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }] }, some(r)));
    return api.evaluate({ evalSet: c.evalSet, agent, concurrency: 2 });
  },
  cliFiles: (r, c) => {
    // The CLI's readers over a file on disk: eval set (any shape), config, session JSON.
    const dir = mkdtempSync(join(tmpdir(), 'evalcore-fuzz-'));
    try {
      const file = join(dir, r.pick(['x.evalset.json', 'x.test.json', 'test_config.json']));
      const source = r.pick([c.evalSet, r.pick(c.configs), { app_name: 'a', user_id: 'u', state: {} },
        [{ query: 'q', reference: 'r', expected_tool_use: [] }]]);
      const input = r.chance(0.1) ? AMPLIFIERS[r.pick(Object.keys(AMPLIFIERS))](r) : asInput(r, mutate(r, source, some(r)));
      writeFileSync(file, typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input) ?? '');
      return r.pick([() => readEvalSetFile(file), () => readConfig(file), () => readJsonFile(file, 'session file')])();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  evaluate: (r, c) => {
    const set = r.chance(0.7) ? c.evalSet : mutate(r, c.evalSet, 1);
    return api.evaluate({ evalSet: set, agent: fakeAgent(r, c), config: r.chance(0.5) ? c.configs[0] : mutate(r, c.configs[0], 1), concurrency: 1 + r.int(4), numRuns: 1 + r.int(2) });
  },
};

// A recorded session as ADK Python writes events: one turn with a tool call and an answer.
const SESSION = { id: 's', app_name: 'a', user_id: 'u', events: [
  { invocation_id: 'e-1', author: 'user', timestamp: 1.5, content: { role: 'user', parts: [{ text: 'roll a 6-sided die' }] } },
  { invocation_id: 'e-1', author: 'agent', timestamp: 2, content: { role: 'model', parts: [{ function_call: { id: 'c', name: 'roll_die', args: { sides: 6 } } }] } },
  { invocation_id: 'e-1', author: 'agent', content: { role: 'user', parts: [{ function_response: { id: 'c', name: 'roll_die', response: { result: 4 } } }] } },
  { invocation_id: 'e-1', author: 'agent', content: { role: 'model', parts: [{ text: 'I rolled a 4.' }] } },
] };
const DEV_ROUTES = [
  ['GET', 'eval_sets'], ['POST', 'eval-sets'], ['POST', 'eval_sets/s1'], ['GET', 'eval_sets/s1/evals'],
  ['POST', 'eval_sets/s1/add_session'], ['GET', 'eval_sets/s1/evals/c1'], ['PUT', 'eval_sets/s1/evals/c1'],
  ['DELETE', 'eval_sets/s1/evals/c1'], ['POST', 'eval_sets/s1/run_eval'], ['GET', 'eval_results'],
  ['GET', 'eval_results/x'], ['GET', 'metrics-info'],
];

Object.assign(TARGETS, {
  sessionInvocations: (r) => sessionInvocations(mutate(r, r.chance(0.2) ? SESSION.events : SESSION, some(r))),
  adkApiJson: (r, c) => adkApiJson(mutate(r, r.pick([c.evalSet, c.results[0], SESSION]), some(r))),
  devUiRoutes: async (r, c) => {
    // The dev UI's routes over hostile bodies and paths: any answer but a 500 (our own bug).
    const sets = evalSetsManager(memoryStore());
    await sets.createEvalSet('a', 's1');
    await sets.addEvalCase('a', 's1', { ...c.cases[0], eval_id: 'c1' });
    const session = mutate(r, { ...SESSION, events: SESSION.events.map((e) => ({ ...e, invocationId: e.invocation_id })) }, some(r));
    const handle = devUiRoutes({
      evalSets: sets,
      agentFor: async () => fakeAgent(r, c),
      sessionService: { getSession: async () => (r.chance(0.8) ? session : null) },
    });
    const [method, tail] = r.pick(DEV_ROUTES);
    const body = r.pick([
      { eval_set: { eval_set_id: 's2' } }, { evalId: 'c2', sessionId: 's', userId: 'u' }, { ...c.cases[0], eval_id: 'c1' },
      { evalIds: ['c1'], evalMetrics: [{ metricName: 'response_match_score', threshold: 0.5 }, { metricName: 'tool_trajectory_avg_score', threshold: 1 }] },
    ]);
    const init = { method };
    if (method !== 'GET' && method !== 'DELETE') init.body = r.chance(0.1) ? text(r) : JSON.stringify(mutate(r, body, some(r)));
    let app = 'a';
    if (r.chance(0.1)) {
      try {
        app = encodeURIComponent(text(r, 8)) || 'a';
      } catch {
        app = '%E0%A4%A'; // a lone surrogate has no UTF-8: send a malformed escape instead
      }
    }
    const res = await handle(new Request(`http://x/${r.pick(['dev/apps', 'apps'])}/${app}/${tail}`, init));
    if (res === null) return res;
    if (res.status === 500) throw new RangeError(`devUiRoutes answered 500: ${await res.text()}`);
    return res.status;
  },
});

// The detector's own checks (`--target __hang` etc.; never picked at random): each must be a finding.
const held = [];
export const SELF_CHECKS = {
  __hang: () => new Promise(() => {}),
  __spin: () => { for (;;) { /* a synchronous hang: only terminating the worker ends it */ } },
  __throw: () => { throw new RangeError('not an EvalError'); },
  __trap: () => __trapForTesting(),
  __unhandled: () => { Promise.reject(new Error('nobody catches this')); },
  __asyncTrap: () => __trapForTesting(0, { async: true }),
  __leak: (r, c) => {
    // A live PreparedCase pins its instance, so memory grown meanwhile never comes back.
    held.push(api.prepareCase({ evalCase: c.cases[0], actual: c.turns[c.cases[0].eval_id] }));
    api.rouge1('word '.repeat(8 * MiB), 'word');
  },
};
Object.assign(TARGETS, SELF_CHECKS);

/**
 * Runs one input: `{ finding, outcome }`; finding is null when the answer is a value or an
 * EvalError; outcome says which (`ok` or the error code), for the summary.
 */
export async function runOne(r, corpus, name) {
  const finding = await check(r, corpus, name);
  return finding;
}

async function check(r, corpus, name) {
  try {
    const out = await TARGETS[name](r, corpus);
    runOne.outcome = 'ok';
    // A trap inside evaluate() is survived (the case FAILED with code trap), but it is a finding.
    const trapped = out && Array.isArray(out.eval_case_results) && out.eval_case_results.find((x) => x && x.error && x.error.code === 'trap');
    if (trapped) return { kind: 'trap', error: `in evaluate(): ${trapped.error.message}`.slice(0, 500) };
  } catch (e) {
    runOne.outcome = e instanceof EvalError ? e.code : 'thrown';
    if (!(e instanceof EvalError)) {
      const at = String(e && e.stack).split('\n').find((l) => l.includes('/pkg/')) ?? '';
      return { kind: 'non_evalerror', error: `${e && e.name}: ${e && e.message}`.slice(0, 500) + (at ? ` ${at.trim()}` : '') };
    }
    if (e.code === 'trap') return { kind: 'trap', error: e.message.slice(0, 500) };
  }
  return null;
}
