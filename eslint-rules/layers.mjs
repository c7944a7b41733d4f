// @ts-check
// The main process's layers, lowest first. A layer imports only from itself and the layers
// below it; docs/architecture.md says why each sits where it does. Tests and test support may
// import anything; nothing in production may import them.
const LAYERS = [
  ['shared', ['src/shared']],
  ['foundation', ['src/main/fs', 'src/main/events', 'src/main/rpc', 'src/main/pricing']],
  ['store', ['src/main/store']],
  ['journal', ['src/main/journal']],
  ['transcripts', ['src/main/transcripts']],
  // sources/, export/ and demo/ share a layer but do not import one another.
  ['sources', ['src/main/sources'], 'domain'],
  ['export', ['src/main/export'], 'domain'],
  ['demo', ['src/main/demo'], 'domain'],
  // Writes the agents' own hook and MCP settings; reads their home folders as the importers do.
  ['agent-hooks', ['src/main/agent-hooks']],
  ['handlers', ['src/main/handlers']],
  ['runtime', ['src/main/runtime']],
  ['binding', ['src/main/electron', 'src/main/web', 'src/main/cli', 'src/main/mcp']]
]

const elements = [
  { type: 'preload', pattern: 'src/preload', partialMatch: false },
  ...LAYERS.flatMap(([type, folders]) => folders.map((pattern) => ({ type, pattern, partialMatch: false })))
]

/** Tests and their helpers (a `testing/` folder, or `*.test-support.ts`). */
const files = [{ category: 'test', pattern: ['**/*.test.ts', '**/testing/**', '**/*.test-support.ts'] }]

/** The layers a layer may import: those below it, and itself (not its siblings in the same rank). */
function allowedFrom(index) {
  const [type, , rank] = LAYERS[index]
  const below = LAYERS.slice(0, index).filter(([, , otherRank]) => rank === undefined || otherRank !== rank).map(([other]) => other)
  return [...new Set([...below, type])]
}

const policies = [
  { from: { element: { type: 'preload' } }, allow: { to: { element: { types: { anyOf: ['shared', 'preload'] } } } } },
  ...LAYERS.map(([type], index) => ({ from: { element: { type } }, allow: { to: { element: { types: { anyOf: allowedFrom(index) } } } } })),
  // Later policies win: production never imports a test helper; tests import anything.
  { disallow: { to: { file: { categories: 'test' } } } },
  { from: { file: { categories: 'test' } }, allow: { to: { element: { type: '*' } } } },
  { from: { file: { categories: 'test' } }, allow: { to: { file: { categories: 'test' } } } }
]

export const layerSettings = {
  'boundaries/elements': elements,
  'boundaries/files': files,
  'import/resolver': { typescript: { project: ['tsconfig.node.json'] } }
}

export const layerRules = {
  'boundaries/dependencies': ['error', { default: 'disallow', checkInternals: true, policies, message: 'Layers point one way (docs/architecture.md): {{from.type}} may not import {{to.type}}.' }]
}
