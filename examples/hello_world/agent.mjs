// hello_world_agent as an evalcore Agent callback that replays the turns recorded in
// recorded_turns.json instead of calling a model, so the whole pipeline runs with no API key:
//
//   npx evalcore eval examples/hello_world/agent.mjs examples/hello_world/hello_world.evalset.json
//
// Each reply is the recorded turn's ADK events. ADK nulls the final-response event's content in
// recorded invocations (its text is the invocation's final_response), so the replay puts the
// final response back into that event, which is what the live agent emitted.
import { readFileSync } from 'node:fs';

const read = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8'));
const recorded = read('./recorded_turns.json');
const appDetails = read('./agent.json');

const text = (content) => (content?.parts ?? []).filter((p) => typeof p.text === 'string').map((p) => p.text).join('\n');

/** @type {import('evalcore').Agent} */
export async function agent(turn) {
  const turns = recorded[turn.evalId];
  if (!turns) throw new Error(`recorded_turns.json has no turns for eval case ${turn.evalId}`);
  const invocation = turns[turn.turnIndex];
  if (!invocation) throw new Error(`recorded_turns.json has ${turns.length} turn(s) for ${turn.evalId}, not ${turn.turnIndex + 1}`);
  if (text(invocation.user_content) !== turn.text) {
    throw new Error(`turn ${turn.turnIndex + 1} of ${turn.evalId} was recorded for ${JSON.stringify(text(invocation.user_content))}, `
      + `not ${JSON.stringify(turn.text)}`);
  }
  const events = invocation.intermediate_data.invocation_events.map((event) => (
    event.content === null ? { ...event, content: invocation.final_response } : event));
  return { events, appDetails };
}

export default agent;
