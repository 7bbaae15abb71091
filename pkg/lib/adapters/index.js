// `evalcore/adapters`: every agent that is not an @google/adk agent, as an evalcore Agent. Plain
// functions and chat logs (generic.js), and the frameworks — the Vercel AI SDK, the OpenAI Agents
// SDK, LangGraph.js, Mastra — each read through its documented result shape; all of them say
// what happened as steps (steps.js), the one place where steps become ADK events.
export { convertOpenAIMessages, fromFunction, fromOpenAIMessages } from './generic.js';
export { fromAiSdk } from './ai_sdk.js';
export { fromOpenAIAgents } from './openai_agents.js';
export { fromLangGraph } from './langgraph.js';
export { fromMastra } from './mastra.js';
