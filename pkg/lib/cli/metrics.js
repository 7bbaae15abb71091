//! `evalcore metrics`: every metric name evalcore scores (ADK 2.13's, evalcore's, agents-cli's),
//! from the core's registry: how it is computed, whether it needs a judge, its score range.
import '../wasm/node_start.js';
import { metricsInfo } from '../wasm/api.js';
import { parseArgs } from './args.js';

const COMMAND = 'metrics';

export const HELP = `Usage: evalcore metrics [--json]

Lists every metric name evalcore accepts in a config's criteria (or agents-cli's metrics_to_run):
its kind (scored: deterministic; judged: needs --judge; informational: always reported), its
score range and what it measures. Custom metrics (customMetrics, --custom_metrics, an agents-cli
prompt_template) come on top of these.

  --json      the listing as JSON (what GET /v1/metrics of \`evalcore serve\` answers)
`;

/** Runs `evalcore metrics`; returns the exit code. */
export async function runMetrics(argv, io) {
  const { positionals, options, help } = parseArgs(argv, { json: 'bool' }, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    io.stderr.write(`evalcore metrics: unexpected argument "${positionals[0]}"\n`);
    return 2;
  }
  const list = metricsInfo();
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ metrics: list }, null, 2)}\n`);
    return 0;
  }
  const range = (m) => (m.min === null ? '' : `${m.min}..${m.max ?? '∞'}`);
  const rows = [['metric', 'kind', 'range', 'what'], ...list.map((m) => [m.name, m.kind, range(m), m.description])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) io.stdout.write(`${r.slice(0, 3).map((c, i) => c.padEnd(widths[i])).join('  ')}  ${r[3]}\n`);
  return 0;
}
