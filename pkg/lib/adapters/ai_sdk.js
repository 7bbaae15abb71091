// `fromAiSdk`: an agent written with the Vercel AI SDK (`generateText`, `streamText`, a
// `ToolLoopAgent`) as an evalcore Agent. The user's own call runs each turn with the whole
// conversation so far in the AI SDK's message form; its result's steps (one model call each)
// become steps (steps.js). The AI SDK is never imported: the adapter reads the documented result
// shape (v7 and v6, and v5/v4 field names) and hands the call telemetry settings that say when
// the turn awaited the model and ran tools: a tracer for v6 and earlier (their spans), a
// telemetry integration for v7 (its lifecycle hooks; v7 no longer takes a tracer).
import { abortReason, callUser, checkTurn, describe, EvalError, isPlainObject, turnText } from './common.js';
import { agentsFromOptions, withAgents } from './agent_details.js';
import { conversations } from './conversations.js';
import { authorOf, requireFunction } from './generic.js';
import { argsObject, reply, stepsToEvents, timeline, usageAt } from './steps.js';

const WHO = 'fromAiSdk';

/**
 * AI SDK usage (v6 `LanguageModelUsage`, v5's flat fields, v4's prompt/completion tokens) as the
 * steps' usage, output counting reasoning. v6 says so (`outputTokens` is the total,
 * `outputTokenDetails` splits it); v5 left it to the provider: when the reasoning tokens exceed
 * the output ones, or the total is input + output + reasoning (Google's v5 provider), the output
 * did not count them and they are added. `undefined` when the step reported no counts.
 */
export function aiSdkUsage(u) {
  const out = usageAt(u, {
    inputTokens: ['inputTokens', 'promptTokens'], outputTokens: ['outputTokens', 'completionTokens'], totalTokens: ['totalTokens'],
    reasoningTokens: ['outputTokenDetails.reasoningTokens', 'reasoningTokens'], cachedInputTokens: ['inputTokenDetails.cacheReadTokens', 'cachedInputTokens'],
  });
  const { inputTokens: input, outputTokens: output, reasoningTokens: reasoning, totalTokens: total } = out ?? {};
  if (out && !isPlainObject(u.outputTokenDetails) && output !== undefined && reasoning > 0
    && (reasoning > output || (input !== undefined && total === input + output + reasoning))) {
    out.outputTokens = output + reasoning;
  }
  return out;
}

/** A step's parts: v5/v6 `content`, or v4's `text`, `toolCalls` and `toolResults`. */
function partsOf(step) {
  if (Array.isArray(step.content)) return step.content;
  const parts = [];
  if (typeof step.text === 'string' && step.text !== '') parts.push({ type: 'text', text: step.text });
  for (const c of Array.isArray(step.toolCalls) ? step.toolCalls : []) parts.push({ type: 'tool-call', ...c });
  for (const r of Array.isArray(step.toolResults) ? step.toolResults : []) parts.push({ type: 'tool-result', ...r });
  return parts;
}

/**
 * One AI SDK step (one model call) as a step: its text parts joined, its tool calls in order
 * (`input`, v4 `args`), each call's result (`output`, v4 `result`) or error (`tool-error`);
 * reasoning, sources, files and preliminary results are not events. The step's usage and model.
 */
export function aiSdkStep(step, s, author) {
  if (!isPlainObject(step)) throw new EvalError('agent_reply', `$.steps[${s}]`, `${WHO}: a step must be an object, found ${describe(step)}`);
  let text = '';
  const calls = new Map();
  const out = { author, toolCalls: [], toolResults: [] };
  for (const part of partsOf(step)) {
    if (!isPlainObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (part.type === 'tool-call') {
      const call = { id: part.toolCallId, name: part.toolName, args: argsObject(part.input ?? part.args, `$.steps[${s}].content`, WHO) };
      out.toolCalls.push(call);
      if (typeof part.toolCallId === 'string') calls.set(part.toolCallId, call);
    } else if ((part.type === 'tool-result' && part.preliminary !== true) || part.type === 'tool-error') {
      const result = part.type === 'tool-error' ? { error: part.error ?? 'the tool failed' } : { response: part.output ?? part.result ?? null };
      const call = calls.get(part.toolCallId);
      if (call) Object.assign(call, result);
      else out.toolResults.push({ id: part.toolCallId, name: part.toolName, ...result });
    }
  }
  if (text !== '') out.text = text;
  const usage = aiSdkUsage(step.usage);
  if (usage) out.usage = usage;
  const model = step.response?.modelId ?? step.model?.modelId;
  if (typeof model === 'string' && model !== '') out.model = model;
  return out;
}

/**
 * Telemetry settings for the call's `telemetry` (v7) or `experimental_telemetry` (v6 and
 * earlier): for v6, a tracer that records when the AI SDK's model spans (`ai.*.doGenerate`,
 * `ai.*.doStream`) and tool spans (`ai.toolCall`) ran, and passes every span on to `userTracer`
 * when there is one; for v7, an integration (`integrationFor`) that does the same from v7's hooks.
 */
function telemetryFor(times, userTracer, functionId) {
  const kindOf = (name) => (/\.do(Generate|Stream)$/.test(name) ? 'model' : name === 'ai.toolCall' ? 'tool' : null);
  const noop = { end() {}, setAttribute() {}, setAttributes() {}, addEvent() {}, addLink() {}, addLinks() {}, setStatus() {}, updateName() {}, recordException() {} };
  const wrap = (inner, end) => {
    const span = Object.create(null);
    for (const m of Object.keys(noop)) {
      span[m] = (...a) => {
        const r = inner[m]?.(...a);
        // A span your tracer recorded is timed by its own start and end: the trace of the run
        // then gives the same durations by construction, however late this code runs.
        if (m === 'end') end(recordedInterval(inner));
        return r === inner ? span : r;
      };
    }
    span.spanContext = () => inner.spanContext?.() ?? { traceId: '', spanId: '', traceFlags: 0 };
    span.isRecording = () => inner.isRecording?.() ?? false;
    return span;
  };
  const begin = (name) => {
    // Any span means the call passed our telemetry: both kinds are then measured (0 s when unused).
    times.observe('model');
    times.observe('tool');
    const kind = kindOf(name);
    if (!kind) return () => {};
    const stop = times.start(kind);
    return (recorded) => (recorded ? times.add(kind, recorded[0], recorded[1]) : stop());
  };
  const tracer = {
    startSpan(name, ...rest) {
      return wrap(userTracer ? userTracer.startSpan(name, ...rest) : noop, begin(name));
    },
    startActiveSpan(name, ...args) {
      const at = args.findIndex((a) => typeof a === 'function');
      const fn = args[at];
      if (!userTracer) return fn(wrap(noop, begin(name)));
      // Timed from when your tracer's span has started: both records of the run then agree.
      args[at] = (inner) => fn(wrap(inner, begin(name)));
      return userTracer.startActiveSpan(name, ...args);
    },
  };
  // Without a tracer or an integration of yours, nothing is recorded but the times; with one,
  // what the AI SDK records by default. The function id names the agent, as a trace of the run
  // names it. `integrations` is read by v7 (and ignored by v6 here: v6 calls none of its hooks).
  const registered = registeredIntegrations();
  const integrations = [integrationFor(times, registered)];
  return userTracer || registered.length > 0
    ? { isEnabled: true, tracer, functionId, integrations }
    : { isEnabled: true, tracer, functionId, integrations, recordInputs: false, recordOutputs: false };
}

/** An OpenTelemetry HrTime (`[seconds, nanoseconds]` since the epoch) on `performance.now()`'s clock. */
const hrMs = (t) => (Array.isArray(t) && t.length === 2 && Number.isFinite(t[0]) && Number.isFinite(t[1])
  ? t[0] * 1e3 + t[1] / 1e6 - performance.timeOrigin : null);

/** The `[startMs, endMs]` an ended SDK span recorded (its `startTime` / `endTime`), or null. */
function recordedInterval(span) {
  const start = hrMs(span?.startTime);
  const end = hrMs(span?.endTime);
  return start !== null && end !== null && end >= start ? [start, end] : null;
}

/** The integrations registered with the AI SDK's `registerTelemetry` (the global it documents). */
function registeredIntegrations() {
  const list = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
  return Array.isArray(list) ? list.filter((i) => i !== null && typeof i === 'object') : [];
}

/** The names of an object's methods, its class's included (read from descriptors: no getter runs). */
function methodNames(obj) {
  const names = new Set();
  for (let o = obj; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const n of Object.getOwnPropertyNames(o)) {
      if (n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(o, n)?.value === 'function') names.add(n);
    }
  }
  return names;
}

/**
 * AI SDK 7's telemetry integration for one turn: a model interval per provider call, ending at
 * `onLanguageModelCallEnd` and as long as the `performance.responseTimeMs` it reports (the time
 * spent awaiting the model: a streamed call until its last chunk), and a tool interval per tool
 * execution, ending at `onToolExecutionEnd` and as long as its `toolExecutionMs`; where a figure
 * is missing, the interval starts at the matching start hook. v7 gives a call's own integrations
 * *instead of* the registered ones, so every hook and wrapper of the integrations registered
 * with `registerTelemetry` (`@ai-sdk/otel`'s, say) is passed on, after ours, for the events v7
 * sends (each carries the generation's `callId`; v6's events have none, and v6 calls its
 * registered integrations itself).
 */
function integrationFor(times, registered) {
  const started = new Map(); // callId (model) or tool:toolCallId -> performance.now() at its start
  // An event's own time where it states one (v7's `timestamp`, epoch ms: what `@ai-sdk/otel`
  // ends its spans at), so a trace of the run places every interval where this record does.
  const at = (e) => (typeof e?.timestamp === 'number' && Number.isFinite(e.timestamp) ? e.timestamp - performance.timeOrigin : performance.now());
  const begin = (key, e) => started.set(key, at(e));
  const finish = (kind, key, ms, e) => {
    const end = at(e);
    const from = started.get(key);
    started.delete(key);
    const length = typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : from === undefined ? undefined : end - from;
    if (length !== undefined) times.add(kind, end - length, end);
  };
  const toolKey = (e) => `tool:${e.toolCall?.toolCallId}`;
  // A generation that failed or stopped mid-call: its open model call ends here.
  const stop = (e) => {
    if (started.has(e.callId)) finish('model', e.callId, undefined, e);
  };
  const own = {
    onStart() {
      times.observe('model');
      times.observe('tool');
    },
    onLanguageModelCallStart: (e) => begin(e.callId, e),
    onLanguageModelCallEnd: (e) => finish('model', e.callId, e.performance?.responseTimeMs, e),
    onToolExecutionStart: (e) => begin(toolKey(e), e),
    onToolExecutionEnd: (e) => finish('tool', toolKey(e), e.toolExecutionMs, e),
    onStepError: stop,
    onAbort: stop,
    onEnd: stop,
  };
  const integration = {};
  const names = new Set([...Object.keys(own), ...registered.flatMap((r) => [...methodNames(r)])]);
  const WRAPPERS = ['executeTool', 'executeLanguageModelCall'];
  for (const name of names) {
    if (WRAPPERS.includes(name)) continue;
    integration[name] = async (event) => {
      if (typeof event?.callId !== 'string') return;
      own[name]?.(event);
      for (const r of registered) if (typeof r[name] === 'function') await r[name](event);
    };
  }
  // The wrappers nest as v7 nests a call's own: the first registered innermost.
  for (const name of WRAPPERS) {
    if (!registered.some((r) => typeof r[name] === 'function')) continue;
    integration[name] = (options) => {
      let run = options.execute;
      for (const r of registered) {
        if (typeof r[name] !== 'function') continue;
        const inner = run;
        run = () => r[name]({ ...options, execute: inner });
      }
      return run();
    };
  }
  const durable = registered.find((r) => r.experimental_durable !== undefined)?.experimental_durable;
  if (durable !== undefined) integration.experimental_durable = durable;
  return integration;
}

/** The user's turn as an AI SDK user message: its text, with any inline or linked files as file parts. */
function userMessage(turn) {
  const parts = isPlainObject(turn.userContent) && Array.isArray(turn.userContent.parts) ? turn.userContent.parts : [];
  const files = parts.filter((p) => isPlainObject(p) && (isPlainObject(p.inline_data ?? p.inlineData) || isPlainObject(p.file_data ?? p.fileData)));
  if (files.length === 0) return { role: 'user', content: turnText(turn) };
  const content = [];
  for (const p of parts) {
    if (!isPlainObject(p)) continue;
    const inline = p.inline_data ?? p.inlineData;
    const linked = p.file_data ?? p.fileData;
    if (typeof p.text === 'string' && p.text !== '') content.push({ type: 'text', text: p.text });
    else if (isPlainObject(inline)) content.push({ type: 'file', data: inline.data, mediaType: inline.mime_type ?? inline.mimeType });
    else if (isPlainObject(linked)) content.push({ type: 'file', data: new URL(linked.file_uri ?? linked.fileUri), mediaType: linked.mime_type ?? linked.mimeType });
  }
  return { role: 'user', content };
}

const notAResult = (path, what) => new EvalError('agent_reply', path,
  `${WHO}: run must return the result of generateText or streamText (with its steps), found ${what}`);

/**
 * The finished run: `{ steps, response, text }` awaited. A `generateText` result has them; a
 * `streamText` result is read to its end first (its fields are promises).
 */
async function settle(result) {
  if (typeof result.consumeStream === 'function') await result.consumeStream();
  return { steps: await result.steps, response: await result.response, text: await result.text, responseMessages: await result.responseMessages };
}

/**
 * The turn's new messages: v7's `responseMessages` (every step's; its `response.messages` has
 * the last step's only), else `response.messages` (v5 and v6: every step's), else the last
 * step's (cumulative in v5 and v6), else the text.
 */
function newMessages({ steps, response, text, responseMessages }) {
  if (Array.isArray(responseMessages)) return responseMessages;
  if (Array.isArray(response?.messages)) return response.messages;
  if (Array.isArray(steps.at(-1)?.response?.messages)) return steps.at(-1).response.messages;
  return [{ role: 'assistant', content: typeof text === 'string' ? text : '' }];
}

/**
 * Wraps `run({ messages, signal, telemetry, turn })` — the user's own `generateText` or
 * `streamText` call (or a `ToolLoopAgent`'s `generate`/`stream`) — as an evalcore Agent.
 * `messages` is the conversation so far (every message of the earlier turns, tool calls and
 * results included, then the new user message); `signal` is the turn's abort signal (pass it as
 * `abortSignal`); `telemetry` goes to `experimental_telemetry` when the model / tool time split
 * is wanted. Options: `author` (the agent's name in the events, default `"agent"`), `tracer`
 * (your own OpenTelemetry tracer, which still receives every span), `maxConversations`,
 * `instructions` and `tools` (the `system` prompt and tools `run` gives the model: the judges
 * are shown them, as ADK shows its agents').
 */
export function fromAiSdk(run, options = {}) {
  requireFunction(run, WHO);
  const author = authorOf(options, WHO);
  const agents = agentsFromOptions(author, options, WHO);
  const store = conversations(WHO, options.maxConversations);
  const userTracer = options.tracer ?? null;
  if (userTracer !== null && (typeof userTracer.startActiveSpan !== 'function' || typeof userTracer.startSpan !== 'function')) {
    throw new EvalError('schema', '$.options.tracer', `${WHO}: options.tracer must be an OpenTelemetry Tracer (startSpan, startActiveSpan), found ${describe(userTracer)}`);
  }
  return async function aiSdkAgent(turn) {
    checkTurn(turn, WHO);
    const signal = turn.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const conv = store.begin(turn, () => ({ messages: [] }));
    const messages = [...conv.messages, userMessage(turn)];
    const times = timeline();
    const telemetry = telemetryFor(times, userTracer, author);
    const result = await callUser(run, [{ messages, signal, telemetry, turn }], WHO, turn);
    if (result === null || typeof result !== 'object') throw notAResult('$', describe(result));
    const done = await callUser(settle, [result], WHO, turn);
    if (signal?.aborted) throw abortReason(signal);
    if (!Array.isArray(done.steps)) throw notAResult('$.steps', `steps: ${describe(done.steps)}`);
    const turnIndex = Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0;
    const steps = done.steps.map((st, s) => aiSdkStep(st, s, author));
    const events = stepsToEvents(steps, { author, who: WHO, ids: (s, i) => `call_${turnIndex}_${s}_${i}` });
    conv.messages = [...messages, ...newMessages(done)];
    return withAgents(reply(events, times), agents);
  };
}
