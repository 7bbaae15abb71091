//! ADK's `Using evaluation criteria: ...` line (the pydantic repr of the config; Python's text of
//! each value comes from the core). Finding and reading the config is node/config.js.
import { pythonFloat, pythonRepr } from '../wasm/adk_text.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Python repr

/** A JSON value as Python's repr prints the parsed value (the core's `repr`). */
export function pyRepr(v) {
  return pythonRepr(v ?? null);
}

const CRITERION_FIELDS = new Set(['threshold', 'include_intermediate_responses_in_final', 'includeIntermediateResponsesInFinal']);

/**
 * ADK's `Using evaluation criteria: <EvalConfig>` text: criteria as ADK prints them (a number
 * shorthand as a float, an object as `BaseCriterion(threshold=..., ...)`), the other fields as
 * Python values of the file's JSON.
 */
export function criteriaLine(config, raw) {
  const rawCriteria = isObject(raw) && isObject(raw.criteria) ? raw.criteria : {};
  const items = Object.entries(config.criteria ?? {}).map(([name, c]) => {
    const given = rawCriteria[name];
    if (!isObject(given)) return `${pyRepr(name)}: ${pythonFloat(c.threshold)}`;
    const fields = [`threshold=${pythonFloat(c.threshold)}`,
      `include_intermediate_responses_in_final=${pyRepr(Boolean(c.include_intermediate_responses_in_final))}`];
    for (const [k, v] of Object.entries(given)) if (!CRITERION_FIELDS.has(k)) fields.push(`${k}=${pyRepr(v)}`);
    return `${pyRepr(name)}: BaseCriterion(${fields.join(', ')})`;
  });
  const field = (snake, camel) => {
    const v = isObject(raw) ? raw[snake] ?? raw[camel] : undefined;
    return `${snake}=${pyRepr(v ?? null)}`;
  };
  // The core read live_model_config into ADK's model (aliases, default), so print it as one.
  const live = isObject(config.live_model_config)
    ? `live_model_config=LiveModelConfig(timeout_seconds=${config.live_model_config.timeout_seconds})`
    : 'live_model_config=None';
  return `Using evaluation criteria: criteria={${items.join(', ')}} ${field('custom_metrics', 'customMetrics')} `
    + `${field('user_simulator_config', 'userSimulatorConfig')} ${live}`;
}
