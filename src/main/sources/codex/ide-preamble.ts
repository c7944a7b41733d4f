/**
 * The Codex VS Code extension (and the Desktop app) sends a prompt wrapped in its own context:
 * `# Context from my IDE setup:` (active file, open tabs, selection), `# Files mentioned by the
 * user:`, then the user's words under `## My request for Codex:` (`## My request:` in later
 * versions). A selection may quote such a heading, so the request is what follows the last one.
 */
const PREAMBLES = ['# Context from my IDE setup:', '# Files mentioned by the user:', '# Selected text:']
const REQUEST_HEADING = /^## My request(?: for Codex)?:[ \t]*$/gm

/** The user's own request in an extension-built prompt, or null when the text is not one. */
export function requestOfIdePrompt(text: string): string | null {
  const start = text.trimStart()
  if (!PREAMBLES.some((preamble) => start.startsWith(preamble))) return null
  let end = -1
  for (const match of text.matchAll(REQUEST_HEADING)) end = match.index + match[0].length
  if (end < 0) return null
  const request = text.slice(end).trim()
  return request === '' ? null : request
}

/** Longest title, in characters: a session is named by its request's first line, as by any prompt's. */
const TITLE_LENGTH = 80

export function titleOfRequest(request: string): string {
  const firstLine = request.split('\n', 1)[0]?.trim() ?? ''
  return firstLine.length > TITLE_LENGTH ? `${firstLine.slice(0, TITLE_LENGTH - 1)}…` : firstLine
}
