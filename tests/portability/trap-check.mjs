// Trap recovery in each runtime: a forced trap (the core's test hook) is an EvalError "trap" on
// the sync and the async path, and the fresh instance (instantiated again from the same compiled
// module) gives the same numbers as before.
export async function trapCheck(api, hooks) {
  const out = {};
  const before = api.rouge1('the cats are running quickly', 'a cat runs quick').fmeasure;
  try {
    hooks.__trapForTesting();
    out.sync = 'no error';
  } catch (e) {
    out.sync = e instanceof api.EvalError ? e.code : `${e && e.name}: ${e && e.message}`;
  }
  try {
    await hooks.__trapForTesting(0, { async: true });
    out.async = 'no error';
  } catch (e) {
    out.async = e instanceof api.EvalError ? e.code : `${e && e.name}: ${e && e.message}`;
  }
  out.same = api.rouge1('the cats are running quickly', 'a cat runs quick').fmeasure === before;
  out.replacements = api.coreMemory().replacements;
  return out;
}
