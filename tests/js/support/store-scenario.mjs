// One scenario of eval-set management, run the same way on every store: in Node over
// memoryStore and fsStore (tests/js/store.test.mjs) and inside workerd over KV and R2 bindings
// (tests/server/store-workers.test.mjs). It imports nothing: the caller hands in the package's
// `evalSetsManager` and a store. Returns a transcript, one entry per step, `{ step, value }` or
// `{ step, error: { code, path } }`, so runtimes can be compared entry by entry.

const turn = (id, user, reply) => ({
  invocation_id: id,
  user_content: { role: 'user', parts: [{ text: user }] },
  final_response: { role: 'model', parts: [{ text: reply }] },
});

export const CASE_A = { eval_id: 'case_a', conversation: [turn('a-1', 'Hi', 'Hello!')] };
export const CASE_B = { evalId: 'case_b', conversation: [turn('b-1', 'Weather?', 'Sunny.')], sessionInput: { appName: 'weather', userId: 'u1', state: { city: 'Paris' } } };
export const CASE_A2 = { eval_id: 'case_a', conversation: [turn('a-1', 'Hi there', 'Hello again!')] };

/** A result of one case, as evaluate() gives it. */
export const CASE_RESULT = {
  eval_set_id: 'set_1', eval_id: 'case_a', final_eval_status: 'PASSED', session_id: 's-1',
  overall_eval_metric_results: [{ metric_name: 'response_match_score', threshold: 0.8, score: 1, eval_status: 'PASSED' }],
  eval_metric_result_per_invocation: [],
};

/** Seconds the scenario's clock gives, one after the other (ADK stamps with time.time()). */
export const TIMES = [1795000000.25, 1795000001.5, 1795000002.125];

export async function storeScenario(evalSetsManager, store) {
  let tick = 0;
  const m = evalSetsManager(store, { now: () => TIMES[tick++ % TIMES.length] });
  const out = [];
  const step = async (name, fn) => {
    try {
      const value = await fn();
      out.push({ step: name, value: value === undefined ? null : value });
    } catch (e) {
      out.push({ step: name, error: { code: e?.code ?? 'thrown', path: e?.path ?? '' } });
    }
  };
  await step('list before anything', () => m.listEvalSets('app'));
  await step('get a missing set', () => m.getEvalSet('app', 'set_1'));
  await step('create', () => m.createEvalSet('app', 'set_1'));
  await step('create again', () => m.createEvalSet('app', 'set_1'));
  await step('create with a bad id', () => m.createEvalSet('app', 'set-1'));
  await step('create in a bad app', () => m.createEvalSet('../etc', 'set_2'));
  await step('create a second set', () => m.createEvalSet('app', 'set_0'));
  await step('list', () => m.listEvalSets('app'));
  await step('add a', () => m.addEvalCase('app', 'set_1', CASE_A));
  await step('add b (camelCase)', () => m.addEvalCase('app', 'set_1', CASE_B));
  await step('add a again', () => m.addEvalCase('app', 'set_1', CASE_A));
  await step('add to a missing set', () => m.addEvalCase('app', 'nope', CASE_A));
  await step('add a bad case', () => m.addEvalCase('app', 'set_1', { eval_id: 'bad', conversation: [{ user_content: 7 }] }));
  await step('get case b', () => m.getEvalCase('app', 'set_1', 'case_b'));
  await step('get a missing case', () => m.getEvalCase('app', 'set_1', 'case_z'));
  await step('update a', () => m.updateEvalCase('app', 'set_1', CASE_A2));
  await step('update a missing case', () => m.updateEvalCase('app', 'set_1', { ...CASE_A, eval_id: 'case_z' }));
  await step('get the set', () => m.getEvalSet('app', 'set_1'));
  await step('delete b', () => m.deleteEvalCase('app', 'set_1', 'case_b'));
  await step('delete b again', () => m.deleteEvalCase('app', 'set_1', 'case_b'));
  await step('case ids after', async () => (await m.getEvalSet('app', 'set_1')).eval_cases.map((c) => c.eval_id));
  await step('concurrent adds', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => m.addEvalCase('app', 'set_0', { ...CASE_A, eval_id: `c${i}` })));
    return (await m.getEvalSet('app', 'set_0')).eval_cases.map((c) => c.eval_id).sort();
  });
  await step('results before', () => m.listEvalSetResults('app'));
  await step('save a result', () => m.saveEvalSetResult('app', 'set_1', [CASE_RESULT]));
  await step('save results that are not a list', () => m.saveEvalSetResult('app', 'set_1', { eval_id: 'x' }));
  await step('list results', () => m.listEvalSetResults('app'));
  await step('get the result', async () => m.getEvalSetResult('app', (await m.listEvalSetResults('app'))[0]));
  await step('get a missing result', () => m.getEvalSetResult('app', 'app_set_1_0.0'));
  await step('get a result by a path', () => m.getEvalSetResult('app', '../set_1.evalset'));
  await step('sets are not results', () => m.listEvalSets('app'));
  await step('other app is empty', () => m.listEvalSets('other'));
  await step('raw keys', () => store.list('app/'));
  await step('raw history keys', () => store.list('app/.adk/eval_history/'));
  await step('raw get of the created set', async () => new TextDecoder().decode(await store.get('app/set_0.evalset.json')).split('\n').slice(0, 4));
  await step('a key out of the root', () => store.get('../x'));
  return out;
}

/** Every value under the scenario's folders as text, by key: what a store holds after it. */
export async function storeContents(store) {
  const out = {};
  for (const prefix of ['app/', 'app/.adk/eval_history/']) {
    for (const key of await store.list(prefix)) out[key] = new TextDecoder().decode(await store.get(key));
  }
  return out;
}
