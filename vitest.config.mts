import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    // Importers look for agent histories under these; tests must never read the developer's own.
    env: { CLAUDE_CONFIG_DIR: '/nonexistent/retrace-tests/claude', CODEX_HOME: '/nonexistent/retrace-tests/codex', GEMINI_CLI_HOME: '/nonexistent/retrace-tests/gemini' }
  }
})
