// `evalcore view`: serves the built viewer with the files given, prints the URL first, serves
// only the package's browser files and those files, and stops on Ctrl-C.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { once } from 'node:events';
import { CLI, helloRun } from './fixtures.mjs';
import { launch, open, shot, tableRows } from './helpers.mjs';

let browser, hello;
before(async () => {
  hello = helloRun();
  browser = await launch();
});
after(async () => { await browser?.close(); });

/** Starts `evalcore view ARGS`; resolves with the child and its first line of output. */
async function view(args) {
  const child = spawn(process.execPath, [CLI, 'view', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const first = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.split('\n')[0]); });
    child.once('exit', (code) => reject(new Error(`evalcore view exited with ${code} before printing a URL`)));
  });
  return { child, first, output: () => out };
}

/** A raw GET (no URL normalisation by a client), `{status, headers}`. */
function get(origin, path, headers = {}) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => { res.resume(); res.on('end', () => resolve({ status: res.statusCode, headers: res.headers })); });
    req.on('error', reject);
    req.end();
  });
}

test('evalcore view FOLDER FILE: the URL is the first line, the page opens every file, Ctrl-C stops it', async (t) => {
  const { child, first, output } = await view([hello.history, hello.evalSet, '--no-open', '--port', '0']);
  t.after(() => child.kill('SIGKILL'));
  // Each file by the path it was given from the folder holding both arguments.
  assert.match(first, /^http:\/\/127\.0\.0\.1:\d+\/www\/index\.html\?file=%2Ffiles%2F\.adk%2Feval_history%2F[^&]+&file=%2Ffiles%2F\.adk%2Feval_history%2F[^&]+&file=%2Ffiles%2Fhello_world\.evalset\.json$/);
  const origin = new URL(first).origin;
  const { page, log } = await open(browser, first);
  assert.equal((await tableRows(page)).length, 4);
  assert.equal(await page.locator('#run-pick option').count(), 3, 'two runs and the two merged');
  assert.ok(log.requests.every((u) => u.startsWith(origin)), 'offline: only the local server is asked');
  await shot(page, 'evalcore-view');
  await page.close();
  // Only the viewer, the browser entry, its modules, the .wasm and the files given.
  assert.equal((await get(origin, '/')).status, 302);
  const html = await get(origin, '/www/index.html');
  assert.equal(html.status, 200);
  assert.match(html.headers['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
  assert.equal(html.headers['x-content-type-options'], 'nosniff');
  const wasm = await get(origin, '/wasm/evalcore_core_bg.wasm', { 'accept-encoding': 'gzip' });
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  assert.equal(wasm.headers['content-encoding'], 'gzip');
  assert.equal((await get(origin, '/web.js')).status, 200);
  assert.equal((await get(origin, '/files/hello_world.evalset.json')).status, 200);
  for (const path of ['/package.json', '/bin/evalcore.js', '/../package.json', '/lib/../../Cargo.toml', '/www/../../Cargo.toml',
    '/%2e%2e/%2e%2e/Cargo.toml', '/lib/%2e%2e/package.json', '/www/..%2fpackage.json', '/www/..%2F..%2FCargo.toml', '/files/9/x.json', '/files/2/hello_world.evalset.json', '/files/0/../../etc/passwd', '/files/../../etc/passwd', '/etc/passwd']) {
    assert.equal((await get(origin, path)).status, 404, path);
  }
  child.kill('SIGINT');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.match(output(), /serving the viewer with 3 files/);
});

test('evalcore view: usage errors exit 2 with one line; --help prints the usage', () => {
  const missing = spawnSync(process.execPath, [CLI, 'view', '/no/such/file.json', '--no-open'], { encoding: 'utf8' });
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, 'evalcore view: file not found: /no/such/file.json\n');
  const port = spawnSync(process.execPath, [CLI, 'view', '--port', 'http', '--no-open'], { encoding: 'utf8' });
  assert.equal(port.status, 2);
  assert.match(port.stderr, /--port must be a port number/);
  const help = spawnSync(process.execPath, [CLI, 'view', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: evalcore view \[FILES\.\.\.\] \[--port N\] \[--host H\] \[--allowed_hosts H,\.\.\.\] \[--no-open\]/);
  const top = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  assert.match(top.stdout, /\n {2}view \[FILES\.\.\.\]/);
});
