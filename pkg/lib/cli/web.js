//! `evalcore web AGENTS_DIR [--port N] [--host H]`: ADK's dev UI for @google/adk (JS) agents,
//! served by @google/adk-devtools' own server, with the Eval tab answered by evalcore. The
//! first line of output is its URL.
import { optionsFromEnv } from '../server/config.js';
import { hostList, hostPolicy } from '../server/guard.js';
import { parseArgs, UsageError } from './args.js';
import '../wasm/node_start.js';

export const FLAGS = { port: 'count', host: 'string', allowed_hosts: 'string', evals_dir: 'string' };

export const HELP = `Usage: evalcore web AGENTS_DIR [--port N] [--host H] [--allowed_hosts H,...] [--evals_dir DIR]

Serves ADK's dev UI (the bundle of @google/adk-devtools) for the @google/adk agents in
AGENTS_DIR, as \`adk web\` does: chat with an agent, then in the Eval tab add the session
to an eval set, run evals with chosen metrics and read the results. Chat, sessions and the
UI are @google/adk-devtools' own; the eval routes are evalcore's. Prints its URL first.

AGENTS_DIR is what @google/adk-devtools takes: a folder of agent folders (each with an
agent.js/agent.mjs or app.js exporting the agent) or of agent files. @google/adk and
@google/adk-devtools must be installed where the agents are (npm install @google/adk
@google/adk-devtools). Agents are imported as they are: JavaScript, not TypeScript.

Options:
  --port N          port (default 8000; 0: a free one)
  --host H          address to listen on (default 127.0.0.1)
  --allowed_hosts H[,H...]
                    other names the Host header may give (a proxy's, a DNS name of this
                    machine), or * for any; by default only 127.0.0.1, localhost, [::1] and
                    --host answer (also EVALCORE_ALLOWED_HOSTS). Pages of other origins can
                    change nothing here (docs/security.md)
  --evals_dir DIR   where eval sets and results are kept (default AGENTS_DIR, ADK's layout:
                    DIR/<app>/<id>.evalset.json, DIR/<app>/.adk/eval_history/)
  -h, --help        this help

LLM-judged metrics use the judge of the environment, as \`evalcore serve\`:
  EVALCORE_JUDGE (provider:model), EVALCORE_JUDGE_BASE_URL, and the provider's key.
`;

const COMMAND = 'web';

/** Runs until SIGINT/SIGTERM (io.onInterrupt); resolves to the exit code. */
export async function runWeb(argv, io) {
  const { positionals, options, help } = parseArgs(argv, FLAGS, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`takes one AGENTS_DIR, found ${positionals.length} arguments`, COMMAND);
  if (options.port !== undefined && options.port > 65535) throw new UsageError(`--port must be at most 65535, found ${options.port}`, COMMAND);
  let judge;
  let allowedHosts;
  try {
    const env = optionsFromEnv(io.env ?? {});
    judge = env.judge;
    allowedHosts = [...hostList(options.allowed_hosts), ...(env.allowedHosts ?? [])];
    hostPolicy(allowedHosts, [], '--allowed_hosts');
  } catch (e) {
    throw new UsageError(`${e.message}`, COMMAND);
  }
  const { existsSync, statSync } = await import('node:fs');
  if (!existsSync(positionals[0]) || !statSync(positionals[0]).isDirectory()) {
    throw new UsageError(`AGENTS_DIR ${JSON.stringify(positionals[0])} is not a folder`, COMMAND);
  }
  const { startDevUi } = await import('../server/devtools.js');
  const { url, stop } = await startDevUi({
    agentsDir: positionals[0],
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8000,
    evalsDir: options.evals_dir,
    judge,
    allowedHosts,
    log: (line) => io.stderr.write(`${line}\n`),
  });
  io.stdout.write(`${url}\n`);
  io.stderr.write(`evalcore web: dev UI at ${url}/dev-ui/; judge ${judge ? `${judge.provider}:${judge.model}` : 'none'}\n`);
  await new Promise((resolve) => {
    const done = () => resolve();
    if (io.onInterrupt) io.onInterrupt(done);
    else process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await stop();
  return 0;
}
