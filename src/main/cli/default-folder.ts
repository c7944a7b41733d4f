import { realpathSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import { packageRoot } from '../agent-hooks/retrace-command'

/**
 * The workspace a command takes when none is named: the current folder, unless that is Retrace's
 * own installation (the clone `retrace` was installed from, or a folder inside it). Someone who
 * has just set Retrace up is standing in that folder when they copy the README's first command,
 * and `retrace import` there would make Retrace's own source a workspace by surprise. Naming the
 * folder (`retrace import .`) still takes it. Null when the current folder is Retrace's own.
 */
export function currentFolderUnlessRetrace(cwd: string = process.cwd(), root: string | null = installationRoot()): string | null {
  if (root === null) return cwd
  const inside = relative(realpathOr(root), realpathOr(cwd))
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)) ? null : cwd
}

/** The sentence a command says instead of taking Retrace's own folder; `example` is how to name one. */
export function retraceFolderRefusal(example: string, cwd: string = process.cwd()): string {
  return `The current folder (${cwd}) is Retrace's own installation, not a workspace: name the workspace (${example}), or give \`.\` to use this folder anyway.`
}

function installationRoot(): string | null {
  try {
    return packageRoot()
  } catch {
    return null // not run from an installed Retrace (nothing to protect)
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
