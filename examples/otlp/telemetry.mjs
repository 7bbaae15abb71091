// The AI SDK's telemetry for one session, its spans going to `tracer` (the app's OpenTelemetry,
// whose exporter points at `evalcore serve`'s /v1/traces). Spread into generateText / streamText:
//   generateText({ model, tools, messages, ...(await sessionTelemetry(tracer, ids)) })
// AI SDK 7 records OpenTelemetry through an integration, @ai-sdk/otel's `OpenTelemetry` (spans in
// the GenAI conventions); the session and user, given as the call's runtime context, become each
// span's `gen_ai.conversation.id` and `user.id`, which evalcore groups the spans by. AI SDK 6
// takes the tracer itself (its `ai.*` spans), the session and user in the telemetry metadata.
import * as ai from 'ai';

export async function sessionTelemetry(tracer, { sessionId, userId, functionId }) {
  if (typeof ai.registerTelemetry !== 'function') {
    return { experimental_telemetry: { isEnabled: true, tracer, functionId, metadata: { sessionId, userId } } };
  }
  const { OpenTelemetry } = await import('@ai-sdk/otel');
  const otel = new OpenTelemetry({
    tracer,
    usage: true, // the AI SDK's reasoning-token count beside the GenAI conventions' totals
    agentSpanName: 'functionId',
    enrichSpan: ({ runtimeContext }) => (runtimeContext?.sessionId === undefined ? undefined
      : { 'gen_ai.conversation.id': runtimeContext.sessionId, 'user.id': runtimeContext.userId }),
  });
  return {
    runtimeContext: { sessionId, userId },
    telemetry: { functionId, includeRuntimeContext: { sessionId: true, userId: true }, integrations: [otel] },
  };
}
