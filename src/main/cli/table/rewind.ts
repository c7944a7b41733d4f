import { cliCaller } from '../call'
import { continueCommand } from '../continue-command'
import { forkCommand, mergeCommand, rewindCommand, undoCommand, unmergeCommand, type ApplyFlags } from '../journal-commands'
import { restoreCommand } from '../restore-command'
import { resolveRewindRef } from '../rewind-ref'
import { rewindsCommand } from '../rewinds-command'
import type { OptionName } from './options'
import { command, type CommandInput } from './spec'

/** The options a preview-then-apply command takes (rewind, undo, restore). */
const APPLY_OPTIONS = ['dry-run', 'yes', 'on-conflict', 'allow-sensitive', 'leave', 'json'] as const satisfies readonly OptionName[]

function applyFlags({ values, io }: CommandInput<(typeof APPLY_OPTIONS)[number]>): ApplyFlags {
  return {
    dryRun: values['dry-run'] ?? false,
    yes: values.yes ?? false,
    onConflict: values['on-conflict'],
    allowSensitive: values['allow-sensitive'] ?? false,
    leave: values.leave ?? [],
    json: values.json ?? false,
    io
  }
}

/** Files back to a recorded state, and the conversation's branches. */
export const REWIND_COMMANDS = [
  command({
    name: 'rewind',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['turn', ...APPLY_OPTIONS],
    requires: ['turn'],
    usage: [
      {
        about:
          'files back to before turn N (turns count from 1), after a preview; files that run code or grant access (.bashrc, .ssh/, .envrc…) from a history this computer did not record are only written with --allow-sensitive, which confirms those the preview names',
        group: 1
      }
    ],
    async run(input) {
      const live = await input.open()
      return rewindCommand(cliCaller(live), { sessionId: input.session(live, input.args['<session-id>'] ?? ''), turn: input.values.turn ?? 1, ...applyFlags(input) })
    }
  }),
  command({
    name: 'undo',
    args: [{ name: '<rewind-id>', required: true, rest: true }],
    options: [...APPLY_OPTIONS],
    usage: [{ synopsis: '<rewind-id> [--yes] [--json]', about: 'put back what a rewind replaced (the same preview as a rewind)', group: 1 }],
    async run(input) {
      const live = await input.open()
      return undoCommand(cliCaller(live), { rewindId: resolveRewindRef(live.store.rewinds, input.args['<rewind-id>'] ?? ''), ...applyFlags(input) })
    }
  }),
  command({
    name: 'rewinds',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['json'],
    usage: [{ about: "a session's rewinds and their undos, with the ids `retrace undo` takes", group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await rewindsCommand(cliCaller(live), { sessionId: session(live, args['<session-id>'] ?? ''), json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'restore',
    args: [{ name: 'FILE', required: true, rest: true }],
    options: ['change', 'session', 'turn', 'workspace', ...APPLY_OPTIONS],
    usage: [
      {
        synopsis: 'FILE [--change N | --session ID --turn N] [--workspace PATH] [--dry-run] [--yes] [--on-conflict …] [--allow-sensitive] [--leave PATH]... [--json]',
        about:
          'one file back to a recorded version, after the same preview (and undo) as a rewind: without a version, its recorded changes, numbered; --change N: the file as change N left it; --session --turn: as it was before turn N of that session',
        group: 1
      }
    ],
    async run(input) {
      const live = await input.open()
      const { values, args } = input
      const sessionId = values.session === undefined ? undefined : input.session(live, values.session)
      return restoreCommand(cliCaller(live), { file: args.FILE ?? '', workspace: values.workspace, change: values.change, sessionId, turn: values.turn, ...applyFlags(input) })
    }
  }),
  command({
    name: 'fork',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['turn', 'name', 'with-files', 'on-conflict', 'allow-sensitive', 'json'],
    requires: ['turn'],
    usage: [{ about: 'a branch with the conversation before turn N (and, --with-files, its files)', group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await forkCommand(cliCaller(live), {
        sessionId: session(live, args['<session-id>'] ?? ''),
        turn: values.turn ?? 1,
        name: values.name,
        withFiles: values['with-files'] ?? false,
        onConflict: values['on-conflict'],
        allowSensitive: values['allow-sensitive'] ?? false,
        json: values.json ?? false,
        io
      })
      return 0
    }
  }),
  command({
    name: 'continue',
    args: [{ name: '<session-id>', required: true, rest: true }],
    options: ['turn', 'in', 'json'],
    usage: [
      {
        about:
          "a new session file in the agent's own folder with the conversation up to turn N (default: the last), and the command that resumes it (claude --resume, codex resume); Claude Code and Codex sessions and Retrace branches of them",
        group: 1
      }
    ],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await continueCommand(cliCaller(live), { sessionId: session(live, args['<session-id>'] ?? ''), turn: values.turn, agent: values.in, json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'merge',
    args: [{ name: '<branch-id>', required: true, rest: true }],
    options: ['mode', 'json'],
    usage: [{ about: 'merge a branch back into its parent (merged before: only what was added since; refused if nothing was)', group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await mergeCommand(cliCaller(live), { branchId: session(live, args['<branch-id>'] ?? ''), mode: values.mode ?? 'append', json: values.json ?? false, io })
      return 0
    }
  }),
  command({
    name: 'unmerge',
    args: [{ name: '<branch-id>', required: true, rest: true }],
    options: ['json'],
    usage: [{ about: "undo a branch's latest merge into its parent", group: 1 }],
    async run({ args, values, io, open, session }) {
      const live = await open()
      await unmergeCommand(cliCaller(live), { branchId: session(live, args['<branch-id>'] ?? ''), json: values.json ?? false, io })
      return 0
    }
  })
]
