import type { SourceAdapter } from './adapter'

/**
 * The histories in a folder added as `adapter`'s: whatever the source finds when the folder is
 * its home (everything under it, whatever working directory it recorded) or its workspace
 * (a deployment or a database kept in it). Each once.
 */
export async function filesInSourceFolder(adapter: SourceAdapter, folder: string, signal?: AbortSignal) {
  const found = [...(await adapter.discoverAll([folder], signal)), ...(await adapter.discover(folder, [folder], signal))]
  const seen = new Set<string>()
  return found.filter((file) => !seen.has(file.path) && seen.add(file.path))
}
