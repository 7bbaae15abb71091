// The docs ship inside the package (pkg/docs/), the repository's examples/ do not: a page read
// from node_modules/evalcore/docs must not send its reader to a folder that is not there. Where a
// page needs an example's code it shows it, in a fenced block titled with the file's path
// (```js title="examples/otlp/telemetry.mjs"), and that block is the file, byte for byte; any
// other mention of examples/ says it is the repository's. Pages about working on the repository
// itself are exempt.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.mjs';

const DOCS = join(ROOT, 'docs');
// Pages for contributors: the repository's layout, its set-up, its fuzzing campaign.
const ABOUT_THE_REPOSITORY = new Set(['development.md', 'layout.md', 'fuzzing.md']);

function pages(dir = DOCS) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? pages(p) : n.endsWith('.md') ? [p] : [];
  });
}

const BLOCK = /^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm;

test("the docs' example files are the repository's files, byte for byte", () => {
  let shown = 0;
  for (const page of pages()) {
    for (const [, , info, body] of readFileSync(page, 'utf8').matchAll(BLOCK)) {
      const title = /title="(examples\/[^"]+)"/.exec(info)?.[1];
      if (!title) continue;
      shown += 1;
      assert.equal(body, readFileSync(join(ROOT, title), 'utf8'), `${relative(ROOT, page)}: the block titled ${title} is that file`);
    }
  }
  assert.ok(shown >= 2, 'the docs show the OpenTelemetry set-up and the Worker configuration');
});

test("every other mention of examples/ in the docs says it is the repository's", () => {
  const loose = [];
  for (const page of pages()) {
    const name = relative(DOCS, page);
    if (ABOUT_THE_REPOSITORY.has(name)) continue;
    const text = readFileSync(page, 'utf8');
    // Titled blocks show their file; their titles are not mentions.
    const prose = text.replace(BLOCK, (block, lang, info) => (/title="examples\//.test(info) ? '' : block));
    for (const m of prose.matchAll(/examples\/[\w./-]*/g)) {
      const before = prose.slice(Math.max(0, m.index - 60), m.index);
      if (!/repository/.test(before)) loose.push(`${name}: ${m[0]} (…${before.replace(/\s+/g, ' ').slice(-40)})`);
    }
  }
  assert.deepEqual(loose, []);
});
