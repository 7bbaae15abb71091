// The one place where what an agent did becomes ADK events. Every adapter (AI SDK, OpenAI
// Agents, LangGraph, Mastra, OpenAI message logs, fromFunction) first says what happened as
// *steps* (one model call each: its text, its tool calls, their results, its usage), then these
// rules write the events as ADK Python records them, so the core derives the invocation (final
// response, intermediate responses, tool trajectory, usage) by ADK's own rules. The mapping is
// documented once, in docs/frameworks.md; the trace import of issue 26 follows the same table.
import { EvalError, describe, isPlainObject, rawJson, responseObject } from './common.js';

export const DEFAULT_AUTHOR = 'agent'; // ADK's author for events that name none
export const TRANSFER_TOOL = 'transfer_to_agent'; // ADK's handoff tool

const fail = (path, message) => new EvalError('agent_reply', path, message);

/** A non-empty agent name other than "user" (ADK's author of the user's events). */
export function checkAuthor(author, path, who) {
  if (typeof author !== 'string' || author === '' || author === 'user') {
    throw fail(path, `${who}: an author must be a non-empty agent name other than "user", found ${describe(author)}`);
  }
  return author;
}

/**
 * Tool-call arguments as genai's `args` object: an object is copied; JSON text is parsed. Text
 * that is not JSON, or JSON that is not an object, is kept as `{ _raw: text }` so the call still
 * shows in the trajectory (and fails an args comparison instead of the run); empty is `{}`.
 */
export function argsObject(value, path, who) {
  if (value === undefined || value === null || value === '') return {};
  if (isPlainObject(value)) return rawJson(value, { where: who, root: path });
  if (typeof value !== 'string') return { _raw: rawJson(value, { where: who, root: path }) ?? null };
  try {
    const parsed = JSON.parse(value);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // not JSON: kept as text
  }
  return { _raw: value };
}

/** A tool's result given as text (chat logs, LangChain ToolMessages): its JSON object, else `{ result }`. */
export function textResponse(text) {
  if (text === null || text === undefined) return { result: null };
  try {
    const parsed = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : { result: parsed };
  } catch {
    return { result: text };
  }
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens', 'totalTokens'];

/**
 * Usage as every adapter reports it — `{ inputTokens, outputTokens, reasoningTokens,
 * cachedInputTokens, totalTokens }`, output counting the reasoning tokens as OpenAI, Anthropic
 * and the AI SDK count them, input counting the cached ones — as genai's usage metadata, which
 * counts thoughts apart from candidates: candidates = output - reasoning.
 */
export function usageMetadata(usage, path, who) {
  if (!isPlainObject(usage)) throw fail(path, `${who}: usage must be an object, found ${describe(usage)}`);
  const n = {};
  for (const f of USAGE_FIELDS) {
    const v = usage[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw fail(`${path}.${f}`, `${who}: ${f} must be a number >= 0, found ${describe(v)}`);
    }
    n[f] = v;
  }
  if (n.reasoningTokens !== undefined && n.outputTokens !== undefined && n.reasoningTokens > n.outputTokens) {
    throw fail(`${path}.reasoningTokens`, `${who}: reasoningTokens (${n.reasoningTokens}) exceeds outputTokens (${n.outputTokens}); outputTokens counts the reasoning tokens too`);
  }
  const out = {};
  if (n.inputTokens !== undefined) out.prompt_token_count = n.inputTokens;
  if (n.outputTokens !== undefined) out.candidates_token_count = n.outputTokens - (n.reasoningTokens ?? 0);
  if (n.totalTokens !== undefined) out.total_token_count = n.totalTokens;
  if (n.cachedInputTokens !== undefined) out.cached_content_token_count = n.cachedInputTokens;
  if (n.reasoningTokens !== undefined) out.thoughts_token_count = n.reasoningTokens;
  return out;
}

/**
 * A framework's usage object read as the steps' usage. `paths` gives, per count, where it is —
 * `'output_token_details.reasoning'` is `u.output_token_details.reasoning`, the first of several
 * paths that has a number wins, and an array met on the way is summed over (the Responses API's
 * per-request details). Counts that are not numbers >= 0 are left out; none at all is `undefined`.
 */
export function usageAt(u, paths) {
  if (!isPlainObject(u)) return undefined;
  const at = (v, path) => {
    if (path.length === 0) return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
    if (Array.isArray(v)) {
      const found = v.map((x) => at(x, path)).filter((x) => x !== undefined);
      return found.length > 0 ? found.reduce((a, b) => a + b, 0) : undefined;
    }
    return isPlainObject(v) ? at(v[path[0]], path.slice(1)) : undefined;
  };
  const out = {};
  for (const [field, alternatives] of Object.entries(paths)) {
    const n = alternatives.map((p) => at(u, p.split('.'))).find((x) => x !== undefined);
    if (n !== undefined) out[field] = n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** An Error's message, or the value as text: what a failed tool answered. */
export function errorText(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** A tool result as genai's `function_response.response`. */
function resultResponse(r, path, who) {
  if (r.error !== undefined) return { error: errorText(r.error) };
  return responseObject(r.response, { where: who, root: `${path}.response` });
}

/** Checks a step's tool call (`{ name, args?, id?, response?, error?, transferTo? }`). */
export function checkCall(c, path, who) {
  if (!isPlainObject(c)) throw fail(path, `${who}: a tool call must be { name, args?, id?, response?, error? }, found ${describe(c)}`);
  if (typeof c.name !== 'string' || c.name === '') throw fail(`${path}.name`, `${who}: a tool call needs a non-empty name, found ${describe(c.name)}`);
  if (c.id !== undefined && c.id !== null && typeof c.id !== 'string') throw fail(`${path}.id`, `${who}: id must be a string, found ${describe(c.id)}`);
  if (c.args !== undefined && c.args !== null && !isPlainObject(c.args)) throw fail(`${path}.args`, `${who}: args must be an object, found ${describe(c.args)}`);
  if (c.transferTo !== undefined) checkAuthor(c.transferTo, `${path}.transferTo`, who);
}

function checkStep(step, path, who) {
  if (!isPlainObject(step)) throw fail(path, `${who}: a step must be { text?, toolCalls?, toolResults?, usage?, model?, author? }, found ${describe(step)}`);
  if (step.text !== undefined && step.text !== null && typeof step.text !== 'string') throw fail(`${path}.text`, `${who}: text must be a string, found ${describe(step.text)}`);
  if (step.model !== undefined && step.model !== null && typeof step.model !== 'string') throw fail(`${path}.model`, `${who}: model must be a string, found ${describe(step.model)}`);
  if (step.author !== undefined && step.author !== null) checkAuthor(step.author, `${path}.author`, who);
  for (const key of ['toolCalls', 'toolResults']) {
    if (step[key] !== undefined && step[key] !== null && !Array.isArray(step[key])) throw fail(`${path}.${key}`, `${who}: ${key} must be an array, found ${describe(step[key])}`);
  }
}

/**
 * The events of one step, appended to `events`: a model event (the text, then a `function_call`
 * part per call, in order; the step's `usage_metadata` and `model_version`), then one tool event
 * with a `function_response` per result (ADK records a step's parallel results as one event). A
 * call with `transferTo` is ADK's `transfer_to_agent(agent_name)`, answered `{result: null}` with
 * `actions.transfer_to_agent`, as ADK's transfer tool records a handoff.
 */
function stepEvents(step, s, ctx, events) {
  const { who, root, ids } = ctx;
  const path = `${root}[${s}]`;
  const callPath = (i) => (ctx.callPath ? ctx.callPath(s, i) : `${path}.toolCalls[${i}]`);
  checkStep(step, path, who);
  const author = step.author ?? ctx.author;
  const parts = [];
  if (typeof step.text === 'string' && step.text !== '') parts.push({ text: step.text });
  const results = [];
  let transfer;
  (step.toolCalls ?? []).forEach((c, i) => {
    const cpath = callPath(i);
    checkCall(c, cpath, who);
    // A call without an id keeps none when `ids` gives none (a legacy chat function call).
    const id = c.id ?? ids(s, i);
    const named = (name) => (id === undefined || id === null ? { name } : { id, name });
    if (c.transferTo !== undefined) {
      transfer = c.transferTo;
      parts.push({ function_call: { ...named(TRANSFER_TOOL), args: { agent_name: c.transferTo } } });
      results.push({ function_response: { ...named(TRANSFER_TOOL), response: { result: null } } });
      return;
    }
    const args = c.args === undefined || c.args === null ? {} : rawJson(c.args, { where: who, root: `${cpath}.args` });
    parts.push({ function_call: { ...named(c.name), args } });
    if (c.response !== undefined || c.error !== undefined) {
      results.push({ function_response: { ...named(c.name), response: resultResponse(c, cpath, who) } });
    }
  });
  (step.toolResults ?? []).forEach((r, i) => {
    const rpath = `${path}.toolResults[${i}]`;
    if (!isPlainObject(r)) throw fail(rpath, `${who}: a tool result must be { id?, name, response? | error? }, found ${describe(r)}`);
    const fr = {};
    if (typeof r.id === 'string' && r.id !== '') fr.id = r.id;
    if (typeof r.name === 'string' && r.name !== '') fr.name = r.name;
    fr.response = resultResponse(r, rpath, who);
    results.push({ function_response: fr });
  });
  const extra = {};
  const model = step.model ?? ctx.model;
  if (typeof model === 'string' && model !== '') extra.model_version = model;
  if (step.usage !== undefined && step.usage !== null) {
    extra.usage_metadata = usageMetadata(step.usage, ctx.usagePath ? ctx.usagePath(s) : `${path}.usage`, who);
  }
  if (parts.length > 0) events.push({ author, content: { role: 'model', parts }, ...extra });
  else if (Object.keys(extra).length > 0) events.push({ author, ...extra });
  if (results.length > 0) {
    // ADK records a tool's result as a user-role content authored by the agent that called it.
    const ev = { author, content: { role: 'user', parts: results } };
    if (transfer !== undefined) ev.actions = { transfer_to_agent: transfer };
    events.push(ev);
  }
}

/**
 * Steps as ADK events (see `stepEvents`). `options`: `author` (default author of the steps),
 * `model` (default model name), `who` (for messages), `root` (the JSON path of the step list),
 * `ids(step, i)` (a call id when the framework gave none; `undefined` leaves it out),
 * `callPath(step, i)` and `usagePath(step)` (where a bad call or usage is reported, when the
 * caller's shape is not the step list itself).
 */
export function stepsToEvents(steps, options = {}) {
  const who = options.who ?? 'adapter';
  const root = options.root ?? '$.steps';
  if (!Array.isArray(steps)) throw fail(root, `${who}: steps must be an array, found ${describe(steps)}`);
  const ctx = {
    who, root, author: options.author ?? DEFAULT_AUTHOR, model: options.model,
    ids: options.ids ?? ((s, i) => `call_${s}_${i}`),
    callPath: options.callPath, usagePath: options.usagePath,
  };
  const events = [];
  // A for loop, not forEach: the holes of a sparse array are checked too.
  for (let s = 0; s < steps.length; s++) stepEvents(steps[s], s, ctx, events);
  return events;
}

/**
 * When a turn awaited a model and ran tools, as `timings` for the core (`{ model, tool }`:
 * `[startMs, endMs]` pairs on `performance.now()`'s clock). A kind the adapter can observe is
 * declared with `observe`, so a turn without tools reports 0 s of tool time rather than none;
 * `toJSON()` is `undefined` when nothing was observable.
 */
export function timeline() {
  const kinds = new Map();
  const now = () => performance.now();
  return {
    observe(kind) {
      if (!kinds.has(kind)) kinds.set(kind, []);
    },
    /** Adds an interval measured elsewhere (`startMs`, `endMs` on `performance.now()`'s clock). */
    add(kind, startMs, endMs) {
      this.observe(kind);
      kinds.get(kind).push([startMs, endMs]);
    },
    /** Says a kind could not be measured after all (its intervals are dropped). */
    forget(kind) {
      kinds.delete(kind);
    },
    /** Starts an interval; the returned function ends it (later calls do nothing). */
    start(kind) {
      this.observe(kind);
      const started = now();
      let open = true;
      return () => {
        if (open) kinds.get(kind)?.push([started, now()]);
        open = false;
      };
    },
    toJSON() {
      if (kinds.size === 0) return undefined;
      return Object.fromEntries(kinds);
    },
  };
}

/** An adapter's reply: the events, and the timings when there are any. */
export function reply(events, times) {
  const timings = times ? times.toJSON() : undefined;
  return timings === undefined ? { events } : { events, timings };
}
