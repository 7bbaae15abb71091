// The dice agent's spans sent to `evalcore serve` by OpenTelemetry's own OTLP/HTTP exporters
// (@opentelemetry/exporter-trace-otlp-http: JSON; -proto: protobuf, also gzip-compressed), as an
// app exports them (a BatchSpanProcessor, a bearer token): the server takes every span, holds
// each session until it has been quiet for EVALCORE_TRACE_IDLE_MS, scores it and lists it. The
// stored invocations are what the AI SDK's own result objects say the agent did.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { after, before, test } from 'node:test';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { conversation } from '../agent.mjs';

// As an app's OpenTelemetry setup does (NodeSDK registers it): without a context manager every
// span the AI SDK starts is a root of its own trace, and a turn's spans are not one invocation.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const require = createRequire(import.meta.url);
const BIN = require.resolve('evalcore/package.json').replace(/package\.json$/, 'bin/evalcore.js');
const TOKEN = 'otlp-example-token';
let server;
let base;

before(async () => {
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet'], {
    env: {
      ...process.env, EVALCORE_TOKEN: TOKEN, EVALCORE_TRACE_IDLE_MS: '1500',
      EVALCORE_TRACES_CONFIG: JSON.stringify({ criteria: { tool_trajectory_avg_score: 1.0 } }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise((resolve, reject) => {
    server.stdout.once('data', (d) => resolve(String(d).trim()));
    server.once('exit', (c) => reject(new Error(`evalcore serve exited with ${c}`)));
  });
});
after(() => server?.kill());

/**
 * A provider exporting through `exporter` in batches, with every export's result kept (`settled()`
 * waits for them all: forceFlush does not wait for an export its timer started before it).
 */
function tracing(exporter) {
  const results = [];
  const exports = [];
  const send = exporter.export.bind(exporter);
  exporter.export = (spans, done) => {
    exports.push(new Promise((resolve) => send(spans, (r) => { results.push(r); done(r); resolve(); })));
  };
  results.settled = () => Promise.all(exports);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'dice_app' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 50, maxExportBatchSize: 3 })],
  });
  return { provider, results };
}

async function scored(sessionId) {
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${base}/v1/traces/sessions/${encodeURIComponent(sessionId)}`, { headers: auth });
    if (res.status === 200) return res.json();
    assert.equal(res.status, 404, await res.text());
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`session ${sessionId} was not scored`);
}

const kinds = [
  ['JSON', () => new JsonExporter({ url: `${base}/v1/traces`, headers: { authorization: `Bearer ${TOKEN}` } })],
  ['protobuf', () => new ProtoExporter({ url: `${base}/v1/traces`, headers: { authorization: `Bearer ${TOKEN}` } })],
  ['protobuf, gzip', () => new ProtoExporter({ url: `${base}/v1/traces`, headers: { authorization: `Bearer ${TOKEN}` }, compression: 'gzip' })],
  ['JSON, gzip', () => new JsonExporter({ url: `${base}/v1/traces`, headers: { authorization: `Bearer ${TOKEN}` }, compression: 'gzip' })],
];

for (const [label, make] of kinds) {
  test(`${label}: every span taken, the session scored once quiet, as the agent ran it`, async () => {
    const { provider, results } = tracing(make());
    const sessionId = `otlp-${label.replace(/\W+/g, '-')}`;
    const turn = conversation(provider.getTracer('dice'), sessionId);
    const runs = [await turn('Roll a 20-sided die.'), await turn('Thanks! Hello again.')];
    await provider.forceFlush();
    await results.settled();
    assert.ok(results.length >= 2, 'the spans went out in several requests');
    assert.ok(results.every((r) => r.code === 0), JSON.stringify(results.map((r) => r.error?.message)));

    const record = await scored(sessionId);
    assert.equal(record.session_id, sessionId);
    assert.equal(record.app_name, 'dice_app');
    assert.equal(record.user_id, 'user-1');
    // `ai` 7's spans (@ai-sdk/otel) follow the GenAI conventions; 6's are the AI SDK's own.
    assert.equal(record.source, runs[0].responseMessages ? 'genai' : 'ai-sdk');
    const [c] = record.scorings.at(-1).result.eval_case_results;
    const invs = c.eval_metric_result_per_invocation.map((p) => p.actual_invocation);
    assert.equal(invs.length, 2);
    // What the AI SDK's own results say each turn did.
    invs.forEach((inv, k) => {
      assert.equal(inv.final_response.parts.map((p) => p.text).join(''), runs[k].text);
      const called = runs[k].steps.flatMap((s) => s.toolCalls.map((t) => ({ name: t.toolName, args: t.input })));
      const events = inv.intermediate_data.invocation_events;
      assert.deepEqual(events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => ({ name: p.function_call.name, args: p.function_call.args }))), called);
      const responses = runs[k].steps.flatMap((s) => s.toolResults.map((t) => t.output));
      assert.deepEqual(events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_response).map((p) => p.function_response.response)), responses);
    });
    assert.deepEqual(invs[0].intermediate_data.invocation_events[0].content.parts[0].function_call.args, { sides: 20, scale: 1.5 });
    // Scored with the server's criteria: no eval case, so the trajectory says why it was not evaluated.
    const m = c.overall_eval_metric_results.find((x) => x.metric_name === 'tool_trajectory_avg_score');
    assert.equal(m.details.reason, 'missing_expected');
    assert.equal(c.overall_eval_metric_results.find((x) => x.metric_name === 'tool_call_count_v1').score, 0.5);
    await provider.shutdown();
  });
}

test('the listing has every session scored; a request without the token is refused', async () => {
  const res = await fetch(`${base}/v1/traces/sessions?limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const page = await res.json();
  assert.deepEqual(page.sessions.map((s) => s.session_id).sort(), kinds.map(([l]) => `otlp-${l.replace(/\W+/g, '-')}`).sort());
  assert.equal(page.pending.sessions, 0);
  const refused = await fetch(`${base}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(refused.status, 401);
});
