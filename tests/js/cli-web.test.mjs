// `evalcore web`: its usage errors are one line with exit code 2, and a folder without
// @google/adk-devtools says what to install (the UI itself: tests/e2e/devui.test.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
// Outside the repository, so no node_modules up the tree holds @google/adk-devtools.
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-web-'));
after(() => rmSync(work, { recursive: true, force: true }));

function cli(args) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 30_000, env: { ...process.env, EVALCORE_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertUsage(r, pattern) {
  assert.equal(r.code, 2, `exit code 2 expected, got ${r.code}\nstderr: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected:\n${r.stderr}`);
  assert.equal(r.stdout, '');
}

test('evalcore web --help names the command, its flags and what must be installed', () => {
  const r = cli(['web', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: evalcore web AGENTS_DIR \[--port N\] \[--host H\] \[--allowed_hosts H,\.\.\.\] \[--evals_dir DIR\]/);
  assert.match(r.stdout, /npm install @google\/adk\s+@google\/adk-devtools/);
  assert.match(cli(['--help']).stdout, /web AGENTS_DIR/);
});

test('evalcore web: usage errors are one line, exit 2', () => {
  assertUsage(cli(['web']), /^evalcore web: takes one AGENTS_DIR, found 0 arguments/);
  assertUsage(cli(['web', 'a', 'b']), /takes one AGENTS_DIR, found 2 arguments/);
  assertUsage(cli(['web', join(work, 'missing')]), /AGENTS_DIR ".*missing" is not a folder/);
  assertUsage(cli(['web', work, '--port', '70000']), /--port must be at most 65535/);
  assertUsage(cli(['web', work, '--bogus']), /--bogus/);
  assertUsage(cli(['web', work, '--allowed_hosts', 'ok.example,not a host']), /--allowed_hosts: "not a host" is not a host name/);
  assertUsage(cli(['web', work]), /cannot find @google\/adk-devtools and @google\/adk .*npm install @google\/adk @google\/adk-devtools/);
});

test('evalcore web: a judge spec the environment gets wrong is a usage error', () => {
  mkdirSync(join(work, 'agent_a'), { recursive: true });
  writeFileSync(join(work, 'agent_a', 'agent.mjs'), 'export const rootAgent = null;\n');
  const r = spawnSync(process.execPath, [BIN, 'web', work], { cwd: work, encoding: 'utf8', timeout: 30_000, env: { ...process.env, EVALCORE_JUDGE: 'nope', EVALCORE_DEBUG: '' } });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /EVALCORE_JUDGE must be provider:model/);
});
