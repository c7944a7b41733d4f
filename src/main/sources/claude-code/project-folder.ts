/**
 * Claude Code's folder name for a project: the absolute path with every character that is
 * not a letter or digit turned into `-` (`/Users/me/my.app` → `-Users-me-my-app`).
 * (Standalone, without imports: the e2e tests use it to lay out a Claude Code home.)
 */
export function encodeProjectFolder(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-')
}
