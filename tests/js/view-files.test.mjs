// `evalcore view` serves the files given and the viewer's own files, nothing else (issue 24): no
// request path climbs out of the package's browser folders (an escaped `/` or `..` included), a
// link inside a given folder is followed only when it stays inside it, a walk over link cycles
// ends at once, a file replaced by a link after the start is not read through it, and only the
// Host names of the listening address are answered. A real server on 127.0.0.1; the page itself
// is tests/e2e/cli-view.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { collectFiles, collectNamed, handler, pageUrl, servedPaths, staticFile } from '../../pkg/lib/cli/view.js';
import { hostPolicy } from '../../pkg/lib/server/guard.js';
import { timedServer } from '../../pkg/lib/server/node.js';
import { PKG } from './helpers.mjs';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'evalcore-view-')));
after(() => rmSync(work, { recursive: true, force: true }));

function get(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function serve(files, options) {
  const server = timedServer(handler(files, options));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

let folder;
let outside;
before(() => {
  folder = join(work, 'results');
  outside = join(work, 'private');
  mkdirSync(join(folder, '.adk', 'eval_history'), { recursive: true });
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(folder, '.adk', 'eval_history', 'a.evalset_result.json'), '{"a": 1}');
  writeFileSync(join(folder, 'b.evalset.json'), '{"b": 2}');
  writeFileSync(join(outside, 'secret.json'), '{"secret": true}');
  writeFileSync(join(outside, 'deep', 'also.json'), '{"secret": true}');
  symlinkSync(join(outside, 'secret.json'), join(folder, 'linked-out.json'));
  symlinkSync(outside, join(folder, 'linked-dir'), 'dir');
  symlinkSync(join(folder, 'b.evalset.json'), join(folder, 'linked-in.json'));
  // Cycles: links to the folder itself and to its parent's parent, at several levels.
  symlinkSync('.', join(folder, 'self'), 'dir');
  symlinkSync('..', join(folder, '.adk', 'up'), 'dir');
  for (let i = 0; i < 12; i++) symlinkSync(folder, join(folder, `loop${i}`), 'dir');
  symlinkSync('dangling-target', join(folder, 'dangling.json'));
});

test('a folder gives its own .json files: links leaving it are left out and named, cycles are walked once', () => {
  const skipped = [];
  const t0 = Date.now();
  const files = collectFiles([folder], 'view', skipped);
  assert.ok(Date.now() - t0 < 2000, `the walk took ${Date.now() - t0} ms`);
  assert.deepEqual(files.sort(), [join(folder, '.adk', 'eval_history', 'a.evalset_result.json'), join(folder, 'b.evalset.json')].sort(), 'b once, though linked-in.json leads to it too');
  assert.deepEqual(skipped.sort(), [join(folder, 'linked-dir'), join(folder, 'linked-out.json')]);
  // A file named on the command line is the user's choice, link or not.
  assert.deepEqual(collectFiles([join(folder, 'linked-out.json')]), [join(outside, 'secret.json')]);
});

test('each file is named by the path it was reached by, from the folder holding everything given', () => {
  const base = join(work, 'names', 'base');
  const cand = join(work, 'names', 'cand');
  mkdirSync(join(base, 'deep'), { recursive: true });
  mkdirSync(cand, { recursive: true });
  writeFileSync(join(base, 'r.json'), '{}');
  writeFileSync(join(base, 'deep', 'r.json'), '{}');
  writeFileSync(join(cand, 'r.json'), '{}');
  assert.deepEqual(collectNamed([base, cand]).map((f) => f.name), ['base/deep/r.json', 'base/r.json', 'cand/r.json']);
  assert.deepEqual(collectNamed([base, join(cand, 'r.json')]).map((f) => f.name), ['base/deep/r.json', 'base/r.json', 'cand/r.json']);
  assert.deepEqual(collectNamed([join(cand, 'r.json')]).map((f) => f.name), ['r.json']);
  // A link inside a folder is named as it was reached; its file is opened once.
  assert.deepEqual(collectNamed([folder]).map((f) => f.name), ['results/.adk/eval_history/a.evalset_result.json', 'results/b.evalset.json']);
  // Served under /files/ by that name (each segment escaped); the page URL lists them.
  const served = servedPaths(collectNamed([base, cand]));
  assert.deepEqual([...served.keys()], ['/files/base/deep/r.json', '/files/base/r.json', '/files/cand/r.json']);
  assert.deepEqual([...servedPaths([join(base, 'a b#?.json')]).keys()], ['/files/a%20b%23%3F.json']);
  assert.equal(pageUrl('http://h', collectNamed([base])), 'http://h/www/index.html?file=%2Ffiles%2Fbase%2Fdeep%2Fr.json&file=%2Ffiles%2Fbase%2Fr.json');
});

test('the CLI says what it left out', () => {
  const r = spawnSync(process.execPath, [join(PKG, 'bin', 'evalcore.js'), 'view', folder, '--no-open', '--port', '0'], { encoding: 'utf8', timeout: 3000, killSignal: 'SIGINT' });
  assert.match(r.stderr, /left out 2 links leading out of the folders given/);
  assert.doesNotMatch(r.stdout, /secret|private/);
});

test('request paths: only the viewer\'s files; an escaped slash or dot is a name, never a step', async () => {
  const files = collectFiles([folder]);
  const s = await serve(files);
  try {
    assert.equal((await get(s.port, '/web.js')).status, 200);
    for (const path of [
      '/www/..%2fpackage.json', '/www/..%2Fpackage.json', '/www/%2e%2e%2fpackage.json', '/www/%2e%2e/package.json', '/lib/..%2f..%2fCargo.toml',
      '/www/..%5cpackage.json', '/wasm/%2e%2e%2fpackage.json', '/www/x/..%2f..%2fpackage.json', '/www%2f..%2fpackage.json', '/package.json',
      '/lib/%00', '/www/%zz', '/bin/evalcore.js', '/files/../../package.json', '/files/99/x.json', '/files/1e3/x.json',
    ]) {
      assert.equal((await get(s.port, path)).status, 404, path);
      assert.equal(staticFile(path.split('?')[0]), null, path);
    }
    assert.equal(staticFile('/lib/wasm/api.js'), join(realpathSync(PKG), 'lib', 'wasm', 'api.js'));
    const served = await get(s.port, '/files/b.evalset.json');
    assert.equal(served.text, '{"b": 2}');
    // Only the paths the files are served at: nothing in a path under /files/ is followed.
    for (const path of ['/files/', '/files/b.evalset.json/', '/files/.adk/../b.evalset.json/x', '/files/%2e%2e/b.evalset.json', '/files/B.evalset.json', '/files/0/b.evalset.json']) {
      assert.equal((await get(s.port, path)).status, 404, path);
    }
  } finally {
    await s.close();
  }
});

test('a given file replaced by a link after the start is not read through the link', async () => {
  const dir = join(work, 'swap');
  mkdirSync(dir);
  writeFileSync(join(dir, 'r.json'), '{"mine": 1}');
  const files = collectFiles([dir]);
  const s = await serve(files);
  try {
    assert.equal((await get(s.port, '/files/r.json')).text, '{"mine": 1}');
    unlinkSync(join(dir, 'r.json'));
    symlinkSync(join(outside, 'secret.json'), join(dir, 'r.json'));
    const after = await get(s.port, '/files/r.json');
    assert.equal(after.status, 404);
    assert.doesNotMatch(after.text, /secret/);
  } finally {
    await s.close();
  }
});

test('DNS rebinding: a Host other than the listening names is refused, files and viewer alike', async () => {
  const files = collectFiles([folder]);
  const s = await serve(files);
  try {
    for (const path of ['/files/.adk/eval_history/a.evalset_result.json', '/www/index.html', '/web.js', '/']) {
      const r = await get(s.port, path, { host: `rebound.attacker.example:${s.port}` });
      assert.equal(r.status, 403, path);
      assert.match(r.text, /^host_not_allowed: /);
    }
    assert.equal((await get(s.port, '/files/.adk/eval_history/a.evalset_result.json', { host: `localhost:${s.port}` })).status, 200);
  } finally {
    await s.close();
  }
  const proxied = await serve(files, { hosts: hostPolicy(['127.0.0.1'], ['viewer.example']) });
  try {
    assert.equal((await get(proxied.port, '/files/.adk/eval_history/a.evalset_result.json', { host: 'viewer.example' })).status, 200);
  } finally {
    await proxied.close();
  }
});
