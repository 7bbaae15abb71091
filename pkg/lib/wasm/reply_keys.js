//! The keys of an agent's reply and of its tool calls, each with the names other frameworks give
//! it (OpenAI's tool_calls and arguments, the AI SDK's text, input and output): a reply written
//! for another shape is refused naming the key to use, and a framework's own result (the AI
//! SDK's, OpenAI Agents', Mastra's, a LangGraph state) naming its adapter, instead of being read
//! as a turn without an answer or arguments.

const TOOL_CALL = {
  id: { spellings: ['id'], meant: ['toolCallId', 'tool_call_id', 'callId'] },
  name: { spellings: ['name'], meant: ['tool', 'toolName', 'tool_name'] },
  args: { spellings: ['args'], meant: ['arguments', 'input', 'parameters', 'params'] },
  response: { spellings: ['response'], meant: ['output', 'result', 'results'] },
};
// fromFunction's tool calls also say a tool failed, or hand off to another agent (steps.js).
const FUNCTION_CALL = {
  ...TOOL_CALL,
  error: { spellings: ['error'], meant: ['errorMessage', 'error_message', 'exception'] },
  transferTo: { spellings: ['transferTo'], meant: ['handoff', 'transfer_to', 'transfer_to_agent', 'agentName', 'agent_name'] },
};
// A step of a `fromFunction` reply (steps.js): one model call.
const STEP = {
  text: { spellings: ['text'], meant: ['content', 'message', 'output'] },
  toolCalls: { spellings: ['toolCalls'], meant: ['tool_calls', 'calls', 'functionCalls', 'function_calls'] },
  toolResults: { spellings: ['toolResults'], meant: ['tool_results', 'results', 'toolResponses', 'tool_responses'] },
  usage: { spellings: ['usage'], meant: ['usage_metadata', 'usageMetadata', 'tokens'] },
  model: { spellings: ['model'], meant: ['modelId', 'model_id', 'model_version', 'modelVersion'] },
  author: { spellings: ['author'], meant: ['agent', 'agentName', 'agent_name'] },
};
const FINAL_TEXT = ['text', 'content', 'output', 'response', 'message', 'answer'];
const TOOL_CALLS = ['tools', 'calls', 'functionCalls', 'function_calls'];
// What the agents were: their names, instructions and tool declarations (AppDetails).
const AGENTS = ['agent', 'agentDetails', 'agent_details', 'instructions'];

/** An Agent callback's reply (the core reads both spellings of each key). */
export const AGENT_REPLY = {
  what: "the agent's reply",
  keys: {
    events: { spellings: ['events'], meant: [] },
    finalResponse: { spellings: ['finalResponse', 'final_response'], meant: FINAL_TEXT },
    toolCalls: { spellings: ['toolCalls', 'tool_calls'], meant: TOOL_CALLS },
    toolResponses: { spellings: ['toolResponses', 'tool_responses'], meant: ['toolResults', 'tool_results'] },
    appDetails: { spellings: ['appDetails', 'app_details'], meant: [] },
    agents: { spellings: ['agents'], meant: AGENTS },
    timings: { spellings: ['timings'], meant: ['timing', 'durations'] },
  },
  call: TOOL_CALL,
};

/** A `fromFunction` callback's reply. */
export const FUNCTION_REPLY = {
  what: 'the reply',
  keys: {
    text: { spellings: ['text'], meant: FINAL_TEXT.slice(1).concat(['finalResponse', 'final_response']) },
    toolCalls: { spellings: ['toolCalls'], meant: ['tool_calls', 'toolcalls', ...TOOL_CALLS] },
    steps: { spellings: ['steps'], meant: [] },
    usage: { spellings: ['usage'], meant: ['usage_metadata', 'usageMetadata', 'tokens'] },
    model: { spellings: ['model'], meant: ['modelId', 'model_id', 'model_version', 'modelVersion'] },
    timings: { spellings: ['timings'], meant: ['timing', 'durations'] },
    agents: { spellings: ['agents'], meant: [...AGENTS, 'appDetails', 'app_details'] },
  },
  call: FUNCTION_CALL,
  step: STEP,
};

/**
 * The first key of `value` that `keys` does not have, as `{ key, message }` (the message names
 * the key it should be, where that is clear), or null. `what` names the object in the message.
 */
export function unknownKey(value, keys, what) {
  for (const key of Object.keys(value)) {
    if (Object.values(keys).some((k) => k.spellings.includes(key))) continue;
    const meant = Object.keys(keys).find((k) => keys[k].meant.includes(key));
    const openai = (keys === TOOL_CALL || keys === FUNCTION_CALL) && (key === 'function' || (key === 'type' && value.function !== undefined));
    const hint = openai ? '; that is an OpenAI tool call: give { name, args }, or wrap the agent with fromOpenAIMessages'
      : meant === undefined ? '' : `; use \`${meant}\``;
    return { key, message: `unknown key \`${key}\` in ${what}${hint} (${what} has ${Object.keys(keys).join(', ')})` };
  }
  return null;
}

// A framework's own result, told by the members its documented result type has (read with `in`:
// results are class instances whose members are getters, and none is called), with the adapter
// that reads it. Mastra's result (a plain object) has the AI SDK's members too, so it comes first.
const FRAMEWORK_RESULTS = [
  { adapter: 'fromMastra', what: 'a Mastra result (agent.generate)', page: 'mastra.md', is: (v) => 'steps' in v && 'tripwire' in v },
  { adapter: 'fromAiSdk', what: 'an AI SDK result (generateText / streamText)', page: 'ai-sdk.md', is: (v) => 'steps' in v && 'totalUsage' in v },
  { adapter: 'fromOpenAIAgents', what: 'an OpenAI Agents SDK result (run / Runner.run)', page: 'openai-agents.md', is: (v) => 'state' in v && 'newItems' in v && 'finalOutput' in v },
  {
    adapter: 'fromLangGraph', what: 'a LangGraph state (graph.invoke)', page: 'langgraph.md',
    is: (v) => Array.isArray(v.messages) && v.messages.some((m) => m !== null && typeof m === 'object' && Array.isArray(m.lc_namespace)),
  },
];

/**
 * A reply that is a framework's own result, as `{ path, message }` naming the adapter that reads
 * it, or null. An AI SDK result's first key (`steps`, `initialResponseMessages`, `_totalUsage`)
 * would otherwise be reported as an unknown key of the reply.
 */
export function frameworkResultProblem(reply) {
  if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) return null;
  const found = FRAMEWORK_RESULTS.find((f) => f.is(reply));
  if (!found) return null;
  return {
    path: '$',
    message: `the agent returned ${found.what}, not a reply: wrap it with ${found.adapter} from evalcore/adapters, which reads it (docs/frameworks/${found.page})`,
  };
}

/**
 * What is wrong with the keys of a reply in `shape` (AGENT_REPLY, FUNCTION_REPLY): `{ path, message }`
 * for a framework's own result (naming its adapter), else for the first unknown key of the reply
 * or of one of its tool calls, or null. A reply that is not an object, or tool calls that are not
 * a list, are left to the reader of the reply.
 */
export function replyKeyProblem(reply, shape) {
  if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) return null;
  const framework = frameworkResultProblem(reply);
  if (framework) return framework;
  const top = unknownKey(reply, shape.keys, shape.what);
  if (top) return { path: `$.${top.key}`, message: top.message };
  const calls = callsProblem(reply.toolCalls ?? reply.tool_calls, shape.call, '$.toolCalls', 'toolCalls');
  if (calls || !shape.step || !Array.isArray(reply.steps)) return calls;
  for (const [s, step] of reply.steps.entries()) {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) continue;
    const bad = unknownKey(step, shape.step, `steps[${s}]`);
    if (bad) return { path: `$.steps[${s}].${bad.key}`, message: bad.message };
    const inner = callsProblem(step.toolCalls, shape.call, `$.steps[${s}].toolCalls`, `steps[${s}].toolCalls`);
    if (inner) return inner;
  }
  return null;
}

/** The first unknown key of a list of tool calls at `path`, or null (a non-list is the reader's to report). */
function callsProblem(calls, keys, path, what) {
  if (!Array.isArray(calls)) return null;
  for (const [i, call] of calls.entries()) {
    if (call === null || typeof call !== 'object') continue;
    const bad = unknownKey(call, keys, `${what}[${i}]`);
    if (bad) return { path: `${path}[${i}].${bad.key}`, message: bad.message };
  }
  return null;
}
