// The AI SDK's prompt (LanguageModelV2/V3: system, user, assistant and tool messages of parts)
// as the policy's history. The AI SDK example's model and the Mastra example's (Mastra runs AI
// SDK 5 models) both receive it; how a failed tool shows in it is theirs to say (`resultOf`).

/** The policy's entries for `prompt`; `resultOf(output)` reads a tool result's `output`. */
export function historyOfPrompt(prompt, resultOf) {
  const out = [];
  const texts = (parts) => parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
  for (const m of prompt) {
    const parts = Array.isArray(m.content) ? m.content : [];
    if (m.role === 'user') out.push({ role: 'user', text: texts(parts) });
    if (m.role === 'assistant') {
      out.push({ role: 'assistant', text: texts(parts), calls: parts.filter((p) => p.type === 'tool-call').map((p) => ({ name: p.toolName, args: p.input })) });
    }
    if (m.role === 'tool') for (const p of parts) if (p.type === 'tool-result') out.push({ role: 'tool', name: p.toolName, ...resultOf(p.output) });
  }
  return out;
}
