import { IMPORT_SOURCES } from '../../../shared/contract'
import { tuningFrom } from '../../runtime/tuning'
import { checkpointCommand, readHookInput } from '../checkpoint-command'
import { hooksCommand, type HooksFlags } from '../hooks/hooks-command'
import { hookCheckpointCommand } from '../hooks/hook-checkpoint'
import { importCommand, watchAllCommand } from '../import-command'
import { collectGarbageSooner } from '../import-heap'
import { serviceCommand } from '../service-command'
import { UsageError } from '../usage-error'
import type { OptionName } from './options'
import { command, type CommandInput } from './spec'

const CONNECT_OPTIONS = ['agent', 'scope', 'workspace', 'no-mcp', 'dry-run', 'json'] as const satisfies readonly OptionName[]

/** The flags of `hooks` and `mcp install`; project-scoped settings go into a workspace's own files, never Retrace's by default. */
function connectFlags({ values, defaultWorkspace }: CommandInput<(typeof CONNECT_OPTIONS)[number]>, action: string): HooksFlags {
  const writesProjectFiles = values.scope === 'project' && (action === 'install' || action === 'uninstall')
  return {
    agent: values.agent,
    scope: values.scope,
    workspace: values.workspace ?? (writesProjectFiles ? defaultWorkspace('`--workspace ~/code/shop`') : undefined),
    dryRun: values['dry-run'] ?? false,
    noMcp: values['no-mcp'] ?? false,
    json: values.json ?? false
  }
}

/** Agents' hooks and MCP server, their histories' import, and the service that keeps importing. */
export const AGENT_COMMANDS = [
  command({
    name: 'mcp',
    args: [{ name: 'action', choices: ['install', 'uninstall'] }],
    options: ['allow-rewind', ...CONNECT_OPTIONS],
    usage: [
      { synopsis: '[--allow-rewind]', about: 'an MCP server (stdio) for agents: search, read turns, blame, preview rewinds; --allow-rewind lets them rewind and undo', group: 1 },
      { synopsis: 'install|uninstall [--agent NAME|all] [--scope user|project] [--dry-run]', about: "only the MCP server's registration", group: 2 }
    ],
    async run(input) {
      const { args, values, dataDir, env, io } = input
      if (args.action !== undefined) return hooksCommand('mcp', args.action, connectFlags(input, args.action), { dataDir, env, io })
      // Loaded only here: the MCP SDK costs every other command ~0.2 s of start-up.
      const { mcpCommand } = await import('../../mcp/mcp-command')
      await mcpCommand(await input.open(), { allowRewind: values['allow-rewind'] ?? false, importWaitMs: tuningFrom(env).mcpImportWaitMs, stop: input.interrupt(), io })
      return 0
    }
  }),
  command({
    name: 'checkpoint',
    args: [{ name: 'begin|end', required: true, choices: ['begin', 'end'] }],
    options: ['workspace', 'session', 'hook', 'json'],
    usage: [
      { synopsis: 'begin|end --workspace PATH --session ID', about: "for agent hooks: scan before and after a turn (or read session_id/cwd/prompt from the hook's JSON on stdin)", group: 1 },
      {
        synopsis: 'begin|end --hook AGENT',
        about: "what an installed hook runs: reads that agent's JSON on stdin, prints nothing (Cursor: its answer), always exits 0, logs the outcome for `retrace hooks status`",
        group: 2
      }
    ],
    // A hook's command line is whatever its settings say: it exits 0, the hook log says what was wrong.
    lenient: (argv) => argv.some((word) => word === '--hook' || word.startsWith('--hook=')),
    async run({ args, values, dataDir, env, io, open, hookInput }) {
      if (values.hook !== undefined) {
        const quiet = () => open({ quiet: true })
        return hookCheckpointCommand({ agent: values.hook, phase: args['begin|end'] ?? '', dataDir, env, open: quiet, answer: (text) => io.out(text), ...(hookInput ? { input: hookInput } : {}) })
      }
      const hook = values.workspace && values.session ? {} : await readHookInput()
      await checkpointCommand(await open(), { phase: args['begin|end'] ?? '', workspace: values.workspace, session: values.session, hook, json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'hooks',
    args: [{ name: 'action', required: true, choices: ['install', 'uninstall', 'status'] }],
    options: [...CONNECT_OPTIONS],
    usage: [
      {
        synopsis: 'install [--agent NAME|all] [--scope user|project] [--workspace PATH] [--no-mcp] [--dry-run]',
        about:
          "make each agent run checkpoint begin/end around every turn, in its own settings (agents: claude-code, gemini, codex, cursor, copilot; all, the default: those found here), and register Retrace's MCP server; a backup is kept beside each file; --dry-run shows the diffs",
        group: 2
      },
      { synopsis: 'uninstall [same flags]', about: 'take out exactly what install added', group: 2 },
      { synopsis: 'status [--agent NAME] [--json]', about: 'per agent: hooks and MCP server (in which file), the last turn captured, the last error of a hook run', group: 2 }
    ],
    run(input) {
      const action = input.args.action ?? ''
      return Promise.resolve(hooksCommand('hooks', action, connectFlags(input, action), { dataDir: input.dataDir, env: input.env, io: input.io }))
    }
  }),
  command({
    name: 'import',
    args: [{ name: 'WORKSPACE', rest: true }],
    options: ['all', 'source', 'path', 'watch', 'json'],
    usage: [
      {
        synopsis: `[WORKSPACE | --all] [--source ${IMPORT_SOURCES.join('|')}] [--json]`,
        about:
          "import the agents' sessions (only what is new); WORKSPACE defaults to the current folder (never Retrace's own: name it, or `.`), --all takes every session found, into a workspace per recorded folder; --source NAME --path DIR adds DIR as that source's history for the workspace (imported now and whenever it is opened)",
        group: 3
      },
      {
        synopsis: '--all --watch [--json]',
        about: "import every agent's history, then keep following it until Ctrl-C (one line per round that added something), so it is kept before an agent's clean-up deletes it",
        group: 3
      }
    ],
    async run({ args, values, env, io, open, defaultWorkspace, interrupt }) {
      const named = args.WORKSPACE
      const all = values.all ?? false
      collectGarbageSooner()
      if (values.watch) {
        if (!all || values.source || values.path !== undefined || named !== undefined) throw new UsageError('--watch goes with --all alone: `retrace import --all --watch`.')
        await watchAllCommand(await open(), { intervalMs: tuningFrom(env).backgroundImport.intervalMs, stop: interrupt(), json: values.json ?? false, io })
        return 0
      }
      if (values.path !== undefined && (!values.source || all)) throw new UsageError('--path DIR needs --source NAME (whose history DIR holds) and a workspace, not --all.')
      if (all && named !== undefined) throw new UsageError('Give a workspace folder or --all, not both.')
      const workspace = named ?? (all ? undefined : defaultWorkspace('`retrace import ~/code/shop`'))
      await importCommand(await open(), { workspace, all, source: values.source, path: values.path, json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'service',
    args: [{ name: 'action', required: true, choices: ['install'] }],
    options: ['dry-run', 'force'],
    usage: [
      {
        synopsis: 'install [--dry-run] [--force]',
        about: 'write the user service that runs import --all --watch (systemd on Linux, launchd on macOS; Node and Retrace by absolute path), and print how to start it',
        group: 3
      }
    ],
    run({ values, dataDir, env, io }) {
      return Promise.resolve(serviceCommand({ dataDir, env, dryRun: values['dry-run'] ?? false, force: values.force ?? false, io }))
    }
  })
]
