import { basename, dirname } from 'node:path'
import type { LineSourceAdapter } from '../adapter'
import { copilotRoots, discoverCopilotFiles, discoverCopilotWorkspace } from './discover'
import { copilotFileTools } from './file-tools'
import { createCopilotParser } from './parser'
import { snapshotLookup } from './snapshot-before'

/** GitHub Copilot CLI: `~/.copilot/session-state/<id>/events.jsonl`, read as it grows. */
export const copilotCliAdapter: LineSourceAdapter = {
  name: 'copilot-cli',
  label: 'Copilot CLI',
  fileTools: copilotFileTools,
  // Built from the event schema and writer of the published package (@github/copilot 1.0.x):
  // no session file written by Copilot CLI was found under a licence that lets it be a fixture.
  fromWriterSourceOnly: true,
  roots: copilotRoots,
  discoverAll: discoverCopilotFiles,
  discover: discoverCopilotWorkspace,
  // A session folder (not the older single `<id>.jsonl`) may hold its rewind snapshots beside the events.
  createParser: (state, file) => createCopilotParser(state, file && basename(file.path) === 'events.jsonl' ? snapshotLookup(dirname(file.path)) : undefined)
}
