// Deno side of the portability check: `import 'evalcore'` resolves through node_modules and the
// package's "deno" export condition (the Node entry, which initialises at import), then runs the
// vectors read from the files named on the command line. Prints the result as JSON.
import * as api from 'evalcore';
import { trapCheck } from './trap-check.mjs';
import { parseVectors, runVectors } from './vectors.mjs';

const [rougePath, casesPath] = Deno.args;
const data = parseVectors(await Deno.readTextFile(rougePath), await Deno.readTextFile(casesPath));
const out = await runVectors(api, data);
out.runtime = `deno ${Deno.version.deno}`;
out.entry = import.meta.resolve('evalcore');
// The test hook is no export of the package: reached beside the entry Deno resolved.
out.trap = await trapCheck(api, await import(new URL('./lib/wasm/test_hooks.js', out.entry).href));
console.log(JSON.stringify(out));
