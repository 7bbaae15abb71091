// The evaluation endpoint (evalcore/server) started for real on 127.0.0.1 in each runtime:
//   node     `node pkg/bin/evalcore.js serve --port 0` (the first line of its stdout is its URL)
//   deno     `Deno.serve(server.fetch)` with `import server from 'evalcore/server'` through node_modules
//   workerd  the package's module worker (lib/server/worker.js) and the .wasm as a wasm module,
//            configured by text bindings
// Each is configured from the same environment object; everything each one prints is kept
// (`output()`), so tests can check what the server said as well as what it answered.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '..', '..');
export const PKG = join(ROOT, 'pkg');
export const DATA = join(ROOT, 'tests', 'data');
const TOOLS = join(ROOT, '.tools', 'node_modules');
export const DENO = process.env.DENO ?? join(TOOLS, '@deno', 'linux-x64-glibc', 'deno');
export const WORKERD = process.env.WORKERD ?? join(TOOLS, '.bin', 'workerd');

import { freePort } from '../js/helpers.mjs';

export { freePort };

/** Spawns a server process; resolves once `ready(output)` gives its URL. */
function startProcess(name, cmd, args, { cwd, env, ready, timeoutMs = 60_000 }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const check = async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`${name} exited with ${child.exitCode ?? child.signalCode}:\n${stdout.slice(-2000)}\n${stderr.slice(-4000)}`));
        return;
      }
      let url = null;
      try {
        url = await ready(stdout);
      } catch {
        url = null;
      }
      if (url) {
        resolve({
          name, url, child,
          output: () => stdout + stderr,
          stdout: () => stdout,
          stop: () => new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }),
        });
        return;
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${stdout.slice(-2000)}\n${stderr.slice(-4000)}`));
        return;
      }
      setTimeout(check, 100);
    };
    check();
  });
}

const firstLine = (text) => {
  const i = text.indexOf('\n');
  return i < 0 ? null : text.slice(0, i).trim();
};

/**
 * `evalcore ARGS --port 0` (serve, web, view: each prints its URL first), configured by `env` on
 * top of a clean environment: `{url, output(), stop()}`. `port` listens on that port instead.
 */
export function startCli(args, env = {}, { port = 0 } = {}) {
  return startProcess(`evalcore ${args[0]}`, process.execPath, [join(PKG, 'bin', 'evalcore.js'), ...args, '--port', String(port)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    ready: async (out) => firstLine(out),
  });
}

/** `evalcore serve --port 0`, configured by `env` on top of a clean environment. */
export function startNode(env, _work, extraArgs = []) {
  return startCli(['serve', ...extraArgs], env);
}

/** Deno.serve over the package's default fetch, reading `env` through Deno.env. */
export function startDeno(env, work) {
  const project = join(work, 'deno');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'deno-server', private: true, type: 'module', dependencies: { evalcore: 'file:../pkg' } }));
  if (!existsSync(join(project, 'node_modules', 'evalcore'))) symlinkSync(PKG, join(project, 'node_modules', 'evalcore'), 'dir');
  writeFileSync(join(project, 'serve.mjs'), `import server from 'evalcore/server';
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log('http://127.0.0.1:' + port) }, server.fetch);
`);
  return startProcess('deno', DENO, [
    'run', '--quiet', '--no-lock', '--no-config', '--node-modules-dir=manual', `--allow-read=${project},${PKG}`,
    '--allow-net', '--allow-env', 'serve.mjs',
  ], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_DIR: join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1', ...env },
    ready: async (out) => firstLine(out),
  });
}

/**
 * The package files the worker entry imports, found by following its static imports and its
 * dynamic `import('./literal.js')`s, as a bundler (wrangler's esbuild) includes both.
 */
export function workerFiles(entry) {
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const rel = queue.shift();
    if (seen.has(rel)) continue;
    seen.add(rel);
    if (!rel.endsWith('.js')) continue;
    const text = readFileSync(join(PKG, rel), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'|\bimport\('(\.[^']+\.js)'\)/gm)) {
      queue.push(posix.normalize(posix.join(posix.dirname(rel), m[1] ?? m[2] ?? m[3])));
    }
  }
  return [...seen];
}

/**
 * workerd serving examples/worker/src/index.js (`export { default } from 'evalcore/server'`),
 * `env` as text bindings. `evalcore/server` is resolved as a bundler resolves the package's
 * "workerd" export condition: to lib/server/worker.js, which imports the .wasm as a module.
 */
export async function startWorkerd(env, work) {
  const dir = join(work, 'workerd');
  const entry = 'lib/server/worker.js';
  const exportsEntry = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).exports['./server'].workerd;
  if (exportsEntry !== `./${entry}`) throw new Error(`package.json exports ./server workerd is ${exportsEntry}, not ./${entry}`);
  const files = workerFiles(entry);
  for (const f of files) {
    mkdirSync(dirname(join(dir, 'evalcore', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(dir, 'evalcore', f));
  }
  copyFileSync(join(ROOT, 'examples', 'worker', 'src', 'index.js'), join(dir, 'index.js'));
  writeFileSync(join(dir, 'evalcore-server.js'), `export * from './${entry}';\nexport { default } from './${entry}';\n`);
  const port = await freePort();
  const modules = [
    '(name = "index.js", esModule = embed "index.js")',
    '(name = "evalcore/server", esModule = embed "evalcore-server.js")',
    ...files.map((f) => (f.endsWith('.wasm')
      ? `(name = "evalcore/${f}", wasm = embed "evalcore/${f}")`
      : `(name = "evalcore/${f}", esModule = embed "evalcore/${f}")`)),
  ];
  const bindings = Object.entries(env).map(([k, v]) => `(name = ${JSON.stringify(k)}, text = ${JSON.stringify(v)})`);
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .evalServer),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const evalServer :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')}
  ],
  bindings = [
    ${bindings.join(',\n    ')}
  ],
  globalOutbound = "loopback",
  compatibilityDate = "2025-01-01",
  compatibilityFlags = ["enable_request_signal"],
);
`);
  const url = `http://127.0.0.1:${port}`;
  return startProcess('workerd', WORKERD, ['serve', join(dir, 'config.capnp')], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    ready: async () => ((await fetch(`${url}/healthz`)).ok ? url : null),
  });
}

export function workDir() {
  return mkdtempSync(join(tmpdir(), 'evalcore-server-'));
}

export function removeWork(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** The case oracles (tests/data/case_oracles.jsonl), parsed. */
export function oracleRows() {
  return readFileSync(join(DATA, 'case_oracles.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

export const evalIdOf = (c) => c.eval_id ?? c.evalId;

/** A request body scoring one oracle row's recorded invocations. */
export function oracleRequest(row, setId = 'oracles') {
  return { evalSet: { eval_set_id: setId, eval_cases: [row.eval_case] }, config: row.config, actual: { [evalIdOf(row.eval_case)]: row.actual_invocations } };
}

/** What a server answered, as `{status, headers, body}` (body parsed when JSON). */
export async function call(url, path, { method = 'POST', body, headers = {}, raw } = {}) {
  const res = await fetch(url + path, {
    method,
    headers: { ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed, text };
}

/** A request with exactly these headers (Host included), `{status, body}`. */
export function rawCall(url, path, { method = 'GET', headers = {}, body } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: { ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads an ndjson response line by line: `{status, lines, text}`. */
export async function callNdjson(url, path, body, headers = {}) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const lines = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  return { status: res.status, headers: Object.fromEntries(res.headers), lines, text };
}

/** An EvalSetResult without what differs from run to run (ids and time stamps). */
export function stable(value) {
  return JSON.parse(JSON.stringify(value, (k, v) => (
    k === 'creation_timestamp' || k === 'eval_set_result_id' || k === 'eval_set_result_name'
    || k === 'session_id' || k === 'duration' || k === 'user_id' ? undefined : v)));
}

/**
 * A loopback HTTP agent: each POSTed turn is answered with the recorded reply of its case and
 * turn (`replies[evalId][turnIndex]`), after `delayMs`. Records every turn it got.
 */
export async function startAgentServer(replies, { delayMs = 0 } = {}) {
  const turns = [];
  const server = createHttpServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const turn = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    turns.push(turn);
    await new Promise((r) => setTimeout(r, delayMs));
    const reply = replies[turn.evalId]?.[turn.turnIndex];
    if (reply === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no recorded reply"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/turn`,
    turns,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
