// Every real-world file in shared/corpus/adk-real loads through the package with the loader a
// user would pick: eval sets and test files via loadEvalSet, test_config.json via
// loadEvalConfig, the session file as loadEvalSet's sessionInput.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { SHARED } from './helpers.mjs';

const CORPUS = join(SHARED, 'corpus', 'adk-real');
// The corpus is other projects' files and is not copied into the repo: skip, and say so.
const present = existsSync(CORPUS);
if (!present) test(`corpus: skipped (no ADK corpus at ${CORPUS}; ../shared is not beside this checkout)`, { skip: true }, () => {});

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  }).sort();
}

const files = present ? walk(CORPUS) : [];
const session = present ? JSON.parse(readFileSync(files.find((f) => f.endsWith('.session.json')), 'utf8')) : null;

for (const file of files) {
  const rel = relative(CORPUS, file);
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('test_config.json')) {
    test(`corpus config: ${rel}`, () => {
      const cfg = api.loadEvalConfig(text);
      assert.ok(Object.keys(cfg.criteria).length > 0);
      for (const c of Object.values(cfg.criteria)) assert.equal(typeof c.threshold, 'number');
    });
  } else if (file.endsWith('.session.json')) {
    test(`corpus session: ${rel}`, () => {
      const set = api.loadEvalSet([{ query: 'hi', expected_tool_use: [], reference: 'hello' }], { id: 'with_session', sessionInput: session });
      assert.equal(set.eval_cases[0].session_input.app_name, session.app_name);
    });
  } else {
    test(`corpus eval set: ${rel}`, () => {
      const set = api.loadEvalSet(text, { id: rel });
      assert.equal(typeof set.eval_set_id, 'string');
      assert.ok(set.eval_cases.length > 0);
      for (const c of set.eval_cases) {
        assert.equal(typeof c.eval_id, 'string');
        assert.ok(Array.isArray(c.conversation) || c.conversation_scenario);
      }
      assert.deepEqual(api.loadEvalSet(text, { id: rel }), set, 'migration must be deterministic');
      assert.deepEqual(api.validateEvalSet(text), { ok: true, errors: [] });
    });
  }
}
