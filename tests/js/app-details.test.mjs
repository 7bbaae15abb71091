// What an LLM judge is shown of the agent: the instructions and tool declarations each adapter
// knows (ADK's AppDetails, filled from the frameworks' real agents: examples/openai_agents,
// ai_sdk, langgraph, mastra), and, where nothing knows them, the tools the agent called — never
// "the agent has no tools" about an agent that called some. Judged through a loopback judge.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { evaluate } from '../../pkg/index.js';
import { fromAiSdk, fromFunction, fromLangGraph, fromOpenAIAgents } from '../../pkg/lib/adapters/index.js';
import { findPackageEntry } from '../../pkg/lib/server/devtools.js';
import { ROOT } from './helpers.mjs';
import { requestText, startJudgeServer } from './support/judge-server.mjs';

const EXAMPLES = join(ROOT, 'examples');
const RUBRIC = { rubric_id: 'uses_tools', rubric_content: { text_property: 'The agent looks the weather up with its tools.' } };
const CONFIG = { criteria: { rubric_based_final_response_quality_v1: { threshold: 0.5, rubrics: [RUBRIC], judge_model_options: { num_samples: 1 } } } };
const VERDICT = 'ID: uses_tools\nProperty: The agent looks the weather up with its tools.\nEvidence: the call.\nRationale: it did.\nVerdict: yes';
const SET = { eval_set_id: 'details', eval_cases: [{ eval_id: 'paris', conversation: [{ invocation_id: 'p1', user_content: { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] } }] }] };

let judge;
before(async () => {
  judge = await startJudgeServer();
  judge.script(() => VERDICT);
});
after(() => judge.close());

async function example(name) {
  const dir = join(EXAMPLES, name);
  assert.ok(existsSync(join(dir, 'node_modules')), `examples/${name} is not installed (scripts/setup.sh installs it)`);
  return import(pathToFileURL(join(dir, 'agent.mjs')).href);
}

/** The case's actual invocation, and the text of the judge's request about it. */
async function judged(agent) {
  const before = judge.requests.length;
  const r = await evaluate({ evalSet: SET, agent, config: CONFIG, judge: { provider: 'openai', model: 'judge', baseUrl: judge.baseUrl } });
  const c = r.eval_case_results[0];
  assert.equal(c.final_eval_status, 'PASSED', JSON.stringify(c.error ?? c.overall_eval_metric_results));
  const sent = judge.requests.slice(before);
  assert.equal(sent.length, 1);
  return { inv: c.eval_metric_result_per_invocation[0].actual_invocation, prompt: requestText(sent[0].wire, sent[0].body) };
}

const declared = (inv, agent) => inv.app_details.agent_details[agent].tool_declarations.flatMap((t) => t.function_declarations.map((f) => f.name));

test('fromFunction: without agents the judge is told the tools the agent called; with them, their declarations and instructions', async () => {
  const call = { name: 'get_weather', args: { city: 'Paris' }, response: { sky: 'sunny' } };
  const bare = await judged(fromFunction(() => ({ text: 'Sunny.', toolCalls: [call] }), { author: 'weather_agent' }));
  assert.equal(bare.inv.app_details, undefined);
  assert.doesNotMatch(bare.prompt, /no tools/i);
  assert.match(bare.prompt, /tool definitions were not recorded\. It called these tools: get_weather\./);
  const agents = [{ instructions: 'You report the weather.', tools: { get_weather: { description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } } }];
  const full = await judged(fromFunction(() => ({ text: 'Sunny.', toolCalls: [call], agents }), { author: 'weather_agent' }));
  assert.deepEqual(full.inv.app_details, { agent_details: { weather_agent: { name: 'weather_agent', instructions: 'You report the weather.', tool_declarations: [{ function_declarations: [
    { name: 'get_weather', description: 'The weather in a city', parameters_json_schema: { type: 'object', properties: { city: { type: 'string' } } } },
  ] }] } } });
  assert.match(full.prompt, /You report the weather\./);
  assert.match(full.prompt, /"description": "The weather in a city"/);
  // A raw Agent callback may say the same; a misspelt key is refused with the one to use.
  const raw = await judged(() => ({ finalResponse: 'Sunny.', toolCalls: [call], agents: [{ name: 'agent', instructions: 'Be brief.' }] }));
  assert.equal(raw.inv.app_details.agent_details.agent.instructions, 'Be brief.');
  const r = await evaluate({ evalSet: SET, agent: fromFunction(() => ({ text: 'x', agents: [{ name: 'a', prompt: 'p' }] })), config: { criteria: {} } });
  assert.match(r.eval_case_results[0].error.message, /unknown key `prompt` in an agent/);
});

test('OpenAI Agents: each agent\'s instructions and tools, the handoff as transfer_to_agent, from the SDK\'s own Agent', async () => {
  const { makeAgents, modelProvider } = await example('openai_agents');
  const sdk = await import(findPackageEntry('@openai/agents', join(EXAMPLES, 'openai_agents')));
  const { inv, prompt } = await judged(fromOpenAIAgents(makeAgents().weatherAgent, { sdk, runConfig: { modelProvider, tracingDisabled: true } }));
  assert.deepEqual(declared(inv, 'weather_agent'), ['get_weather', 'convert_temperature', 'transfer_to_agent']);
  const weather = inv.app_details.agent_details.weather_agent;
  assert.match(weather.instructions, /weather/i);
  assert.deepEqual(weather.tool_declarations[0].function_declarations[0].parameters_json_schema.properties, { city: { type: 'string' } });
  assert.match(prompt, /"convert_temperature"/);
  assert.match(prompt, new RegExp(weather.instructions.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
});

test('AI SDK and LangGraph: the instructions and tools given as options (the run\'s own `system` and tools), zod schemas as JSON Schema', async () => {
  const ai = await example('ai_sdk');
  const sdk = await import(findPackageEntry('ai', join(EXAMPLES, 'ai_sdk')));
  const { INSTRUCTIONS } = await import(pathToFileURL(join(EXAMPLES, 'weather', 'weather.mjs')).href);
  const run = ({ messages, signal, telemetry }) => sdk.generateText({
    model: ai.weatherModel, system: INSTRUCTIONS, messages, tools: ai.weatherTools({ telemetry }), stopWhen: sdk.stepCountIs(5), abortSignal: signal, experimental_telemetry: telemetry,
  });
  const { inv } = await judged(fromAiSdk(run, { author: 'weather_agent', instructions: INSTRUCTIONS, tools: ai.weatherTools() }));
  assert.equal(inv.app_details.agent_details.weather_agent.instructions, INSTRUCTIONS);
  assert.deepEqual(declared(inv, 'weather_agent'), ['get_weather', 'convert_temperature', 'ask_travel_agent']);
  const params = inv.app_details.agent_details.weather_agent.tool_declarations[0].function_declarations[0].parameters_json_schema;
  assert.deepEqual(params.properties, { city: { type: 'string' } });
  assert.throws(() => fromAiSdk(run, { instructions: 3 }), (e) => e.code === 'schema' && e.path === '$.options.instructions');

  const lg = await example('langgraph');
  // A graph's agents, by the names its messages carry: only those that answered are shown.
  const agents = [{ name: 'travel_agent', instructions: 'Plan trips.' }, { name: 'weather_agent', instructions: INSTRUCTIONS, tools: [{ name: 'get_weather', description: 'The current weather in a city' }] }];
  const { inv: g } = await judged(fromLangGraph(lg.makeGraph(), { agents }));
  assert.deepEqual(Object.keys(g.app_details.agent_details), ['weather_agent']);
  assert.deepEqual(declared(g, 'weather_agent'), ['get_weather']);
  assert.throws(() => fromLangGraph(lg.makeGraph(), { agents, instructions: 'x' }), (e) => e.code === 'schema' && e.path === '$.options.agents');
});

test('Mastra: the Agent\'s own instructions and tools', async () => {
  const { agent } = await example('mastra');
  const { inv, prompt } = await judged(agent);
  assert.deepEqual(declared(inv, 'weather_agent'), ['get_weather', 'convert_temperature']);
  assert.match(inv.app_details.agent_details.weather_agent.instructions, /weather/i);
  assert.match(prompt, /"The current weather in a city"/);
});
