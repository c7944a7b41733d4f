import type { SnapshotSourceAdapter } from '../adapter'
import { aiderRoots, discoverAiderFiles, discoverAiderWorkspace } from './discover'
import { readChatHistory } from './read-history'
import { AIDER_FILE_TOOLS } from './file-tools'

/**
 * Aider: the markdown chat history it appends to in the repository (`.aider.chat.history.md`).
 * One file holds every run of Aider in that repository, so it is read as a snapshot source: a
 * line adapter follows one session per file, and a message here spans many lines. The file is
 * read whole (a few MB at most), each run is a session keyed by its header's byte offset, and
 * only runs whose bytes changed (in practice the last one, as Aider appends) are imported again.
 */
export const aiderAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'aider',
  label: 'Aider',
  roots: aiderRoots,
  discoverAll: discoverAiderFiles,
  discover: discoverAiderWorkspace,
  read: readChatHistory,
  fileTools: AIDER_FILE_TOOLS
}
