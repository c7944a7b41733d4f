import { describe, expect, it } from 'vitest'
import { addFolderSummary } from './add-folder-summary'

const report = { files: 3, sessions: 12, messages: 400, toolCalls: 9, fileChanges: 2, skipped: [], changesNotJournaled: [], unread: [] }
const folder = { id: 1, source: 'claude-code', path: '/copies/claude', addedAt: 0 }

describe('addFolderSummary', () => {
  it('says how many sessions came here and how many went into how many other workspaces', () => {
    const text = addFolderSummary({
      folder,
      report,
      elsewhere: {
        workspaces: [
          { id: 2, path: '/a', sessions: 20 },
          { id: 3, path: '/b', sessions: 10 }
        ],
        refused: [{ cwd: 'relative/dir', reason: 'Retrace does not use "relative/dir" as a workspace: it is not an absolute folder path on this computer.', sessions: 1 }],
        readOnly: [{ id: 4, path: '/', reason: 'Retrace does not use "/" as a workspace: it is the root of a disk.', sessions: 2 }]
      }
    })
    expect(text).toBe('Imported from /copies/claude: 12 sessions here (400 messages), 30 into 2 other workspaces, 2 into 1 read-only workspace (a home or system folder: never rewound), 1 not imported (recorded in a folder that cannot be a workspace).')
  })

  it('says only what came here when the folder held nothing else', () => {
    expect(addFolderSummary({ folder, report: { ...report, sessions: 1, messages: 1 }, elsewhere: { workspaces: [], refused: [], readOnly: [] } })).toBe('Imported from /copies/claude: 1 session here (1 message).')
  })
})
