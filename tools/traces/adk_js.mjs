// Runs a real @google/adk 2.0.0 agent (examples/adk_agent's install: `bash scripts/setup.sh`)
// with a scripted model, exports its spans through OpenTelemetry's own OTLP encoders, and writes
// the session's invocations as evalcore's `sessionInvocations` derives them from ADK JS's own
// session events (ADK JS has no convert_session_to_eval_invocations; the events are ADK's).
//
//   node tools/traces/adk_js.mjs OUT_DIR
//
// Writes OUT_DIR/adk-js.otlp.json (the OTLP/HTTP JSON exporter's body), adk-js.otlp.pb (its
// protobuf body) and adk-js.oracle.json ({session_id, app_name, user_id, invocations, events}).
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
const { sessionInvocations } = await import(path.join(root, 'pkg', 'lib', 'adk_text.js'));

const runner = new adk.InMemoryRunner({ agent: rootAgent, appName: 'hello_world_js' });
const session = await runner.sessionService.createSession({ appName: 'hello_world_js', userId: 'user-js', sessionId: 'session-js' });
const turns = ['Roll a 6-sided die.', 'Is the result prime?', 'Hi, who are you?'];
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
writeFileSync(path.join(out, 'adk-js.otlp.json'), Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
writeFileSync(path.join(out, 'adk-js.otlp.pb'), Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)));
writeFileSync(path.join(out, 'adk-js.oracle.json'), `${JSON.stringify({
  session_id: session.id, app_name: 'hello_world_js', user_id: 'user-js', invocations, events,
}, null, 1)}\n`);
console.log(`adk-js: ${spans.length} spans, ${invocations.length} invocations`);
process.exit(0);
