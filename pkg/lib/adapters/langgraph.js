// `fromLangGraph`: a compiled LangGraph.js graph (`createReactAgent`, a `StateGraph` with a
// `messages` channel) as an evalcore Agent. Each turn invokes the graph with the new user
// message — on the conversation's own `thread_id` when the graph has a checkpointer, else with
// every message of the conversation so far — and reads the messages the turn added: an
// AIMessage is a step (its text, its `tool_calls`, its `usage_metadata`, its `name` the author),
// the ToolMessages that answer it are its calls' results. LangChain callbacks time the model and
// tool runs. Nothing of LangChain is imported: messages are read by their documented fields.
import { EvalError, abortReason, callUser, checkTurn, describe, isPlainObject, objectOption, turnText } from './common.js';
import { agentsFromOptions, withAgents } from './agent_details.js';
import { conversations } from './conversations.js';
import { authorOf } from './generic.js';
import { argsObject, reply, stepsToEvents, textResponse, timeline, usageAt } from './steps.js';

const WHO = 'fromLangGraph';

/** A message's type: `getType()` of a LangChain message, or the `role`/`type` of a plain one. */
function typeOf(m) {
  if (m && typeof m.getType === 'function') return m.getType();
  const t = m?.type ?? m?.role ?? m?._getType?.();
  return t === 'assistant' ? 'ai' : t === 'user' ? 'human' : t;
}

/** The text of a message's content: a string, or its text blocks joined. */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (typeof b === 'string' ? b : b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/** LangChain `usage_metadata` as the steps' usage (its output counts reasoning, as OpenAI's). */
const usageOf = (u) => usageAt(u, {
  inputTokens: ['input_tokens'], outputTokens: ['output_tokens'], totalTokens: ['total_tokens'],
  reasoningTokens: ['output_token_details.reasoning'], cachedInputTokens: ['input_token_details.cache_read'],
});

const HANDOFF = /^transfer_to_(.+)$/;

/**
 * The messages one turn added, as steps: an AIMessage is a step, the ToolMessages after it its
 * calls' results (`status: "error"` is an error). A `transfer_to_<name>` call (the handoff tools
 * of langgraph-supervisor and -swarm) after which agent `<name>` speaks is ADK's handoff.
 */
export function langGraphSteps(messages, author) {
  const steps = [];
  const calls = new Map();
  messages.forEach((m, i) => {
    const type = typeOf(m);
    if (type === 'ai') {
      const step = { author: typeof m.name === 'string' && m.name !== '' ? m.name : author, toolCalls: [], toolResults: [] };
      const text = contentText(m.content);
      if (text !== '') step.text = text;
      const list = [...(Array.isArray(m.tool_calls) ? m.tool_calls : []), ...(Array.isArray(m.invalid_tool_calls) ? m.invalid_tool_calls : [])];
      list.forEach((tc, j) => {
        if (!isPlainObject(tc) || typeof tc.name !== 'string' || tc.name === '') return;
        const call = { id: tc.id ?? undefined, name: tc.name, args: argsObject(tc.args, `$.messages[${i}].tool_calls[${j}].args`, WHO) };
        step.toolCalls.push(call);
        if (typeof tc.id === 'string') calls.set(tc.id, call);
      });
      const usage = usageOf(m.usage_metadata);
      if (usage) step.usage = usage;
      const meta = isPlainObject(m.response_metadata) ? m.response_metadata : {};
      const model = meta.model_name ?? meta.model ?? meta.modelName;
      if (typeof model === 'string' && model !== '') step.model = model;
      steps.push(step);
    } else if (type === 'tool') {
      const text = contentText(m.content);
      const result = m.status === 'error' ? { error: text } : { response: textResponse(text) };
      const call = calls.get(m.tool_call_id);
      if (call) Object.assign(call, result);
      else if (steps.length > 0) steps.at(-1).toolResults.push({ id: m.tool_call_id, name: m.name, ...result });
    }
  });
  // Handoffs: the agent named by the tool speaks later in the turn.
  const speakers = steps.map((s) => s.author);
  steps.forEach((step, s) => {
    for (const call of step.toolCalls) {
      const to = HANDOFF.exec(call.name)?.[1];
      if (to !== undefined && speakers.slice(s + 1).includes(to)) {
        call.transferTo = to;
        delete call.response;
        delete call.error;
      }
    }
  });
  return steps;
}

/** LangChain callbacks that time the turn's model and tool runs (by run id). */
function timingCallbacks(times) {
  times.observe('model');
  times.observe('tool');
  const open = new Map();
  const start = (kind) => (...a) => open.set(a[2], times.start(kind));
  const end = (...a) => {
    open.get(a[1])?.();
    open.delete(a[1]);
  };
  return {
    awaitHandlers: true,
    handleChatModelStart: start('model'),
    handleLLMStart: start('model'),
    handleLLMEnd: end,
    handleLLMError: end,
    handleToolStart: start('tool'),
    handleToolEnd: end,
    handleToolError: end,
  };
}

/** Where the turn's new messages start: after our user message (by id), else after the last human one. */
function newSince(messages, id) {
  let at = messages.findIndex((m) => m?.id === id);
  if (at < 0) at = messages.findLastIndex((m) => typeOf(m) === 'human');
  return messages.slice(at + 1);
}

/**
 * Wraps a compiled LangGraph graph as an evalcore Agent. Options: `author` (for AIMessages
 * without a `name`), `config` (the RunnableConfig of every invoke: `configurable`, `callbacks`,
 * `recursionLimit` ...), `threads` (`true`: the graph's checkpointer keeps the conversation on a
 * `thread_id` of its own per conversation; default: when the graph has a checkpointer),
 * `maxConversations`, `instructions` and `tools` (the agent's system prompt and tools, which a
 * compiled graph does not expose: the judges are shown them, as ADK shows its agents').
 */
export function fromLangGraph(graph, options = {}) {
  if (graph === null || typeof graph !== 'object' || typeof graph.invoke !== 'function') {
    throw new EvalError('schema', '$', `${WHO}: expected a compiled LangGraph graph (with invoke), found ${describe(graph)}`);
  }
  const author = authorOf(options, WHO);
  const agents = agentsFromOptions(author, options, WHO);
  const threads = options.threads ?? Boolean(graph.checkpointer);
  const base = objectOption(options, 'config', WHO);
  const store = conversations(WHO, options.maxConversations);
  let nextThread = 0;
  return async function langGraphAgent(turn) {
    checkTurn(turn, WHO);
    const signal = turn.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const conv = store.begin(turn, () => ({ messages: [], thread: `evalcore-${turn.sessionId ?? 'session'}-${nextThread++}` }));
    const id = `evalcore-user-${turn.sessionId ?? ''}-${turn.turnIndex ?? 0}-${nextThread++}`;
    const user = { role: 'user', content: turnText(turn), id };
    const times = timeline();
    const userCallbacks = Array.isArray(base.callbacks) ? base.callbacks : [];
    const config = {
      ...base,
      callbacks: [...userCallbacks, timingCallbacks(times)],
      ...(threads ? { configurable: { ...base.configurable, thread_id: conv.thread } } : {}),
      ...(signal ? { signal } : {}),
    };
    const input = { messages: threads ? [user] : [...conv.messages, user] };
    const state = await callUser((i, c) => graph.invoke(i, c), [input, config], WHO, turn);
    if (signal?.aborted) throw abortReason(signal);
    if (!isPlainObject(state) || !Array.isArray(state.messages)) {
      throw new EvalError('agent_reply', '$.messages', `${WHO}: the graph must return a state with a messages list, found ${describe(state?.messages ?? state)}`);
    }
    const turnIndex = Number.isInteger(turn.turnIndex) ? turn.turnIndex : 0;
    const steps = langGraphSteps(newSince(state.messages, id), author);
    const events = stepsToEvents(steps, { author, who: WHO, ids: (s, i) => `call_${turnIndex}_${s}_${i}` });
    if (!threads) conv.messages = state.messages;
    return withAgents(reply(events, times), agents);
  };
}
