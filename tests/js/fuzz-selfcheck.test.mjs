// The fuzzer's detectors can fail: each planted defect (tests/fuzz/targets.mjs SELF_CHECKS) is
// reported as a finding of its kind, and the run exits 1.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.mjs';

const FUZZ = join(ROOT, 'tests', 'fuzz', 'fuzz.mjs');

const planted = {
  __hang: 'hang', __spin: 'hang', __throw: 'non_evalerror', __trap: 'trap', __asyncTrap: 'trap', __leak: 'memory',
  __unhandled: 'uncaught',
};

for (const [target, kind] of Object.entries(planted)) {
  test(`fuzz: a planted ${target} is a "${kind}" finding`, () => {
    const r = spawnSync(process.execPath, [FUZZ, '--iterations', '1', '--target', target, '--quiet'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 1, `exit code: ${r.status}\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^fuzz: 0 passed, 1 failed/m);
    assert.match(r.stdout, new RegExp(`finding: --seed 1 --only 0 \\[${target}\\] ${kind}: `));
  });
}

test('fuzz: under --cap-pages a survived trap is an answer, and real out-of-memory traps are met', () => {
  const r = spawnSync(process.execPath, [FUZZ, '--cap-pages', '160', '--iterations', '2', '--target', '__trap', '--quiet'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^fuzz: 2 passed, 0 failed \(seed 1, wasm memory capped at 160 pages, 2 inputs\)/m);
  const big = spawnSync(process.execPath, [FUZZ, '--cap-pages', '120', '--iterations', '150', '--seed', '10', '--target', 'amplified'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(big.status, 0, `${big.stdout}${big.stderr}`);
  assert.match(big.stdout, /amplified: trap x\d+/, 'some amplified inputs trapped for real and were survived');
});

test('fuzz: a short clean run passes, and a finding replays alone from its seed and index', () => {
  const r = spawnSync(process.execPath, [FUZZ, '--iterations', '30', '--seed', '2', '--quiet'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^fuzz: 30 passed, 0 failed \(seed 2, 30 inputs\)/m);
  const one = spawnSync(process.execPath, [FUZZ, '--seed', '2', '--only', '17', '--quiet'], { encoding: 'utf8', timeout: 60_000 });
  assert.match(one.stdout, /^fuzz: 1 passed, 0 failed/m);
});
