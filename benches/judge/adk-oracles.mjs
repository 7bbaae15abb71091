// Checks the judge test harness with google-adk 2.13 itself: every judge_oracles.jsonl line is
// loaded into the loopback judge server (tests/js/support/judge-server.mjs, oracle mode) and
// scored by ADK's own pipeline (adk_oracles.py in benches/.venv), whose Gemini client sends
// ADK's real prompts to the server. ADK must reach each line's expected_result with a clean
// call accounting, as judge_oracles.md's `selftest.mjs --adk` says; a failure here is a bug in
// the server or the routing, not in evalcore.
//
//   node benches/judge/adk-oracles.mjs [FILE.jsonl]      (~1-2 min; needs benches/.venv)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const { startJudgeServer } = await import(join(ROOT, 'tests', 'js', 'support', 'judge-server.mjs'));
const { compareJudgeResult } = await import(join(ROOT, 'tests', 'js', 'support', 'judge-check.mjs'));
const { readJsonl, DATA } = await import(join(ROOT, 'tests', 'js', 'helpers.mjs'));

const file = process.argv[2] ?? join(DATA, 'judge_oracles.jsonl');
const rows = readJsonl(file);
const server = await startJudgeServer();
const py = spawn(join(ROOT, 'benches', '.venv', 'bin', 'python'), [join(HERE, 'adk_oracles.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: py.stdout })[Symbol.asyncIterator]();

let equal = 0;
let requests = 0;
for (const row of rows) {
  server.load(row);
  py.stdin.write(`${JSON.stringify({ row, baseUrl: server.baseUrl })}\n`);
  const { value, done } = await answers.next();
  if (done) throw new Error('adk_oracles.py stopped');
  const got = JSON.parse(value);
  const report = server.report();
  requests += report.requests;
  const diffs = got.thrown ? [`ADK raised ${got.thrown}`] : compareJudgeResult(row.expected_result, got);
  diffs.push(...report.problems.map((p) => `calls: ${p}`));
  if (diffs.length === 0) equal++;
  else console.log(`${row.id} (${row.tags.join(' ')}):\n  ${diffs.slice(0, 12).join('\n  ')}`);
}
py.stdin.end();
await server.close();
console.log(`google-adk through the loopback judge: ${equal}/${rows.length} equal to judge_oracles (${requests} judge requests)`);
process.exit(equal === rows.length ? 0 : 1);
