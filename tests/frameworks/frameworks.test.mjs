// The four framework adapters against the frameworks' real packages (installed by the example
// projects: examples/ai_sdk, openai_agents, langgraph, mastra; scripts/setup.sh installs them),
// each with the framework's own test model: the invocations the core derives from their runs,
// exactly. The same weather agent written four ways must give the same ADK invocation where the
// frameworks agree (calls of one step, tool results, usage, final response), and each its own
// where they differ (handoff, sub-agent, what is timed).
//
// scripts/test.sh runs this file on each Node release users run with each framework's current
// major (the examples/ projects, on Node 22 and 24) and again with the previous majors where
// their results differ (EVALCORE_FRAMEWORKS=.previous, the copies scripts/examples.sh makes of
// examples/NAME/previous, on Node 20); a framework without a previous major is read from
// examples/ both times. Each run says which versions it ran.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { EvalError, evaluate, loadEvalSet } from '../../pkg/index.js';
import { fromAiSdk, fromLangGraph, fromMastra, fromOpenAIAgents } from '../../pkg/lib/adapters/index.js';
import { findPackageEntry } from '../../pkg/lib/server/devtools.js';
import { ROOT } from '../js/helpers.mjs';

const EXAMPLES = join(ROOT, 'examples');
const CHOSEN = process.env.EVALCORE_FRAMEWORKS ? join(ROOT, process.env.EVALCORE_FRAMEWORKS) : EXAMPLES;
/** The project of example `name` this run reads: the chosen folder's, else examples/'s. */
const dirOf = (name) => (existsSync(join(CHOSEN, name, 'package.json')) ? join(CHOSEN, name) : join(EXAMPLES, name));
const FRAMEWORKS = { ai_sdk: ['ai'], openai_agents: ['@openai/agents'], langgraph: ['@langchain/langgraph', '@langchain/core'], mastra: ['@mastra/core'] };
const versionOf = (name, pkg) => JSON.parse(readFileSync(join(dirOf(name), 'node_modules', pkg, 'package.json'), 'utf8')).version;
const sdkOf = (name, pkg) => import(findPackageEntry(pkg, dirOf(name)));
/** The major version of `ai` this run reads (7 keeps the messages and the telemetry elsewhere). */
const aiMajor = () => Number(versionOf('ai_sdk', 'ai').split('.')[0]);

before(() => {
  const ran = Object.entries(FRAMEWORKS).flatMap(([name, pkgs]) => pkgs.map((p) => `${p} ${existsSync(join(dirOf(name), 'node_modules', p)) ? versionOf(name, p) : '(not installed)'}`));
  console.log(`# frameworks on Node ${process.versions.node}: ${ran.join(', ')}`);
});

const CONFIG = { criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.8 } };

/** An example's module (it imports its framework from the example's node_modules). */
async function example(name, file = 'agent.mjs') {
  const dir = dirOf(name);
  assert.ok(existsSync(join(dir, 'node_modules')), `${dir} is not installed: bash scripts/examples.sh --install-only ${name} (scripts/setup.sh does it)`);
  return import(pathToFileURL(join(dir, file)).href);
}

const evalSetOf = async (name) => loadEvalSet((await import(pathToFileURL(join(dirOf(name), `${name}.evalset.json`)).href, { with: { type: 'json' } })).default);

/** Runs `evalIds` of an example's eval set with `agent`; the case results by id. */
async function run(name, agent, evalIds, extra = {}) {
  const result = await evaluate({ evalSet: await evalSetOf(name), agent, config: CONFIG, evalIds, ...extra });
  return Object.fromEntries(result.eval_case_results.map((r) => [r.eval_id, r]));
}

/** An actual invocation with its call ids numbered in order (frameworks make their own). */
function normalized(inv) {
  const ids = new Map();
  const id = (v) => (ids.has(v) ? ids.get(v) : ids.set(v, `id-${ids.size}`).get(v));
  const events = inv.intermediate_data.invocation_events.map((e) => {
    const out = JSON.parse(JSON.stringify(e));
    for (const p of out.content?.parts ?? []) {
      if (p.function_call?.id) p.function_call.id = id(p.function_call.id);
      if (p.function_response?.id) p.function_response.id = id(p.function_response.id);
    }
    return out;
  });
  return { final_response: inv.final_response, events };
}

const USAGE = { prompt_token_count: 120, candidates_token_count: 20, total_token_count: 150, cached_content_token_count: 20, thoughts_token_count: 10 };
const model = (parts, author = 'weather_agent', version = 'scripted-weather-1') => ({ author, content: { role: 'model', parts }, usage_metadata: USAGE, model_version: version });
const tools = (parts, author = 'weather_agent') => ({ author, content: { role: 'user', parts } });
const final = (author = 'weather_agent', version = 'scripted-weather-1') => ({ author, content: null, usage_metadata: USAGE, model_version: version });
const call = (id, name, args) => ({ function_call: { id, name, args } });
const answer = (id, name, response) => ({ function_response: { id, name, response } });
const PARIS = { city: 'Paris', sky: 'sunny', celsius: 18 };
const OSLO = { city: 'Oslo', sky: 'snowy', celsius: -3 };
const text = (t) => ({ role: 'model', parts: [{ text: t }] });

/** What every framework's run of compare_two_cities must give: one step of two calls and its text. */
const COMPARE = {
  final_response: text('Paris: sunny, 18 °C. Oslo: snowy, -3 °C.'),
  events: [
    model([{ text: 'Let me look up both cities.' }, call('id-0', 'get_weather', { city: 'Paris' }), call('id-1', 'get_weather', { city: 'Oslo' })]),
    tools([answer('id-0', 'get_weather', PARIS), answer('id-1', 'get_weather', OSLO)]),
    final(),
  ],
};

/** oslo_in_fahrenheit: two sequential steps. */
const SEQUENTIAL = {
  final_response: text('It is 27 °F in Oslo.'),
  events: [
    model([call('id-0', 'get_weather', { city: 'Oslo' })]),
    tools([answer('id-0', 'get_weather', OSLO)]),
    model([call('id-1', 'convert_temperature', { celsius: -3, to: 'F' })]),
    tools([answer('id-1', 'convert_temperature', { temperature: 27, unit: 'F' })]),
    final(),
  ],
};

/** follow_up_in_fahrenheit's second turn: the model saw the first (the city is not repeated). */
const FOLLOW_UP = {
  final_response: text('It is 72 °F in Tokyo.'),
  events: [
    model([call('id-0', 'convert_temperature', { celsius: 22, to: 'F' })]),
    tools([answer('id-0', 'convert_temperature', { temperature: 72, unit: 'F' })]),
    final(),
  ],
};

async function sameAcrossFrameworks(label, agent) {
  const name = label.split(' ')[0];
  const cases = await run(name, agent, ['compare_two_cities', 'oslo_in_fahrenheit', 'follow_up_in_fahrenheit']);
  for (const r of Object.values(cases)) assert.equal(r.final_eval_status, 'PASSED', `${label} ${r.eval_id}: ${JSON.stringify(r.error ?? r.overall_eval_metric_results)}`);
  const inv = (id, i = 0) => normalized(cases[id].eval_metric_result_per_invocation[i].actual_invocation);
  assert.deepEqual(inv('compare_two_cities'), COMPARE, `${label}: two calls of one step`);
  assert.deepEqual(inv('oslo_in_fahrenheit'), SEQUENTIAL, `${label}: sequential steps`);
  assert.deepEqual(inv('follow_up_in_fahrenheit', 1), FOLLOW_UP, `${label}: the second turn saw the first`);
  return cases;
}

const durations = (r) => r.overall_eval_metric_results.find((m) => m.metric_name === 'invocation_duration_v1').details;

test('AI SDK (generateText, streamText): the invocations ADK records, the second turn seeing the first, the sub-agent tool, the model / tool split', async () => {
  const { agent, streamingAgent } = await example('ai_sdk');
  for (const [name, adapted] of [['ai_sdk', agent], ['ai_sdk (streamText)', streamingAgent]]) {
    const cases = await sameAcrossFrameworks(name, adapted);
    const d = durations(cases.compare_two_cities);
    assert.equal(d.reason, undefined, 'the telemetry times model and tools');
    assert.ok(d.duration_details.model_seconds !== null && d.duration_details.tool_seconds !== null, JSON.stringify(d));
  }
  // The travel agent is a tool whose execute runs its own generateText: one call, its advice the response.
  const { pack_for_oslo: r } = await run('ai_sdk', agent, ['pack_for_oslo']);
  assert.deepEqual(normalized(r.eval_metric_result_per_invocation[0].actual_invocation), {
    final_response: text('Pack a warm coat and boots for Oslo: it is snowy and -3 °C.'),
    events: [
      model([call('id-0', 'ask_travel_agent', { request: 'Help me pack for a trip to Oslo.' })]),
      tools([answer('id-0', 'ask_travel_agent', { advice: 'Pack a warm coat and boots for Oslo: it is snowy and -3 °C.' })]),
      final(),
    ],
  });
});

const V7 = existsSync(join(dirOf('ai_sdk'), 'node_modules', 'ai')) && aiMajor() >= 7;

test('AI SDK 6: your own tracer still receives every span (and the attributes the AI SDK records by default)', { skip: V7 && 'ai 7 takes no tracer (see the next test)' }, async () => {
  const mod = await example('ai_sdk');
  const ai = await sdkOf('ai_sdk', 'ai');
  const spans = [];
  const attributes = {};
  const tracer = {
    startSpan: (name, options) => {
      const attrs = { ...options?.attributes };
      return {
        end() { spans.push(name); attributes[name] = { ...attributes[name], ...attrs }; },
        setAttributes(a) { Object.assign(attrs, a); return this; },
        setAttribute(k, v) { attrs[k] = v; return this; },
        setStatus() { return this; }, recordException() { return this; }, addEvent() { return this; },
        spanContext: () => ({ traceId: 't', spanId: 's', traceFlags: 1 }), isRecording: () => true,
      };
    },
    startActiveSpan(name, ...args) {
      const options = args.find((a) => a && typeof a === 'object');
      return args.find((a) => typeof a === 'function')(this.startSpan(name, options));
    },
  };
  const agent = fromAiSdk(({ messages, signal, telemetry }) => ai.generateText({
    model: mod.weatherModel, messages, tools: mod.weatherTools({ telemetry }), stopWhen: ai.stepCountIs(5), abortSignal: signal, experimental_telemetry: telemetry,
  }), { author: 'weather_agent', tracer });
  const reply = await agent({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'tracer', text: 'What is the weather in Paris?' });
  assert.deepEqual(spans, ['ai.generateText.doGenerate', 'ai.toolCall', 'ai.generateText.doGenerate', 'ai.generateText']);
  assert.equal(attributes['ai.generateText.doGenerate']['ai.response.text'], 'It is sunny and 18 °C in Paris.');
  assert.equal(attributes['ai.generateText']['ai.telemetry.functionId'], 'weather_agent');
  assert.equal(reply.timings.model.length, 2);
  assert.equal(reply.timings.tool.length, 1);
});

test('AI SDK 7: the integrations you registered still receive every event and wrap every tool; the turn is timed from the hooks', { skip: !V7 && 'ai 6 calls its registered integrations itself' }, async () => {
  const mod = await example('ai_sdk');
  const ai = await sdkOf('ai_sdk', 'ai');
  const seen = [];
  // An integration of the app's, registered as `@ai-sdk/otel`'s README registers its own.
  class Recorder {
    onStart(e) { seen.push(['onStart', e.functionId, e.recordInputs]); }
    onLanguageModelCallStart(e) { seen.push(['onLanguageModelCallStart', typeof e.callId]); }
    onLanguageModelCallEnd() { seen.push(['onLanguageModelCallEnd']); }
    onToolExecutionEnd(e) { seen.push(['onToolExecutionEnd', e.toolCall.toolName]); }
    onEnd() { seen.push(['onEnd']); }
    async executeTool({ toolCallId, execute }) {
      seen.push(['executeTool', typeof toolCallId]);
      return execute();
    }
  }
  const before = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
  ai.registerTelemetry(new Recorder());
  try {
    const agent = fromAiSdk(({ messages, signal, telemetry }) => ai.generateText({
      model: mod.weatherModel, messages, tools: mod.weatherTools({ telemetry }), stopWhen: ai.stepCountIs(5), abortSignal: signal, telemetry,
    }), { author: 'weather_agent' });
    const reply = await agent({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'integrations', text: 'What is the weather in Paris?' });
    assert.deepEqual(seen, [
      ['onStart', 'weather_agent', undefined], // something of yours listens: inputs are recorded as by default
      ['onLanguageModelCallStart', 'string'], ['onLanguageModelCallEnd'],
      ['executeTool', 'string'], ['onToolExecutionEnd', 'get_weather'],
      ['onLanguageModelCallStart', 'string'], ['onLanguageModelCallEnd'],
      ['onEnd'],
    ]);
    assert.equal(reply.timings.model.length, 2);
    assert.equal(reply.timings.tool.length, 1);
    // Each interval closed where it started, in order, the tool between the two model calls.
    const [[m0s, m0e], [m1s, m1e]] = reply.timings.model;
    const [[t0s, t0e]] = reply.timings.tool;
    assert.ok(m0s <= m0e && m0e <= t0s && t0s <= t0e && t0e <= m1s && m1s <= m1e, JSON.stringify(reply.timings));
  } finally {
    globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = before;
  }
});

test('OpenAI Agents SDK: the same invocations; a handoff is transfer_to_agent and the receiving agent authors what follows', async () => {
  const { makeAgents, modelProvider } = await example('openai_agents');
  const sdk = await import(findPackageEntry('@openai/agents', dirOf('openai_agents')));
  const adapted = (options = {}) => fromOpenAIAgents(makeAgents().weatherAgent, { sdk, runConfig: { modelProvider, tracingDisabled: true }, ...options });
  const cases = await sameAcrossFrameworks('openai_agents', adapted());
  assert.ok(durations(cases.compare_two_cities).duration_details.model_seconds !== null, 'models served by the provider are timed');
  const { pack_for_oslo: r } = await run('openai_agents', adapted(), ['pack_for_oslo']);
  assert.deepEqual(normalized(r.eval_metric_result_per_invocation[0].actual_invocation), {
    final_response: text('Pack a warm coat and boots for Oslo: it is snowy and -3 °C.'),
    events: [
      model([call('id-0', 'transfer_to_agent', { agent_name: 'travel_agent' })]),
      { ...tools([answer('id-0', 'transfer_to_agent', { result: null })]), actions: { transfer_to_agent: 'travel_agent' } },
      model([call('id-1', 'get_weather', { city: 'Oslo' })], 'travel_agent', 'scripted-travel-1'),
      tools([answer('id-1', 'get_weather', OSLO)], 'travel_agent'),
      final('travel_agent', 'scripted-travel-1'),
    ].map(({ actions, ...e }) => e), // the core keeps an event's author, content, usage and model
  });
  // A second turn starts with the agent that answered last (the SDK's chat pattern), or with the given one.
  const twoTurns = { eval_set_id: 'handoff', eval_cases: [{ eval_id: 'then_weather', conversation: [
    { user_content: { parts: [{ text: 'Help me pack for a trip to Oslo.' }] } },
    { user_content: { parts: [{ text: 'What is the weather in Lima?' }] } },
  ] }] };
  for (const [continueWith, author] of [['lastAgent', 'travel_agent'], ['agent', 'weather_agent']]) {
    const { eval_case_results: [t] } = await evaluate({ evalSet: twoTurns, agent: adapted({ continueWith }), config: { criteria: {} } });
    const second = t.eval_metric_result_per_invocation[1].actual_invocation;
    assert.equal(second.intermediate_data.invocation_events[0].author, author, continueWith);
  }
});

test('LangGraph.js: the same invocations on checkpointer threads and carried messages; the handoff tool is transfer_to_agent', async () => {
  const { agent, makeGraph } = await example('langgraph');
  for (const [name, adapted] of [['langgraph', agent], ['langgraph (no checkpointer)', fromLangGraph(makeGraph({ checkpointer: null }))]]) {
    const cases = await sameAcrossFrameworks(name, adapted);
    assert.ok(durations(cases.compare_two_cities).duration_details.tool_seconds !== null, 'callbacks time the tools');
  }
  const { pack_for_oslo: r } = await run('langgraph', agent, ['pack_for_oslo']);
  assert.deepEqual(normalized(r.eval_metric_result_per_invocation[0].actual_invocation), {
    final_response: text('Pack a warm coat and boots for Oslo: it is snowy and -3 °C.'),
    events: [
      model([call('id-0', 'transfer_to_agent', { agent_name: 'travel_agent' })]),
      tools([answer('id-0', 'transfer_to_agent', { result: null })]),
      model([call('id-1', 'get_weather', { city: 'Oslo' })], 'travel_agent', 'scripted-travel-1'),
      tools([answer('id-1', 'get_weather', OSLO)], 'travel_agent'),
      final('travel_agent', 'scripted-travel-1'),
    ],
  });
});

test('Mastra: the same invocations; the sub-agent is the tool call Mastra makes; no model / tool split, and it says so', async () => {
  const { agent, TRAVEL_TOOL } = await example('mastra');
  const cases = await sameAcrossFrameworks('mastra', agent);
  const d = durations(cases.compare_two_cities);
  assert.equal(d.reason, 'model_tool_time_not_reported');
  assert.equal(d.duration_details.model_seconds, null);
  const { pack_for_oslo: r } = await run('mastra', agent, ['pack_for_oslo']);
  const inv = normalized(r.eval_metric_result_per_invocation[0].actual_invocation);
  assert.deepEqual(inv.events[0], model([call('id-0', TRAVEL_TOOL, { prompt: 'Help me pack for a trip to Oslo.' })]));
  assert.equal(inv.events[1].content.parts[0].function_response.response.text, 'Pack a warm coat and boots for Oslo: it is snowy and -3 °C.');
});

test('every framework: a tool that throws is its error as the response; an aborted turn rejects with the reason; a timed-out turn is agent_timeout', async () => {
  const ai = await example('ai_sdk');
  const oa = await example('openai_agents');
  const lg = await example('langgraph');
  const ma = await example('mastra');
  const sdk = await import(findPackageEntry('@openai/agents', dirOf('openai_agents')));
  const slow = {
    ai_sdk: ai.makeAgent({ toolDelayMs: 5_000 }),
    openai_agents: fromOpenAIAgents(oa.makeAgents({ toolDelayMs: 5_000 }).weatherAgent, { sdk, runConfig: { modelProvider: oa.modelProvider, tracingDisabled: true } }),
    langgraph: fromLangGraph(lg.makeGraph({ toolDelayMs: 5_000 })),
    mastra: ma.makeAgent({ toolDelayMs: 5_000 }),
  };
  for (const [name, agent] of Object.entries(slow)) {
    const started = Date.now();
    const { weather_paris: r } = await run(name, agent, ['weather_paris'], { agentTimeoutMs: 150 });
    assert.equal(r.error?.code, 'agent_timeout', `${name}: ${JSON.stringify(r.error)}`);
    assert.ok(Date.now() - started < 4_000, `${name}: the framework stopped at the abort`);
    // Called directly: an aborted signal rejects the turn with its reason.
    const reason = new Error('stop now');
    const ctl = new AbortController();
    const turn = { evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: `abort-${name}`, text: 'What is the weather in Paris?', signal: ctl.signal };
    const pending = agent(turn);
    setTimeout(() => ctl.abort(reason), 50);
    await assert.rejects(pending, (e) => e === reason, name);
  }
  const fast = { ai_sdk: ai.agent, langgraph: lg.agent, mastra: ma.agent, openai_agents: fromOpenAIAgents(oa.makeAgents().weatherAgent, { sdk, runConfig: { modelProvider: oa.modelProvider, tracingDisabled: true } }) };
  for (const [name, agent] of Object.entries(fast)) {
    const { unknown_city: r } = await run(name, agent, ['unknown_city']);
    const response = r.eval_metric_result_per_invocation[0].actual_invocation.intermediate_data.invocation_events[1].content.parts[0].function_response.response;
    // OpenAI Agents answers the model with its error text; the others keep the error apart.
    const message = response.error ?? response.result;
    assert.match(message, /no weather station in Atlantis/, name);
    assert.equal(r.final_eval_status, 'PASSED', name);
  }
});

test("a framework's own result returned as the agent's reply names the adapter that reads it", async () => {
  const aiMod = await example('ai_sdk');
  const ai = await sdkOf('ai_sdk', 'ai');
  const oa = await example('openai_agents');
  const sdk = await sdkOf('openai_agents', '@openai/agents');
  const lg = await example('langgraph');
  const ma = await example('mastra');
  const runner = new sdk.Runner({ modelProvider: oa.modelProvider, tracingDisabled: true });
  const user = (turn) => [{ role: 'user', content: turn.text }];
  const raw = {
    fromAiSdk: (turn) => ai.generateText({ model: aiMod.weatherModel, messages: user(turn), tools: aiMod.weatherTools(), stopWhen: ai.stepCountIs(5) }),
    'fromAiSdk (streamText)': (turn) => ai.streamText({ model: aiMod.weatherModel, messages: user(turn), tools: aiMod.weatherTools(), stopWhen: ai.stepCountIs(5) }),
    fromOpenAIAgents: (turn) => runner.run(oa.makeAgents().weatherAgent, turn.text),
    fromLangGraph: (turn) => lg.makeGraph({ checkpointer: null }).invoke({ messages: user(turn) }),
    fromMastra: (turn) => ma.makeAgents().weatherAgent.generate(user(turn), { maxSteps: 5 }),
  };
  for (const [label, agent] of Object.entries(raw)) {
    const adapter = label.split(' ')[0];
    const { weather_paris: r } = await run('ai_sdk', agent, ['weather_paris']);
    assert.equal(r.error?.code, 'agent_error', `${label}: ${JSON.stringify(r.error)}`);
    assert.match(r.error.message, new RegExp(`the agent returned an? .*, not a reply: wrap it with ${adapter} from evalcore/adapters`), label);
    assert.doesNotMatch(r.error.message, /unknown key/, label);
  }
});

test('fromOpenAIAgents without @openai/agents: `unsupported`, naming the package; bad arguments are schema errors', async () => {
  const agent = fromOpenAIAgents({ name: 'triage' });
  await assert.rejects(agent({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', text: 'hi' }),
    (e) => e instanceof EvalError && e.code === 'unsupported' && /npm install @openai\/agents/.test(e.message));
  assert.throws(() => fromOpenAIAgents(null), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromOpenAIAgents({ name: 'a' }, { continueWith: 'other' }), (e) => e.path === '$.options.continueWith');
  assert.throws(() => fromLangGraph({}), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromMastra({ name: 'x' }), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromAiSdk('run'), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromAiSdk(() => ({}), { tracer: {} }), (e) => e.path === '$.options.tracer');
  assert.throws(() => fromAiSdk(() => ({}), { author: 'user' }), (e) => e.path === '$.options.author');
  assert.throws(() => fromLangGraph({ invoke() {} }, { config: 'x' }), (e) => e.path === '$.options.config');
  assert.throws(() => fromMastra({ generate() {} }, { generateOptions: [] }), (e) => e.path === '$.options.generateOptions');
  assert.throws(() => fromOpenAIAgents({ name: 'a' }, { runConfig: 3 }), (e) => e.path === '$.options.runConfig');
  assert.throws(() => fromOpenAIAgents({ name: 'a' }, { maxConversations: 0 }), (e) => e.path === '$.options.maxConversations');
  // A result that is not one: agent_reply, naming what was found.
  await assert.rejects(fromAiSdk(() => 'text')({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', text: 'hi' }), (e) => e.code === 'agent_reply' && e.path === '$');
  await assert.rejects(fromLangGraph({ invoke: async () => ({}) })({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', text: 'hi' }), (e) => e.code === 'agent_reply' && e.path === '$.messages');
  await assert.rejects(fromMastra({ generate: async () => ({ text: 'no steps' }) })({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', text: 'hi' }), (e) => e.code === 'agent_reply' && e.path === '$.steps');
});
