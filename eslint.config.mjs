// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import retrace from './eslint-rules/sql-in-store.mjs'

const electronOnlyHere = 'Only src/main/electron/ and src/preload/ may import electron: services must run in plain Node (tests, CLI, web server).'

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
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: electronOnlyHere }],
          patterns: [{ group: ['**/main/**', 'node:*'], message: 'The renderer talks to the main process only through the contract client.' }]
        }
      ]
    }
  },
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
