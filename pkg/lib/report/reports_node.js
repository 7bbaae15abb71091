// `evalcore/reports` in Node, Deno and Bun: the wasm module is ready at import, as with `evalcore`
// itself (browsers and workers call `init` from `evalcore/web` first).
import '../wasm/node_start.js';

export * from './reports.js';
