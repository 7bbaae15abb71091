// A TypeScript agent module (issue 10): `evalcore eval src/agent.ts ...` and AgentEvaluator with a
// .ts path run it through what the user has (a loader in the process, Node's own type stripping,
// or the project's tsx), and otherwise fail with one line that says what to install or which flag
// to use. The project's tsx is installed from npm into the temp project, as its user would
// (`npm install --save-dev tsx`, a few seconds); without the registry that test is skipped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const TSX_VERSION = '4.23.15';
const work = mkdtempSync(join(tmpdir(), 'evalcore-ts-agent-'));
after(() => rmSync(work, { recursive: true, force: true }));

const [major, minor] = process.versions.node.split('.').map(Number);
const nodeStripsTypes = Boolean(process.features?.typescript);
const stripFlagExists = major > 22 || (major === 22 && minor >= 6);

/**
 * A strict-TypeScript project: src/agent.ts imports a helper without its extension and uses an
 * enum (both need more than type stripping), plus an eval set its answer passes.
 */
function project(name, { stripOnly = false } = {}) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'reply.ts'), 'export function reply(text: string, mode: string): string {\n  return `${mode}: ${text}`;\n}\n');
  writeFileSync(join(dir, 'src', 'agent.ts'), stripOnly
    ? "import { reply } from './reply.ts';\n\ninterface Turn { text: string }\n\nexport async function agent(turn: Turn): Promise<string> {\n  return reply(turn.text, 'echo');\n}\n"
    : "import { reply } from './reply';\n\nenum Mode { Echo = 'echo' }\ninterface Turn { text: string }\n\n"
      + 'export async function agent(turn: Turn): Promise<string> {\n  return reply(turn.text, Mode.Echo);\n}\n');
  writeFileSync(join(dir, 'set.evalset.json'), JSON.stringify({ eval_set_id: 'ts', eval_cases: [{ eval_id: 'c1', conversation: [{
    user_content: { parts: [{ text: 'hi' }] }, final_response: { parts: [{ text: 'echo: hi' }] } }] }] }));
  writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { response_match_score: 1 } }));
  return dir;
}

function cli(dir, env = {}) {
  const r = spawnSync(process.execPath, [BIN, 'eval', join('src', 'agent.ts'), 'set.evalset.json', '--results_dir', join(dir, 'results')],
    { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, EVALCORE_DEBUG: '', NODE_OPTIONS: '', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('without a TypeScript loader: one line naming what to install and which Node or flag runs it', { skip: nodeStripsTypes && 'this Node strips types itself' }, () => {
  const r = cli(project('no-loader'));
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /cannot import .*agent\.ts: Node \d+\.\d+\.\d+ does not run TypeScript by itself/);
  assert.match(r.stderr, /npm install --save-dev tsx/);
  assert.match(r.stderr, stripFlagExists ? /NODE_OPTIONS=--experimental-strip-types/ : /Node 22\.18\+ or 23\.6\+/);
  assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
});

test('with tsx in the project: the agent runs through it (extensionless imports and enums included)', async (t) => {
  const dir = project('with-tsx');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ts-agent', private: true, type: 'module' }));
  const install = spawnSync('npm', ['install', '--save-dev', `tsx@${TSX_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  if (install.status !== 0 || !existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) {
    t.skip(`npm could not install tsx@${TSX_VERSION}: ${(install.stderr || install.error?.message || '').trim().split('\n')[0]}`);
    return;
  }
  const r = cli(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ts:\n {2}Tests passed: 1\n {2}Tests failed: 0\n/);
  // AgentEvaluator takes the same path.
  const { AgentEvaluator } = await import('../../pkg/lib/testing/agent_evaluator.js');
  const [result] = await AgentEvaluator.evaluate(join(dir, 'src', 'agent.ts'), join(dir, 'set.evalset.json'), { numRuns: 1 });
  assert.equal(result.eval_case_results[0].final_eval_status, 'PASSED');
});

test("with Node's own type stripping (--experimental-strip-types)", { skip: !stripFlagExists && `Node ${process.versions.node} has no type stripping (22.6+)` }, () => {
  const r = cli(project('strip', { stripOnly: true }), { NODE_OPTIONS: '--experimental-strip-types --no-warnings' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Tests passed: 1/);
});
