// `evalcore/adapters`: agents that are not ADK agents, as evalcore Agents. A plain async
// function (`fromFunction`) and an agent that keeps an OpenAI chat-completions message log
// (`fromOpenAIMessages`). Both say what happened as steps (steps.js), written as ADK events, so
// the core applies ADK's own rules for the final response and the intermediate data.
import { EvalError, callUser, checkTurn, describe, isPlainObject, rawJson, turnText } from './common.js';
import {
  DEFAULT_AUTHOR, argsObject, checkAuthor, checkCall, stepsToEvents, textResponse, usageAt,
} from './steps.js';
import { FUNCTION_REPLY, replyKeyProblem } from '../wasm/reply_keys.js';
import { agentList } from './agent_details.js';

/** `options.author` (default `"agent"`); bad options are `schema` errors. */
export function authorOf(options, who) {
  if (options === undefined || options === null) return DEFAULT_AUTHOR;
  if (!isPlainObject(options)) {
    throw new EvalError('schema', '$.options', `${who}: options must be an object, found ${describe(options)}`);
  }
  const { author = DEFAULT_AUTHOR } = options;
  try {
    return checkAuthor(author, '$.options.author', `${who}: options.author`);
  } catch (e) {
    throw new EvalError('schema', '$.options.author', e.message);
  }
}

export function requireFunction(fn, who) {
  if (typeof fn !== 'function') {
    throw new EvalError('schema', '$', `${who}: expected a function, found ${describe(fn)}`);
  }
}

// ------------------------------------------------------------------------------------------
// fromFunction

const replyError = (path, message) => new EvalError('agent_reply', path, message);

/**
 * The reply of a `fromFunction` callback as steps. `steps` say exactly what happened (several
 * calls in one step, text beside them, usage per model call); `toolCalls` is the short form, one
 * step per call in order. `text` is the final answer, a step of its own after them; `usage` is
 * the whole turn's (on the last step when the steps carry none), `model` names the model of
 * every step that names none.
 */
function functionSteps(r, who) {
  if (r.text !== undefined && r.text !== null && typeof r.text !== 'string') {
    throw replyError('$.text', `${who}: text must be a string, found ${describe(r.text)}`);
  }
  if (r.model !== undefined && r.model !== null && typeof r.model !== 'string') {
    throw replyError('$.model', `${who}: model must be a string, found ${describe(r.model)}`);
  }
  if (r.steps !== undefined && r.toolCalls !== undefined) {
    throw replyError('$.steps', `${who}: give steps or toolCalls, not both (toolCalls is the short form of one step per call)`);
  }
  let steps;
  let short = false;
  if (r.steps !== undefined) {
    if (!Array.isArray(r.steps)) throw replyError('$.steps', `${who}: steps must be an array, found ${describe(r.steps)}`);
    steps = [...r.steps];
  } else {
    const calls = r.toolCalls ?? [];
    if (!Array.isArray(calls)) throw replyError('$.toolCalls', `${who}: toolCalls must be an array, found ${describe(calls)}`);
    for (let i = 0; i < calls.length; i++) checkCall(calls[i], `$.toolCalls[${i}]`, who);
    steps = calls.map((c) => ({ toolCalls: [c] }));
    short = true;
  }
  if (typeof r.text === 'string') steps.push({ text: r.text });
  if (r.usage !== undefined && r.usage !== null) {
    if (steps.some((st) => isPlainObject(st) && st.usage !== undefined && st.usage !== null)) {
      throw replyError('$.usage', `${who}: give usage per step or for the whole turn, not both`);
    }
    // On the last step; a malformed one is left for the step check to report.
    if (isPlainObject(steps.at(-1))) steps[steps.length - 1] = { ...steps.at(-1), usage: r.usage };
    else steps.push({ usage: r.usage });
  }
  return { steps, short };
}

/** A `fromFunction` reply (string or object) as the Agent's reply: ADK events and timings. */
function functionReply(r, author, turnIndex) {
  const who = 'fromFunction';
  if (typeof r === 'string') return { events: stepsToEvents([{ text: r }], { author, who }) };
  if (!isPlainObject(r)) {
    throw replyError('$', `${who}: the function must return a string or { text, steps | toolCalls, usage, model, timings }, found ${describe(r)}`);
  }
  const unknown = replyKeyProblem(r, FUNCTION_REPLY);
  if (unknown) throw replyError(unknown.path, `${who}: ${unknown.message}`);
  const { steps, short } = functionSteps(r, who);
  const nCalls = short ? steps.length - (typeof r.text === 'string' ? 1 : 0) : 0;
  const events = stepsToEvents(steps, {
    author, who, model: r.model ?? undefined,
    root: short ? '$.toolCalls' : '$.steps',
    // The short form keeps its paths ($.toolCalls[i]) and ids (call_<turn>_<i>).
    callPath: short ? (s) => (s < nCalls ? `$.toolCalls[${s}]` : '$') : undefined,
    usagePath: r.usage !== undefined && r.usage !== null ? () => '$.usage' : undefined,
    ids: short ? (s) => `call_${turnIndex}_${s}` : (s, i) => `call_${turnIndex}_${s}_${i}`,
  });
  const out = { events };
  if (r.agents !== undefined && r.agents !== null) out.agents = agentList(r.agents, author, who, { code: 'agent_reply', path: '$.agents' });
  if (r.timings !== undefined && r.timings !== null) {
    out.timings = rawJson(r.timings, { code: 'agent_reply', where: who, root: '$.timings' });
  }
  return out;
}

/**
 * Wraps `fn(text, turn) => string | { text?, steps? | toolCalls?, usage?, model?, timings?,
 * agents? }` (sync or async) as an evalcore Agent; `agents` (`[{ name?, instructions?, tools? }]`,
 * the name defaulting to the author) is what the judges are shown of the agent, as ADK's AppDetails. `turn` is the whole AgentTurn (session id, history,
 * state, abort signal). `options.author` names the agent in the events (default `"agent"`).
 * If `fn` throws or rejects, the turn rejects with an EvalError `agent_error` whose `cause` is
 * that error; a malformed return value is an EvalError `agent_reply` with the path of the
 * offending field.
 */
export function fromFunction(fn, options) {
  requireFunction(fn, 'fromFunction');
  const author = authorOf(options, 'fromFunction');
  return async function functionAgent(turn) {
    checkTurn(turn, 'fromFunction');
    const r = await callUser(fn, [turnText(turn), turn], 'fromFunction', turn);
    return functionReply(r, author, Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0);
  };
}

// ------------------------------------------------------------------------------------------
// fromOpenAIMessages

/** Text of an OpenAI message `content`: a string, or an array of parts whose text parts are concatenated. */
function contentText(content, path, who) {
  if (content === undefined || content === null) return null;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = null;
    content.forEach((part, i) => {
      if (typeof part === 'string') text = (text ?? '') + part;
      else if (isPlainObject(part) && typeof part.text === 'string') text = (text ?? '') + part.text;
      else if (isPlainObject(part) && typeof part.refusal === 'string') text = (text ?? '') + part.refusal;
      else if (!isPlainObject(part)) {
        throw new EvalError('agent_reply', `${path}[${i}]`, `${who}: a content part must be an object, found ${describe(part)}`);
      }
    });
    return text;
  }
  throw new EvalError('agent_reply', path, `${who}: content must be a string, an array of parts or null, found ${describe(content)}`);
}

/** A tool call's `arguments` (JSON text, or an object some providers send) as genai's `args`. */
function parseArguments(value, path, who) {
  if (value !== undefined && value !== null && typeof value !== 'string' && !isPlainObject(value)) {
    throw new EvalError('agent_reply', path, `${who}: arguments must be a JSON string, found ${describe(value)}`);
  }
  return argsObject(value, path, who);
}

/** Chat-completions usage as the steps' usage (completion tokens count the reasoning ones). */
function chatUsage(usage, path, who) {
  if (!isPlainObject(usage)) throw new EvalError('agent_reply', path, `${who}: usage must be an object, found ${describe(usage)}`);
  return usageAt(usage, {
    inputTokens: ['prompt_tokens'], outputTokens: ['completion_tokens'], totalTokens: ['total_tokens'],
    reasoningTokens: ['completion_tokens_details.reasoning_tokens'], cachedInputTokens: ['prompt_tokens_details.cached_tokens'],
  });
}

/** An `assistant` message as a step: its text (or refusal), then its tool calls in order. */
function assistantStep(m, path, who, callNames) {
  const step = { toolCalls: [], toolResults: [] };
  const text = contentText(m.content, `${path}.content`, who);
  if (text !== null && text !== '') step.text = text;
  else if (typeof m.refusal === 'string' && m.refusal !== '') step.text = m.refusal;
  const calls = m.tool_calls === undefined || m.tool_calls === null ? [] : m.tool_calls;
  if (!Array.isArray(calls)) throw new EvalError('agent_reply', `${path}.tool_calls`, `${who}: tool_calls must be an array, found ${describe(calls)}`);
  calls.forEach((tc, j) => {
    const cpath = `${path}.tool_calls[${j}]`;
    if (!isPlainObject(tc) || !isPlainObject(tc.function)) {
      throw new EvalError('agent_reply', cpath, `${who}: a tool call must be { id, type: "function", function: { name, arguments } }, found ${describe(tc)}`);
    }
    if (tc.type !== undefined && tc.type !== 'function') {
      throw new EvalError('agent_reply', `${cpath}.type`, `${who}: only "function" tool calls can be mapped to ADK function calls, found ${describe(tc.type)}`);
    }
    if (typeof tc.function.name !== 'string' || tc.function.name === '') {
      throw new EvalError('agent_reply', `${cpath}.function.name`, `${who}: a tool call needs a function name, found ${describe(tc.function.name)}`);
    }
    const call = { name: tc.function.name, args: parseArguments(tc.function.arguments, `${cpath}.function.arguments`, who) };
    if (typeof tc.id === 'string' && tc.id !== '') {
      call.id = tc.id;
      callNames.set(tc.id, tc.function.name);
    }
    step.toolCalls.push(call);
  });
  if (isPlainObject(m.function_call)) {
    const fc = m.function_call;
    if (typeof fc.name !== 'string' || fc.name === '') {
      throw new EvalError('agent_reply', `${path}.function_call.name`, `${who}: a function call needs a name, found ${describe(fc.name)}`);
    }
    step.toolCalls.push({ name: fc.name, args: parseArguments(fc.arguments, `${path}.function_call.arguments`, who) });
  }
  if (m.usage !== undefined && m.usage !== null) step.usage = chatUsage(m.usage, `${path}.usage`, who);
  if (typeof m.model === 'string' && m.model !== '') step.model = m.model;
  return step;
}

/** A `tool` (or legacy `function`) message as a tool result: its content parsed when JSON. */
function toolResult(m, path, who, callNames) {
  const r = {};
  if (m.role === 'tool') {
    if (typeof m.tool_call_id !== 'string' || m.tool_call_id === '') {
      throw new EvalError('agent_reply', `${path}.tool_call_id`, `${who}: a tool message needs the tool_call_id it answers, found ${describe(m.tool_call_id)}`);
    }
    r.id = m.tool_call_id;
    r.name = callNames.get(m.tool_call_id) ?? m.name;
  } else {
    if (typeof m.name !== 'string' || m.name === '') {
      throw new EvalError('agent_reply', `${path}.name`, `${who}: a function message needs the function name, found ${describe(m.name)}`);
    }
    r.name = m.name;
  }
  r.response = textResponse(contentText(m.content, `${path}.content`, who));
  return r;
}

/**
 * Converts an OpenAI chat-completions message log to ADK events (the `events` of an
 * AgentReply). Pure: use it on recorded logs.
 *
 * - Only the messages after the last `user` message count, so a whole transcript works as well
 *   as the messages of one turn; `system` and `developer` messages are skipped.
 * - An `assistant` message is one step: a text part for its content (or refusal), then a
 *   `function_call` part per entry of `tool_calls` (`id`, `function.name`, and
 *   `function.arguments` parsed as JSON — unparsable or non-object arguments are kept as
 *   `{ _raw: "<the text>" }`). The legacy `function_call` field is read the same way.
 * - The `tool` messages that follow are that step's results, one event with a
 *   `function_response` part each (as ADK records parallel tool results): `id` = `tool_call_id`,
 *   `name` from the matching call, and `response` = the content parsed as JSON when it is a JSON
 *   object, else `{ result: ... }` (the parsed JSON value, or the text). Legacy `function`
 *   messages too.
 * - Non-standard but common: `usage` (chat-completions usage) on an assistant message becomes
 *   its event's `usage_metadata`, `model` its `model_version`.
 *
 * ADK's rule then makes the last assistant text without tool calls the final response.
 */
export function convertOpenAIMessages(messages, options) {
  const who = 'fromOpenAIMessages';
  const author = authorOf(options, who);
  if (!Array.isArray(messages)) {
    throw new EvalError('agent_reply', '$', `${who}: expected an array of chat messages, found ${describe(messages)}`);
  }
  let start = 0;
  // A for loop, not forEach: the holes of a sparse array are checked too.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isPlainObject(m)) throw new EvalError('agent_reply', `$[${i}]`, `${who}: a message must be an object, found ${describe(m)}`);
    if (m.role === 'user') start = i + 1;
  }
  const steps = [];
  const callNames = new Map(); // tool_call_id -> function name
  let last = null; // the step the next tool messages answer
  for (let i = start; i < messages.length; i += 1) {
    const m = messages[i];
    const path = `$[${i}]`;
    switch (m.role) {
      case 'system':
      case 'developer':
        break;
      case 'assistant':
        steps.push((last = assistantStep(m, path, who, callNames)));
        break;
      case 'tool':
      case 'function':
        if (last === null) steps.push((last = { toolResults: [] }));
        last.toolResults.push(toolResult(m, path, who, callNames));
        break;
      default:
        throw new EvalError('agent_reply', `${path}.role`, `${who}: unknown message role ${describe(m.role)} (expected assistant, tool, function, user, system or developer)`);
    }
  }
  // Chat logs carry their own call ids; a call without one (legacy `function_call`) keeps none.
  return { events: stepsToEvents(steps, { author, who, ids: () => undefined }) };
}

/**
 * Wraps `fn(text, turn)` returning an OpenAI chat-completions message log (an array, or
 * `{ messages }`) as an evalcore Agent; see `fromOpenAIMessages.convert` for the mapping.
 * If `fn` throws or rejects, the turn rejects with an EvalError `agent_error` whose `cause` is
 * that error.
 */
export function fromOpenAIMessages(fn, options) {
  requireFunction(fn, 'fromOpenAIMessages');
  authorOf(options, 'fromOpenAIMessages');
  return async function openAIAgent(turn) {
    checkTurn(turn, 'fromOpenAIMessages');
    const out = await callUser(fn, [turnText(turn), turn], 'fromOpenAIMessages', turn);
    const messages = isPlainObject(out) && 'messages' in out ? out.messages : out;
    return convertOpenAIMessages(messages, options);
  };
}

fromOpenAIMessages.convert = convertOpenAIMessages;
