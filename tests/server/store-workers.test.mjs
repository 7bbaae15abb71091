// kvStore and r2Store for real: a module worker (tests/server/store-worker/index.js) importing
// evalcore/server's workerd entry runs the eval-set scenario inside workerd, with a KV namespace
// and an R2 bucket that miniflare (the local Workers simulator) provides. Its transcript and the
// values it leaves must equal what the same scenario gives over fsStore in Node, byte for byte,
// and listing must cross the bindings' 1000-key pages.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { evalSetsManager, fsStore } from '../../pkg/lib/server/index.js';
import { storeContents, storeScenario } from '../js/support/store-scenario.mjs';
import { PKG, ROOT, removeWork, workDir, workerFiles } from './support.mjs';

// miniflare is pinned in scripts/tools/package.json; MINIFLARE_TOOLS names another folder with
// node_modules/miniflare (a checkout whose .tools has not been set up again yet).
const TOOLS = process.env.MINIFLARE_TOOLS ?? join(ROOT, '.tools');
const work = workDir();
let mf;
let url;

before(async () => {
  let entry;
  try {
    entry = createRequire(join(TOOLS, 'package.json')).resolve('miniflare');
  } catch {
    throw new Error(`miniflare not found in ${TOOLS}/node_modules: run scripts/setup.sh`);
  }
  const { Miniflare } = await import(pathToFileURL(entry).href);

  // The package files the workerd entry imports, as a bundler would resolve `evalcore/server`.
  const server = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).exports['./server'].workerd.replace(/^\.\//, '');
  const dir = join(work, 'worker');
  const files = workerFiles(server);
  for (const f of files) {
    mkdirSync(dirname(join(dir, 'evalcore', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(dir, 'evalcore', f));
  }
  copyFileSync(join(ROOT, 'tests', 'server', 'store-worker', 'index.js'), join(dir, 'index.js'));
  copyFileSync(join(ROOT, 'tests', 'js', 'support', 'store-scenario.mjs'), join(dir, 'scenario.js'));
  const modules = [
    { type: 'ESModule', path: join(dir, 'index.js') },
    { type: 'ESModule', path: join(dir, 'scenario.js') },
    { type: 'ESModule', path: join(dir, 'evalcore', 'server'), contents: `export * from './${server}';\nexport { default } from './${server}';\n` },
    ...files.map((f) => ({ type: f.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule', path: join(dir, 'evalcore', f) })),
  ];
  for (const m of modules) if (m.contents === undefined && !existsSync(m.path)) throw new Error(`missing module ${m.path}`);
  mf = new Miniflare({
    modulesRoot: dir,
    modules,
    compatibilityDate: '2025-01-01',
    kvNamespaces: ['KV'],
    r2Buckets: ['R2'],
  });
  url = (await mf.ready).href;
});

after(async () => {
  await mf?.dispose();
  removeWork(work);
});

async function run(query) {
  const res = await mf.dispatchFetch(new URL(query, url));
  const text = await res.text();
  assert.equal(res.status, 200, text.slice(0, 2000));
  return JSON.parse(text);
}

describe('kvStore and r2Store in workerd (miniflare)', () => {
  let expected;
  before(async () => {
    const store = fsStore(join(work, 'fs'));
    const transcript = await storeScenario(evalSetsManager, store);
    expected = { transcript, contents: await storeContents(store) };
    assert.ok(Object.keys(expected.contents).length >= 3, 'the scenario leaves two sets and a result');
  });

  for (const kind of ['kv', 'r2']) {
    test(`${kind}: the scenario's transcript and stored bytes equal fsStore's in Node`, async () => {
      const got = await run(`/?store=${kind}`);
      for (const [i, entry] of expected.transcript.entries()) assert.deepEqual(got.transcript[i], entry, `step ${entry.step}`);
      assert.equal(got.transcript.length, expected.transcript.length);
      assert.deepEqual(Object.keys(got.contents), Object.keys(expected.contents));
      for (const [key, text] of Object.entries(expected.contents)) assert.equal(got.contents[key], text, key);
    });

    test(`${kind}: list crosses the 1000-key pages and keeps to one folder level`, async () => {
      const keys = await run(`/?store=${kind}&many=1203`);
      assert.equal(keys.length, 1203);
      assert.equal(keys[0], 'many/k00000');
      assert.equal(keys.at(-1), 'many/k01202');
      assert.ok(!keys.includes('many/deeper/x'));
      assert.deepEqual(keys, [...keys].sort());
    });
  }
});
