// The whole worker: evalcore's module worker, configured from the bindings in wrangler.toml and
// the secrets. Wrangler picks the package's "workerd" entry, which imports the .wasm as a module.
export { default } from 'evalcore/server';
