// What an adapter knows of its agents — each one's name, instructions and tools — as a reply's
// `agents` (`[{ name, instructions, tools: [{ name, description, parameters }] }]`), which the
// core makes into ADK's AppDetails for the agents that authored the turn (src/run/agent_details.rs),
// so an LLM judge is shown the agent's instructions and tool declarations as ADK's would be.
// Tools are read from what frameworks hold: an array of tool objects or a `{ name: tool }` map,
// a tool's parameters from a JSON Schema or a schema object that can write one.
import { EvalError, describe, isPlainObject, rawJson } from './common.js';

/**
 * The JSON Schema of a tool's parameters: a Standard JSON Schema (`~standard.jsonSchema`, as
 * zod 4 and valibot have), a `toJSONSchema()` method, the AI SDK's `jsonSchema()` (its
 * `jsonSchema`), or a JSON Schema itself. Undefined when none of these can say.
 */
function schemaJson(schema) {
  if (!isPlainObject(schema)) return undefined;
  try {
    const standard = schema['~standard']?.jsonSchema;
    if (typeof standard?.input === 'function') return standard.input({ target: 'draft-07' });
    if (typeof schema.toJSONSchema === 'function') return schema.toJSONSchema();
    const json = schema.jsonSchema;
    if (isPlainObject(json) && typeof json.then !== 'function') return json;
  } catch {
    return undefined; // a schema that cannot be written as JSON Schema: the tool is shown without one
  }
  const looksLikeOne = typeof schema.type === 'string' || isPlainObject(schema.properties);
  return looksLikeOne && !('~standard' in schema) ? schema : undefined;
}

/** One tool as `{ name, description?, parameters? }`; `key` is its name in a `{ name: tool }` map. */
function toolOf(tool, key, path, who) {
  if (!isPlainObject(tool)) throw new EvalError('schema', path, `${who}: a tool must be an object, found ${describe(tool)}`);
  const name = [key, tool.name, tool.id].find((n) => typeof n === 'string' && n !== '');
  if (name === undefined) throw new EvalError('schema', path, `${who}: a tool needs a name (its key in a tools object, or its name or id)`);
  const out = { name };
  if (typeof tool.description === 'string' && tool.description !== '') out.description = tool.description;
  const params = schemaJson(tool.parameters ?? tool.inputSchema ?? tool.input_schema ?? tool.schema);
  if (params !== undefined) out.parameters = rawJson(params, { code: 'schema', where: who, root: `${path}.parameters` });
  return out;
}

/** Tools given as an array or a `{ name: tool }` map (the AI SDK's ToolSet, Mastra's tools). */
export function toolList(tools, path, who) {
  if (tools === undefined || tools === null) return [];
  if (Array.isArray(tools)) return tools.map((t, i) => toolOf(t, undefined, `${path}[${i}]`, who));
  if (isPlainObject(tools)) return Object.entries(tools).map(([k, t]) => toolOf(t, k, `${path}[${JSON.stringify(k)}]`, who));
  throw new EvalError('schema', path, `${who}: tools must be an array or an object of tools by name, found ${describe(tools)}`);
}

/** Instructions as text: a string, system messages or parts (`content` or `text`), joined by lines. */
function instructionsText(v) {
  if (typeof v === 'string') return v;
  const list = Array.isArray(v) ? v : isPlainObject(v) ? [v] : [];
  return list.map((m) => (typeof m === 'string' ? m : typeof m?.content === 'string' ? m.content : typeof m?.text === 'string' ? m.text : ''))
    .filter((t) => t !== '').join('\n');
}

/** One entry of `agents`: instructions that are not text (a function of the run) are left out. */
export function agentEntry(name, { instructions, tools } = {}, who, path = '$.options') {
  const out = { name };
  const text = instructionsText(instructions);
  if (text !== '') out.instructions = text;
  const list = toolList(tools, `${path}.tools`, who);
  if (list.length > 0) out.tools = list;
  return out;
}

/**
 * `agents` as given (`[{ name?, instructions?, tools? }]`, a name left out being `author`'s),
 * checked: `code` and paths under `path` for what is wrong.
 */
export function agentList(agents, author, who, { code = 'schema', path = '$.options.agents' } = {}) {
  const fail = (at, message) => new EvalError(code, at, `${who}: ${message}`);
  if (!Array.isArray(agents)) throw fail(path, `agents must be an array of { name?, instructions?, tools? }, found ${describe(agents)}`);
  return agents.map((a, i) => {
    const at = `${path}[${i}]`;
    if (!isPlainObject(a)) throw fail(at, `an agent must be { name?, instructions?, tools? }, found ${describe(a)}`);
    const extra = Object.keys(a).find((k) => !['name', 'instructions', 'tools'].includes(k));
    if (extra !== undefined) throw fail(`${at}.${extra}`, `unknown key \`${extra}\` in an agent; use name, instructions or tools`);
    if (a.instructions !== undefined && typeof a.instructions !== 'string') throw fail(`${at}.instructions`, `instructions must be a string, found ${describe(a.instructions)}`);
    try {
      return agentEntry(a.name ?? author, a, who, at);
    } catch (e) {
      throw e instanceof EvalError ? fail(e.path, e.message.replace(`${who}: `, '')) : e;
    }
  });
}

/**
 * What an adapter cannot see of its agents (the system prompt and tools the user's own code
 * gives its framework) from its options, as `agents`: `options.agents`, or `options.instructions`
 * and `options.tools` for the agent `author`; undefined when none is given. Checked when the
 * adapter is made.
 */
export function agentsFromOptions(author, options, who) {
  if (!isPlainObject(options)) return undefined;
  const { agents, instructions, tools } = options;
  if (agents !== undefined) {
    if (instructions !== undefined || tools !== undefined) {
      throw new EvalError('schema', '$.options.agents', `${who}: give options.agents, or options.instructions and tools for the one agent, not both`);
    }
    return agentList(agents, author, who);
  }
  if (instructions === undefined && tools === undefined) return undefined;
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new EvalError('schema', '$.options.instructions', `${who}: options.instructions must be a string (the agent's system prompt), found ${describe(instructions)}`);
  }
  return [agentEntry(author, { instructions, tools }, who)];
}

/** The reply with `agents` added when there are any. */
export const withAgents = (reply, agents) => (agents === undefined || agents.length === 0 ? reply : { ...reply, agents });
