// The same .wasm in Node, Deno and workerd: each runs the rouge1 vectors and every case oracle
// and reports every number as exact float bits; all three lists must be identical.
//
//   Node     pkg/index.js in this process (the "node" entry, ready at import)
//   Deno     `import 'evalcore'` from a project whose node_modules links pkg/ ("deno" condition)
//   workerd  pkg/web.js + the wasm as a workerd wasm module, initSync, served on 127.0.0.1
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { freePort } from '../js/helpers.mjs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../../pkg/index.js';
import { parseVectors, runVectors } from './vectors.mjs';
import { workerFiles } from '../server/support.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const PKG = join(ROOT, 'pkg');
// The vectors and oracles, copied from ../shared by scripts/refresh-test-data.sh.
const DATA = join(ROOT, 'tests', 'data');
const TOOLS = join(ROOT, '.tools', 'node_modules');
const DENO = process.env.DENO ?? join(TOOLS, '@deno', 'linux-x64-glibc', 'deno');
const WORKERD = process.env.WORKERD ?? join(TOOLS, '.bin', 'workerd');
const ROUGE_FILE = join(DATA, 'rouge1_vectors.jsonl');
const CASES_FILE = join(DATA, 'case_oracles.jsonl');
// Every file of the package the web entry needs, relative to pkg/: what its imports reach (as a
// bundler follows them) and the .wasm it is handed.
const WEB_FILES = [...workerFiles('web.js'), 'wasm/evalcore_core_bg.wasm'];

const work = mkdtempSync(join(tmpdir(), 'evalcore-portability-'));
const texts = { rouge: readFileSync(ROUGE_FILE, 'utf8'), cases: readFileSync(CASES_FILE, 'utf8') };
const data = parseVectors(texts.rouge, texts.cases);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const wasmDigest = sha256(readFileSync(join(PKG, 'wasm', 'evalcore_core_bg.wasm')));

const results = {};
const children = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

function run(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${cmd} exited with ${code ?? signal}\n${stderr.slice(-4000)}`));
    });
  });
}

/** Compares a runtime's lines with Node's and names the first difference. */
function assertSameNumbers(name, got) {
  const want = results.node;
  assert.ok(want, 'the Node run must come first');
  assert.equal(got.version, want.version, `${name} loaded a different core version`);
  const n = Math.max(got.lines.length, want.lines.length);
  for (let i = 0; i < n; i++) {
    if (got.lines[i] !== want.lines[i]) {
      assert.fail(`${name} differs from Node at line ${i}:\n  node:  ${want.lines[i]}\n  ${name}: ${got.lines[i]}`);
    }
  }
  assert.equal(got.digest, want.digest);
}

before(() => {
  for (const [tool, path] of [['deno', DENO], ['workerd', WORKERD]]) {
    if (!existsSync(path)) throw new Error(`${tool} not found at ${path}: run scripts/setup.sh`);
  }
});

test('node: the vectors through pkg/index.js', async (t) => {
  results.node = await runVectors(api, data);
  assert.equal(results.node.lines.filter((l) => l.startsWith('rouge#')).length, data.rouge.length);
  t.diagnostic(`node ${process.version}: ${results.node.lines.length} numbers, sha256 ${results.node.digest}, wasm sha256 ${wasmDigest}`);
});

test('deno: the same numbers through `import "evalcore"`', async (t) => {
  const project = join(work, 'deno');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'deno-consumer', private: true, type: 'module', dependencies: { evalcore: 'file:../pkg' } }));
  symlinkSync(PKG, join(project, 'node_modules', 'evalcore'), 'dir');
  copyFileSync(join(HERE, 'deno-run.mjs'), join(project, 'deno-run.mjs'));
  copyFileSync(join(HERE, 'vectors.mjs'), join(project, 'vectors.mjs'));
  copyFileSync(join(HERE, 'trap-check.mjs'), join(project, 'trap-check.mjs'));
  const stdout = await run(DENO, [
    'run', '--quiet', '--no-lock', '--no-config', '--node-modules-dir=manual', `--allow-read=${project},${PKG},${DATA}`,
    'deno-run.mjs', ROUGE_FILE, CASES_FILE,
  ], {
    cwd: project,
    env: { ...process.env, DENO_DIR: join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
  });
  results.deno = JSON.parse(stdout);
  assert.match(results.deno.entry, /\/index\.js$/, `deno resolved evalcore to ${results.deno.entry}`);
  t.diagnostic(`${results.deno.runtime}: ${results.deno.lines.length} numbers, sha256 ${results.deno.digest}`);
  assertSameNumbers('deno', results.deno);
  assert.deepEqual(results.deno.trap, { sync: 'trap', async: 'trap', same: true, replacements: 2 }, 'trap recovery in Deno');
});

test('workerd: the same numbers through the worker entry and a wasm module', async (t) => {
  const dir = join(work, 'workerd');
  for (const f of WEB_FILES) {
    mkdirSync(dirname(join(dir, 'evalcore', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(dir, 'evalcore', f));
  }
  assert.equal(sha256(readFileSync(join(dir, 'evalcore', 'wasm', 'evalcore_core_bg.wasm'))), wasmDigest);
  copyFileSync(join(HERE, 'worker.js'), join(dir, 'worker.js'));
  copyFileSync(join(HERE, 'vectors.mjs'), join(dir, 'vectors.mjs'));
  copyFileSync(join(HERE, 'trap-check.mjs'), join(dir, 'trap-check.mjs'));
  copyFileSync(join(PKG, 'lib', 'wasm', 'test_hooks.js'), join(dir, 'evalcore', 'lib', 'wasm', 'test_hooks.js'));
  const port = await freePort();
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    '(name = "vectors.mjs", esModule = embed "vectors.mjs")',
    '(name = "trap-check.mjs", esModule = embed "trap-check.mjs")',
    '(name = "evalcore/lib/wasm/test_hooks.js", esModule = embed "evalcore/lib/wasm/test_hooks.js")',
    ...WEB_FILES.map((f) => (f.endsWith('.wasm')
      ? `(name = "evalcore/${f}", wasm = embed "evalcore/${f}")`
      : `(name = "evalcore/${f}", esModule = embed "evalcore/${f}")`)),
  ];
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .portability) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const portability :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')}
  ],
  compatibilityDate = "2025-01-01",
);
`);
  const server = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(server);
  let log = '';
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  try {
    const url = `http://127.0.0.1:${port}/`;
    // Starting workerd compiles every module and the .wasm: a second on a quiet machine, more
    // than 30 s once on 2 cores shared with two wasm builds. A liveness margin, not a speed.
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) assert.fail(`workerd exited with ${server.exitCode}:\n${log.slice(-4000)}`);
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) assert.fail(`workerd did not answer on ${url} within 120 s:\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(texts), headers: { 'content-type': 'application/json' } });
    const body = await response.text();
    assert.equal(response.status, 200, `workerd answered ${response.status}: ${body.slice(0, 2000)}\n${log.slice(-4000)}`);
    results.workerd = JSON.parse(body);
  } finally {
    server.kill('SIGTERM');
  }
  t.diagnostic(`${results.workerd.runtime}: ${results.workerd.lines.length} numbers, sha256 ${results.workerd.digest}`);
  assertSameNumbers('workerd', results.workerd);
  assert.deepEqual(results.workerd.trap, { sync: 'trap', async: 'trap', same: true, replacements: 2 }, 'trap recovery in workerd');
});
