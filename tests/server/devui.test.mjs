// The dev UI's eval routes (devUiRoutes) route by route: statuses, camelCase bodies with integer
// statuses and no nulls, error bodies `{detail, error: {code, path, message}}`, on both the
// /dev/apps/{app}/... paths and the legacy /apps/{app}/... ones. The agent is the real
// @google/adk example agent (examples/adk_agent, scripted local model) run through fromAdkAgent
// in a real @google/adk session service; eval sets live in a memoryStore.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './support.mjs';
import { devUiRoutes, evalSetsManager, memoryStore } from '../../pkg/lib/server/index.js';
import { findPackageEntry } from '../../pkg/lib/server/devtools.js';
import { fromAdkAgent } from '../../pkg/lib/adapters/adk.js';

const EXAMPLE = join(ROOT, 'examples', 'adk_agent');
const APP = 'adk_agent';
const USER = 'user';
let adk, rootAgent, sessionService, handle, chatted;
const logged = [];

before(async () => {
  const entry = findPackageEntry('@google/adk', EXAMPLE);
  assert.ok(entry, 'examples/adk_agent has no node_modules/@google/adk: run scripts/setup.sh (it installs the example)');
  adk = await import(entry);
  ({ rootAgent } = await import(pathToFileURL(join(EXAMPLE, 'agent.mjs')).href));
  sessionService = new adk.InMemorySessionService();
  handle = devUiRoutes({
    evalSets: evalSetsManager(memoryStore()),
    agentFor: async (app) => {
      if (app !== APP) throw Object.assign(new Error(`no app ${app}`));
      return fromAdkAgent(rootAgent, { adk, sessionService });
    },
    sessionService,
    log: (line) => logged.push(line),
  });
  // A chat as the dev UI runs it: a session, then the agent on one message.
  const runner = new adk.Runner({ appName: APP, agent: rootAgent, sessionService });
  const session = await sessionService.createSession({ appName: APP, userId: USER, state: { __session_metadata__: { displayName: 'roll' } } });
  for await (const _ of runner.runAsync({ userId: USER, sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'roll a 6-sided die' }] } })) { /* events land in the session */ }
  chatted = session.id;
});

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  const res = await handle(new Request(`http://127.0.0.1${path}`, init));
  if (res === null) return null;
  assert.match(res.headers.get('content-type'), /^application\/json/);
  return { status: res.status, body: JSON.parse(await res.text()) };
}

function assertError(r, status, code, path) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error.code, code);
  if (path !== undefined) assert.equal(r.body.error.path, path);
  assert.equal(typeof r.body.error.message, 'string');
  assert.ok(r.body.error.message.length > 10);
  assert.equal(r.body.detail, r.body.error.message, 'FastAPI\'s detail, which the UI reads');
}

/** Every key of a dev-server answer is camelCase outside user data, and nothing is null. */
function assertCamelNoNulls(v, path = '$', names = false) {
  if (Array.isArray(v)) return v.forEach((x, i) => assertCamelNoNulls(x, `${path}[${i}]`));
  if (v === null) assert.fail(`null at ${path}`);
  if (typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (['state', 'args', 'response', 'stateDelta', 'artifactDelta'].includes(k)) continue;
    // Keys the user named (agents, schema properties) stay as they are; their values are models.
    if (!names) assert.ok(!k.includes('_'), `snake_case key ${k} at ${path}`);
    assertCamelNoNulls(x, `${path}.${k}`, ['agentDetails', 'properties'].includes(k));
  }
}

test('metrics-info: ADK MetricInfo for every metric the core scores, camelCase', async () => {
  const r = await call('GET', `/dev/apps/${APP}/metrics-info`);
  assert.equal(r.status, 200);
  const names = r.body.metricsInfo.map((m) => m.metricName);
  for (const n of ['tool_trajectory_avg_score', 'response_match_score', 'final_response_match_v2']) assert.ok(names.includes(n), n);
  const rouge = r.body.metricsInfo.find((m) => m.metricName === 'response_match_score');
  assert.deepEqual(rouge.metricValueInfo, { interval: { minValue: 0, maxValue: 1, openAtMin: false, openAtMax: false } });
  assert.equal(typeof rouge.description, 'string');
  assertCamelNoNulls(r.body);
});

test('eval sets: create (both spellings), list (legacy list and new object), get, errors', async () => {
  assert.deepEqual(await call('GET', `/dev/apps/${APP}/eval_sets`), { status: 200, body: [] });
  assertError(await call('POST', `/dev/apps/${APP}/eval-sets`, { nope: 1 }), 400, 'schema', '$.evalSet');
  assertError(await call('POST', `/dev/apps/${APP}/eval-sets`, '{"eval_set": '), 400, 'invalid_json');
  assertError(await call('POST', `/dev/apps/${APP}/eval-sets`, { eval_set: { eval_set_id: 'bad id!' } }), 400, 'schema');
  const made = await call('POST', `/dev/apps/${APP}/eval-sets`, { eval_set: { eval_set_id: 'dice', model_execution_mode: 'live', eval_cases: [] } });
  assert.equal(made.status, 200);
  assert.equal(made.body.evalSetId, 'dice');
  assert.deepEqual(made.body.evalCases, []);
  assert.equal(typeof made.body.creationTimestamp, 'number');
  assertCamelNoNulls(made.body);
  assertError(await call('POST', `/dev/apps/${APP}/eval-sets`, { evalSet: { evalSetId: 'dice' } }), 400, 'duplicate_id');
  assert.deepEqual(await call('POST', `/apps/${APP}/eval_sets/legacy_set`), { status: 200, body: null });
  assert.deepEqual(await call('GET', `/dev/apps/${APP}/eval_sets`), { status: 200, body: ['dice', 'legacy_set'] });
  assert.deepEqual(await call('GET', `/apps/${APP}/eval-sets`), { status: 200, body: { evalSetIds: ['dice', 'legacy_set'] } });
  assert.equal((await call('GET', `/dev/apps/${APP}/eval_sets/dice`)).body.evalSetId, 'dice');
  assertError(await call('GET', `/dev/apps/${APP}/eval_sets/nope`), 404, 'not_found');
  assertError(await call('DELETE', `/dev/apps/${APP}/eval_sets/dice`), 501, 'unsupported');
  assertError(await call('GET', `/dev/apps/${APP}/eval_sets/nope/evals`), 400, 'not_found');
  assertError(await call('GET', '/dev/apps/a%2Fb/eval_sets'), 400, 'invalid_path');
  assertError(await call('GET', '/dev/apps/%E0%A4%A/eval_sets'), 400, 'schema');
  assertError(await call('PATCH', `/dev/apps/${APP}/eval_sets`), 405, 'method_not_allowed');
  assert.equal(await call('GET', `/apps/${APP}/users/${USER}/sessions`), null, 'not an eval route: left to the server behind');
  assert.equal(await call('GET', '/list-apps'), null);
});

test('add_session: the chatted session becomes an eval case (the core\'s conversion), errors with paths', async () => {
  const path = `/dev/apps/${APP}/eval_sets/dice/add_session`;
  assertError(await call('POST', path, { sessionId: chatted, userId: USER }), 400, 'schema', '$.evalId');
  assertError(await call('POST', path, { evalId: 'x', sessionId: 'no-such-session', userId: USER }), 404, 'not_found', '$.sessionId');
  assertError(await call('POST', `/dev/apps/${APP}/eval_sets/nope/add_session`, { evalId: 'x', sessionId: chatted, userId: USER }), 404, 'not_found');
  assert.deepEqual(await call('POST', path, { evalId: 'roll', sessionId: chatted, userId: USER }), { status: 200, body: null });
  assertError(await call('POST', `/apps/${APP}/eval-sets/dice/add-session`, { eval_id: 'roll', session_id: chatted, user_id: USER }), 400, 'duplicate_id');
  assert.deepEqual(await call('POST', `/apps/${APP}/eval-sets/dice/add-session`, { eval_id: 'again', session_id: chatted, user_id: USER }), { status: 200, body: null });
  assert.deepEqual(await call('GET', `/dev/apps/${APP}/eval_sets/dice/evals`), { status: 200, body: ['again', 'roll'] });

  const got = await call('GET', `/dev/apps/${APP}/eval_sets/dice/evals/roll`);
  assert.equal(got.status, 200);
  const c = got.body;
  assertCamelNoNulls(c);
  assert.equal(c.evalId, 'roll');
  assert.deepEqual(c.sessionInput, { appName: APP, userId: USER, state: {} });
  assert.equal(c.conversation.length, 1);
  const inv = c.conversation[0];
  assert.deepEqual(inv.userContent, { role: 'user', parts: [{ text: 'roll a 6-sided die' }] });
  assert.deepEqual(inv.finalResponse, { role: 'model', parts: [{ text: 'I rolled a 4 for you.' }] });
  const call0 = inv.intermediateData.invocationEvents[0].content.parts[0].functionCall;
  assert.equal(call0.name, 'roll_die');
  assert.deepEqual(call0.args, { sides: 6 });
  assert.equal((await call('GET', `/apps/${APP}/eval-sets/dice/eval-cases/roll`)).body.evalId, 'roll');
  assertError(await call('GET', `/dev/apps/${APP}/eval_sets/dice/evals/nope`), 404, 'not_found');
});

test('update and delete an eval case: the route\'s id wins, mismatches and unknown cases are errors', async () => {
  const path = `/dev/apps/${APP}/eval_sets/dice/evals/again`;
  const c = (await call('GET', path)).body;
  assertError(await call('PUT', path, { ...c, evalId: 'other' }), 400, 'schema', '$.evalId');
  assertError(await call('PUT', `/dev/apps/${APP}/eval_sets/dice/evals/nope`, { ...c, evalId: 'nope' }), 404, 'not_found');
  assertError(await call('PUT', path, { ...c, conversation: 'x' }), 400, 'schema');
  c.conversation[0].finalResponse.parts[0].text = 'You rolled a six.';
  assert.deepEqual(await call('PUT', path, c), { status: 200, body: null });
  assert.equal((await call('GET', path)).body.conversation[0].finalResponse.parts[0].text, 'You rolled a six.');
  assert.deepEqual(await call('DELETE', `/apps/${APP}/eval-sets/dice/eval-cases/again`), { status: 200, body: null });
  assertError(await call('DELETE', path), 404, 'not_found');
  assert.deepEqual((await call('GET', `/dev/apps/${APP}/eval_sets/dice/evals`)).body, ['roll']);
});

test('run_eval: runs the agent through fromAdkAgent, answers RunEvalResults (camelCase, integer statuses), stores the result', async () => {
  const path = `/dev/apps/${APP}/eval_sets/dice/run_eval`;
  assertError(await call('POST', path, { evalIds: ['roll'] }), 400, 'schema', '$.evalMetrics');
  assertError(await call('POST', path, { evalIds: ['roll'], evalMetrics: [{ metricName: 'response_match_score', threshold: 'high' }] }), 400, 'schema');
  assertError(await call('POST', path, { evalIds: ['roll'], evalMetrics: [{ threshold: 1 }] }), 400, 'schema', '$.evalMetrics[0].metricName');
  assertError(await call('POST', path, { evalIds: ['roll'], evalMetrics: [{ metricName: 'm', customFunctionPath: 'os.system' }] }), 400, 'schema', '$.evalMetrics[0].customFunctionPath');
  assertError(await call('POST', path, { evalIds: ['nope'], evalMetrics: [] }), 400, 'not_found', '$.evalCaseIds');
  assertError(await call('POST', `/dev/apps/${APP}/eval_sets/nope/run_eval`, { evalMetrics: [] }), 400, 'not_found');

  const metrics = [{ metricName: 'tool_trajectory_avg_score', threshold: 1 }, { metricName: 'response_match_score', threshold: 0.7 }];
  const r = await call('POST', path, { evalIds: ['roll'], evalMetrics: metrics });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assertCamelNoNulls(r.body);
  assert.equal(r.body.length, 1);
  const res = r.body[0];
  assert.deepEqual(Object.keys(res).sort(), ['evalId', 'evalMetricResultPerInvocation', 'evalSetFile', 'evalSetId', 'finalEvalStatus', 'overallEvalMetricResults', 'sessionId', 'userId'].sort());
  assert.equal(res.evalId, 'roll');
  assert.equal(res.evalSetId, 'dice');
  assert.equal(res.finalEvalStatus, 1);
  assert.equal(res.userId, USER);
  const overall = Object.fromEntries(res.overallEvalMetricResults.map((m) => [m.metricName, m]));
  assert.equal(overall.tool_trajectory_avg_score.score, 1);
  assert.equal(overall.tool_trajectory_avg_score.evalStatus, 1);
  assert.equal(overall.response_match_score.threshold, 0.7);
  assert.equal(overall.response_match_score.score, 1);
  const per = res.evalMetricResultPerInvocation[0];
  assert.deepEqual(per.actualInvocation.finalResponse.parts, [{ text: 'I rolled a 4 for you.' }]);
  assert.deepEqual(per.expectedInvocation.finalResponse.parts, [{ text: 'I rolled a 4 for you.' }]);
  assert.ok(per.evalMetricResults.every((m) => Number.isInteger(m.evalStatus)));
  // The eval's session is in the service the UI reads sessions from, under the case's user.
  assert.match(res.sessionId, /^adk-eval-session-/);
  const session = await sessionService.getSession({ appName: APP, userId: USER, sessionId: res.sessionId });
  assert.ok(session, 'the eval session is in the shared session service');
  assert.ok(session.events.some((e) => e.author === 'user'));

  // A judged metric's judgeModelOptions go into its criterion; with no judge configured on the
  // server it is NOT_EVALUATED (3), and the case is judged by the metrics that ran.
  const again = await call('POST', `/apps/${APP}/eval-sets/dice/run`, { evalCaseIds: ['roll'], evalMetrics: [
    { metricName: 'response_match_score', threshold: 0.7 },
    { metricName: 'final_response_match_v2', threshold: 0.5, judgeModelOptions: { numSamples: 2 } }] });
  assert.equal(again.status, 200);
  const [rerun] = again.body.runEvalResults;
  assert.equal(rerun.evalId, 'roll');
  assert.equal(rerun.finalEvalStatus, 1);
  const judged = rerun.overallEvalMetricResults.find((m) => m.metricName === 'final_response_match_v2');
  assert.equal(judged.evalStatus, 3);
  assert.equal(judged.criterion.judgeModelOptions.numSamples, 2);
  assert.deepEqual(logged.filter((l) => l.includes('final_response_match_v2')).length, 1);
  assert.match(logged.at(-1), /^run_eval adk_agent\/dice case roll: final_response_match_v2 NOT_EVALUATED: .*judge/);
});

test('eval results: listed (legacy list and new object), read back camelCase with integer statuses', async () => {
  const list = await call('GET', `/dev/apps/${APP}/eval_results`);
  assert.equal(list.status, 200);
  assert.equal(list.body.length, 2);
  for (const id of list.body) assert.match(id, /^adk_agent_dice_\d+\.\d+$/);
  assert.deepEqual((await call('GET', `/apps/${APP}/eval-results`)).body, { evalResultIds: list.body });
  const one = await call('GET', `/dev/apps/${APP}/eval_results/${encodeURIComponent(list.body[0])}`);
  assert.equal(one.status, 200);
  assertCamelNoNulls(one.body);
  assert.equal(one.body.evalSetId, 'dice');
  assert.equal(one.body.evalSetResultId, list.body[0]);
  assert.equal(typeof one.body.creationTimestamp, 'number');
  assert.equal(one.body.evalCaseResults[0].finalEvalStatus, 1);
  assert.equal(one.body.evalCaseResults[0].sessionId.startsWith('adk-eval-session-'), true);
  assert.equal((await call('GET', `/apps/${APP}/eval-results/${encodeURIComponent(list.body[1])}`)).status, 200);
  assertError(await call('GET', `/dev/apps/${APP}/eval_results/nope`), 404, 'not_found');
});

test('run_eval: "__proto__" (and any name an object has) is an unknown metric like any other, not a run with no metrics', async () => {
  const path = `/dev/apps/${APP}/eval_sets/dice/run_eval`;
  const metricsOf = async (body) => {
    const r = await call('POST', path, body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body[0].overallEvalMetricResults.filter((m) => m.evalStatus !== 4).map((m) => [m.metricName, m.evalStatus]);
  };
  assert.deepEqual(await metricsOf({ evalIds: ['roll'], evalMetrics: [{ metricName: 'no_such_metric', threshold: 0.5 }] }), [['no_such_metric', 3]]);
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.deepEqual(await metricsOf({ evalIds: ['roll'], evalMetrics: [{ metricName: name, threshold: 0.5 }] }), [[name, 3]], name);
    assert.deepEqual(await metricsOf(`{"evalIds": ["roll"], "evalMetrics": [{"metricName": "response_match_score", "threshold": 0.5}, {"metricName": ${JSON.stringify(name)}, "threshold": 0.5}]}`),
      [['response_match_score', 1], [name, 3]], name);
  }
  assertError(await call('POST', path, { evalIds: ['__proto__'], evalMetrics: [] }), 400, 'not_found', '$.evalCaseIds');
});

test('a failing agent and an unknown app are answers, not crashes', async () => {
  const r = await call('POST', '/dev/apps/other_app/eval_sets/dice/run_eval', { evalMetrics: [] });
  assertError(r, 400, 'not_found');
  const failing = devUiRoutes({
    evalSets: evalSetsManager(memoryStore()),
    agentFor: async () => { throw new Error('the agent folder is broken'); },
    sessionService,
  });
  await failing(new Request(`http://x/dev/apps/${APP}/eval_sets/s1`, { method: 'POST' }));
  const res = await failing(new Request(`http://x/dev/apps/${APP}/eval_sets/s1/run_eval`, {
    method: 'POST', body: JSON.stringify({ evalMetrics: [] }), headers: { 'content-type': 'application/json' },
  }));
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.equal(body.error.code, 'internal');
  assert.match(body.error.message, /the agent folder is broken/);
  assert.throws(() => devUiRoutes({ agentFor() {}, sessionService }), /evalSets must be an eval-set manager/);
});

test('a body over the limit is a 413 before it is read whole; a run\'s agent stops when the client goes away', async () => {
  const small = devUiRoutes({ evalSets: evalSetsManager(memoryStore()), agentFor: async () => fromAdkAgent(rootAgent, { adk, sessionService }), sessionService, maxBodyBytes: 1000 });
  const big = await small(new Request(`http://x/dev/apps/${APP}/eval-sets`, { method: 'POST', body: JSON.stringify({ eval_set: { eval_set_id: 'x'.repeat(2000) } }), headers: { 'content-type': 'application/json' } }));
  assert.equal(big.status, 413);
  assert.equal((await big.json()).error.code, 'too_large');

  // An agent that never answers: aborting the request ends the run with an answer, not a hang.
  const sets = evalSetsManager(memoryStore());
  await sets.createEvalSet(APP, 'slow');
  await sets.addEvalCase(APP, 'slow', { eval_id: 'c', conversation: [{ invocation_id: 'i', user_content: { role: 'user', parts: [{ text: 'hi' }] } }] });
  let started;
  const turnStarted = new Promise((r) => { started = r; });
  const hanging = devUiRoutes({
    evalSets: sets,
    agentFor: async () => (turn) => new Promise((_, reject) => {
      started();
      turn.signal.addEventListener('abort', () => reject(turn.signal.reason), { once: true });
    }),
    sessionService,
  });
  const abort = new AbortController();
  const answer = hanging(new Request(`http://x/dev/apps/${APP}/eval_sets/slow/run_eval`, {
    method: 'POST', body: JSON.stringify({ evalMetrics: [{ metricName: 'response_match_score', threshold: 0.5 }] }),
    headers: { 'content-type': 'application/json' }, signal: abort.signal,
  }));
  await turnStarted;
  abort.abort(new Error('the client disconnected'));
  const res = await answer;
  const body = await res.json();
  assert.equal(res.status, 499, JSON.stringify(body));
  assert.equal(body.error.code, 'client_closed');
  assert.deepEqual(await sets.listEvalSetResults(APP), [], 'no result is stored for an aborted run');
});

test('eval set and case ids __proto__, constructor, toString, hasOwnProperty are ids like any other', async () => {
  const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  for (const id of ids) {
    const made = await call('POST', `/dev/apps/${APP}/eval-sets`, { eval_set: { eval_set_id: id, eval_cases: [] } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.evalSetId, id);
  }
  const listed = (await call('GET', `/dev/apps/${APP}/eval_sets`)).body;
  for (const id of ids) assert.ok(listed.includes(id), JSON.stringify(listed));
  for (const id of ids) assert.equal((await call('GET', `/dev/apps/${APP}/eval_sets/${id}`)).body.evalSetId, id);
  for (const id of ids) {
    const added = await call('POST', `/dev/apps/${APP}/eval_sets/__proto__/add_session`, { evalId: id, sessionId: chatted, userId: USER });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  }
  assert.deepEqual((await call('GET', `/dev/apps/${APP}/eval_sets/__proto__/evals`)).body, [...ids].sort());
  assert.equal((await call('GET', `/dev/apps/${APP}/eval_sets/__proto__/evals/constructor`)).body.evalId, 'constructor');
});
