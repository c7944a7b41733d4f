import { existsSync, realpathSync } from 'node:fs'
import { isAbsolute, posix, relative, resolve, sep } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { RetraceError, type WorkspaceSummary } from '../../shared/contract'
import { expandHome } from '../fs/folder-access'
import type { Runtime } from '../runtime/runtime'
import type { CliCall } from '../cli/call'
import { resolveSessionRef } from '../cli/session-ref'
import { deepestKnownWorkspace } from '../cli/workspace-file'
import type { Freshness } from './freshness'

/** What every tool and resource of the server works with. */
export interface McpContext {
  runtime: Runtime
  /** The contract, through the same dispatcher (validation, typed errors) as the CLI. */
  call: CliCall
  fresh: Freshness
  /** The server was started with --allow-rewind: the rewind and undo tools exist. */
  allowRewind: boolean
}

/** A tool's answer: the short text a model reads, and the same facts as `structuredContent`. */
export function answer(text: string, structured: Record<string, unknown>, notes: (string | null)[] = []): CallToolResult {
  const said = notes.filter((note): note is string => note !== null)
  return { content: [{ type: 'text', text: [...said, text].join('\n\n') }], structuredContent: structured }
}

/** Text cut to `max` characters, saying how much was left out. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`
}

/**
 * A session named the way a person or a model has it at hand: Retrace's id, the agent's own
 * session id, or the start of a Retrace id (see cli/session-ref.ts), in this server's words.
 */
export function sessionIdOf(ctx: McpContext, ref: string): string {
  try {
    return resolveSessionRef(ctx.runtime.store.sessions, ref.trim())
  } catch (error) {
    if (error instanceof RetraceError && error.code === 'NOT_FOUND') {
      throw new RetraceError('NOT_FOUND', `No session with id ${ref}. search_history and list_sessions give session ids; the agent's own session id, or the first characters of an id, work too.`)
    }
    throw error
  }
}

/** A path as given (`~`, or relative to where the server was started), made absolute. */
export function absolutePath(path: string): string {
  return resolve(expandHome(path.trim()))
}

/** Open a workspace by folder path (a folder gone from disk opens if a history records it). */
export function openWorkspace(ctx: McpContext, path: string): Promise<WorkspaceSummary> {
  return ctx.call('workspaces.open', { path: absolutePath(path) })
}

/** The workspace a session belongs to. */
export async function workspaceOfSession(ctx: McpContext, sessionId: string): Promise<WorkspaceSummary> {
  const session = await ctx.call('sessions.get', { sessionId })
  return ctx.call('workspaces.get', { workspaceId: session.workspaceId })
}

/**
 * A file named for a tool, as a workspace and a path relative to it. An absolute path is
 * placed in `workspace` if given, else in the deepest workspace Retrace knows that holds it;
 * a relative path is relative to `workspace` (or, without one, to the folder the server was
 * started in, usually the agent's project).
 */
export async function fileIn(ctx: McpContext, file: string, workspace: string | undefined): Promise<{ workspace: WorkspaceSummary; path: string }> {
  const given = expandHome(file.trim())
  const absolute = isAbsolute(given) ? resolve(given) : null
  const folder = workspace !== undefined ? absolutePath(workspace) : absolute !== null ? await knownWorkspaceHolding(ctx, absolute) : process.cwd()
  const opened = await ctx.call('workspaces.open', { path: folder })
  return { workspace: opened, path: absolute === null ? relativeName(given) : insideOf(opened.path, absolute) }
}

/** The path id the contract's file methods take: the path's bytes, base64. */
export const pathIdOf = (path: string): string => Buffer.from(path, 'utf8').toString('base64')

async function knownWorkspaceHolding(ctx: McpContext, file: string): Promise<string> {
  const deepest = await deepestKnownWorkspace(ctx.call, [file, existsSync(file) ? realpathSync(file) : file])
  if (deepest === undefined) throw new RetraceError('NOT_FOUND', `No workspace Retrace knows holds ${file}. Give its folder as \`workspace\`.`)
  return deepest
}

function insideOf(root: string, file: string): string {
  for (const candidate of [file, existsSync(file) ? realpathSync(file) : file]) {
    const inside = relative(root, candidate)
    if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return inside.split(sep).join('/')
  }
  throw new RetraceError('VALIDATION', `${file} is not inside the workspace ${root}.`)
}

function relativeName(path: string): string {
  const normal = posix.normalize(path.split(sep).join('/'))
  if (normal === '.' || normal.startsWith('../') || normal === '..') throw new RetraceError('VALIDATION', `${path} is not a file inside the workspace: give a path relative to it, or an absolute one.`)
  return normal.replace(/^\.\//, '')
}
