// `evalcore init [DIR]`: the starter it writes (the package's starter/ files), the package.json
// it creates or adds to, and what it refuses to overwrite. That the starter then passes, from
// the packed tarball with vitest installed, is tests/js/readme.test.mjs.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
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
/** The dependency spec init writes when evalcore runs from this checkout: the folder, from `dir`. */
const fromCheckout = (dir) => `file:${relative(resolve(dir), realpathSync(PKG)).split('\\').join('/')}`;
const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000,
});

test('into a new folder: the starter files, a package.json with the scripts and devDependencies, and what to run next', () => {
  const r = init(work, ['my-evals']);
  assert.equal(r.code, 0, r.stderr);
  const dir = join(work, 'my-evals');
  assert.deepEqual(STARTER_FILES.map(([name]) => name), ['agent.mjs', 'evals/weather.evalset.json', 'evals/test_config.json', 'evals/weather.test.mjs']);
  for (const [name] of STARTER_FILES) assert.equal(readFileSync(join(dir, name), 'utf8'), starter(name), name);
  assert.deepEqual(json(join(dir, 'package.json')), {
    name: 'my-evals', private: true,
    scripts: { eval: 'evalcore eval agent.mjs evals/weather.evalset.json', test: 'vitest run' },
    devDependencies: { evalcore: fromCheckout(dir), vitest: '^3.2.7' },
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

/** A project that installed evalcore by `spec` with npm, and where its `evalcore` command is. */
function installed(name, spec) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true })}\n`);
  npm(['install', spec], dir);
  return { dir, bin: join(dir, 'node_modules', 'evalcore', 'bin', 'evalcore.js') };
}

/** `evalcore init NEW` run from the project `from`, then `npm install` in NEW: the evalcore it got. */
function initThenInstall(from, bin, name) {
  const r = spawnSync(process.execPath, [bin, 'init', join('..', name)], { cwd: from, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.code ?? r.status, 0, r.stderr);
  const dir = join(work, name);
  const spec = json(join(dir, 'package.json')).devDependencies.evalcore;
  npm(['install'], dir);
  return { spec, version: json(join(dir, 'node_modules', 'evalcore', 'package.json')).version };
}

test('init writes the evalcore the user installed: a tarball, a folder, a registry range; `npm install` in the new project gets it', () => {
  // The packed package, installed from its tarball: package.json says file:../<tarball>.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: PKG, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  const tarball = installed('from-tarball', join(work, info.filename));
  assert.equal(json(join(tarball.dir, 'package.json')).dependencies.evalcore, `file:../${info.filename}`);
  const a = initThenInstall(tarball.dir, tarball.bin, 'after-tarball');
  assert.equal(a.spec, `file:../${info.filename}`, 'the same tarball, from the new project');
  assert.equal(a.version, VERSION);

  // A folder (npm links it): the folder, by its path from the new project.
  const folder = installed('from-folder', PKG);
  const b = initThenInstall(folder.dir, folder.bin, 'after-folder');
  assert.equal(b.spec, fromCheckout(join(work, 'after-folder')));
  assert.equal(b.version, VERSION);

  // A registry install (here: the package copied where npm puts one), listed by its range.
  const reg = join(work, 'from-registry');
  mkdirSync(join(reg, 'node_modules'), { recursive: true });
  writeFileSync(join(reg, 'package.json'), `${JSON.stringify({ name: 'reg', private: true, devDependencies: { evalcore: '~0.1.0' } })}\n`);
  cpSync(join(tarball.dir, 'node_modules', 'evalcore'), join(reg, 'node_modules', 'evalcore'), { recursive: true });
  const r = spawnSync(process.execPath, [join(reg, 'node_modules', 'evalcore', 'bin', 'evalcore.js'), 'init', '../after-registry'], { cwd: reg, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(json(join(work, 'after-registry', 'package.json')).devDependencies.evalcore, '~0.1.0');
});
