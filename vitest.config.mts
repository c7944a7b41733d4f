import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    // No test's background work outlives the runtime it closed (R41).
    setupFiles: ['src/main/testing/runtime-close.setup.ts'],
    // Importers look for agent histories under these; tests must never read the developer's own.
    env: {
      CLAUDE_CONFIG_DIR: '/nonexistent/retrace-tests/claude',
      CODEX_HOME: '/nonexistent/retrace-tests/codex',
      GEMINI_CLI_HOME: '/nonexistent/retrace-tests/gemini',
      COPILOT_HOME: '/nonexistent/retrace-tests/copilot',
      RETRACE_CLINE_DIRS: '/nonexistent/retrace-tests/cline',
      // OpenCode's data, Cursor's and VS Code's settings folders, older Copilot sessions.
      XDG_DATA_HOME: '/nonexistent/retrace-tests/xdg-data',
      XDG_CONFIG_HOME: '/nonexistent/retrace-tests/xdg-config',
      XDG_STATE_HOME: '/nonexistent/retrace-tests/xdg-state',
      VSCODE_APPDATA: '/nonexistent/retrace-tests/vscode',
      // `serve` in a test imports no agent's history in the background unless the test asks.
      RETRACE_BACKGROUND_IMPORT: '0'
    }
  }
})
