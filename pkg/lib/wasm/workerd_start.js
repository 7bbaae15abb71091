//! The wasm instance in workerd (Cloudflare Workers): both .wasm files come in as modules
//! workerd compiled at load; the main one is instantiated at import, the extras module (legacy
//! and agents-cli shapes, the trace import) on its first use only.
import wasmModule from '../../wasm/evalcore_core_bg.wasm';
import extrasModule from '../../wasm-extras/evalcore_extras_bg.wasm';
import { createGlue as extrasGlue } from '../../wasm-extras/evalcore_extras_factory.js';
import { isReady, startSync } from './instance.js';
import { setExtrasSource } from './extras.js';

if (!isReady()) startSync({ module: wasmModule });
setExtrasSource(() => extrasModule, extrasGlue);
