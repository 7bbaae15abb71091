// The whole worker: evalcore's module worker, configured from the bindings in wrangler.toml and
// the secrets. Wrangler picks the package's "workerd" entry, which imports the .wasm as a module.
// With runs bound (docs/runs.md) the same worker consumes the runs' queue, and the two Durable
// Object classes below must be exported from it.
export { default, EvalcoreRun, EvalcoreJudgePace } from 'evalcore/server';
