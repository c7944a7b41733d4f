import { askYesNo } from '../ask'
import { cliCaller } from '../call'
import { doctorCommand, setClaudeRetentionCommand, undoClaudeRetentionCommand } from '../doctor-command'
import { recoveryListCommand, recoveryVersionCommand } from '../recovery-command'
import { resolveRewindRef } from '../rewind-ref'
import { UsageError } from '../usage-error'
import { command } from './spec'

/** Keeping the agents' history, the snapshots, and what a crash left. */
export const CARE_COMMANDS = [
  command({
    name: 'doctor',
    args: [],
    options: ['set-claude-retention', 'undo-claude-retention', 'yes', 'json'],
    usage: [
      {
        synopsis: '[--json]',
        about: "how long each agent keeps its history (Claude Code's cleanupPeriodDays), and the sessions Retrace kept after their agent deleted the file",
        group: 5
      },
      { synopsis: '--set-claude-retention DAYS [--yes]', about: "write cleanupPeriodDays into Claude Code's settings.json (asks first; a backup is kept beside it)", group: 5 },
      { synopsis: '--undo-claude-retention', about: 'put that file back exactly as it was (refused if it changed since)', group: 5 }
    ],
    async run({ values, io, open }) {
      const days = values['set-claude-retention']
      if (days !== undefined && values['undo-claude-retention']) throw new UsageError('Give --set-claude-retention DAYS or --undo-claude-retention, not both.')
      const live = await open()
      const json = values.json ?? false
      if (days !== undefined) return setClaudeRetentionCommand(cliCaller(live), { days, yes: values.yes ?? false, json, io, confirm: askYesNo })
      if (values['undo-claude-retention']) return undoClaudeRetentionCommand(cliCaller(live), { json, io })
      await doctorCommand(live, cliCaller(live), { json, io })
      return 0
    }
  }),
  command({
    name: 'gc',
    args: [],
    options: [],
    usage: [{ about: 'delete file snapshots nothing refers to any more', group: 6 }],
    async run({ io, open }) {
      const { removed, bytes } = (await open()).journal.blobs.collectGarbage()
      io.out(`Removed ${removed} unreferenced snapshot${removed === 1 ? '' : 's'} (${(bytes / 1024 / 1024).toFixed(1)} MiB).`)
      return 0
    }
  }),
  command({
    name: 'recovery',
    args: [{ name: '<rewind-id>', rest: true }],
    options: ['file', 'out', 'found', 'json'],
    usage: [
      { synopsis: '[--json]', about: 'rewinds a crash interrupted, and the files changed since that recovery left as they were', group: 6 },
      {
        synopsis: '<rewind-id> --file PATH --out FILE [--found]',
        about: "write that file's version from before the rewind (or, with --found, the one recovery found) to a new file",
        group: 6
      }
    ],
    async run({ args, values, io, open }) {
      const rewindId = args['<rewind-id>']
      if (rewindId !== undefined && !values.file) throw new UsageError('Missing --file PATH: which file of that rewind (see `retrace recovery`).')
      const live = await open()
      if (rewindId === undefined) await recoveryListCommand(cliCaller(live), { json: values.json ?? false, io, dataDir: live.store.dataDir })
      else await recoveryVersionCommand(live, cliCaller(live), { rewindId: resolveRewindRef(live.store.rewinds, rewindId), file: values.file ?? '', out: values.out, found: values.found ?? false, io })
      return 0
    }
  })
]
