// A judged evaluation in Deno: `import 'evalcore'` (the package's "deno" entry) runs
// evaluateInvocations on three judge_oracles.jsonl lines (final_response_match_v2, a rubric
// metric, hallucinations_v1 with intermediate responses) with Deno's own fetch against loopback
// judge servers started here in Node (oracle mode). The verdicts must equal google-adk 2.13's
// and the call accounting must be clean, exactly as in tests/js/judge-oracles.test.mjs.
import assert from 'node:assert/strict';
import { denoRunner } from './deno-runner.mjs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readJsonl } from '../js/helpers.mjs';
import { compareJudgeResult } from '../js/support/judge-check.mjs';
import { startJudgeServer } from '../js/support/judge-server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const PKG = join(ROOT, 'pkg');
// The vectors and oracles, copied from ../shared by scripts/refresh-test-data.sh.
const DATA = join(ROOT, 'tests', 'data');
const DENO = process.env.DENO ?? join(ROOT, '.tools', 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
const ORACLES = join(DATA, 'judge_oracles.jsonl');

// Runs in Deno: evaluates each line against its server and prints the results as JSON.
const DENO_SCRIPT = `import * as ec from 'evalcore';
const [file, jobsJson] = Deno.args;
const rows = new Map((await Deno.readTextFile(file)).split('\\n').filter((l) => l.trim()).map((l) => { const r = JSON.parse(l); return [r.id, r]; }));
const out = { runtime: 'deno ' + Deno.version.deno, entry: import.meta.resolve('evalcore'), results: {} };
for (const { id, baseUrl } of JSON.parse(jobsJson)) {
  const row = rows.get(id);
  try {
    out.results[id] = await ec.evaluateInvocations({
      evalCase: row.eval_case, actual: row.actual_invocations, config: row.config,
      judge: { provider: 'openai', model: 'm', baseUrl },
    });
  } catch (e) {
    out.results[id] = { thrown: String(e?.message ?? e) };
  }
}
console.log(JSON.stringify(out));
`;

const work = mkdtempSync(join(tmpdir(), 'evalcore-judge-deno-'));
const servers = [];
const denoProcess = denoRunner(DENO, work);
after(async () => {
  denoProcess.kill();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(work, { recursive: true, force: true });
});

const runDeno = (args, cwd) => denoProcess.run(args, cwd);

test('deno: judged evaluateInvocations against the loopback judge equals google-adk 2.13', async (t) => {
  assert.ok(existsSync(DENO), `deno not found at ${DENO}: run scripts/setup.sh`);
  const lines = readJsonl(ORACLES);
  const pick = (pred, what) => {
    const line = lines.find(pred);
    assert.ok(line, `no line for ${what}`);
    return line;
  };
  const chosen = [
    pick((l) => l.tags.includes('metric:final_response_match_v2') && !l.tags.includes('cfg:two_metrics') && l.actual_invocations.length > 1, 'final_response_match_v2'),
    pick((l) => l.tags.includes('metric:rubric_based_final_response_quality_v1') && l.tags.includes('cfg:two_metrics'), 'a rubric metric with a second metric'),
    pick((l) => l.tags.includes('hallu:intermediate'), 'hallucinations_v1 with intermediate responses'),
  ];
  const jobs = [];
  for (const line of chosen) {
    const server = await startJudgeServer();
    servers.push(server);
    server.load(line);
    jobs.push({ id: line.id, baseUrl: `${server.baseUrl}/v1` });
  }

  const project = join(work, 'deno');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'deno-judge-consumer', private: true, type: 'module', dependencies: { evalcore: 'file:../pkg' } }));
  symlinkSync(PKG, join(project, 'node_modules', 'evalcore'), 'dir');
  writeFileSync(join(project, 'judge-run.mjs'), DENO_SCRIPT);
  const stdout = await runDeno([
    'run', '--quiet', '--no-lock', '--no-config', '--node-modules-dir=manual',
    `--allow-read=${project},${PKG},${DATA}`, '--allow-net=127.0.0.1',
    'judge-run.mjs', ORACLES, JSON.stringify(jobs),
  ], project);
  const out = JSON.parse(stdout);
  assert.match(out.entry, /\/index\.js$/, `deno resolved evalcore to ${out.entry}`);
  t.diagnostic(`${out.runtime}: ${chosen.map((l) => l.id).join(', ')}`);

  const failures = [];
  chosen.forEach((line, i) => {
    const got = out.results[line.id];
    const diffs = got?.thrown !== undefined ? [`evaluateInvocations threw in Deno: ${got.thrown}`] : compareJudgeResult(line.expected_result, got);
    const report = servers[i].report();
    diffs.push(...report.problems.map((p) => `calls: ${p}`));
    // The calls came from Deno's fetch, not from this Node process.
    const agents = new Set(servers[i].requests.map((r) => String(r.headers['user-agent'] ?? '').split('/')[0]));
    if (report.requests === 0) diffs.push('no judge call reached the server');
    else if (![...agents].every((a) => a === 'Deno')) diffs.push(`requests came from user agents ${[...agents].join(', ')}`);
    if (diffs.length > 0) failures.push(`${line.id} (${line.tags.join(' ')}):\n  ${diffs.slice(0, 12).join('\n  ')}`);
  });
  assert.deepEqual(failures, []);
});
