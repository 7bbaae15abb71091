// Types of `evalcore/adapters` (and the Agent contract the adapters implement). Hand-written:
// these describe host-facing callbacks. Self-contained like index.d.ts: no DOM or @types/node.

import type { AgentTurn, Content, JsonObject, JsonValue, UsageMetadata } from './index.js';

export type { Agent, AgentReply, AgentTurn, AbortSignalLike } from './index.js';

/** The turn an adapter reads: an AgentTurn, whose `signal` may be left out when called directly. */
export type AdapterTurn = Omit<AgentTurn, 'signal'> & { signal?: AgentTurn['signal'] | { readonly aborted: boolean; readonly reason?: unknown } };

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

/** The reply every adapter of this module gives: ADK events, nothing pre-digested. */
export interface EventsReply {
  events: ReplyEvent[];
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
  /** The tool's result; a non-object is recorded as `{ result: value }`. Omit it for no tool event. */
  response?: JsonValue;
  /** Defaults to `call_<turnIndex>_<i>`. */
  id?: string;
}

export interface FunctionReply {
  /** The final answer; `null`/absent means the turn has no final response. */
  text?: string | null;
  toolCalls?: FunctionToolCall[];
}

export type AgentFunction = (text: string, turn: AdapterTurn) => string | FunctionReply | Promise<string | FunctionReply>;

/**
 * Wraps a plain function as an Agent. Events: per tool call a model event with its
 * `function_call` (plus a tool event with the `function_response` when `response` is given),
 * then a model event with the text. A throw or rejection of `fn` rejects the turn with an
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
