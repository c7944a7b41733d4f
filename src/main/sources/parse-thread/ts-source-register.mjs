// Preloaded (`--import`) into a worker thread that runs TypeScript sources: see ts-source-hooks.mjs.
import { register } from 'node:module'

register('./ts-source-hooks.mjs', import.meta.url)
