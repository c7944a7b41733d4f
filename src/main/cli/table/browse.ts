import { notOwnerNotice } from '../../runtime/data-folder-owner'
import { cliCaller } from '../call'
import { searchCommand, serveCommand, sessionsCommand, showCommand } from '../commands'
import { blameCommand } from '../blame-command'
import { changesCommand, diffCommand } from '../journal-commands'
import { askYesNo } from '../ask'
import { UsageError } from '../usage-error'
import { usageCommand } from '../usage-command'
import { workspacesCommand } from '../workspaces-command'
import { forgetWorkspaceCommand, setHiddenCommand } from '../workspace-hiding-command'
import { command } from './spec'

/** `retrace serve`, and the commands that read what Retrace holds. */
export const BROWSE_COMMANDS = [
  command({
    name: 'serve',
    args: [],
    options: ['demo', 'port'],
    usage: [{ about: 'serve the app on http://127.0.0.1 (token in the printed URL)', group: 1 }],
    async run({ values, dataDir, io, open, interrupt }) {
      const live = await open({ follow: true })
      if (live.dataFolder?.owned === false) io.err(`retrace: ${notOwnerNotice(dataDir, live.dataFolder.owner)}`)
      await live.takesHookTurns // before the URL: whoever waits for it may run a hook next
      // Listen before the URL is printed: whoever reads it may press Ctrl+C at once, and an
      // interrupt with no listener yet would kill the process without a clean shutdown.
      const stopped = interrupt()
      const interrupted = new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve(), { once: true }))
      const stop = await serveCommand(live, cliCaller(live), { demo: values.demo ?? false, port: values.port ?? 0, io })
      await interrupted
      await stop()
      return 0
    }
  }),
  command({
    name: 'workspaces',
    args: [
      { name: 'action', choices: ['hide', 'unhide', 'forget'] },
      { name: '<path>', rest: true }
    ],
    options: ['hidden', 'yes', 'json'],
    usage: [
      {
        synopsis: '[--hidden] [--json]',
        about: "every workspace: those opened or imported, and every folder the agents' histories record, with sources, sessions (warm-ups left out), cost, last activity, and whether the folder is still here (a missing one is browsable); --hidden lists the hidden ones too",
        group: 1
      },
      { synopsis: 'hide|unhide <path>', about: 'take a workspace off that list and the first screen (its sessions stay; `import --all` leaves its folder alone), or put it back', group: 1 },
      { synopsis: 'forget <path> [--yes]', about: "remove a workspace and its sessions from Retrace's store (asks first, saying how many; the agents' files are not touched)", group: 1 }
    ],
    async run({ args, values, io, open }) {
      const call = cliCaller(await open())
      const json = values.json ?? false
      const action = args.action
      if (action === undefined) {
        await workspacesCommand(call, { json, hidden: values.hidden ?? false, io })
        return 0
      }
      const path = args['<path>']
      if (!path) throw new UsageError(`Missing <path>: which workspace to ${action} (see \`retrace workspaces\`).`)
      if (action === 'forget') return forgetWorkspaceCommand(call, { path, yes: values.yes ?? false, json, io, confirm: askYesNo })
      return setHiddenCommand(call, { path, hidden: action === 'hide', json, io })
    }
  }),
  command({
    name: 'usage',
    args: [],
    options: ['since', 'until', 'by', 'json'],
    usage: [
      {
        about: "tokens and cost of every workspace's sessions in the store, by day (with its models), model, source or workspace; days are local, DATE is YYYY-MM-DD or YYYYMMDD, both ends included; the table and --json in ccusage's daily shape",
        group: 1
      }
    ],
    async run({ values, io, open }) {
      await usageCommand(cliCaller(await open()), { since: values.since, until: values.until, by: values.by ?? 'day', json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'sessions',
    args: [{ name: '<workspace-path>', required: true, rest: true }],
    options: ['all', 'json'],
    usage: [
      {
        about: "list a workspace's sessions, newest first (importing what its agents added since); the folder may be gone if a history records it; --all also lists the agents' start-up work (Claude Code warm-ups)",
        group: 1
      }
    ],
    async run({ args, values, io, open }) {
      await sessionsCommand(cliCaller(await open()), { path: args['<workspace-path>'] ?? '', json: values.json ?? false, all: values.all ?? false, io })
      return 0
    }
  }),
  command({
    name: 'show',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['json', 'context'],
    usage: [{ about: "print a session's transcript (--context: what the model saw)", group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await showCommand(cliCaller(live), { sessionId: session(live, args['<session-id>'] ?? ''), json: values.json ?? false, transcript: values.context ? 'context' : 'display', io })
      return 0
    }
  }),
  command({
    name: 'search',
    args: [{ name: '<query>', required: true, rest: true }],
    options: ['workspace', 'json'],
    usage: [{ about: 'full-text search across workspaces', group: 1 }],
    async run({ args, values, io, open }) {
      await searchCommand(cliCaller(await open()), { query: args['<query>'] ?? '', workspace: values.workspace, json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'changes',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['turn', 'json'],
    usage: [{ about: 'the files each turn changed', group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await changesCommand(cliCaller(live), { sessionId: session(live, args['<session-id>'] ?? ''), turn: values.turn, json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'diff',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['turn', 'file'],
    requires: ['turn', 'file'],
    usage: [{ about: 'what turn N did to one file (PATH relative to the workspace)', group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await diffCommand(cliCaller(live), { sessionId: session(live, args['<session-id>'] ?? ''), turn: values.turn ?? 1, file: values.file ?? '', io })
      return 0
    }
  }),
  command({
    name: 'blame',
    args: [{ name: 'FILE', required: true, rest: true }],
    options: ['workspace', 'json'],
    usage: [{ about: 'who last wrote each line: session, turn, date (or a change outside any agent turn, or on disk since)', group: 1 }],
    async run({ args, values, io, open }) {
      await blameCommand(cliCaller(await open()), { file: args.FILE ?? '', workspace: values.workspace, json: values.json ?? false, io })
      return 0
    }
  })
]
