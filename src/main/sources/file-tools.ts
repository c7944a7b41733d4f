import type { FileTools } from './adapter'
import type { SourceName } from './adapter'
import { fileTools as aider } from './aider/file-tools'
import { fileTools as cianaparrot } from './cianaparrot/file-tools'
import { fileTools as claudeCode } from './claude-code/file-tools'
import { fileTools as cline } from './cline/file-tools'
import { fileTools as codeBuddy } from './code-buddy/file-tools'
import { fileTools as codex } from './codex/file-tools'
import { fileTools as copilotCli } from './copilot-cli/file-tools'
import { fileTools as cursor } from './cursor/file-tools'
import { fileTools as geminiCli } from './gemini-cli/file-tools'
import { fileTools as headlessAgent } from './headless-agent/file-tools'
import { fileTools as langgraph } from './langgraph/file-tools'
import { fileTools as opencode } from './opencode/file-tools'
import { fileTools as yAgent } from './y-agent/file-tools'

/**
 * Each source's file-tools list (its agent folder's file-tools.ts): which tools write, read or
 * run commands, by the names its format gives them. The record writer applies the accounting
 * rule with it (docs/reliability.md R43); an adapter's own `fileTools` wins where one is set.
 */
const LISTS: Record<SourceName, FileTools> = {
  aider,
  cianaparrot,
  'claude-code': claudeCode,
  cline,
  'code-buddy': codeBuddy,
  codex,
  'copilot-cli': copilotCli,
  cursor,
  'gemini-cli': geminiCli,
  'headless-agent': headlessAgent,
  langgraph,
  opencode,
  'y-agent': yAgent
}

/** The file-tools list of a source; undefined for one that has none (Retrace's own, an export). */
export function fileToolsOf(source: string): FileTools | undefined {
  return (LISTS as Record<string, FileTools | undefined>)[source]
}
