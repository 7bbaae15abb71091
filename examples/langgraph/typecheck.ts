// Compiled by `tsc -p .` (npm test): evalcore's adapter types against LangGraph's real ones. A
// compiled graph and a RunnableConfig pass as they are.
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MemorySaver } from '@langchain/langgraph';
import { fakeModel } from '@langchain/core/testing';
import type { Agent } from 'evalcore';
import { fromFunction, fromLangGraph } from 'evalcore/adapters';
import { graph } from './agent.mjs';

const reactAgent = createReactAgent({ llm: fakeModel(), tools: [], checkpointer: new MemorySaver() });
export const a: Agent = fromLangGraph(reactAgent, { author: 'assistant', config: { recursionLimit: 10, configurable: { user: 'u' } } });
export const b: Agent = fromLangGraph(graph, { threads: true, maxConversations: 50 });

// By hand: the turn's signal passes to invoke as it is.
export const byHand = fromFunction(async (text, turn) => {
  const state = await reactAgent.invoke({ messages: [{ role: 'user', content: text }] }, { signal: turn.signal, configurable: { thread_id: turn.sessionId } });
  return String(state.messages.at(-1)?.content ?? '');
});
