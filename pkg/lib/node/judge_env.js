//! A provider judge's API key from the environment (the CLI's --judge, `evalcore serve`): the
//! variables each provider's key is read from, and the header its API takes the key in.

const KEYS = {
  gemini: { vars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], header: (key) => ({ 'x-goog-api-key': key }) },
  openai: { vars: ['OPENAI_API_KEY'], header: (key) => ({ authorization: `Bearer ${key}` }) },
  anthropic: { vars: ['ANTHROPIC_API_KEY'], header: (key) => ({ 'x-api-key': key }) },
};

/** The variables `provider`'s key is read from, as a person reads them: `GEMINI_API_KEY or GOOGLE_API_KEY`. */
export function keyVariables(provider) {
  return (KEYS[provider]?.vars ?? []).join(' or ');
}

/** The headers carrying `provider`'s key from `env` (the first of its variables that is set), or undefined. */
export function keyHeaders(provider, env) {
  const spec = KEYS[provider];
  const name = spec?.vars.find((v) => typeof env?.[v] === 'string' && env[v].trim() !== '');
  return name === undefined ? undefined : spec.header(env[name].trim());
}
