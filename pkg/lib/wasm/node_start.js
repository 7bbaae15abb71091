//! The wasm instance in Node, Deno and Bun: the main module instantiated synchronously from the
//! file in the package at import (no top-level await, so `require()` works too), and the extras
//! module's file registered, read and compiled on its first use only. The package entry and
//! every Node-only module import this, never the entry itself.
import { readFileSync } from 'node:fs';
import { startSync } from './instance.js';
import { setExtrasSource } from './extras.js';
import { createGlue as extrasGlue } from '../../wasm-extras/evalcore_extras_factory.js';

startSync({ module: readFileSync(new URL('../../wasm/evalcore_core_bg.wasm', import.meta.url)) });
setExtrasSource(() => readFileSync(new URL('../../wasm-extras/evalcore_extras_bg.wasm', import.meta.url)), extrasGlue);
