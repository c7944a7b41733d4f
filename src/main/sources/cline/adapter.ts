import type { SnapshotSourceAdapter } from '../adapter'
import { clineFileTools } from './file-tools'
import { discoverClineFiles, discoverClineWorkspace, isTaskFolder } from './discover'
import { readTask } from './read-task'
import { clineRoots } from './roots'
import { readSdkSession } from './sdk-session'

/**
 * Cline and its forks Roo Code and Kilo Code: each task folder `tasks/<task-id>/` of the
 * extension's VS Code global storage (or the Cline CLI's `~/.cline/data`), and Cline 4's
 * `~/.cline/data/sessions/<id>/`. Both rewrite their files whole, so it is a snapshot source: a
 * task is read again when its files change, and imported again when its records do.
 */
export const clineAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'cline',
  label: 'Cline',
  fileTools: clineFileTools,
  roots: (env) => clineRoots(env),
  discoverAll: discoverClineFiles,
  discover: discoverClineWorkspace,
  read: (file) => (isTaskFolder(file.path) ? readTask(file.path) : readSdkSession(file.path))
}
