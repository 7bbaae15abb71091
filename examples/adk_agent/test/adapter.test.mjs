// fromAdkAgent over a real @google/adk LlmAgent (hello_world_agent with its scripted model):
// the events of a turn in ADK Python's JSON shape, AppDetails, sessions across turns, runners,
// sub-agents, failures and aborts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as adk from '@google/adk';
import { EvalError } from 'evalcore';
import { fromAdkAgent } from 'evalcore/adk';
import { INSTRUCTION, agent, rootAgent } from '../agent.mjs';
import { MODEL_VERSION, ScriptedModel } from '../scripted_model.mjs';
import { checkPrime, rollDie, rollFrom } from '../tools.mjs';

adk.setLogLevel(adk.LogLevel.ERROR);

let sessions = 0;
/** An AgentTurn as the core builds it; a fresh session id unless one is given. */
function turn(text, { sessionId = `test-session-${(sessions += 1)}`, turnIndex = 0, state = {}, ...rest } = {}) {
  return {
    evalSetId: 'adk_agent', evalId: 'case', run: 0, turnIndex, sessionId, userId: 'user', appName: 'hello_world',
    state, userContent: { role: 'user', parts: [{ text }] }, text, history: [], ...rest,
  };
}

const calls = (events) => events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => p.function_call));
const responses = (events) => events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_response).map((p) => p.function_response));
const texts = (events) => events.flatMap((e) => (e.content?.parts ?? []).filter((p) => typeof p.text === 'string').map((p) => p.text));

/** Every key outside user data (args, responses, state) must be snake_case, as ADK Python writes. */
function camelKeys(value, path = '$', out = []) {
  if (Array.isArray(value)) value.forEach((v, i) => camelKeys(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (/[A-Z]/.test(k)) out.push(`${path}.${k}`);
      if (!['args', 'response', 'state_delta'].includes(k)) camelKeys(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** A model that always fails, and one that transfers to a sub-agent. */
class FailingModel extends adk.BaseLlm {
  constructor(error) { super({ model: 'failing' }); this.error = error; }
  // eslint-disable-next-line require-yield
  async *generateContentAsync() { throw this.error; }
  async connect() { throw this.error; }
}

class RouterModel extends adk.BaseLlm {
  constructor() { super({ model: 'router' }); }
  async *generateContentAsync() {
    yield {
      content: { role: 'model', parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'hello_world_agent' } } }] },
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
    };
  }
  async connect() { throw new Error('no live mode'); }
}

const helloWorld = (name = 'hello_world_agent', model = new ScriptedModel()) => new adk.LlmAgent({
  name, model, instruction: INSTRUCTION, tools: [rollDie, checkPrime],
});

test('one turn: function call, tool response and final answer as ADK events', async () => {
  const { events } = await agent(turn('Roll a 6-sided die.', { state: { rng_seed: 42 } }));
  const expected = rollFrom(42, 6);
  assert.equal(events.length, 3);
  assert.deepEqual(events.map((e) => e.author), ['hello_world_agent', 'hello_world_agent', 'hello_world_agent']);

  const [call, result, answer] = events;
  assert.equal(call.content.role, 'model');
  const fc = call.content.parts[0].function_call;
  assert.deepEqual({ name: fc.name, args: fc.args }, { name: 'roll_die', args: { sides: 6 } });
  assert.match(fc.id, /^adk-/);

  assert.equal(result.content.role, 'user');
  assert.deepEqual(result.content.parts[0].function_response, { id: fc.id, name: 'roll_die', response: { result: expected.roll } });
  assert.deepEqual(result.actions.state_delta, { rng_seed: expected.next, rolls: [expected.roll] });

  assert.deepEqual(answer.content, { role: 'model', parts: [{ text: `I rolled a ${expected.roll} for you.` }] });
  for (const e of [call, answer]) {
    assert.equal(e.model_version, MODEL_VERSION);
    const u = e.usage_metadata;
    assert.ok(u.prompt_token_count > 0 && u.candidates_token_count > 0);
    assert.equal(u.total_token_count, u.prompt_token_count + u.candidates_token_count);
  }
  assert.equal(result.usage_metadata, undefined, 'a tool response has no model usage');

  const ids = new Set(events.map((e) => e.invocation_id));
  assert.equal(ids.size, 1);
  assert.match([...ids][0], /^e-/);
  for (const e of events) {
    assert.ok(e.timestamp > 1e9 && e.timestamp < 1e11, `timestamp in seconds, got ${e.timestamp}`);
    assert.equal(typeof e.id, 'string');
    assert.equal(e.partial, undefined);
    assert.deepEqual(e.long_running_tool_ids, []);
  }
  assert.deepEqual(camelKeys(events), []);
  JSON.parse(JSON.stringify(events)); // plain JSON all the way down
});

test('appDetails: the system instruction ADK sent and the tools as genai declarations', async () => {
  const { appDetails } = await agent(turn('Is 7 a prime number?'));
  assert.deepEqual(Object.keys(appDetails.agent_details), ['hello_world_agent']);
  const details = appDetails.agent_details.hello_world_agent;
  assert.equal(details.name, 'hello_world_agent');
  assert.ok(details.instructions.includes('Your internal name is "hello_world_agent"'), details.instructions);
  assert.ok(details.instructions.endsWith(INSTRUCTION));
  assert.deepEqual(details.tool_declarations, [{
    function_declarations: [
      {
        name: 'roll_die',
        description: 'Roll a die and return the rolled result.',
        parameters: {
          type: 'OBJECT',
          properties: { sides: { type: 'INTEGER', description: 'The integer number of sides the die has.' } },
          required: ['sides'],
        },
      },
      {
        name: 'check_prime',
        description: 'Check if a given list of numbers are prime.',
        parameters: {
          type: 'OBJECT',
          properties: { nums: { type: 'ARRAY', items: { type: 'INTEGER' }, description: 'The list of numbers to check.' } },
          required: ['nums'],
        },
      },
    ],
  }]);
});

test('sessions: created on the first turn with the initial state, reused by later turns', async () => {
  const sessionService = new adk.InMemorySessionService();
  const wrapped = fromAdkAgent(rootAgent, { sessionService });
  const sessionId = 'conversation-1';
  const first = await wrapped(turn('Roll a 10-sided die.', { sessionId, state: { rng_seed: 5, note: 'kept' } }));
  const { roll, next } = rollFrom(5, 10);
  assert.deepEqual(calls(first.events).map((c) => [c.name, c.args]), [['roll_die', { sides: 10 }]]);

  // The second turn sees the first one: the model checks the roll it made there.
  const second = await wrapped(turn('Is the result prime?', { sessionId, turnIndex: 1, state: { rng_seed: 5, note: 'kept' } }));
  assert.deepEqual(calls(second.events).map((c) => [c.name, c.args]), [['check_prime', { nums: [roll] }]]);
  assert.notEqual(first.events[0].invocation_id, second.events[0].invocation_id);

  const session = await sessionService.getSession({ appName: 'hello_world', userId: 'user', sessionId });
  assert.deepEqual(session.state, { rng_seed: next, note: 'kept', rolls: [roll] });
  assert.deepEqual(session.events.filter((e) => e.author === 'user').map((e) => e.content.parts[0].text),
    ['Roll a 10-sided die.', 'Is the result prime?']);

  // Another conversation does not share the first one's history.
  const other = await wrapped(turn('Is the result prime?', { sessionId: 'conversation-2' }));
  assert.deepEqual(calls(other.events), []);
  assert.deepEqual(texts(other.events), ['I have not rolled a die in this conversation yet.']);
});

test('sessions: an existing session under the pinned id is reused and its state kept', async () => {
  const sessionService = new adk.InMemorySessionService();
  await sessionService.createSession({ appName: 'hello_world', userId: 'user', sessionId: 'pinned', state: { rng_seed: 42 } });
  const { events } = await fromAdkAgent(rootAgent, { sessionService })(turn('Roll a 6-sided die.', { sessionId: 'pinned', state: { rng_seed: 1 } }));
  assert.deepEqual(responses(events)[0].response, { result: rollFrom(42, 6).roll });
});

test('sessions: a new conversation under an id this adapter used before starts afresh', async () => {
  // The same case evaluated twice (two evaluate calls) comes with the same session id.
  const sessionService = new adk.InMemorySessionService();
  const wrapped = fromAdkAgent(rootAgent, { sessionService });
  const first = await wrapped(turn('Roll a 6-sided die.', { sessionId: 'again', state: { rng_seed: 9 } }));
  const second = await wrapped(turn('Roll a 6-sided die.', { sessionId: 'again', state: { rng_seed: 9 } }));
  assert.deepEqual(responses(second.events), responses(first.events).map((r) => ({ ...r, id: responses(second.events)[0].id })));
  const session = await sessionService.getSession({ appName: 'hello_world', userId: 'user', sessionId: 'again' });
  assert.deepEqual(session.state.rolls, [rollFrom(9, 6).roll]);
  assert.equal(session.events.length, 4);
});

test('the same agent runs each app name in its own runner, sessions apart', async () => {
  const sessionService = new adk.InMemorySessionService();
  const wrapped = fromAdkAgent(rootAgent, { sessionService });
  await wrapped(turn('Roll a 6-sided die.', { sessionId: 's', appName: 'app_a', state: { rng_seed: 1 } }));
  await wrapped(turn('Roll a 6-sided die.', { sessionId: 's', appName: 'app_b', state: { rng_seed: 2 } }));
  const a = await sessionService.getSession({ appName: 'app_a', userId: 'user', sessionId: 's' });
  const b = await sessionService.getSession({ appName: 'app_b', userId: 'user', sessionId: 's' });
  assert.deepEqual([a.state.rolls, b.state.rolls], [[rollFrom(1, 6).roll], [rollFrom(2, 6).roll]]);
});

test('a Runner is used as it is: its app name, its sessions, one capture plugin', async () => {
  const runner = new adk.InMemoryRunner({ agent: helloWorld(), appName: 'runner_app' });
  const one = fromAdkAgent(runner);
  const two = fromAdkAgent(runner, { adk });
  const r1 = await one(turn('Check if 4, 7 and 9 are prime.', { sessionId: 'r' }));
  const r2 = await two(turn('Is 9 a prime number?', { sessionId: 'r', turnIndex: 1 }));
  assert.deepEqual(calls(r1.events).map((c) => c.args), [{ nums: [4, 7, 9] }]);
  assert.deepEqual(texts(r2.events), ['9 is not a prime number.']);
  assert.deepEqual(Object.keys(r2.appDetails.agent_details), ['hello_world_agent']);
  const session = await runner.sessionService.getSession({ appName: 'runner_app', userId: 'user', sessionId: 'r' });
  assert.equal(session.events.filter((e) => e.author === 'user').length, 2);
});

test('an App runs under its own name and keeps its plugins', async () => {
  const seen = [];
  class Counting extends adk.BasePlugin {
    async beforeModelCallback({ callbackContext }) { seen.push(callbackContext.agentName); return undefined; }
  }
  const sessionService = new adk.InMemorySessionService();
  const app = new adk.App({ name: 'dice_app', rootAgent: helloWorld(), plugins: [new Counting('counting')] });
  const { events } = await fromAdkAgent(app, { sessionService })(turn('Roll a 6-sided die.', { sessionId: 'a', state: { rng_seed: 3 } }));
  assert.deepEqual(texts(events), [`I rolled a ${rollFrom(3, 6).roll} for you.`]);
  assert.deepEqual(seen, ['hello_world_agent', 'hello_world_agent']);
  assert.ok(await sessionService.getSession({ appName: 'dice_app', userId: 'user', sessionId: 'a' }));
  assert.equal(await sessionService.getSession({ appName: 'hello_world', userId: 'user', sessionId: 'a' }), undefined);
});

test('sub-agents: each agent that called a model is in AppDetails, with its own tools', async () => {
  const router = new adk.LlmAgent({
    name: 'dice_router', model: new RouterModel(), instruction: 'Send dice questions to hello_world_agent.',
    subAgents: [helloWorld()],
  });
  const { events, appDetails } = await fromAdkAgent(router)(turn('Roll a 6-sided die.', { state: { rng_seed: 42 } }));
  assert.deepEqual(calls(events).map((c) => [c.name, c.args]),
    [['transfer_to_agent', { agentName: 'hello_world_agent' }], ['roll_die', { sides: 6 }]]);
  assert.deepEqual(events.map((e) => e.author),
    ['dice_router', 'dice_router', 'hello_world_agent', 'hello_world_agent', 'hello_world_agent']);
  assert.equal(events[1].actions.transfer_to_agent, 'hello_world_agent');
  assert.deepEqual(texts(events), [`I rolled a ${rollFrom(42, 6).roll} for you.`]);

  assert.deepEqual(Object.keys(appDetails.agent_details), ['dice_router', 'hello_world_agent']);
  const routerTools = appDetails.agent_details.dice_router.tool_declarations.flatMap((t) => t.function_declarations);
  assert.deepEqual(routerTools.map((d) => d.name), ['transfer_to_agent']);
  // A user-defined property name inside a schema keeps its spelling.
  assert.deepEqual(Object.keys(routerTools[0].parameters.properties), ['agentName']);
  assert.ok(appDetails.agent_details.dice_router.instructions.includes('Agent name: hello_world_agent'));
  const workerTools = appDetails.agent_details.hello_world_agent.tool_declarations.flatMap((t) => t.function_declarations);
  assert.deepEqual(workerTools.map((d) => d.name).sort(), ['check_prime', 'roll_die', 'transfer_to_agent']);
});

test('an error thrown out of ADK rejects with EvalError agent_error and the original error as cause', async () => {
  const boom = new Error('callback broke');
  const broken = new adk.LlmAgent({
    name: 'broken_agent', model: new ScriptedModel(), instruction: 'x',
    beforeAgentCallback: () => { throw boom; },
  });
  const err = await fromAdkAgent(broken)(turn('hello', { evalId: 'fails', turnIndex: 2 })).catch((e) => e);
  assert.ok(err instanceof EvalError, String(err));
  assert.equal(err.code, 'agent_error');
  assert.match(err.message, /eval case "fails", turn 3/);
  assert.match(err.message, /callback broke/);
  assert.equal(err.cause, boom);
});

test('a model failure that ADK JS reports as an error event is passed on as that event', async () => {
  // ADK JS turns a model's exception into an event with error_code / error_message (ADK
  // Python raises); the event reaches the core as ADK wrote it.
  const failing = new adk.LlmAgent({ name: 'failing_agent', model: new FailingModel(new Error('model is down')), instruction: 'x' });
  const { events, appDetails } = await fromAdkAgent(failing)(turn('hello'));
  assert.equal(events.length, 1);
  assert.equal(events[0].author, 'failing_agent');
  assert.equal(events[0].error_message, 'model is down');
  assert.equal(typeof events[0].error_code, 'string');
  assert.equal(events[0].content, undefined);
  assert.deepEqual(Object.keys(appDetails.agent_details), ['failing_agent']);
});

test('abort: a signal aborted before or during the turn rejects with its reason', async () => {
  const before = new AbortController();
  before.abort(new Error('stopped early'));
  await assert.rejects(agent(turn('Roll a 6-sided die.', { signal: before.signal })), /stopped early/);

  // Aborted while the model runs: ADK's runner stops quietly; the turn must not look finished.
  const during = new AbortController();
  class AbortingModel extends ScriptedModel {
    async *generateContentAsync(request) {
      during.abort(new Error('stopped mid-turn'));
      yield* super.generateContentAsync(request);
    }
  }
  const aborting = fromAdkAgent(helloWorld('aborting_agent', new AbortingModel()));
  await assert.rejects(aborting(turn('Roll a 6-sided die.', { signal: during.signal })), /stopped mid-turn/);
});

test('bad turns and bad arguments are EvalErrors with a path, not crashes', async () => {
  for (const [bad, path] of [
    [null, '$'],
    [{ ...turn('x'), sessionId: '' }, '$.sessionId'],
    [{ ...turn('x'), userId: 7 }, '$.userId'],
    [{ ...turn('x'), userContent: 'x' }, '$.userContent'],
    [{ ...turn('x'), state: [1] }, '$.state'],
    [{ ...turn('x'), state: { f() {} } }, '$'],
  ]) {
    const err = await agent(bad).catch((e) => e);
    assert.ok(err instanceof EvalError, `${path}: ${err}`);
    assert.equal(err.path, path);
  }
  assert.throws(() => fromAdkAgent(42), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromAdkAgent({}), (e) => e instanceof EvalError && /name/.test(e.message));
  const wrongModule = fromAdkAgent(rootAgent, { adk: { Runner: 1 } });
  await assert.rejects(wrongModule(turn('x')), (e) => e instanceof EvalError && e.code === 'unsupported');
  // The agent is still usable afterwards.
  assert.equal(texts((await agent(turn('Hi, who are you?'))).events).length, 1);
});
