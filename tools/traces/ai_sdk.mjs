// Runs the Vercel AI SDK (`ai` 7, its MockLanguageModelV4 from `ai/test`) through a two-turn
// conversation with a tool, once per span format of `@ai-sdk/otel` (`OpenTelemetry`: the GenAI
// semantic conventions; `LegacyOpenTelemetry`: the `ai.*` spans), and writes what the OTLP/HTTP
// exporters would send plus the AI SDK's own result objects (the oracle: what each step did).
//
//   node tools/traces/ai_sdk.mjs OUT_DIR     (after `npm ci` in tools/traces)
//
// Writes ai-sdk-genai.otlp.json / .otlp.pb / .oracle.json and ai-sdk-legacy.* . The turns of a
// conversation run under one `conversation` span carrying `gen_ai.conversation.id`, as an app
// that groups its turns would record them.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trace, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { generateText, registerTelemetry, stepCountIs, tool, jsonSchema } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';

const out = path.resolve(process.argv[2] ?? '.');
mkdirSync(out, { recursive: true });

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'dice_ai_sdk' }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const usage = (input, output, reasoning) => ({
  inputTokens: { total: input, noCache: input - 5, cacheRead: 5, cacheWrite: undefined },
  outputTokens: { total: output, text: output - (reasoning ?? 0), reasoning },
});

/** Answers like a model would: a tool call for a die, the roll's value after it, a greeting else. */
const model = new MockLanguageModelV4({
  modelId: 'mock-dice',
  doGenerate: async ({ prompt }) => {
    await sleep(15);
    const last = prompt[prompt.length - 1];
    const result = last.role === 'tool' ? last.content.find((p) => p.type === 'tool-result') : undefined;
    const userText = [...prompt].reverse().find((m) => m.role === 'user')?.content.map((p) => p.text).join('') ?? '';
    if (result) {
      return { content: [{ type: 'text', text: `You rolled a ${result.output.value.result}.` }],
        finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(60, 8), warnings: [], response: { modelId: 'mock-dice-001' } };
    }
    if (/roll/i.test(userText)) {
      return { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'roll_die', input: JSON.stringify({ sides: 6, scale: 1.5 }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(50, 12), warnings: [], response: { modelId: 'mock-dice-001' } };
    }
    return { content: [{ type: 'reasoning', text: 'A greeting is enough.' }, { type: 'text', text: 'Hello there!' }],
      finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(40, 9, 4), warnings: [], response: { modelId: 'mock-dice-001' } };
  },
});

const tools = {
  roll_die: tool({
    description: 'Rolls a die.',
    inputSchema: jsonSchema({ type: 'object', properties: { sides: { type: 'integer' }, scale: { type: 'number' } }, required: ['sides'] }),
    execute: async ({ sides }) => { await sleep(10); return { result: sides === 6 ? 4 : 1 }; },
  }),
};

async function conversation(name, integration) {
  exporter.reset();
  const tracer = trace.getTracer('app');
  const turns = ['Roll a 6-sided die.', 'Hi!'];
  const results = [];
  await tracer.startActiveSpan('conversation', { attributes: { 'gen_ai.conversation.id': `session-${name}` } }, async (span) => {
    const messages = [];
    for (const text of turns) {
      messages.push({ role: 'user', content: text });
      const r = await generateText({
        model, tools, messages, stopWhen: stepCountIs(3),
        telemetry: { functionId: 'dice_agent', integrations: [integration] },
      });
      messages.push(...r.response.messages);
      results.push({
        user: text,
        text: r.text,
        steps: r.steps.map((s) => ({ content: s.content, usage: s.usage, toolCalls: s.toolCalls, toolResults: s.toolResults, modelId: s.response.modelId })),
      });
    }
    span.end();
  });
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const base = path.join(out, `ai-sdk-${name}`);
  writeFileSync(`${base}.otlp.json`, Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
  writeFileSync(`${base}.otlp.pb`, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)));
  writeFileSync(`${base}.oracle.json`, `${JSON.stringify({ session_id: `session-${name}`, turns: results }, null, 1)}\n`);
  console.log(`ai-sdk-${name}: ${spans.length} spans`);
}

registerTelemetry();
await conversation('genai', new OpenTelemetry());
await conversation('legacy', new LegacyOpenTelemetry());
