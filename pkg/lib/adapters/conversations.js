// What a framework adapter keeps between the turns of a conversation (the framework's own
// message history, the agent that answers next, a thread id), as the framework itself would
// keep it for a chat. One entry per conversation, started by its first turn; the number of
// conversations kept is bounded (least recently used dropped), so a long-running `evalcore
// serve` does not grow without end, and a turn whose conversation was dropped says so.
import { EvalError } from './common.js';

export const MAX_CONVERSATIONS = 1000;

/** A conversation's key: the same case in another run or eval set is another conversation. */
const keyOf = (turn) => [turn.evalSetId, turn.evalId, turn.run, turn.sessionId].map((x) => String(x ?? '')).join('\u0000');

/**
 * `begin(turn, fresh)`: the state of the turn's conversation — a new one from `fresh()` on its
 * first turn (`turnIndex` 0, or a turn called outside a run, without one), else the one its
 * earlier turns left; `maxConversations` (default 1000) conversations are kept.
 */
export function conversations(who, maxConversations = MAX_CONVERSATIONS) {
  if (!Number.isInteger(maxConversations) || maxConversations < 1) {
    throw new EvalError('schema', '$.options.maxConversations', `${who}: maxConversations must be a whole number >= 1, found ${String(maxConversations)}`);
  }
  const kept = new Map();
  return {
    begin(turn, fresh) {
      const key = keyOf(turn);
      const first = !Number.isInteger(turn.turnIndex) || turn.turnIndex === 0;
      let state = kept.get(key);
      kept.delete(key); // re-inserted last: the Map's order is the use order
      if (first) {
        state = fresh();
      } else if (state === undefined) {
        throw new EvalError('agent_error', '', `${who}: turn ${turn.turnIndex + 1} of eval case ${JSON.stringify(turn.evalId)} has no history: `
          + `its conversation was dropped (more than ${maxConversations} conversations open at once; raise options.maxConversations) or its first turn never ran here`);
      }
      kept.set(key, state);
      if (kept.size > maxConversations) kept.delete(kept.keys().next().value);
      return state;
    },
    get size() {
      return kept.size;
    },
  };
}
