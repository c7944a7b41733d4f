import { dirname } from 'node:path'
import type { SnapshotSourceAdapter } from '../adapter'
import { codeBuddyRoots, discoverCodeBuddyFiles, discoverCodeBuddyWorkspace, scopeOf } from './discover'
import { readExportFile } from './export-file'
import { readCodeBuddyHome } from './read-home'
import { fileTools } from './file-tools'

/**
 * Code Buddy (seed 004, "src — persistence"): the JSON session files of `~/.codebuddy/sessions`,
 * the conversation branches of `~/.codebuddy/branches/<session-id>/` (forks, nested forks, and
 * the merges their messages show), and exported sessions (`ExportedSession`, which Code Buddy's
 * SessionPlayer loads back). Files change in place, so it is a snapshot source: each import reads
 * the home whole, read-only, and re-imports the sessions that changed.
 */
export const codeBuddyAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'code-buddy',
  label: 'Code Buddy',
  fileTools,
  // No file this agent wrote is public: the importer follows its specification (fixtures/code-buddy/README.md).
  fromWriterSourceOnly: true,
  roots: codeBuddyRoots,
  discoverAll: discoverCodeBuddyFiles,
  discover: discoverCodeBuddyWorkspace,
  read(file) {
    // A home is found by its sessions folder; an export by its own path.
    return file.path.endsWith('.json') ? readExportFile(file.path) : readCodeBuddyHome(dirname(file.path), scopeOf(file))
  }
}
