// LLM-judged metrics through the built package, against google-adk 2.13's verdicts: every line of
// shared/judge_oracles.jsonl is served by the loopback judge server (oracle mode, the routing
// rule of judge_oracles.md) and evaluated with `evaluateInvocations`; final status, each metric's
// status and score overall and per invocation, and the call accounting must all equal ADK's.
// Then a sample of lines again through the Gemini and Anthropic wire formats: routing is by
// text, so the verdicts must be the same.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { DATA, readJsonl } from './helpers.mjs';
import { checkRow } from './support/judge-check.mjs';
import { startJudgeServer } from './support/judge-server.mjs';

const lines = readJsonl(join(DATA, 'judge_oracles.jsonl'));
const label = (line) => `${line.id} [${line.tags.filter((t) => /^(metric|samples|hallu|judge|cfg):/.test(t)).join(' ')}]`;

let server;
before(async () => { server = await startJudgeServer(); });
after(async () => { await server?.close(); });

const equal = new Map();

describe('judge_oracles.jsonl via the OpenAI wire format', () => {
  for (const line of lines) {
    test(label(line), async () => {
      const { diffs } = await checkRow(ec, server, line, { provider: 'openai', model: 'm' });
      equal.set(line.id, diffs.length === 0);
      assert.deepEqual(diffs, [], `${line.id} (${line.tags.join(' ')}):\n  ${diffs.slice(0, 12).join('\n  ')}`);
    });
  }
});

test('judge oracles: all lines equal to google-adk 2.13', (t) => {
  const n = [...equal.values()].filter(Boolean).length;
  const summary = `judge oracles: ${n}/${lines.length} equal to google-adk 2.13`;
  console.log(summary);
  t.diagnostic(summary);
  assert.equal(lines.length, 120);
  assert.equal(equal.size, lines.length, 'every line was checked');
  assert.equal(n, lines.length, summary);
});

// Every sixth line (20), plus every line whose script holds a failure.
const sample = lines.filter((l, i) => i % 6 === 0 || l.tags.includes('judge:failure'));

for (const provider of ['gemini', 'anthropic']) {
  describe(`a sample of ${sample.length} lines via the ${provider} wire format`, () => {
    for (const line of sample) {
      test(label(line), async () => {
        const { diffs, report } = await checkRow(ec, server, line, { provider, model: 'm' });
        assert.deepEqual(diffs, [], `${line.id} over ${provider}:\n  ${diffs.slice(0, 12).join('\n  ')}`);
        // The calls went out in this provider's wire format (a line with no call proves nothing).
        const wires = new Set(server.requests.map((r) => r.wire));
        if (report.requests > 0) assert.deepEqual([...wires], [provider]);
      });
    }
  });
}
