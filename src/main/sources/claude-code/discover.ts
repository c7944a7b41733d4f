import { homedir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import type { HistoryFile } from '../adapter'
import type { DiscoveryCache } from '../discovery-cache'
import { isWithin, listDir, readHeadObjects, stringField, walkFiles, type HeadOptions, type HeadStop } from '../files'
import { readAgentMeta } from './agent-meta'
import { workflowLink } from './tool-results'
import { encodeProjectFolder } from './project-folder'

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i
const AGENT_FILE = /^agent-(.+)\.jsonl$/
/** `<session>/subagents/workflows/<runId>/agent-<id>.jsonl`: an agent of a workflow run. */
const WORKFLOW_AGENT = /[\\/]subagents[\\/]workflows[\\/]([^\\/]+)[\\/]agent-[^\\/]+\.jsonl$/

/** `CLAUDE_CONFIG_DIR` when set, else `~/.claude`. */
export function claudeRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.CLAUDE_CONFIG_DIR?.trim()
  return [configured ? configured : join(env.HOME ?? homedir(), '.claude')]
}

/**
 * Every session file under `<root>/projects`: main sessions (`<uuid>.jsonl`), sub-agents beside
 * them (`agent-<id>.jsonl`, older versions) and under `<uuid>/subagents/` (newer ones, workflows
 * nested deeper). The cwd comes from the lines themselves, so a moved project is still found.
 */
export async function discoverClaudeFiles(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  // What the lines say is remembered; whether the backups folder exists is looked at each time.
  const facts = (path: string, read: () => Promise<HistoryFile>) => (cache ? cache.facts(path, read) : read())
  // With a discovery cache, the facts are remembered there: the head's lines need not be too
  // (tens of thousands of heads held every parsed line of each, up to the head cache's bound).
  const head: HeadOptions = { remember: cache === undefined }
  const withBackups = (root: string, backups: Set<string>, file: HistoryFile): HistoryFile => {
    const session = file.rootSessionId ?? file.parentSessionId ?? file.sessionId
    return { ...file, backupDir: backups.has(session) ? join(root, 'file-history', session) : null }
  }
  for (const root of roots) {
    const projects = join(root, 'projects')
    // The sessions with backups, read once (not a stat per session file).
    const backups = new Set((await listDir(join(root, 'file-history'))).filter((entry) => entry.isDirectory()).map((entry) => entry.name))
    for (const project of await listDir(projects)) {
      if (!project.isDirectory()) continue
      const folder = join(projects, project.name)
      for (const entry of await listDir(folder)) {
        signal?.throwIfAborted()
        const path = join(folder, entry.name)
        const session = SESSION_FILE.exec(entry.name)
        const sessionId = session?.[1]
        if (entry.isFile() && sessionId) {
          files.push(withBackups(root, backups, await facts(path, () => describe(path, sessionId, 'main', head))))
        } else if (entry.isFile() && AGENT_FILE.test(entry.name)) {
          files.push(withBackups(root, backups, await facts(path, () => describeLooseAgent(path, head))))
        } else if (entry.isDirectory() && SESSION_FILE.test(`${entry.name}.jsonl`)) {
          const agentPaths = await walkFiles(join(path, 'subagents'), (name) => AGENT_FILE.test(name), signal)
          for (const agentPath of agentPaths) {
            const agent = await facts(agentPath, async () => describeAgent(agentPath, entry.name, `${path}.jsonl`, agentPaths, head))
            files.push(withBackups(root, backups, agent))
          }
        }
      }
    }
  }
  return files
}

/**
 * The files of one workspace: those whose recorded cwd is the workspace or inside it (so the
 * sessions of a moved folder are found wherever Claude Code filed them), and those without a
 * recorded cwd in the workspace's own project folder.
 */
export async function discoverClaudeWorkspace(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const all = await discoverClaudeFiles(roots, signal, cache)
  const folder = encodeProjectFolder(workspacePath)
  const belongs = (file: HistoryFile) => (file.cwd !== null ? isWithin(file.cwd, workspacePath) : basename(dirname(file.path)) === folder)
  const mainIds = new Set(all.filter((file) => file.role === 'main' && belongs(file)).map((file) => file.sessionId))
  // A sub-agent belongs where its session does, even if it recorded another cwd.
  return all.filter((file) =>
    file.role === 'main' ? mainIds.has(file.sessionId) : mainIds.has(file.rootSessionId ?? file.parentSessionId ?? '') || (file.cwd !== null && isWithin(file.cwd, workspacePath))
  )
}

/**
 * What discovery needs of a session's head: a conversation line (a cwd and a time; it names the
 * agent of a sub-agent too) and the first line that says the session is a fork. Past the first
 * conversation line, only lines holding a `forkedFrom` key are parsed (a key, not text: text
 * inside a string has its quotes escaped).
 */
const hasConversationLine = (objects: Record<string, unknown>[]) => objects.some((line) => stringField(line, 'cwd') && stringField(line, 'timestamp'))
const conversationAndFork: HeadStop = {
  key: 'conversation-and-fork',
  enough: (objects) => objects.some((line) => line.forkedFrom !== undefined) && hasConversationLine(objects),
  worthParsing: (line, objects) => line.includes('"forkedFrom"') || !hasConversationLine(objects)
}

async function describe(path: string, sessionId: string, role: HistoryFile['role'], options: HeadOptions): Promise<HistoryFile> {
  const head = await readHeadObjects(path, 50, conversationAndFork, options).catch(() => [])
  const cwd = head.map((line) => stringField(line, 'cwd')).find(Boolean) ?? null
  const agentId = role === 'sub-agent' ? (head.map((line) => stringField(line, 'agentId')).find(Boolean) ?? agentIdFromName(path)) : undefined
  const forkedFrom = head.map((line) => line.forkedFrom as { sessionId?: unknown; messageUuid?: unknown } | undefined).find((value) => typeof value?.sessionId === 'string')
  const startedAt = head.map((line) => Date.parse(stringField(line, 'timestamp') ?? '')).find((time) => !Number.isNaN(time))
  return {
    source: 'claude-code',
    path,
    sessionId: role === 'main' ? sessionId : `${sessionId}/agent-${agentId}`,
    ...(role === 'main' && forkedFrom
      ? { forkedFrom: { sessionId: forkedFrom.sessionId as string, messageUid: typeof forkedFrom.messageUuid === 'string' ? forkedFrom.messageUuid : null } }
      : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    role,
    ...(role === 'sub-agent' ? { parentSessionId: sessionId, agentId } : {}),
    cwd,
    backupDir: null // set by discovery, from the file-history folder's listing
  }
}

/**
 * A sub-agent file under `<session>/subagents/` (workflow agents deeper, in
 * `workflows/<run>/`), with what its `agent-<id>.meta.json` says. An agent another sub-agent
 * started sits flat beside it, its metadata naming that agent (`parentAgentId`): it hangs below
 * that agent's session when that agent's file is in the same folder tree, else below the session.
 */
async function describeAgent(agentPath: string, sessionId: string, sessionPath: string, agentPaths: string[], options: HeadOptions): Promise<HistoryFile> {
  const { parentAgentId, agentType, model, ...meta } = await readAgentMeta(agentPath)
  const file: HistoryFile = { ...(await describe(agentPath, sessionId, 'sub-agent', options)), parentPath: sessionPath, ...meta }
  if (agentType) file.agentType = agentType
  if (model) file.agentModel = model
  const run = WORKFLOW_AGENT.exec(agentPath)?.[1]
  if (run) file.linkedAs = workflowLink(run)
  const parentPath = parentAgentId ? agentPaths.find((path) => basename(path) === `agent-${parentAgentId}.jsonl`) : undefined
  if (parentAgentId && parentPath && parentPath !== agentPath) {
    return { ...file, parentSessionId: `${sessionId}/agent-${parentAgentId}`, parentPath, rootSessionId: sessionId }
  }
  return file
}

/** Older layout: `agent-<id>.jsonl` beside the sessions; its lines name the parent session. */
async function describeLooseAgent(path: string, options: HeadOptions): Promise<HistoryFile> {
  const head = await readHeadObjects(path, 50, conversationAndFork, options).catch(() => [])
  const parent = head.map((line) => stringField(line, 'sessionId')).find(Boolean) ?? basename(dirname(path))
  const agentId = head.map((line) => stringField(line, 'agentId')).find(Boolean) ?? agentIdFromName(path)
  const startedAt = head.map((line) => Date.parse(stringField(line, 'timestamp') ?? '')).find((time) => !Number.isNaN(time))
  return {
    source: 'claude-code',
    path,
    sessionId: `${parent}/agent-${agentId}`,
    role: 'sub-agent',
    parentSessionId: parent,
    agentId,
    parentPath: join(dirname(path), `${parent}.jsonl`),
    ...(startedAt !== undefined ? { startedAt } : {}),
    cwd: head.map((line) => stringField(line, 'cwd')).find(Boolean) ?? null,
    backupDir: null // set by discovery, from the file-history folder's listing
  }
}

function agentIdFromName(path: string): string {
  return AGENT_FILE.exec(basename(path))?.[1] ?? basename(path)
}

