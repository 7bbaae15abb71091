// scripts/demo.sh installs only what the demo needs (issue 24): no cargo-fuzz, no Chromium, no
// Deno, workerd, miniflare, typescript or playwright-core, no example projects. Run against
// stand-ins for rustup, cargo, wasm-bindgen, wasm-pack, npm and apt-get that record what they
// are asked to do, in a copy of the scripts with an empty .tools/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'evalcore-setup-'));
after(() => rmSync(work, { recursive: true, force: true }));

const PIN = /^wasm-bindgen *= *"=?([0-9.]+)"/m.exec(readFileSync(join(ROOT, 'Cargo.toml'), 'utf8'))[1];
const TOOL_PINS = JSON.parse(readFileSync(join(ROOT, 'scripts', 'tools', 'package.json'), 'utf8')).dependencies;

/** A checkout with the real scripts, a build.sh that only records that it ran, and stand-in tools. */
function checkout(name) {
  const root = join(work, name);
  const bin = join(root, 'bin');
  mkdirSync(join(root, 'scripts', 'tools'), { recursive: true });
  mkdirSync(join(root, 'pkg'), { recursive: true });
  mkdirSync(bin);
  for (const f of ['setup.sh', 'demo.sh', 'examples.sh']) cpSync(join(ROOT, 'scripts', f), join(root, 'scripts', f));
  cpSync(join(ROOT, 'scripts', 'tools', 'package.json'), join(root, 'scripts', 'tools', 'package.json'));
  cpSync(join(ROOT, 'Cargo.toml'), join(root, 'Cargo.toml'));
  cpSync(join(ROOT, 'pkg', 'package.json'), join(root, 'pkg', 'package.json'));
  writeFileSync(join(root, 'scripts', 'build.sh'), 'echo "build ran" >> "$LOG"; exit 3\n');
  const log = join(root, 'calls.log');
  const stub = (tool, body) => {
    writeFileSync(join(bin, tool), `#!/usr/bin/env bash\necho "${tool} $*" >> "${log}"\n${body}\n`);
    chmodSync(join(bin, tool), 0o755);
  };
  stub('rustup', 'case "$*" in *"target list"*) echo wasm32-unknown-unknown;; *"component list"*) printf "clippy\\nrustfmt\\n";; esac');
  stub('cargo', 'exit 0');
  stub('wasm-bindgen', `echo "wasm-bindgen ${PIN}"`);
  stub('wasm-pack', 'echo "wasm-pack 0.13.1"');
  stub('apt-get', 'exit 0');
  // npm install in .tools: lays out what was asked for, at the pinned versions.
  stub('npm', `node -e '
    const fs = require("fs"), path = require("path");
    const deps = JSON.parse(fs.readFileSync("package.json", "utf8")).dependencies;
    for (const [n, v] of Object.entries(deps)) {
      fs.mkdirSync(path.join("node_modules", n), { recursive: true });
      fs.writeFileSync(path.join("node_modules", n, "package.json"), JSON.stringify({ name: n, version: v }));
    }
    fs.mkdirSync("node_modules/.bin", { recursive: true });
    if (deps.binaryen) fs.writeFileSync("node_modules/.bin/wasm-opt", "#!/bin/sh\\necho wasm-opt version 132 x\\n", { mode: 0o755 });'`);
  return { root, log, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: root, LOG: log, CI: 'true' } };
}

test('demo.sh: the build toolchain and binaryen, nothing only the tests use', () => {
  const { root, log, env } = checkout('demo');
  const r = spawnSync('bash', [join(root, 'scripts', 'demo.sh')], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });
  const calls = readFileSync(log, 'utf8');
  assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
  assert.match(calls, /^build ran$/m, 'the build ran after setup');
  assert.match(r.stdout, /cargo-fuzz: not needed here/);
  assert.match(r.stdout, /chromium: not needed here/);
  assert.match(r.stdout, /examples\/adk_agent dependencies: not needed here/);
  assert.match(r.stdout, /npm tools in \.tools \(the build's: binaryen\): installing/);
  assert.doesNotMatch(calls, /^apt-get|cargo install cargo-fuzz/m);
  const installed = JSON.parse(readFileSync(join(root, '.tools', 'package.json'), 'utf8')).dependencies;
  assert.deepEqual(installed, { binaryen: TOOL_PINS.binaryen });
  assert.ok(!existsSync(join(root, '.tools', 'node_modules', 'workerd')));
  assert.ok(!existsSync(join(root, '.tools', 'node_modules', 'playwright-core')));

  // Once present, nothing is installed again.
  const again = spawnSync('bash', [join(root, 'scripts', 'demo.sh')], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });
  assert.match(again.stdout, /npm tools in \.tools \(the build's: binaryen\): present/);
});

test('setup.sh without switches still installs every test tool, keeping what is there', () => {
  const { root, log, env } = checkout('full');
  mkdirSync(join(root, '.tools'));
  writeFileSync(join(root, '.tools', 'package.json'), JSON.stringify({ dependencies: { 'other-checkout-tool': '1.0.0' } }));
  const r = spawnSync('bash', [join(root, 'scripts', 'setup.sh')], {
    cwd: root, encoding: 'utf8', env: { ...env, EVALCORE_SETUP_EXAMPLES: '0' }, timeout: 60_000,
  });
  const calls = readFileSync(log, 'utf8');
  assert.match(calls, /cargo install cargo-fuzz/);
  const installed = JSON.parse(readFileSync(join(root, '.tools', 'package.json'), 'utf8')).dependencies;
  assert.deepEqual(installed, { 'other-checkout-tool': '1.0.0', ...TOOL_PINS });
  // The stand-in tools have no deno or workerd binaries, so the full check fails after installing: that is setup's own check.
  assert.match(r.stderr + r.stdout, /npm tools in \.tools: installing/);
});
