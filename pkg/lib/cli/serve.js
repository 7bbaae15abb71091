//! `evalcore serve [--port N] [--host H]`: the evaluation endpoint (evalcore/server) on Node's
//! http server, configured from the environment. The first line of output is its URL.
import { createHandler } from '../server/handler.js';
import { DEFAULT_LIMITS, optionsFromEnv } from '../server/config.js';
import { listenHosts, serveNode } from '../server/node.js';
import { hostList, hostPolicy } from '../server/guard.js';
import { localRuns } from '../server/runs/local.js';
import { resolve as resolvePath } from 'node:path';
import { keyVariables } from '../node/judge_env.js';
import { parseArgs, UsageError } from './args.js';
import '../wasm/node_start.js';

export const FLAGS = { port: 'count', host: 'string', allowed_hosts: 'string', agent: 'string', quiet: 'bool', runs_dir: 'string' };

export const HELP = `Usage: evalcore serve [--port N] [--host H] [--allowed_hosts H,...] [--agent NAME=MODULE[,NAME=MODULE...]] [--runs_dir DIR] [--quiet]

Serves the evaluation endpoint (POST /v1/evaluate, POST /v1/validate, GET /v1/metrics,
GET /healthz; with --runs_dir the job API under /v1/runs) and prints its URL as the first line.
It is also an OTLP/HTTP receiver (docs/traces.md): point an OpenTelemetry exporter at it and
each session is scored with EVALCORE_TRACES_CONFIG once quiet for EVALCORE_TRACE_IDLE_MS:
  POST /v1/traces                OTLP spans (JSON or protobuf, optionally gzip)
  POST /v1/logs                  OTLP log records (content an instrumentation logged apart)
  GET /v1/traces/sessions        the scored sessions (?limit=, ?after=), and what is held
  GET /v1/traces/sessions/ID     one session's record: its scorings, each an EvalSetResult
  POST /v1/traces/flush          scores every held session now

Options:
  --port N      port (default 8787; 0: a free one)
  --host H      address to listen on (default 127.0.0.1)
  --allowed_hosts H[,H...]
                other names the Host header may give (a proxy's, a DNS name of this
                machine), or * for any; by default only 127.0.0.1, localhost, [::1] and
                --host answer (DNS rebinding; docs/security.md)
  --agent NAME=MODULE[,...]
                agents a request may name, each an agent module as \`evalcore eval\` takes
                it (an Agent callback, an @google/adk agent, getAgent()); added to the
                HTTP agents of EVALCORE_AGENTS
  --runs_dir DIR keep runs (POST /v1/runs: evaluations that outlive their client) in DIR;
                a server started again on the same DIR resumes every unfinished run, redoing
                only the cases that were in flight (docs/runs.md)
  --quiet       no request log on stderr
  -h, --help    this help

The rest of the configuration comes from the environment:
  EVALCORE_TOKEN            bearer token the /v1 routes require
  EVALCORE_JUDGE            provider:model of the judge (gemini, openai, anthropic)
  EVALCORE_JUDGE_BASE_URL   the judge provider's base URL
  EVALCORE_JUDGE_CALLS_PER_MINUTE   the judge key's budget, shared by every run (--runs_dir)
  GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY   the judge's key
  EVALCORE_AGENTS           JSON {"name": "https://agent/turn"}: agents a request may name
  EVALCORE_CORS_ORIGINS     origins browsers may call from (comma separated, or *)
  EVALCORE_ALLOWED_HOSTS    as --allowed_hosts
  EVALCORE_JUDGE_MEDIA / EVALCORE_JUDGE_MEDIA_URIS   1: the judge sees the turns' media; the
                            file_data URIs it may be sent (gs:, https://host/path/; none by default)
  (the request log is on stderr unless --quiet; EVALCORE_LOG is for the module worker)
  EVALCORE_MAX_BODY_BYTES   (default ${DEFAULT_LIMITS.maxBodyBytes})   EVALCORE_MAX_CASES (default ${DEFAULT_LIMITS.maxCases})
  EVALCORE_MAX_RUNS         (default ${DEFAULT_LIMITS.maxRuns})   EVALCORE_MAX_JUDGE_CALLS (default ${DEFAULT_LIMITS.maxCalls})
  EVALCORE_MAX_CONCURRENT   (default ${DEFAULT_LIMITS.maxConcurrent})   EVALCORE_AGENT_TIMEOUT_MS (default ${DEFAULT_LIMITS.agentTimeoutMs})
  EVALCORE_CASE_CONCURRENCY (default ${DEFAULT_LIMITS.caseConcurrency})   EVALCORE_MAX_PARSE_BYTES (default ${DEFAULT_LIMITS.maxParseBytes})
  EVALCORE_MAX_ANSWER_BYTES (default ${DEFAULT_LIMITS.maxAnswerBytes})   EVALCORE_BODY_TIMEOUT_MS (default ${DEFAULT_LIMITS.bodyTimeoutMs})
  EVALCORE_MAX_RUN_CASES    (default ${DEFAULT_LIMITS.maxRunCases})   EVALCORE_MAX_RUN_BODY_BYTES (default ${DEFAULT_LIMITS.maxRunBodyBytes})
  EVALCORE_RUN_CONCURRENCY  (default ${DEFAULT_LIMITS.runConcurrency}: cases of all runs scored at once)   EVALCORE_MAX_ACTIVE_RUNS (default ${DEFAULT_LIMITS.maxActiveRuns})
  EVALCORE_MAX_PROMPT_BYTES (default ${DEFAULT_LIMITS.maxPromptBytes}: one judge call's prompt; past it NOT_EVALUATED, prompt_too_large)
  EVALCORE_JUDGE_CONCURRENCY (default ${DEFAULT_LIMITS.judgeConcurrency}: judge calls one request has in flight)
The trace receiver's (/v1/traces, /v1/logs):
  EVALCORE_TRACES_CONFIG    the eval config sessions are scored with, as JSON, e.g.
                            {"criteria": {"hallucinations_v1": 0.8}} (default: the efficiency figures only)
  EVALCORE_TRACE_IDLE_MS    (default ${DEFAULT_LIMITS.traceIdleMs}) quiet time before a session is scored
  EVALCORE_MAX_TRACE_BYTES  (default ${DEFAULT_LIMITS.maxTraceBytes}) a request body once decompressed
  EVALCORE_MAX_SESSION_SPANS (default ${DEFAULT_LIMITS.maxSessionSpans}) spans and log records one session may hold
  EVALCORE_MAX_TRACE_SESSIONS (default ${DEFAULT_LIMITS.maxTraceSessions}) sessions held awaiting scoring
  EVALCORE_MAX_HELD_TRACE_BYTES (default ${DEFAULT_LIMITS.maxHeldTraceBytes}) bytes of requests held
  EVALCORE_MAX_TRACE_INFLATIONS (default ${DEFAULT_LIMITS.maxTraceInflations}) gzip bodies inflated at once (more wait, then 429)
  EVALCORE_TRACE_RETENTION_MS (default ${DEFAULT_LIMITS.traceRetentionMs}) how long a scored session's record is kept (Workers)
`;

const COMMAND = 'serve';

/** Runs until SIGINT/SIGTERM (io.onInterrupt); resolves to the exit code. */
export async function runServe(argv, io) {
  const { positionals, options, help } = parseArgs(argv, FLAGS, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`takes no arguments, found "${positionals[0]}"`, COMMAND);
  if (options.port !== undefined && options.port > 65535) throw new UsageError(`--port must be at most 65535, found ${options.port}`, COMMAND);
  let config;
  try {
    config = optionsFromEnv(io.env ?? {});
  } catch (e) {
    throw new UsageError(`${e.message}`, COMMAND);
  }
  if (options.agent !== undefined) {
    const { loadAgent } = await import('../node/agent.js');
    config.agents ??= {};
    for (const item of options.agent.split(',')) {
      const m = /^\s*([A-Za-z0-9_.-]+)\s*=\s*(.+?)\s*$/.exec(item);
      if (!m) throw new UsageError(`--agent takes NAME=MODULE pairs separated by commas, found "${item}"`, COMMAND);
      if (Object.hasOwn(config.agents, m[1])) throw new UsageError(`--agent: agent "${m[1]}" is named twice`, COMMAND);
      // Defined, not assigned: a name like `__proto__` is an agent's name, not the prototype.
      Object.defineProperty(config.agents, m[1], { value: (await loadAgent(m[2], COMMAND)).agent, enumerable: true, writable: true, configurable: true });
    }
  }
  const host = options.host ?? '127.0.0.1';
  const extra = [...hostList(options.allowed_hosts), ...(config.allowedHosts ?? [])];
  try {
    hostPolicy(extra, [], '--allowed_hosts');
  } catch (e) {
    throw new UsageError(e.message, COMMAND);
  }
  config.allowedHosts = extra.includes('*') ? '*' : [...listenHosts(host), ...extra];
  const log = options.quiet ? undefined
    : (e) => io.stderr.write(`${e.method} ${e.path} ${e.status}${e.code ? ` ${e.code}` : ''} ${e.ms}ms\n`);
  if (options.runs_dir !== undefined) {
    if (options.runs_dir.trim() === '') throw new UsageError('--runs_dir needs a folder', COMMAND);
    config.runs = localRuns({ dir: resolvePath(options.runs_dir), log: (e) => io.stderr.write(`evalcore serve: runs: ${JSON.stringify(e)}\n`) });
  }
  const handler = createHandler({ ...config, log });
  await handler.runs?.engine.ready;
  const { url, close } = await serveNode(handler, { port: options.port ?? 8787, host });
  io.stdout.write(`${url}\n`);
  const keyNote = (j) => (j.headers ? ' (key from the environment)' : j.baseUrl ? '' : ` (no API key: set ${keyVariables(j.provider)})`);
  const judge = config.judge ? `${config.judge.provider}:${config.judge.model}${keyNote(config.judge)}` : 'none';
  io.stderr.write(`evalcore serve: judge ${judge}; token ${config.token ? 'required' : 'not required'}; agents ${Object.keys(config.agents ?? {}).join(', ') || 'none'}${options.runs_dir === undefined ? '' : `; runs in ${resolvePath(options.runs_dir)}`}\n`);
  await new Promise((resolve) => {
    const stop = () => resolve();
    if (io.onInterrupt) io.onInterrupt(stop);
    else process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await handler.runs?.engine.close();
  await close();
  return 0;
}
