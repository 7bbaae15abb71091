// Types of `evalcore/adapters` (and the Agent contract the adapters implement). Hand-written:
// these describe host-facing callbacks. Self-contained like index.d.ts: no DOM or @types/node.

import type { AgentTurn, Content, JsonObject, JsonValue, StandardAbortSignal, Timings, UsageMetadata } from './index.js';

export type { Agent, AgentReply, AgentTurn, AbortSignalLike, StandardAbortSignal, Timings } from './index.js';

/** The turn an adapter reads: an AgentTurn, whose `signal` may be left out when called directly. */
export type AdapterTurn = Omit<AgentTurn, 'signal'> & { signal?: AgentTurn['signal'] };

/** `actions` of an ADK event, snake_case as ADK Python writes it. */
export interface AdkEventActions {
  skip_summarization?: boolean | null;
  state_delta?: JsonObject;
  artifact_delta?: { [filename: string]: number };
  transfer_to_agent?: string | null;
  escalate?: boolean | null;
  requested_auth_configs?: JsonObject;
  requested_tool_confirmations?: JsonObject;
  [field: string]: unknown;
}

/** An ADK event in the JSON shape ADK Python writes into `invocation_events`. */
export interface AdkEventJson {
  author: string;
  content?: Content | null;
  usage_metadata?: UsageMetadata | null;
  model_version?: string | null;
  grounding_metadata?: JsonObject | null;
  partial?: boolean | null;
  turn_complete?: boolean | null;
  finish_reason?: string | null;
  error_code?: string | null;
  error_message?: string | null;
  interrupted?: boolean | null;
  custom_metadata?: JsonObject | null;
  actions?: AdkEventActions;
  long_running_tool_ids?: string[] | null;
  branch?: string | null;
  invocation_id?: string;
  id?: string;
  /** Seconds since the Unix epoch, as Python's `time.time()`. */
  timestamp?: number;
  [field: string]: unknown;
}

/**
 * An event as an AgentReply carries it: the ADK event's fields, typed, on a plain JSON object
 * (the intersection keeps it assignable to `AgentReply`'s `JsonObject[]`).
 */
export type ReplyEvent = AdkEventJson & JsonObject;

/**
 * A tool as the judges are shown it: a framework's tool object (its `name` or `id`, its
 * `description`, and its parameters as a JSON Schema or a schema that writes one: zod 4, the AI
 * SDK's `jsonSchema()`), named by its key when tools come as an object of tools by name.
 */
export type ToolLike = { name?: string; id?: string; description?: string; parameters?: unknown; inputSchema?: unknown; schema?: unknown; [field: string]: unknown };

/** What an agent was, as a reply's `agents` says it (made into ADK's AppDetails by the core). */
export interface AgentDescription {
  name: string;
  instructions?: string;
  tools?: { name: string; description?: string; parameters?: JsonObject }[];
}

/** The reply every adapter of this module gives: ADK events, nothing pre-digested, the turn's timings, and what the adapter knows of its agents. */
export interface EventsReply {
  events: ReplyEvent[];
  timings?: Timings;
  agents?: AgentDescription[];
}

/** One agent as a reply or an option describes it (a name left out is the adapter's author). */
export interface AgentDescriptionInput {
  name?: string;
  instructions?: string;
  tools?: ToolLike[] | { [name: string]: ToolLike };
}

/**
 * The agent's system prompt and tools, for adapters that cannot see them (the judges are shown
 * them as ADK shows its agents'): `instructions` and `tools` of the agent `author`, or `agents`
 * for several (a graph's agents, by the names their messages carry).
 */
export interface AgentDescriptionOptions {
  instructions?: string;
  tools?: ToolLike[] | { [name: string]: ToolLike };
  agents?: AgentDescriptionInput[];
}

export interface AdapterOptions {
  /** The agent name written as the events' `author` (default `"agent"`, ADK's default). */
  author?: string;
}

// ---------------------------------------------------------------------------------------------
// fromFunction

export interface FunctionToolCall {
  name: string;
  /** Defaults to `{}`, as a model's function call always carries an args object. */
  args?: JsonObject;
  /** The tool's result; a non-object is recorded as `{ result: value }`. Omit it (and `error`) for no tool event. */
  response?: unknown;
  /** The tool failed: recorded as the response `{ error: message }`. */
  error?: unknown;
  /** Defaults to `call_<turnIndex>_<i>` (`call_<turnIndex>_<step>_<i>` in `steps`). */
  id?: string;
}

/**
 * Token counts of a model call (or of a whole turn): output counts the reasoning tokens, input
 * the cached ones, as OpenAI, Anthropic and the AI SDK count them. Recorded as genai's
 * `usage_metadata` (candidates = output - reasoning, thoughts = reasoning).
 */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  totalTokens?: number;
}

/** A step's tool call; `transferTo` makes it a handoff (ADK's `transfer_to_agent`). */
export interface StepToolCall extends FunctionToolCall {
  transferTo?: string;
}

/**
 * One model call and what came of it: the text it said (beside tool calls: an intermediate
 * response; the last text without tool calls: the final response), its tool calls in order with
 * their results, its usage and model. docs/frameworks.md has the whole mapping.
 */
export interface Step {
  /** The agent that made the call (default: the adapter's author). */
  author?: string;
  text?: string | null;
  toolCalls?: StepToolCall[];
  /** Results that answer calls of earlier steps (or of no call the step lists). */
  toolResults?: { id?: string; name?: string; response?: unknown; error?: unknown }[];
  usage?: TokenUsage;
  /** The model's name (ADK's `model_version`). */
  model?: string;
}

export interface FunctionReply {
  /** The final answer; `null`/absent means the turn has no final response. */
  text?: string | null;
  /** The short form: one step per call, in order (use `steps` for several calls in one step). */
  toolCalls?: FunctionToolCall[];
  /** What happened, model call by model call (instead of `toolCalls`). */
  steps?: Step[];
  /** The whole turn's token counts (on the last step), when the steps carry none. */
  usage?: TokenUsage;
  /** The model's name, for every step that names none. */
  model?: string;
  /** When the turn awaited a model and ran tools. */
  timings?: Timings;
  /** What the judges are shown of the agents (ADK's AppDetails): a name left out is the author's. */
  agents?: AgentDescriptionInput[];
}

export type AgentFunction = (text: string, turn: AdapterTurn) => string | FunctionReply | Promise<string | FunctionReply>;

/**
 * Wraps a plain function as an Agent. Events: per step a model event with its text and
 * `function_call`s (plus a tool event with the `function_response`s of the calls that have a
 * `response` or `error`), then a model event with the final text. A throw or rejection of `fn` rejects the turn with an
 * `EvalError` (`code: "agent_error"`, `cause`: the original error); a malformed return value is an
 * `EvalError` `"agent_reply"` with the path of the offending field.
 */
export declare function fromFunction(fn: AgentFunction, options?: AdapterOptions): (turn: AdapterTurn) => Promise<EventsReply>;

// ---------------------------------------------------------------------------------------------
// fromOpenAIMessages

export interface OpenAIToolCall {
  id?: string;
  type?: 'function';
  function: {
    name: string;
    /** JSON text; unparsable or non-object text is recorded as `{ _raw: text }`. */
    arguments?: string | JsonObject | null;
  };
}

export type OpenAIContent = string | null | Array<{ type?: string; text?: string; refusal?: string; [field: string]: unknown }>;

/** OpenAI chat-completions usage; not part of a message, but copied onto one by many loggers. */
export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; [field: string]: unknown };
  completion_tokens_details?: { reasoning_tokens?: number; [field: string]: unknown };
  [field: string]: unknown;
}

export type OpenAIMessage =
  | { role: 'system' | 'developer' | 'user'; content?: OpenAIContent; [field: string]: unknown }
  | {
      role: 'assistant';
      content?: OpenAIContent;
      refusal?: string | null;
      tool_calls?: OpenAIToolCall[] | null;
      /** Legacy single function call. */
      function_call?: { name: string; arguments?: string | JsonObject | null } | null;
      /** Non-standard: becomes the event's `usage_metadata`. */
      usage?: OpenAIUsage;
      /** Non-standard: becomes the event's `model_version`. */
      model?: string;
      [field: string]: unknown;
    }
  | { role: 'tool'; tool_call_id: string; content?: OpenAIContent; name?: string; [field: string]: unknown }
  | { role: 'function'; name: string; content?: OpenAIContent; [field: string]: unknown };

export type OpenAIMessagesFunction = (
  text: string,
  turn: AdapterTurn,
) => OpenAIMessage[] | { messages: OpenAIMessage[] } | Promise<OpenAIMessage[] | { messages: OpenAIMessage[] }>;

export interface FromOpenAIMessages {
  /**
   * Wraps an agent that returns an OpenAI chat-completions message log as an Agent. Failures are
   * reported as by `fromFunction`.
   */
  (fn: OpenAIMessagesFunction, options?: AdapterOptions): (turn: AdapterTurn) => Promise<EventsReply>;
  /**
   * The pure conversion, for recorded logs: only messages after the last `user` message count;
   * an assistant message is one model event (text, then a `function_call` per tool call);
   * consecutive tool messages are one event with a `function_response` each (content parsed as
   * JSON when it is a JSON object, else `{ result }`).
   */
  convert(messages: OpenAIMessage[], options?: AdapterOptions): EventsReply;
}

export declare const fromOpenAIMessages: FromOpenAIMessages;

/** Same as `fromOpenAIMessages.convert`. */
export declare function convertOpenAIMessages(messages: OpenAIMessage[], options?: AdapterOptions): EventsReply;

// ---------------------------------------------------------------------------------------------
// The frameworks. Their own objects are accepted structurally: nothing here imports a framework's
// types, so a project without it type-checks; a project with it passes its objects as they are.

/** Options every framework adapter takes. */
export interface ConversationOptions {
  /**
   * How many conversations the adapter keeps history for at once (least recently used dropped;
   * default 1000). A turn whose conversation was dropped fails with `agent_error`.
   */
  maxConversations?: number;
}

/** What `fromAiSdk` hands the user's call each turn. */
export interface AiSdkRunArgs {
  /**
   * The conversation so far as the AI SDK's `ModelMessage[]` (every message of the earlier
   * turns, tool calls and results included), ending with the new user message. Typed `any` so it
   * passes to `generateText`/`streamText` without this package importing the AI SDK's types.
   */
  messages: any[];
  /** The turn's abort signal: pass it as `abortSignal`. */
  signal: StandardAbortSignal | undefined;
  /**
   * For `telemetry` (AI SDK 7) or `experimental_telemetry` (6 and earlier): what records when the
   * turn awaited the model and ran tools (the model / tool split of `invocation_duration_v1`) —
   * an integration for AI SDK 7, which passes every event on to the integrations registered with
   * its `registerTelemetry`, and a tracer for 6 — with `functionId` the agent's name. It records
   * no inputs or outputs unless something of yours listens too (`options.tracer`, a registered
   * integration).
   */
  telemetry: { isEnabled: true; tracer: any; functionId: string; integrations: any[]; recordInputs?: boolean; recordOutputs?: boolean };
  turn: AdapterTurn;
}

/** A step of an AI SDK result, as the adapter reads it (v7 and v6 `StepResult`; v5 and v4 fields too). */
export interface AiSdkStepLike {
  readonly content?: ReadonlyArray<unknown>;
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<unknown>;
  readonly toolResults?: ReadonlyArray<unknown>;
  readonly usage?: unknown;
  readonly response?: { readonly modelId?: string; readonly messages?: ReadonlyArray<unknown> };
  readonly model?: { readonly modelId?: string };
}

type MaybePromise<T> = T | PromiseLike<T>;

/** A `generateText` result, or a `streamText` one (whose fields are promises; it is read to its end). */
export interface AiSdkResultLike {
  readonly steps: MaybePromise<ReadonlyArray<AiSdkStepLike>>;
  readonly response?: MaybePromise<{ readonly messages?: ReadonlyArray<unknown> }>;
  /** AI SDK 7: every step's messages (its `response.messages` has the last step's). */
  readonly responseMessages?: MaybePromise<ReadonlyArray<unknown>>;
  readonly text?: MaybePromise<string>;
  consumeStream?(...args: any[]): PromiseLike<unknown>;
}

export interface FromAiSdkOptions extends AdapterOptions, ConversationOptions, AgentDescriptionOptions {
  /**
   * Your own OpenTelemetry tracer, for AI SDK 6 and earlier: it still receives every span of
   * `telemetry`. AI SDK 7 takes no tracer: register `@ai-sdk/otel`'s integration instead.
   */
  tracer?: any;
}

/**
 * Wraps the user's own AI SDK call as an Agent: `run` gets the conversation so far, the turn's
 * signal and a telemetry setting, and returns the result of `generateText` or `streamText` (or
 * a `ToolLoopAgent`'s `generate`/`stream`). Each step of the result is a step (its text, its tool
 * calls with their results or errors, its usage and model); the conversation's messages carry on
 * to the next turn.
 */
export declare function fromAiSdk(
  run: (args: AiSdkRunArgs) => MaybePromise<AiSdkResultLike>,
  options?: FromAiSdkOptions,
): (turn: AdapterTurn) => Promise<EventsReply>;

/** An `@openai/agents` Agent, as the adapter reads it. */
export interface OpenAIAgentLike {
  readonly name: string;
  readonly model?: unknown;
}

export interface FromOpenAIAgentsOptions extends ConversationOptions {
  /** The `Runner`'s config (model provider, model settings, guardrails, tracing ...). */
  runConfig?: object;
  /** Options of every `runner.run`: `context`, `maxTurns` ... (the turn's signal is added). */
  runOptions?: object;
  /** Who answers the next turn: the agent that answered last (default, as a chat continues after a handoff), or always the given one. */
  continueWith?: 'lastAgent' | 'agent';
  /** The `@openai/agents` module, when `import('@openai/agents')` cannot find the project's copy. */
  sdk?: object;
}

/**
 * Wraps an `@openai/agents` Agent as an Agent: each turn is `runner.run(agent, history + the
 * user's message)`. Model responses are steps (messages as text, tool calls with their outputs,
 * handoffs as ADK's `transfer_to_agent` with the receiving agent the author of what follows),
 * each with its usage; tool time from the runner's tool events, model time through the runner's
 * model provider.
 */
export declare function fromOpenAIAgents(agent: OpenAIAgentLike, options?: FromOpenAIAgentsOptions): (turn: AdapterTurn) => Promise<EventsReply>;

/** A compiled LangGraph graph, as the adapter calls it. */
export interface LangGraphLike {
  invoke(input: any, config?: any): PromiseLike<any>;
  readonly checkpointer?: unknown;
}

export interface FromLangGraphOptions extends AdapterOptions, ConversationOptions, AgentDescriptionOptions {
  /** The RunnableConfig of every invoke (`configurable`, `callbacks`, `recursionLimit` ...). */
  config?: object;
  /** `true`: the graph's checkpointer keeps each conversation on a `thread_id` of its own (default: when the graph has one). */
  threads?: boolean;
}

/**
 * Wraps a compiled LangGraph graph (`createReactAgent`, a StateGraph with `messages`) as an
 * Agent: AIMessages are steps (`tool_calls`, `usage_metadata`, `name` as the author), the
 * ToolMessages that answer them their results; LangChain callbacks time model and tool runs.
 */
export declare function fromLangGraph(graph: LangGraphLike, options?: FromLangGraphOptions): (turn: AdapterTurn) => Promise<EventsReply>;

/** A Mastra Agent, as the adapter calls it. */
export interface MastraAgentLike {
  readonly name?: string;
  generate(messages: any, options?: any): PromiseLike<any>;
}

export interface FromMastraOptions extends AdapterOptions, ConversationOptions, AgentDescriptionOptions {
  /** Options of every `agent.generate` (`maxSteps`, `modelSettings` ...; the turn's signal is added as `abortSignal`). */
  generateOptions?: object;
}

/**
 * Wraps a Mastra Agent as an Agent through `agent.generate`: each step of the result (its text,
 * tool calls, tool results, usage, model) is a step. Mastra reports no per-call timing through
 * `generate`: the model / tool split is unknown.
 */
export declare function fromMastra(agent: MastraAgentLike, options?: FromMastraOptions): (turn: AdapterTurn) => Promise<EventsReply>;
