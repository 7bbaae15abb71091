// `evalcore init [DIR]`: the starter it writes (the package's starter/ files), the package.json
// it creates or adds to, and what it refuses to overwrite. That the starter then passes, from
// the packed tarball with vitest installed, is tests/js/readme.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { STARTER_FILES, STARTER_SCRIPTS } from '../../pkg/lib/node/starter.js';
import { PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const VERSION = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).version;
const work = mkdtempSync(join(tmpdir(), 'evalcore-init-'));
after(() => rmSync(work, { recursive: true, force: true }));

const init = (cwd, args = []) => {
  const r = spawnSync(process.execPath, [BIN, 'init', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const starter = (name) => readFileSync(join(PKG, 'starter', name), 'utf8');
const json = (path) => JSON.parse(readFileSync(path, 'utf8'));

test('into a new folder: the starter files, a package.json with the scripts and devDependencies, and what to run next', () => {
  const r = init(work, ['my-evals']);
  assert.equal(r.code, 0, r.stderr);
  const dir = join(work, 'my-evals');
  assert.deepEqual(STARTER_FILES.map(([name]) => name), ['agent.mjs', 'evals/weather.evalset.json', 'evals/test_config.json', 'evals/weather.test.mjs']);
  for (const [name] of STARTER_FILES) assert.equal(readFileSync(join(dir, name), 'utf8'), starter(name), name);
  assert.deepEqual(json(join(dir, 'package.json')), {
    name: 'my-evals', private: true,
    scripts: { eval: 'evalcore eval agent.mjs evals/weather.evalset.json', test: 'vitest run' },
    devDependencies: { evalcore: `^${VERSION}`, vitest: '^3.2.7' },
  });
  assert.match(r.stdout, /^evalcore init: a starter in my-evals\n {2}wrote agent\.mjs {2,}the agent under test/);
  assert.match(r.stdout, /\nNext:\n {2}cd my-evals\n {2}npm install\n {2}npm run eval {4}# evalcore eval agent\.mjs evals\/weather\.evalset\.json\n {2}npm test {8}# vitest run\n$/);
  assert.equal(r.stderr, '');
});

test('again: identical files are kept, and nothing is added twice', () => {
  const dir = join(work, 'my-evals');
  const before = readFileSync(join(dir, 'package.json'), 'utf8');
  const r = init(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, / {2}kept {2}agent\.mjs/);
  assert.match(r.stdout, / {2}kept {2}package\.json \(it has the scripts and devDependencies\)/);
  assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), before);
});

test('an existing file or script is never replaced without --force: nothing is written, every conflict is named', () => {
  const dir = join(work, 'existing');
  mkdirSync(join(dir, 'evals'), { recursive: true });
  writeFileSync(join(dir, 'agent.mjs'), 'export const agent = async () => "mine";\n');
  writeFileSync(join(dir, 'evals', 'test_config.json'), '{"criteria": {}}\n');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', type: 'module', scripts: { test: 'jest' }, dependencies: { evalcore: '^0.0.9' } }, null, 2)}\n`);
  const pkgBefore = readFileSync(join(dir, 'package.json'), 'utf8');
  const r = init(dir);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'evalcore init: . already has agent.mjs, evals/test_config.json, package.json scripts.test ("jest"); '
    + 'nothing was written (--force replaces them)\n');
  assert.equal(readFileSync(join(dir, 'agent.mjs'), 'utf8'), 'export const agent = async () => "mine";\n');
  assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), pkgBefore);
  assert.throws(() => statSync(join(dir, 'evals', 'weather.evalset.json')), { code: 'ENOENT' });

  const forced = init(dir, ['--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(readFileSync(join(dir, 'agent.mjs'), 'utf8'), starter('agent.mjs'));
  const pkg = json(join(dir, 'package.json'));
  // The user's other keys stay; evalcore is listed already, so only vitest is added.
  assert.deepEqual(pkg, { name: 'app', type: 'module', scripts: { test: STARTER_SCRIPTS.test, eval: STARTER_SCRIPTS.eval },
    dependencies: { evalcore: '^0.0.9' }, devDependencies: { vitest: '^3.2.7' } });
  assert.match(forced.stdout, /added to package\.json: scripts eval, test; devDependencies vitest/);
});

test('what init cannot work with is a usage error: a file as DIR, a package.json that is not JSON (with its line), two folders', () => {
  writeFileSync(join(work, 'a-file'), '');
  assert.match(init(work, ['a-file']).stderr, /^evalcore init: a-file exists and is not a folder\n$/);
  const dir = join(work, 'broken-pkg');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{\n  "name": "x",\n}\n');
  const r = init(dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /package\.json .*package\.json: trailing comma at line 3 column 1/);
  assert.equal(init(work, ['a', 'b']).code, 2);
  assert.match(init(work, ['--help']).stdout, /^Usage: evalcore init \[DIR\] \[--force\]/);
});
