// `evaluate()`, the one entry for every kind of run: an agent run here (run.js), recorded agent
// replies scored here (recorded.js), recorded traces (traces_eval.js), or either of the first two
// sharded over evaluation endpoints (remote.js).
// It stands above the API facade (api.js) because recorded and remote runs are built from the
// public functions; their modules load only when a run uses them, so a page such as the viewer
// never fetches them.
import { evaluate as evaluateAgent } from '../wasm/run.js';
import { ensureReady, requireObject } from '../wasm/wire.js';

/** See `evaluate` in index.d.ts. */
export async function evaluate(args) {
  ensureReady();
  requireObject(args, 'evaluate');
  if (args.traces !== undefined && args.traces !== null) return (await import('./traces_eval.js')).evaluateTraces(args);
  if (args.remote !== undefined && args.remote !== null) return (await import('./remote.js')).evaluateRemote(args);
  if ((args.agent === undefined || args.agent === null) && args.actual !== undefined && args.actual !== null) {
    return (await import('./recorded.js')).evaluateRecorded(args);
  }
  return evaluateAgent(args);
}
