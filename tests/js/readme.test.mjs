// The README, followed as a newcomer follows it, against the packed package, so that it cannot
// rot: its files are what `evalcore init` writes; in a fresh project with the tarball installed
// (and vitest, pinned by tests/js/support/newcomer's lock file) its CLI command prints exactly
// the output the README shows, its vitest test passes, its CI recipe's commands pass and write
// the JUnit report, its judge recipe records a cassette through the judge's key header and
// replays it with no key, and its evaluate() snippet runs.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { STARTER_FILES } from '../../pkg/lib/node/starter.js';
import { PKG, ROOT } from './helpers.mjs';
import { startJudgeServer } from './support/judge-server.mjs';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'evalcore-readme-'));
const dir = join(work, 'project');
after(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

/** The README's fenced blocks: `{ lang, title, body }` (a title from ```lang title="path"). */
const blocks = [...README.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)]
  .map(([, lang, info, body]) => ({ lang, title: /title="([^"]+)"/.exec(info)?.[1], body }));
const titled = (title) => {
  const found = blocks.filter((b) => b.title === title);
  assert.equal(found.length, 1, `the README has one block titled ${title}`);
  return found[0].body;
};
/** The shell commands of a block: `\`-continued lines joined, comments and blank lines left out. */
const commands = (body) => body.replace(/\\\n\s*/g, '').split('\n').map((l) => l.replace(/^\$ /, ''))
  .filter((l) => l.trim() !== '' && !l.startsWith('#'));

const CLEAN_ENV = { GEMINI_API_KEY: '', GOOGLE_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', EVALCORE_DEBUG: '', NO_COLOR: '1' };
function sh(command, env = {}) {
  const r = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...CLEAN_ENV, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** `sh` without blocking the event loop, for commands that call a server of this process. */
function shAsync(command, env = {}) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: dir, env: { ...process.env, ...CLEAN_ENV, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const npm = (args) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
  cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000,
});

before(() => {
  // The published package: what `npm pack` of pkg/ makes.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: PKG, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  mkdirSync(dir);
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, 'tests', 'js', 'support', 'newcomer', f), join(dir, f));
  // `npm install -D evalcore`, from the tarball.
  npm(['install', '-D', join(work, info.filename)]);
  // The README's `npx evalcore init`, then the files only the README has.
  const init = sh('npx evalcore init');
  assert.equal(init.code, 0, init.stderr);
  for (const b of blocks) {
    if (b.title && !existsSync(join(dir, b.title))) {
      mkdirSync(dirname(join(dir, b.title)), { recursive: true });
      writeFileSync(join(dir, b.title), b.body);
    }
  }
});

test("the README's agent, eval set, config and test are the starter `evalcore init` writes", () => {
  for (const [name] of STARTER_FILES) {
    assert.equal(titled(name), readFileSync(join(PKG, 'starter', name), 'utf8'), `README block ${name} = pkg/starter/${name}`);
    assert.equal(readFileSync(join(dir, name), 'utf8'), titled(name), `init wrote ${name}`);
  }
});

test('its CLI run prints the output it shows, and passes', () => {
  const shown = blocks.filter((b) => b.lang === 'console');
  assert.ok(shown.length >= 1);
  for (const b of shown) {
    const [first, ...output] = b.body.split('\n');
    assert.match(first, /^\$ npx evalcore /);
    const r = sh(first.slice(2));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, output.join('\n'));
    assert.match(r.stderr, /^wrote .*\.adk[/\\]eval_history[/\\]project_weather_[\d.]+\.evalset_result\.json\n$/);
  }
});

test('its vitest test passes (`npm test`, which init added)', () => {
  const r = sh('npm test');
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /Tests {2}1 passed \(1\)/);
});

test("its CI recipe's evalcore commands pass and write the JUnit report", () => {
  const yaml = titled('.github/workflows/evals.yml');
  const runs = [...yaml.matchAll(/^\s*- run: (npx evalcore .*)$/gm)].map((m) => m[1]);
  assert.ok(runs.length >= 1 && runs.every((c) => c.includes('--strict')), 'CI runs evalcore with --strict');
  for (const c of runs) {
    const r = sh(c);
    assert.equal(r.code, 0, `${c}\n${r.stderr}`);
  }
  const junit = readFileSync(join(dir, 'reports', 'evals.xml'), 'utf8');
  assert.equal(junit.match(/<testcase /g)?.length, 2);
  assert.doesNotMatch(junit, /<failure/);
});

test('its judge recipe: recorded through the provider key header, replayed in CI with no key and no server', async () => {
  const recipe = blocks.find((b) => b.lang === 'sh' && b.body.includes('--judge_mode replay'));
  assert.ok(recipe, 'the README shows the replay command');
  const [record, replay] = commands(recipe.body);
  assert.match(record, /--judge gemini:\S+ .*--judge_cassette (\S+)/);
  const server = await startJudgeServer();
  try {
    server.script(() => '"is_the_agent_response_valid": "valid"');
    // The provider's own URL replaced by the loopback judge; the key as the README says.
    const r = await shAsync(`${record} --judge_base_url ${server.baseUrl}`, { GEMINI_API_KEY: 'readme-key' });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(server.requests.length > 0);
    assert.ok(server.requests.every((q) => q.headers['x-goog-api-key'] === 'readme-key'), 'the key travels in x-goog-api-key, as the table says');
  } finally {
    await server.close();
  }
  const cassette = /--judge_cassette (\S+)/.exec(record)[1];
  assert.ok(existsSync(join(dir, cassette)), 'the cassette was written');
  const r = sh(replay);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^judge: (\d+) call\(s\) asked for: \1 answered \(\1 from the cassette\), 0 failed; 0 sent in 0 attempt\(s\)/m, 'every call answered from the cassette, none sent');
});

test('its evaluate() snippet runs', () => {
  const r = sh('node evaluate.mjs');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n').sort(), ['no_city PASSED', 'paris PASSED']);
});

test('every docs/ page the README links is in the repository and in the tarball', () => {
  const links = [...README.matchAll(/\]\((docs\/[^)#]+)(#[^)]*)?\)/g)].map((m) => m[1]);
  assert.ok(links.length >= 10);
  for (const link of new Set(links)) {
    assert.ok(existsSync(join(ROOT, link)), `${link} exists`);
    assert.ok(existsSync(join(dir, 'node_modules', 'evalcore', link)), `${link} is in the package`);
  }
});
