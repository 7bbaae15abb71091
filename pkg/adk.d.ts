// Types of `evalcore/adk`. Hand-written, and typed loosely on the ADK side on purpose: this
// file must compile for users who do not have @google/adk installed.

import type { AppDetails, JsonObject } from './index.js';
import type { AdapterTurn, ReplyEvent } from './adapters.js';

export type { AdapterTurn, AdkEventJson, Agent, AgentTurn, ReplyEvent } from './adapters.js';

export interface FromAdkAgentOptions {
  /**
   * The `@google/adk` module namespace (`await import('@google/adk')`). Default: imported on the
   * first turn; pass it when evalcore cannot resolve the package itself (e.g. a symlinked install).
   */
  adk?: object;
  /** Session service for runners this adapter builds (default: one InMemorySessionService). */
  sessionService?: object;
  /** Artifact service for runners this adapter builds (default: an InMemoryArtifactService). */
  artifactService?: object;
  /** Memory service for runners this adapter builds (default: an InMemoryMemoryService). */
  memoryService?: object;
  /** Extra plugins for runners this adapter builds from an agent. */
  plugins?: object[];
  /** Passed to `runner.runAsync` as `runConfig` (e.g. a streaming mode). */
  runConfig?: object;
}

/** What a turn of an ADK agent answers. */
export interface AdkAgentReply {
  /** Every event the runner yielded for the turn, in ADK Python's JSON shape (no user event). */
  events: ReplyEvent[];
  /** ADK's AppDetails: per agent that called a model, its system instruction and tool declarations. */
  appDetails: AppDetails & JsonObject;
}

/**
 * Wraps an `@google/adk` agent (LlmAgent, workflow agents, any root a Runner accepts), an `App`
 * or a `Runner` as an evalcore Agent: one ADK session per conversation (created on its first
 * turn with the case's app name, user id and initial state; reused by later turns), the turn's
 * events in ADK Python's JSON shape, and AppDetails recorded from the model requests. A failure
 * inside ADK rejects with an `EvalError` (`code: "agent_error"`, `cause`: ADK's error).
 */
export declare function fromAdkAgent(
  agentOrRunner: object,
  options?: FromAdkAgentOptions,
): (turn: AdapterTurn) => Promise<AdkAgentReply>;
