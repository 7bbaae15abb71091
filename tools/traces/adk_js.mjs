// Runs a real @google/adk 2.0.0 agent (examples/adk_agent's install: `bash scripts/setup.sh`)
// with a scripted model, exports its spans through OpenTelemetry's own OTLP encoders, and writes
// the session's invocations as evalcore's `sessionInvocations` derives them from ADK JS's own
// session events (ADK JS has no convert_session_to_eval_invocations; the events are ADK's).
//
//   node tools/traces/adk_js.mjs OUT_DIR [errors]
//
// Writes OUT_DIR/adk-js.otlp.json (the OTLP/HTTP JSON exporter's body), adk-js.otlp.pb (its
// protobuf body) and adk-js.oracle.json ({session_id, app_name, user_id, invocations, events}).
// With `errors` (files adk-js-errors.otlp.json and .oracle.json): an agent whose tools throw, one
// error answered by a plugin's onToolErrorCallback, one by nothing (ADK JS then answers the call
// with `{error: "Error in tool ..."}` and the run goes on), one beside a tool that works.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const example = path.join(root, 'examples', 'adk_agent');
const req = createRequire(path.join(example, 'package.json'));
const load = (name) => import(req.resolve(name));

const out = path.resolve(process.argv[2] ?? '.');
const scenario = process.argv[3] ?? 'dice';
mkdirSync(out, { recursive: true });

const api = await load('@opentelemetry/api');
const base = await load('@opentelemetry/sdk-trace-base');
const { resourceFromAttributes } = await load('@opentelemetry/resources');
const { JsonTraceSerializer, ProtobufTraceSerializer } = await load('@opentelemetry/otlp-transformer');
const { AsyncLocalStorageContextManager } = await load('@opentelemetry/context-async-hooks');

const exporter = new base.InMemorySpanExporter();
const provider = new base.BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'hello_world_js' }),
  spanProcessors: [new base.SimpleSpanProcessor(exporter)],
});
api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
api.trace.setGlobalTracerProvider(provider);

const adk = await load('@google/adk');
const { rootAgent } = await import(path.join(example, 'agent.mjs'));
const { adkEventToJson } = await import(path.join(root, 'pkg', 'lib', 'adapters', 'common.js'));
await import(path.join(root, 'pkg', 'index.js')); // initialises the wasm module
const { sessionInvocations } = await import(path.join(root, 'pkg', 'lib', 'wasm', 'adk_text.js'));

const { agent, turns, plugins } = scenario === 'errors'
  ? await import(path.join(here, 'adk_js_errors.mjs')).then((m) => m.scenario(adk))
  : { agent: rootAgent, turns: ['Roll a 6-sided die.', 'Is the result prime?', 'Hi, who are you?'], plugins: [] };
const name = scenario === 'dice' ? 'adk-js' : `adk-js-${scenario}`;
const runner = new adk.InMemoryRunner({ agent, appName: 'hello_world_js', plugins });
const session = await runner.sessionService.createSession({ appName: 'hello_world_js', userId: 'user-js', sessionId: `session-${name.slice(4)}` });
for (const text of turns) {
  for await (const _ of runner.runAsync({ userId: 'user-js', sessionId: session.id, newMessage: { role: 'user', parts: [{ text }] } })) {
    // drain
  }
}
await provider.forceFlush();
const stored = await runner.sessionService.getSession({ appName: 'hello_world_js', userId: 'user-js', sessionId: session.id });
// ADK JS events in ADK Python's JSON shape, as evalcore's ADK adapter and dev server record them.
const events = stored.events.map((e) => adkEventToJson(e));
const invocations = sessionInvocations({ events });
const spans = exporter.getFinishedSpans();
writeFileSync(path.join(out, `${name}.otlp.json`), Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
if (scenario === 'dice') writeFileSync(path.join(out, `${name}.otlp.pb`), Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)));
writeFileSync(path.join(out, `${name}.oracle.json`), `${JSON.stringify({
  session_id: session.id, app_name: 'hello_world_js', user_id: 'user-js', invocations, events,
}, null, 1)}\n`);
console.log(`${name}: ${spans.length} spans, ${invocations.length} invocations`);
process.exit(0);
