import { cliCaller } from '../call'
import { exportCommand, importJsonCommand, keptFindings, formatOf, workspaceExportCommand } from '../export-commands'
import { UsageError } from '../usage-error'
import { command } from './spec'

/** A session (or a workspace) to one file, and a JSON export back. */
export const SHARE_COMMANDS = [
  command({
    name: 'export',
    args: [{ name: '<session-id>' }],
    options: ['workspace', 'format', 'out', 'turn', 'no-redact', 'with-files', 'keep', 'anonymize-path', 'force'],
    usage: [
      {
        synopsis: '<session-id> [--format html|md|json] [--out FILE] [--turn N] [--no-redact] [--with-files] [--keep ID]… [--anonymize-path] [--force]',
        about:
          "one file a colleague can open offline (format from --out's extension by default); secrets are found, listed on stderr and hidden unless --keep ID (a false positive) or --no-redact; --with-files (json): carry the changed files' contents; --turn N: only the conversation up to the end of turn N; --anonymize-path: the workspace folder shows as its name (and your home folder as ~) everywhere in the file",
        group: 4
      },
      {
        synopsis: '--workspace PATH [--out FILE] [--no-redact] [--keep ID]… [--anonymize-path] [--force]',
        about: "the workspace's index page: every session in tree order in one self-contained HTML file, each linked from a list at the top, after the same secret review",
        group: 4
      }
    ],
    async run({ args, values, io, open, session }) {
      const sessionRef = args['<session-id>']
      const common = { out: values.out, redact: !values['no-redact'], keep: keptFindings(values.keep), anonymizePath: values['anonymize-path'] ?? false, force: values.force ?? false, io }
      if (values.workspace !== undefined) {
        if (sessionRef !== undefined) throw new UsageError('Give a <session-id> or --workspace PATH, not both.')
        if (values.format !== undefined && values.format !== 'html') throw new UsageError('A workspace exports as one HTML page: --format html, or leave --format out.')
        const live = await open()
        await workspaceExportCommand(live, cliCaller(live), { workspace: values.workspace, ...common })
        return 0
      }
      if (sessionRef === undefined) throw new UsageError('Missing <session-id> (or --workspace PATH). Run `retrace help` for usage.')
      const live = await open()
      await exportCommand(cliCaller(live), { sessionId: session(live, sessionRef), format: formatOf(values.format, values.out), withFiles: values['with-files'] ?? false, throughTurn: values.turn, ...common })
      return 0
    }
  }),
  command({
    name: 'import-json',
    args: [{ name: 'FILE', required: true, rest: true }],
    options: ['workspace', 'json'],
    usage: [
      {
        synopsis: 'FILE [--workspace PATH] [--json]',
        about: 'a JSON export back as a session of the workspace (default: the current folder), replayable and rewindable with its files',
        group: 4
      }
    ],
    async run({ args, values, io, open, defaultWorkspace }) {
      // The file is checked before the workspace is asked for: a wrong path is the first thing to say.
      const workspace = (): string => values.workspace ?? defaultWorkspace('`--workspace ~/code/shop`')
      const live = await open()
      await importJsonCommand(live, cliCaller(live), { file: args.FILE ?? '', workspace, json: values.json ?? false, io })
      return 0
    }
  })
]
