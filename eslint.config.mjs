// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import boundaries from 'eslint-plugin-boundaries'
import retrace from './eslint-rules/sql-in-store.mjs'
import { layerRules, layerSettings } from './eslint-rules/layers.mjs'

const electronOnlyHere = 'Only src/main/electron/ and src/preload/ may import electron: services must run in plain Node (tests, CLI, web server).'

// Renderer features have one face each, their index.ts. The rule matches the import string as
// written, so a relative `../files/DiffView` only means "another feature" when the importing
// file sits directly in a feature folder: each depth below features/ gets its own pattern,
// while `./sibling` and `../sub/folder` within a feature stay allowed.
const featureFace = "Import another feature only through its face, its index.ts ('../<feature>'). Shared widgets live in ui/, app-wide state in state/."
const MAX_FEATURE_DEPTH = 4
/**
 * no-restricted-imports for renderer files `depth` folders below features/ (0: outside any feature).
 * @param {number} depth
 */
function rendererImports(depth) {
  const patterns = [
    { group: ['**/main/**', 'node:*'], message: 'The renderer talks to the main process only through the contract client.' },
    // Anywhere: a path through features/ that goes past a feature's folder.
    { regex: String.raw`^\.\.?/(\.\./)*features/[^/]+/`, message: featureFace }
  ]
  // Inside a feature: climbing exactly out of it, then into another feature's folder.
  if (depth > 0) patterns.push({ regex: String.raw`^(\.\./){${depth}}[^./][^/]*/`, message: featureFace })
  return ['error', { paths: [{ name: 'electron', message: electronOnlyHere }], patterns }]
}
const featureDepthBlocks = Array.from({ length: MAX_FEATURE_DEPTH }, (_, index) => ({
  files: [`src/renderer/src/features/${'*/'.repeat(index + 1)}*.{ts,tsx}`],
  rules: { 'no-restricted-imports': rendererImports(index + 1) }
}))

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node }
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: electronOnlyHere }] }]
    }
  },
  {
    // One direction of layers in the main process (eslint-rules/layers.mjs).
    files: ['src/main/**/*.{ts,mts}', 'src/shared/**/*.ts', 'src/preload/**/*.ts'],
    plugins: { boundaries },
    settings: layerSettings,
    rules: layerRules
  },
  {
    // Retrace's SQL lives in the store; elsewhere only the readers of agents' own databases,
    // tests and benchmarks talk to SQLite directly.
    files: ['src/main/**/*.{ts,mts}'],
    ignores: ['src/main/store/**', 'src/main/sources/foreign-db/**', '**/*.test.ts', '**/testing/**'],
    plugins: { retrace },
    rules: { 'retrace/sql-in-store': 'error' }
  },
  {
    files: ['src/main/electron/**/*.ts', 'src/preload/**/*.ts', 'e2e/electron/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': rendererImports(0)
    }
  },
  ...featureDepthBlocks,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } }
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  }
)
