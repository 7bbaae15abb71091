// What the four examples' tests read of a result: an example's eval set and config, a case's
// metric, its invocation's events, and an event's parts in a line.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The eval set `<name>.evalset.json` and `test_config.json` of the example at `dir` (a URL). */
export function exampleData(dir, name) {
  const path = fileURLToPath(new URL(`${name}.evalset.json`, dir));
  return {
    path,
    evalSet: JSON.parse(readFileSync(path, 'utf8')),
    config: JSON.parse(readFileSync(new URL('test_config.json', dir), 'utf8')),
  };
}

export const metric = (r, name) => r.overall_eval_metric_results.find((m) => m.metric_name === name);
export const actual = (r, i = 0) => r.eval_metric_result_per_invocation[i].actual_invocation;
export const events = (r, i = 0) => actual(r, i).intermediate_data.invocation_events;
/** An event's parts: texts, called tool names, and `name ->` for a tool's response. */
export const parts = (e) => (e.content?.parts ?? []).map((p) => p.text ?? p.function_call?.name ?? `${p.function_response?.name} ->`);
