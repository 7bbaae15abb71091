// `evalcore/adapters`: agents that are not ADK agents, as evalcore Agents. A plain async
// function (`fromFunction`) and an agent that keeps an OpenAI chat-completions message log
// (`fromOpenAIMessages`). Both answer with ADK events (ADK Python's JSON shape), so the core
// applies ADK's own rules for the final response and the intermediate data.
import {
  EvalError, callUser, checkTurn, describe, isPlainObject, rawJson, responseObject, turnText,
} from './common.js';
import { FUNCTION_REPLY, replyKeyProblem } from '../reply_keys.js';

const DEFAULT_AUTHOR = 'agent'; // ADK's author for events that name none

function authorOf(options, who) {
  if (options === undefined || options === null) return DEFAULT_AUTHOR;
  if (!isPlainObject(options)) {
    throw new EvalError('schema', '$.options', `${who}: options must be an object, found ${describe(options)}`);
  }
  const { author = DEFAULT_AUTHOR } = options;
  if (typeof author !== 'string' || author === '' || author === 'user') {
    throw new EvalError('schema', '$.options.author', `${who}: options.author must be a non-empty agent name other than "user", found ${describe(author)}`);
  }
  return author;
}

function requireFunction(fn, who) {
  if (typeof fn !== 'function') {
    throw new EvalError('schema', '$', `${who}: expected a function, found ${describe(fn)}`);
  }
}

const modelEvent = (author, parts, extra) => ({ author, content: { role: 'model', parts }, ...extra });
// ADK records a tool's result as a user-role content authored by the agent that called it.
const toolEvent = (author, parts) => ({ author, content: { role: 'user', parts } });

// ------------------------------------------------------------------------------------------
// fromFunction

/**
 * The reply of a `fromFunction` callback as ADK events: per tool call a model event with its
 * `function_call` (and, when `response` is given, a tool event with the `function_response`),
 * then a model event with the text. `args` defaults to `{}` (a model's function call always
 * carries an args object); a `response` that is not an object is wrapped as `{result: value}`,
 * as ADK wraps a tool's return value. Call ids are `call_<turn>_<i>` unless given.
 */
function functionReply(reply, author, turnIndex) {
  const who = 'fromFunction';
  if (typeof reply === 'string') return { events: [modelEvent(author, [{ text: reply }])] };
  if (!isPlainObject(reply)) {
    throw new EvalError('agent_reply', '$', `${who}: the function must return a string or { text, toolCalls? }, found ${describe(reply)}`);
  }
  const unknown = replyKeyProblem(reply, FUNCTION_REPLY);
  if (unknown) throw new EvalError('agent_reply', unknown.path, `${who}: ${unknown.message}`);
  const { text, toolCalls = [] } = reply;
  if (text !== undefined && text !== null && typeof text !== 'string') {
    throw new EvalError('agent_reply', '$.text', `${who}: text must be a string, found ${describe(text)}`);
  }
  if (!Array.isArray(toolCalls)) {
    throw new EvalError('agent_reply', '$.toolCalls', `${who}: toolCalls must be an array, found ${describe(toolCalls)}`);
  }
  const events = [];
  toolCalls.forEach((tc, i) => {
    const path = `$.toolCalls[${i}]`;
    if (!isPlainObject(tc)) throw new EvalError('agent_reply', path, `${who}: a tool call must be { name, args?, response? }, found ${describe(tc)}`);
    if (typeof tc.name !== 'string' || tc.name === '') {
      throw new EvalError('agent_reply', `${path}.name`, `${who}: a tool call needs a non-empty name, found ${describe(tc.name)}`);
    }
    if (tc.args !== undefined && tc.args !== null && !isPlainObject(tc.args)) {
      throw new EvalError('agent_reply', `${path}.args`, `${who}: args must be an object, found ${describe(tc.args)}`);
    }
    if (tc.id !== undefined && tc.id !== null && typeof tc.id !== 'string') {
      throw new EvalError('agent_reply', `${path}.id`, `${who}: id must be a string, found ${describe(tc.id)}`);
    }
    const id = tc.id ?? `call_${turnIndex}_${i}`;
    const args = tc.args === undefined || tc.args === null ? {} : rawJson(tc.args, { where: who, root: `${path}.args` });
    events.push(modelEvent(author, [{ function_call: { id, name: tc.name, args } }]));
    if (tc.response !== undefined) {
      const response = responseObject(tc.response, { where: who, root: `${path}.response` });
      events.push(toolEvent(author, [{ function_response: { id, name: tc.name, response } }]));
    }
  });
  if (typeof text === 'string') events.push(modelEvent(author, [{ text }]));
  return { events };
}

/**
 * Wraps `fn(text, turn) => string | { text, toolCalls?: [{ name, args?, response?, id? }] }`
 * (sync or async) as an evalcore Agent. `turn` is the whole AgentTurn (session id, history,
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
    const reply = await callUser(fn, [turnText(turn), turn], 'fromFunction', turn);
    return functionReply(reply, author, Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0);
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

/**
 * A tool call's `arguments` as genai's `args` object: the JSON text parsed. Text that is not
 * JSON, or JSON that is not an object, is kept as `{ _raw: text }` so the call still shows in the
 * trajectory (and fails an args comparison instead of failing the run); an empty string is `{}`.
 * An `arguments` that is already an object (some providers send one) is taken as it is.
 */
function parseArguments(value, path, who) {
  if (value === undefined || value === null || value === '') return {};
  if (isPlainObject(value)) return rawJson(value, { where: who, root: path });
  if (typeof value !== 'string') {
    throw new EvalError('agent_reply', path, `${who}: arguments must be a JSON string, found ${describe(value)}`);
  }
  try {
    const parsed = JSON.parse(value);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // fall through: kept as text
  }
  return { _raw: value };
}

/** A tool result's text as genai's `response` object: its JSON when it is a JSON object, else `{ result }`. */
function parseToolResult(text) {
  if (text === null) return { result: null };
  try {
    const parsed = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : { result: parsed };
  } catch {
    return { result: text };
  }
}

// OpenAI chat usage -> genai usage metadata. completion_tokens includes reasoning tokens, which
// genai counts apart (thoughts), so candidates = completion - reasoning.
function usageMetadata(usage, path, who) {
  if (!isPlainObject(usage)) throw new EvalError('agent_reply', path, `${who}: usage must be an object, found ${describe(usage)}`);
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const prompt = num(usage.prompt_tokens);
  const completion = num(usage.completion_tokens);
  const reasoning = num(usage.completion_tokens_details?.reasoning_tokens);
  const cached = num(usage.prompt_tokens_details?.cached_tokens);
  const out = {};
  if (prompt !== undefined) out.prompt_token_count = prompt;
  if (completion !== undefined) out.candidates_token_count = completion - (reasoning ?? 0);
  if (num(usage.total_tokens) !== undefined) out.total_token_count = usage.total_tokens;
  if (reasoning !== undefined) out.thoughts_token_count = reasoning;
  if (cached !== undefined) out.cached_content_token_count = cached;
  return out;
}

/**
 * Converts an OpenAI chat-completions message log to ADK events (the `events` of an
 * AgentReply). Pure: use it on recorded logs.
 *
 * - Only the messages after the last `user` message count, so a whole transcript works as well
 *   as the messages of one turn; `system` and `developer` messages are skipped.
 * - An `assistant` message becomes one model event: a text part for its content (or refusal),
 *   then a `function_call` part per entry of `tool_calls` (`id`, `function.name`, and
 *   `function.arguments` parsed as JSON — unparsable or non-object arguments are kept as
 *   `{ _raw: "<the text>" }`). The legacy `function_call` field is read the same way.
 * - Consecutive `tool` messages become one event with a `function_response` part each (as ADK
 *   records parallel tool results): `id` = `tool_call_id`, `name` from the matching call, and
 *   `response` = the content parsed as JSON when it is a JSON object, else `{ result: ... }`
 *   (the parsed JSON value, or the text when it is not JSON). Legacy `function` messages too.
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

  const events = [];
  const callNames = new Map(); // tool_call_id -> function name
  let pendingResponses = null; // the tool event being filled by consecutive tool messages
  for (let i = start; i < messages.length; i += 1) {
    const m = messages[i];
    const path = `$[${i}]`;
    switch (m.role) {
      case 'system':
      case 'developer':
        break;
      case 'assistant': {
        pendingResponses = null;
        const parts = [];
        const text = contentText(m.content, `${path}.content`, who);
        if (text !== null && text !== '') parts.push({ text });
        else if (typeof m.refusal === 'string' && m.refusal !== '') parts.push({ text: m.refusal });
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
          const call = {};
          if (typeof tc.id === 'string' && tc.id !== '') {
            call.id = tc.id;
            callNames.set(tc.id, tc.function.name);
          }
          call.name = tc.function.name;
          call.args = parseArguments(tc.function.arguments, `${cpath}.function.arguments`, who);
          parts.push({ function_call: call });
        });
        if (isPlainObject(m.function_call)) {
          const fc = m.function_call;
          if (typeof fc.name !== 'string' || fc.name === '') {
            throw new EvalError('agent_reply', `${path}.function_call.name`, `${who}: a function call needs a name, found ${describe(fc.name)}`);
          }
          parts.push({ function_call: { name: fc.name, args: parseArguments(fc.arguments, `${path}.function_call.arguments`, who) } });
        }
        const extra = {};
        if (m.usage !== undefined && m.usage !== null) extra.usage_metadata = usageMetadata(m.usage, `${path}.usage`, who);
        if (typeof m.model === 'string' && m.model !== '') extra.model_version = m.model;
        if (parts.length > 0 || Object.keys(extra).length > 0) {
          events.push(parts.length > 0 ? modelEvent(author, parts, extra) : { author, ...extra });
        }
        break;
      }
      case 'tool':
      case 'function': {
        const fr = {};
        if (m.role === 'tool') {
          if (typeof m.tool_call_id !== 'string' || m.tool_call_id === '') {
            throw new EvalError('agent_reply', `${path}.tool_call_id`, `${who}: a tool message needs the tool_call_id it answers, found ${describe(m.tool_call_id)}`);
          }
          fr.id = m.tool_call_id;
          const name = callNames.get(m.tool_call_id) ?? m.name;
          if (typeof name === 'string' && name !== '') fr.name = name;
        } else {
          if (typeof m.name !== 'string' || m.name === '') {
            throw new EvalError('agent_reply', `${path}.name`, `${who}: a function message needs the function name, found ${describe(m.name)}`);
          }
          fr.name = m.name;
        }
        fr.response = parseToolResult(contentText(m.content, `${path}.content`, who));
        const part = { function_response: fr };
        if (pendingResponses) pendingResponses.content.parts.push(part);
        else events.push((pendingResponses = toolEvent(author, [part])));
        break;
      }
      default:
        throw new EvalError('agent_reply', `${path}.role`, `${who}: unknown message role ${describe(m.role)} (expected assistant, tool, function, user, system or developer)`);
    }
  }
  return { events };
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
