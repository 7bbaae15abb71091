// Installs the package the ways a consumer would (a packed tarball; `npm install ./pkg`) into
// throwaway projects and imports `evalcore` from there, through package.json `exports`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, test } from 'node:test';
import { PKG, ROOT } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'evalcore-pack-'));
after(() => rmSync(work, { recursive: true, force: true }));

const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000,
});
const node = (args, cwd) => execFileSync(process.execPath, args, {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000,
});

function project(name) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

// Imports `evalcore` by name and prints what it saw; the same script for every install style.
const CONSUMER = `
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as e from 'evalcore';
const out = { keys: Object.keys(e).sort(), version: e.coreVersion() };
out.rouge = e.rouge1('the cat sat', 'the cat sat').fmeasure;
out.set = e.loadEvalSet({ eval_set_id: 's', eval_cases: [] }).eval_set_id;
const sub = { ...(await import('evalcore/testing')), ...(await import('evalcore/adk')), ...(await import('evalcore/adapters')),
  ...(await import('evalcore/history')), ...(await import('evalcore/reports')), ...(await import('evalcore/server')) };
out.subpaths = ['AgentEvaluator', 'createHandler', 'fromAdkAgent', 'fromFunction', 'fromOpenAIMessages', 'readEvalSetResult', 'toJUnit']
  .filter((k) => typeof sub[k] === 'function' || typeof sub[k] === 'object');
try { e.loadEvalSet('{'); } catch (err) { out.error = [err instanceof e.EvalError, err instanceof Error, err.code]; }
const wasmPath = fileURLToPath(import.meta.resolve('evalcore/wasm'));
out.wasmBytes = readFileSync(wasmPath).length;
const served = await sub.createHandler({})(new Request('http://127.0.0.1/v1/metrics'));
out.server = [served.status, (await served.json()).metrics.length > 0];
out.wasmMagic = readFileSync(wasmPath).subarray(0, 4).toString('hex');
console.log(JSON.stringify(out));
`;

// The browser/worker entry as a bundler with the "browser" condition would pick it.
const BROWSER_CONSUMER = `
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as e from 'evalcore';
const out = {};
try { e.rouge1('a', 'a'); out.beforeInit = 'no error'; } catch (err) { out.beforeInit = /init/.test(err.message); }
await e.init(readFileSync(fileURLToPath(import.meta.resolve('evalcore/wasm'))));
out.rouge = e.rouge1('the cat sat', 'the cat sat').fmeasure;
console.log(JSON.stringify(out));
`;

let tarball;

/** Every file under `dir` (relative, `/`-separated), with its size and modification time. */
function snapshot(dir, base = dir, out = new Map()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) snapshot(p, base, out);
    else out.set(relative(base, p).split(sep).join('/'), `${statSync(p).size}:${statSync(p).mtimeMs}`);
  }
  return out;
}

test('npm pack ships exactly the package files, and writes nothing into pkg/', () => {
  const before = snapshot(PKG);
  const [info] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], PKG));
  tarball = join(work, info.filename);
  assert.deepEqual(snapshot(PKG), before, 'npm pack (its prepack included) leaves pkg/ as it was');
  const files = info.files.map((f) => f.path).sort();
  const docs = [...snapshot(join(ROOT, 'docs')).keys()].map((f) => `docs/${f}`);
  // The runtime, its types, the CLI and the Node-only subpaths, the reference and the starter;
  // no tests, examples or sources.
  assert.deepEqual(files, [
    'LICENSE', 'README.md', 'adapters.d.ts', 'adk.d.ts', 'bin/evalcore.js', 'criteria.d.ts', 'error_codes.d.ts', 'history.d.ts', 'index.d.ts',
    'index.js', 'lib/adapters/adk.js', 'lib/adapters/agent_details.js', 'lib/adapters/ai_sdk.js', 'lib/adapters/common.js', 'lib/adapters/conversations.js',
    'lib/adapters/generic.js', 'lib/adapters/index.js', 'lib/adapters/langgraph.js', 'lib/adapters/mastra.js',
    'lib/adapters/openai_agents.js', 'lib/adapters/steps.js', 'lib/store/adk_layout.js', 'lib/wasm/adk_text.js', 'lib/wasm/api.js',
    'lib/cli/args.js', 'lib/cli/compare.js', 'lib/cli/config.js', 'lib/cli/eval.js', 'lib/cli/eval_run.js', 'lib/cli/eval_report.js',
    'lib/cli/eval_set.js', 'lib/cli/grade.js', 'lib/cli/init.js', 'lib/cli/main.js', 'lib/cli/metrics.js', 'lib/cli/migrate.js',
    'lib/cli/progress.js', 'lib/cli/runs.js', 'lib/cli/selectors.js', 'lib/cli/serve.js', 'lib/cli/traces.js', 'lib/cli/eval_traces.js', 'lib/cli/view.js', 'lib/cli/web.js',
    'lib/wasm/columns.js', 'lib/wasm/compare.js', 'lib/report/compare_report.js', 'lib/error_codes.js', 'lib/errors.js', 'lib/run/evaluate.js', 'lib/wasm/extras.js',
    'lib/health.js', 'lib/node/history.js', 'lib/wasm/host.js', 'lib/wasm/instance.js', 'lib/node/judge_env.js', 'lib/wasm/labels.js', 'lib/report/markdown.js',
    'lib/node/actual.js', 'lib/node/agent.js', 'lib/node/config.js', 'lib/node/evalsets.js', 'lib/node/files.js',
    'lib/node/starter.js', 'lib/node/trace_files.js', 'lib/run/recorded.js', 'lib/run/remote.js', 'lib/wasm/reply_keys.js', 'lib/report/report_html.js', 'lib/report/reports.js',
    'lib/report/reports_node.js', 'lib/report/results_view.js', 'lib/wasm/resume.js', 'lib/wasm/run.js', 'lib/run/runs_client.js', 'lib/server/agents.js',
    'lib/server/answer.js', 'lib/server/config.js', 'lib/server/cors.js', 'lib/server/devtools.js', 'lib/server/devui.js',
    'lib/server/evaluate_route.js', 'lib/server/guard.js', 'lib/server/handler.js', 'lib/server/http.js', 'lib/server/index.js',
    'lib/server/job.js', 'lib/server/log.js', 'lib/server/media_uris.js', 'lib/server/node.js', 'lib/server/pace.js',
    'lib/server/run_job.js', 'lib/server/runs/files.js', 'lib/server/runs/folder.js', 'lib/server/runs/input.js', 'lib/server/runs/ledger.js',
    'lib/server/runs/local.js', 'lib/server/runs/objects.js', 'lib/server/runs/pace.js', 'lib/server/runs/result.js',
    'lib/server/runs/routes.js', 'lib/server/runs/score.js', 'lib/server/runs/upload.js', 'lib/server/runs/work.js',
    'lib/server/runs/workers.js', 'lib/server/runs/workers_config.js', 'lib/server/worker.js',
    'lib/server/traces/traces_route.js', 'lib/server/traces/trace_backend.js', 'lib/server/traces/trace_sessions.js', 'lib/server/traces/trace_index.js', 'lib/server/traces/trace_results.js',
    'lib/server/traces/trace_records_worker.js',
    'lib/server/traces/traces_worker.js', 'lib/run/traces_eval.js', 'lib/run/shard_wire.js',
    'lib/run/shards.js', 'lib/store/fs.js', 'lib/store/manager.js', 'lib/store/store.js', 'lib/store/workers.js', 'lib/testing/agent_evaluator.js',
    'lib/wasm/traces.js', 'lib/wasm/node_start.js', 'lib/wasm/workerd_start.js', 'lib/wasm/exports.d.ts', 'lib/wasm/exports.js', 'lib/wasm/wire.js', 'lib/report/workflow.js', 'lib/report/xml.js', 'model.d.ts', 'package.json', 'reports.d.ts', 'server.d.ts', 'starter/agent.mjs',
    'starter/evals/test_config.json', 'starter/evals/weather.evalset.json', 'starter/evals/weather.test.mjs', 'testing.d.ts',
    'wasm-extras/evalcore_extras_bg.wasm', 'wasm-extras/evalcore_extras_factory.js',
    'wasm/evalcore_core_bg.wasm', 'wasm/evalcore_core_factory.js', 'web.js',
    'www/app.js', 'www/case.js', 'www/charts.js', 'www/compare.js', 'www/dom.js', 'www/edit.js', 'www/explain.js',
    'www/index.html', 'www/labels.js', 'www/model.js', 'www/open.js', 'www/rescore.js', 'www/stats.js', 'www/traces.js', 'www/viewer.css',
    'www/vlist.js',
  ].concat(docs).sort());
  assert.equal(info.name, 'evalcore');
});

test("the tarball's README and LICENSE are the repository's: the npm page explains the package (issue 10)", () => {
  assert.ok(tarball, 'npm pack must run first');
  const dir = join(work, 'unpacked');
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  const readme = readFileSync(join(dir, 'package', 'README.md'), 'utf8');
  assert.equal(readme, readFileSync(join(ROOT, 'README.md'), 'utf8'));
  // What a user of the package needs from it, in the pages the README links (shipped beside
  // it): judged-metric configs, the answers each judge must give, and what a browser page needs
  // (CSP for wasm, CORS for judge calls).
  for (const [page, needles] of [['docs/judges.md', ['judge_model_options', 'num_samples', 'rubrics']],
    ['docs/browser.md', ["'wasm-unsafe-eval'", 'CORS', 'Access-Control-Allow-Origin']]]) {
    assert.ok(readme.includes(`](${page})`), `README.md links ${page}`);
    const text = readFileSync(join(dir, 'package', page), 'utf8');
    assert.equal(text, readFileSync(join(ROOT, page), 'utf8'));
    for (const needle of needles) assert.ok(text.includes(needle), `${page} mentions ${needle}`);
  }
  const license = readFileSync(join(dir, 'package', 'LICENSE'), 'utf8');
  assert.equal(license, readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
  assert.match(license, /Apache License\s+Version 2\.0/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')).license, 'Apache-2.0');
});

test('the packed tarball installs and `import "evalcore"` is ready at once', () => {
  assert.ok(tarball, 'npm pack must run first');
  const dir = project('from-tarball');
  npm(['install', tarball], dir);
  const out = JSON.parse(node(['--input-type=module', '-e', CONSUMER], dir));
    'EvalError', 'coreMemory', 'coreVersion', 'evaluate', 'evaluateInvocations', 'formatReport', 'getLimits', 'init', 'initSync',
    'initExtras', 'initTraces', 'loadEvalConfig', 'loadEvalSet', 'loadEvalSetResult', 'loadEvaluationDataset', 'loadTraces', 'metricsInfo',
    'planJudgeCalls', 'prepareCase', 'rouge1', 'rouge1Batch', 'rouge1Spans', 'setLimits', 'setMemoryCeiling',
    'toEvaluationDataset', 'tracesToEvalSet', 'validateEvalConfig', 'validateEvalSet',
  assert.deepEqual(out.subpaths, ['AgentEvaluator', 'createHandler', 'fromAdkAgent', 'fromFunction', 'fromOpenAIMessages', 'readEvalSetResult', 'toJUnit']);
  assert.deepEqual(out.server, [200, true], 'evalcore/server answers from the installed tarball');
  assert.match(out.version, /^\d+\.\d+\.\d+/);
  assert.equal(out.rouge, 1);
  assert.equal(out.set, 's');
  assert.deepEqual(out.error, [true, true, 'invalid_json']);
  assert.equal(out.wasmMagic, '0061736d');
  assert.ok(out.wasmBytes > 1000);

  const browser = JSON.parse(node(['--conditions=browser', '--input-type=module', '-e', BROWSER_CONSUMER], dir));
  assert.deepEqual(browser, { beforeInit: true, rouge: 1 });
  const worker = JSON.parse(node(['--conditions=workerd', '--input-type=module', '-e', BROWSER_CONSUMER], dir));
  assert.deepEqual(worker, { beforeInit: true, rouge: 1 });
});

test('`npm install ./pkg` (a folder) works in Node 20 too', () => {
  const dir = project('from-folder');
  npm(['install', PKG], dir);
  const out = JSON.parse(node(['--input-type=module', '-e', CONSUMER], dir));
  assert.equal(out.rouge, 1);
  assert.deepEqual(out.error, [true, true, 'invalid_json']);
});

test('npm pack refuses an incomplete package (no wasm/, stale docs), naming what is missing', () => {
  // A copy of the checkout's packing parts, so the real pkg/ is never touched.
  const root = join(work, 'incomplete');
  cpSync(PKG, join(root, 'pkg'), { recursive: true, filter: (src) => !src.includes('node_modules') });
  cpSync(join(ROOT, 'scripts', 'check-pack.mjs'), join(root, 'scripts', 'check-pack.mjs'));
  for (const f of ['README.md', 'LICENSE']) cpSync(join(ROOT, f), join(root, f));
  cpSync(join(ROOT, 'docs'), join(root, 'docs'), { recursive: true });
  const pack = () => {
    try {
      npm(['pack', '--dry-run'], join(root, 'pkg'));
      return '';
    } catch (e) {
      return e.stderr;
    }
  };
  assert.equal(pack(), '', 'the complete copy packs');
  rmSync(join(root, 'pkg', 'wasm', 'evalcore_core_bg.wasm'));
  writeFileSync(join(root, 'docs', 'cli.md'), 'changed since the build\n');
  const refused = pack();
  assert.match(refused, /evalcore: not packing an incomplete package \(run bash scripts\/build\.sh first\):/);
  assert.match(refused, /- wasm\/evalcore_core_bg\.wasm is missing/);
  assert.match(refused, /- docs\/cli\.md differs from the repository's docs\/cli\.md/);
});
