// `fromOpenAIAgents`: an agent of the OpenAI Agents SDK (`@openai/agents`) as an evalcore Agent.
// Each turn runs the agent with the conversation so far (`result.history` of the previous turn
// plus the new user message), starting from the agent that answered last, as the SDK's docs run
// a chat. The run's model responses are the steps (steps.js): their messages, tool calls and
// handoffs (ADK's `transfer_to_agent`, the receiving agent the author of what follows), the
// tools' outputs, each response's usage. `@openai/agents` is imported when the first turn runs,
// from the user's own install.
import {
  EvalError, abortReason, agentFailure, checkTurn, describe, importPeer, isPlainObject, objectOption, turnText,
} from './common.js';
import { agentEntry, withAgents } from './agent_details.js';
import { conversations } from './conversations.js';
import { TRANSFER_TOOL, argsObject, checkAuthor, reply, stepsToEvents, timeline, usageAt } from './steps.js';

const WHO = 'fromOpenAIAgents';

const loadSdk = (given) => importPeer({
  load: () => import('@openai/agents'), name: '@openai/agents', given, option: 'sdk', who: WHO, classes: ['Runner'],
  pass: "fromOpenAIAgents(agent, { sdk: await import('@openai/agents') })",
});

/**
 * A model that records, on `times`, when a turn awaited it: each `getResponse`, and each pull of
 * a streamed response (as ADK times a stream chunk by chunk). Everything else reaches the model
 * itself (its methods bound to it, so private fields keep working).
 */
function timedModel(model, times, calls) {
  return new Proxy(model, {
    get(target, key) {
      if (key === 'getResponse') {
        return async (request) => {
          calls.count++;
          const end = times.start('model');
          try {
            return await target.getResponse(request);
          } finally {
            end();
          }
        };
      }
      if (key === 'getStreamedResponse') {
        return async function* streamed(request) {
          calls.count++;
          const it = target.getStreamedResponse(request)[Symbol.asyncIterator]();
          for (;;) {
            const end = times.start('model');
            let next;
            try {
              next = await it.next();
            } finally {
              end();
            }
            if (next.done) return;
            yield next.value;
          }
        };
      }
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** A model provider whose models are timed; the SDK's default one when the config names none. */
function timedProvider(sdk, provider, times, calls) {
  const inner = provider ?? new sdk.Runner({}).config.modelProvider;
  return { getModel: async (name) => timedModel(await inner.getModel(name), times, calls) };
}

/** A Responses-API usage (one model response) as the steps' usage; its details may be arrays. */
const responseUsage = (u) => usageAt(u, {
  inputTokens: ['inputTokens'], outputTokens: ['outputTokens'], totalTokens: ['totalTokens'],
  reasoningTokens: ['outputTokensDetails.reasoning_tokens'], cachedInputTokens: ['inputTokensDetails.cached_tokens'],
});

/** A message item's text: its output_text parts (or refusals) joined. */
function messageText(raw) {
  const parts = Array.isArray(raw?.content) ? raw.content : [];
  return parts.map((p) => (typeof p?.text === 'string' ? p.text : typeof p?.refusal === 'string' ? p.refusal : '')).join('');
}

/** A tool-call item (function, hosted, computer, shell ...) as a step's call. */
function callOf(raw, path) {
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : String(raw.type ?? 'tool');
  const args = raw.arguments !== undefined ? argsObject(raw.arguments, path, WHO) : isPlainObject(raw.action) ? argsObject(raw.action, path, WHO) : {};
  return { id: raw.callId ?? raw.id, name, args };
}

const modelName = (agent) => (agent && typeof agent.model === 'string' && agent.model !== '' ? agent.model : undefined);

/**
 * A run's model responses as steps, in order: each response's items (found by identity in
 * `newItems`, which name the agent that produced them) — messages as text, tool and handoff
 * calls as calls — and the outputs that follow as the calls' results; its usage.
 */
export function openAIAgentsSteps(result, fallbackAgent) {
  const responses = Array.isArray(result.rawResponses) ? result.rawResponses : [];
  const responseOf = new Map();
  responses.forEach((r, k) => (Array.isArray(r?.output) ? r.output : []).forEach((item) => responseOf.set(item, k)));
  const steps = responses.map((r) => ({ author: undefined, text: '', toolCalls: [], usage: responseUsage(r?.usage), agent: undefined }));
  const calls = new Map(); // callId -> the step's call
  (Array.isArray(result.newItems) ? result.newItems : []).forEach((item, i) => {
    const raw = item?.rawItem;
    const k = responseOf.get(raw);
    const step = k === undefined ? undefined : steps[k];
    if (step) step.agent ??= item.agent;
    switch (item?.type) {
      case 'message_output_item':
        if (step) step.text += messageText(raw);
        break;
      case 'tool_call_item':
      case 'handoff_call_item': {
        if (!step || !isPlainObject(raw)) break;
        const call = callOf(raw, `$.newItems[${i}].rawItem.arguments`);
        step.toolCalls.push(call);
        if (call.id !== undefined) calls.set(call.id, call);
        break;
      }
      case 'tool_call_output_item': {
        const call = calls.get(raw?.callId);
        if (call) call.response = item.output ?? raw?.output ?? null;
        break;
      }
      case 'handoff_output_item': {
        const call = calls.get(raw?.callId);
        const to = item.targetAgent?.name;
        if (call && typeof to === 'string') {
          call.transferTo = to;
          delete call.args;
        }
        break;
      }
      default:
        break; // reasoning, approvals, tool searches: not events
    }
  });
  // A response none of whose items is listed (reasoning only) is the previous agent's.
  let previous = fallbackAgent;
  return steps.map(({ agent = previous, text, ...st }) => {
    previous = agent;
    return {
      ...st,
      ...(text !== '' ? { text } : {}),
      author: checkAuthor(agent?.name ?? fallbackAgent.name, '$.agent.name', WHO),
      model: modelName(agent),
    };
  });
}

/**
 * The agent and those it can hand off to, each once, as `agents`: its instructions (when text)
 * and tools, and ADK's `transfer_to_agent` for its handoffs (the call the adapter writes for one).
 */
function sdkAgents(start) {
  const seen = [];
  for (let queue = [start]; queue.length > 0;) {
    const a = queue.shift();
    if (a === null || typeof a !== 'object' || typeof a.name !== 'string' || seen.includes(a)) continue;
    seen.push(a);
    queue.push(...(Array.isArray(a.handoffs) ? a.handoffs.map((h) => h?.agent ?? h) : []));
  }
  return seen.map((a) => {
    const targets = (Array.isArray(a.handoffs) ? a.handoffs : []).map((h) => (h?.agent ?? h)?.name).filter((n) => typeof n === 'string');
    const transfer = targets.length === 0 ? [] : [{
      name: TRANSFER_TOOL,
      description: `Hands the conversation to another agent: ${targets.join(', ')}`,
      parameters: { type: 'object', properties: { agent_name: { type: 'string', enum: targets } }, required: ['agent_name'] },
    }];
    const tools = (Array.isArray(a.tools) ? a.tools : []).filter((t) => typeof t?.name === 'string' && t.name !== '');
    return agentEntry(a.name, { instructions: a.instructions, tools: [...tools, ...transfer] }, WHO, '$.agent');
  });
}

/**
 * Wraps an `@openai/agents` Agent as an evalcore Agent. Options: `runConfig` (the `Runner`'s
 * config: model provider, model settings, guardrails, tracing), `runOptions` (per run:
 * `context`, `maxTurns`, `stream: true` for a streamed run), `continueWith` (`"lastAgent"`, the
 * default: the next turn starts with the agent that answered, as a chat does after a handoff;
 * `"agent"`: always the given agent), `sdk` (the module, when it cannot be imported by name),
 * `maxConversations`.
 *
 * Timings: tool time from the runner's `agent_tool_start` / `agent_tool_end` events; model time
 * when every model call of the turn went through the runner's model provider (agents that name
 * their model — the SDK's usual setup — or a custom `modelProvider`); an agent holding a `Model`
 * object is not timed, and the split is then reported as unknown.
 */
export function fromOpenAIAgents(agent, options = {}) {
  if (agent === null || typeof agent !== 'object' || typeof agent.name !== 'string' || agent.name === '') {
    throw new EvalError('schema', '$', `${WHO}: expected an @openai/agents Agent (with a name), found ${describe(agent)}`);
  }
  if (!isPlainObject(options)) throw new EvalError('schema', '$.options', `${WHO}: options must be an object, found ${describe(options)}`);
  const runConfig = objectOption(options, 'runConfig', WHO);
  const runOptions = objectOption(options, 'runOptions', WHO);
  const { continueWith = 'lastAgent' } = options;
  if (!['lastAgent', 'agent'].includes(continueWith)) {
    throw new EvalError('schema', '$.options.continueWith', `${WHO}: continueWith must be "lastAgent" or "agent", found ${describe(continueWith)}`);
  }
  const store = conversations(WHO, options.maxConversations);
  let ready;
  return async function openAIAgentsAgent(turn) {
    checkTurn(turn, WHO);
    const signal = turn.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    let sdk;
    try {
      sdk = await (ready ??= loadSdk(options.sdk));
    } catch (err) {
      ready = undefined; // a later turn may succeed (e.g. after installing the package)
      throw err;
    }
    const conv = store.begin(turn, () => ({ history: [], agent }));
    const times = timeline();
    times.observe('tool');
    const calls = { count: 0 };
    const runner = new sdk.Runner({ ...runConfig, modelProvider: timedProvider(sdk, runConfig.modelProvider, times, calls) });
    const open = new Map();
    runner.on('agent_tool_start', (_ctx, _agent, _tool, d) => open.set(d?.toolCall ?? _tool, times.start('tool')));
    runner.on('agent_tool_end', (_ctx, _agent, _tool, _out, d) => open.get(d?.toolCall ?? _tool)?.());
    const input = [...conv.history, { role: 'user', content: turnText(turn) }];
    let result;
    try {
      result = await runner.run(conv.agent, input, { ...runOptions, signal });
      // A streamed run (`runOptions.stream`) is read to its end.
      if (typeof result?.completed?.then === 'function') await result.completed;
    } catch (err) {
      throw agentFailure(err, WHO, turn);
    }
    if (signal?.aborted) throw abortReason(signal);
    const agents = sdkAgents(conv.agent);
    const steps = openAIAgentsSteps(result, conv.agent);
    // Model time is known when every response came through the timed provider (more calls than
    // responses: agents run as tools, whose model time ADK's rule counts as model time too).
    if (calls.count >= steps.length) times.observe('model');
    else times.forget('model');
    const turnIndex = Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0;
    const events = stepsToEvents(steps, { who: WHO, author: agent.name, ids: (s, i) => `call_${turnIndex}_${s}_${i}` });
    conv.history = Array.isArray(result.history) ? result.history : input;
    if (continueWith === 'lastAgent' && result.lastAgent) conv.agent = result.lastAgent;
    return withAgents(reply(events, times), agents);
  };
}
