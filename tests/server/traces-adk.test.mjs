// google-adk 2.13 (Python) exporting to evalcore's /v1/traces with OpenTelemetry's own OTLP/HTTP
// exporters (protobuf, gzip, batches of 8; log records to /v1/logs), as a deployed ADK app would:
// tools/traces/adk_py.py with EVALCORE_OTLP_ENDPOINT runs the scripted dice agent in three
// telemetry settings, and the session the server assembled from those requests equals what
// loadTraces gives for the file the same run wrote (itself checked against ADK's own derivation
// by tests/traces.rs). Needs tools/traces/.venv (see tools/traces/refresh.sh); skipped without it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createHandler } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { loadTraces } from '../../pkg/index.js';
import { ROOT } from './support.mjs';

const PY = join(ROOT, 'tools', 'traces', '.venv', 'bin', 'python');
const TOKEN = 'adk-otlp-token';
const work = mkdtempSync(join(tmpdir(), 'evalcore-traces-adk-'));
const ready = existsSync(PY) && spawnSync(PY, ['-c', 'import google.adk, opentelemetry.exporter.otlp.proto.http'], { encoding: 'utf8' }).status === 0;
const open = [];
after(async () => {
  for (const s of open) await s.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the venv's python with `args` (3 minutes at most): `{status, stderr}`. */
function python(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(PY, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

for (const variant of ['v1', 'v2-span', 'v2-event']) {
  test(`ADK ${variant} through its OTLP exporters equals the import of the same run's file`, { skip: ready ? false : 'no tools/traces/.venv with google-adk 2.13 (tools/traces/refresh.sh)' }, async () => {
    const s = await serveNode(createHandler({ token: TOKEN, limits: { traceIdleMs: 3_600_000 } }), { port: 0 });
    open.push(s);
    // Not spawnSync: the server answering the exporter runs on this process's event loop.
    const run = await python([join(ROOT, 'tools', 'traces', 'adk_py.py'), variant, work], { EVALCORE_OTLP_ENDPOINT: s.url, EVALCORE_OTLP_TOKEN: TOKEN });
    assert.equal(run.status, 0, run.stderr.slice(-3000));
    assert.doesNotMatch(run.stderr, /Failed to export/, 'every batch was taken');
    const auth = { authorization: `Bearer ${TOKEN}` };
    const flushed = await (await fetch(`${s.url}/v1/traces/flush`, { method: 'POST', headers: auth })).json();
    assert.equal(flushed.scored, 1);
    const record = await (await fetch(`${s.url}/v1/traces/sessions/session-${variant}`, { headers: auth })).json();
    const online = record.scorings[0].result.eval_case_results[0].eval_metric_result_per_invocation.map((p) => p.actual_invocation);
    const file = readFileSync(join(work, `adk-py-${variant}.otlp.jsonl`));
    assert.deepEqual(online, JSON.parse(JSON.stringify(loadTraces(file).sessions[0].invocations)));
    assert.equal(online.length, 4);
    if (variant === 'v2-event') assert.equal(record.user_id, 'user-7', 'the user comes from the log records');
  });
}
