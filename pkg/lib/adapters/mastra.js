// `fromMastra`: a Mastra `Agent` (`@mastra/core`) as an evalcore Agent, through `agent.generate`.
// Each turn gives the agent the conversation so far (the AI SDK messages of the earlier turns'
// `response.messages`) and reads the result's steps: Mastra's per-step `text`, `toolCalls`,
// `toolResults` (its chunk shape, `{ payload }`, or AI SDK's), the step's `content` for a result
// the chunks leave out (1.x records a failed tool there only), and `usage`. Nothing of Mastra is
// imported.
import { EvalError, abortReason, callUser, checkTurn, describe, isPlainObject, objectOption, turnText } from './common.js';
import { aiSdkUsage } from './ai_sdk.js';
import { agentEntry, agentsFromOptions, withAgents } from './agent_details.js';
import { conversations } from './conversations.js';
import { authorOf } from './generic.js';
import { argsObject, errorText, reply, stepsToEvents } from './steps.js';

const WHO = 'fromMastra';

/** A Mastra chunk's payload, or an AI SDK part as it is. */
const payloadOf = (c) => (isPlainObject(c?.payload) ? c.payload : c);

/** A failed tool's result: Mastra marks it `isError`, or the result is the thrown error itself. */
const failed = (r) => r.isError === true || r.result instanceof Error || r.output instanceof Error;

// The typed tool outputs of the AI SDK's model messages (`{ type, value }`), which Mastra 1.x's
// step content holds; the error ones are a failed tool's.
const TYPED_OUTPUT = new Set(['text', 'json', 'content', 'error-text', 'error-json', 'execution-denied']);

/** A `tool-result` / `tool-error` part of a step's content as a call's result, or undefined. */
function contentResult(part) {
  if (part.type === 'tool-error') return { error: errorText(part.error ?? 'the tool failed') };
  const out = part.output;
  if (!isPlainObject(out) || !TYPED_OUTPUT.has(out.type) || !('value' in out || out.type === 'execution-denied')) return { response: out ?? null };
  if (out.type === 'error-text' || out.type === 'error-json') return { error: errorText(out.value) };
  if (out.type === 'execution-denied') return { error: out.reason ?? 'the tool call was denied' };
  return { response: out.value ?? null };
}

/**
 * One Mastra step (one model call) as a step: its text, its tool calls in order, their results
 * (a failure as an error; a result only the step's content has, from there), its usage and model.
 */
export function mastraStep(step, s, author) {
  if (!isPlainObject(step)) throw new EvalError('agent_reply', `$.steps[${s}]`, `${WHO}: a step must be an object, found ${describe(step)}`);
  const out = { author, toolCalls: [], toolResults: [] };
  if (typeof step.text === 'string' && step.text !== '') out.text = step.text;
  const calls = new Map();
  (Array.isArray(step.toolCalls) ? step.toolCalls : []).forEach((chunk, i) => {
    const c = payloadOf(chunk);
    if (!isPlainObject(c) || typeof c.toolName !== 'string') return;
    const call = { id: c.toolCallId, name: c.toolName, args: argsObject(c.args ?? c.input, `$.steps[${s}].toolCalls[${i}].args`, WHO) };
    out.toolCalls.push(call);
    if (typeof c.toolCallId === 'string') calls.set(c.toolCallId, call);
  });
  for (const chunk of Array.isArray(step.toolResults) ? step.toolResults : []) {
    const r = payloadOf(chunk);
    if (!isPlainObject(r)) continue;
    const value = r.result !== undefined ? r.result : r.output;
    const result = failed(r) ? { error: errorText(value) } : { response: value ?? null };
    const call = calls.get(r.toolCallId);
    if (call) Object.assign(call, result);
    else out.toolResults.push({ id: r.toolCallId, name: r.toolName, ...result });
  }
  for (const part of Array.isArray(step.content) ? step.content : []) {
    if (!isPlainObject(part) || (part.type !== 'tool-result' && part.type !== 'tool-error')) continue;
    const call = calls.get(part.toolCallId);
    if (call && call.response === undefined && call.error === undefined) Object.assign(call, contentResult(part));
  }
  const usage = aiSdkUsage(step.usage);
  if (usage) out.usage = usage;
  const model = step.response?.modelId;
  if (typeof model === 'string' && model !== '') out.model = model;
  return out;
}

/**
 * The agent's instructions and tools as `agents`, asked of the Agent itself (`getInstructions`,
 * `listTools` or `getTools`); what it cannot say (a method that throws, say for want of a
 * runtime context) is left out.
 */
async function mastraAgents(agent, author) {
  const ask = async (...names) => {
    const name = names.find((n) => typeof agent[n] === 'function');
    try {
      return name === undefined ? undefined : await agent[name]();
    } catch {
      return undefined;
    }
  };
  const [instructions, tools] = [await ask('getInstructions'), await ask('listTools', 'getTools')];
  return [agentEntry(author, { instructions, tools: isPlainObject(tools) || Array.isArray(tools) ? tools : undefined }, WHO, '$.agent')];
}

/**
 * Wraps a Mastra Agent as an evalcore Agent, called as `agent.generate(messages, options)`.
 * Options: `author` (default: the agent's name), `generateOptions` (passed to every generate:
 * `maxSteps`, `modelSettings`, ...; the turn's signal is added as `abortSignal`),
 * `maxConversations`, `instructions` and `tools` (instead of the Agent's own, which the judges
 * are shown otherwise).
 */
export function fromMastra(agent, options = {}) {
  if (agent === null || typeof agent !== 'object' || typeof agent.generate !== 'function') {
    throw new EvalError('schema', '$', `${WHO}: expected a Mastra Agent (with generate), found ${describe(agent)}`);
  }
  if (!isPlainObject(options)) throw new EvalError('schema', '$.options', `${WHO}: options must be an object, found ${describe(options)}`);
  const author = authorOf({ author: options.author ?? (typeof agent.name === 'string' && agent.name !== '' ? agent.name : undefined) }, WHO);
  const base = objectOption(options, 'generateOptions', WHO);
  const store = conversations(WHO, options.maxConversations);
  const given = agentsFromOptions(author, options, WHO);
  return async function mastraAgent(turn) {
    checkTurn(turn, WHO);
    const signal = turn.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const conv = store.begin(turn, () => ({ messages: [] }));
    const messages = [...conv.messages, { role: 'user', content: turnText(turn) }];
    const generateOptions = { ...base, ...(signal ? { abortSignal: signal } : {}) };
    const result = await callUser((m, o) => agent.generate(m, o), [messages, generateOptions], WHO, turn);
    if (signal?.aborted) throw abortReason(signal);
    if (result === null || typeof result !== 'object' || !Array.isArray(result.steps)) {
      throw new EvalError('agent_reply', '$.steps', `${WHO}: agent.generate must resolve to a result with steps, found ${describe(result?.steps ?? result)}`);
    }
    if (result.error) throw new EvalError('agent_error', '', `${WHO}: the agent failed: ${errorText(result.error)}`, { cause: result.error });
    const turnIndex = Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0;
    const steps = result.steps.map((st, s) => mastraStep(st, s, author));
    const events = stepsToEvents(steps, { author, who: WHO, ids: (s, i) => `call_${turnIndex}_${s}_${i}` });
    const added = Array.isArray(result.response?.messages) ? result.response.messages : [{ role: 'assistant', content: typeof result.text === 'string' ? result.text : '' }];
    conv.messages = [...messages, ...added];
    return withAgents(reply(events), given ?? await mastraAgents(agent, author));
  };
}
