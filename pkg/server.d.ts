// Types of `evalcore/server`: the evaluation endpoint as a fetch handler (workerd, Deno, Node).
// Uses the Fetch API's global Request / Response types (DOM lib, @types/node, Deno, workers-types).

import type { Agent, Judge, MetricInfo } from './index.js';

export type { MetricInfo };

/** Every limit of the endpoint; each defaults to DEFAULT_LIMITS. */
export interface ServerLimits {
  /** Bytes of a request body (default 10 MiB; EVALCORE_MAX_BODY_BYTES). 413 too_large. */
  maxBodyBytes?: number;
  /** Eval cases in one request (default 100; EVALCORE_MAX_CASES). 413 too_many_cases. */
  maxCases?: number;
  /** numRuns of one request (default 5; EVALCORE_MAX_RUNS). 413 too_many_runs. */
  maxRuns?: number;
  /** Judge calls one request may make (default 200; EVALCORE_MAX_JUDGE_CALLS). 413 too_many_judge_calls when planned, else budget_exhausted. */
  maxCalls?: number;
  /** Evaluations in flight in one server instance (default 64; EVALCORE_MAX_CONCURRENT). 429 too_many_requests. */
  maxConcurrent?: number;
  /** One agent turn, in ms (default 60000; EVALCORE_AGENT_TIMEOUT_MS). The case fails with agent_timeout. */
  agentTimeoutMs?: number;
  /** Cases of one request scored at once (default 4; EVALCORE_CASE_CONCURRENCY). */
  caseConcurrency?: number;
  /** The core's parse budget (setLimits maxParseBytes), lowered to this for the instance (default 128 MiB; EVALCORE_MAX_PARSE_BYTES). 413 too_large. */
  maxParseBytes?: number;
}

export declare const DEFAULT_LIMITS: Readonly<Required<ServerLimits>>;

/** An agent the server runs by name: a callback, or an HTTP agent the server posts each turn to. */
export type ServerAgent = Agent | { url: string; headers?: Record<string, string>; fetch?: typeof fetch };

export interface HandlerOptions {
  /** The judge every request gets (with its key in `headers`); clients never choose one. */
  judge?: Judge | null;
  /** Agents a request may name in `agent`. */
  agents?: Record<string, ServerAgent>;
  /** Bearer token the /v1 routes require. */
  token?: string;
  limits?: ServerLimits;
  /** Origins browsers may call from ("*" for any): preflights answered, Access-Control-Allow-Origin on answers. */
  cors?: string | string[];
  /** One entry per request; never a header, a body or a key. */
  log?: (entry: { method: string; path: string; status: number; ms: number; code?: string }) => void;
}

export type FetchHandler = (request: Request, env?: unknown, ctx?: unknown) => Promise<Response>;

/** POST /v1/evaluate, POST /v1/validate, GET /v1/metrics, GET /healthz. */
export declare function createHandler(options?: HandlerOptions): FetchHandler;

/** createHandler's options from EVALCORE_* variables and the provider key variables. */
export declare function optionsFromEnv(env: Record<string, string | undefined>): HandlerOptions;

/** An Agent posting each turn as JSON to `url`, reading the agent's reply from the JSON answer. */
export declare function httpAgent(name: string, url: string, options?: { headers?: Record<string, string>; fetch?: typeof fetch }): Agent;

/** The module worker: configured from `env` (workerd) or the host's environment (Deno, Node). */
declare const worker: { fetch: FetchHandler };
export default worker;
