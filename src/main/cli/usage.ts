import { IMPORT_SOURCES } from '../../shared/contract'
import { APP_VERSION } from '../runtime/version'
import { HOOKS_USAGE } from './hooks/hooks-command'

/** `retrace help`: every command, one paragraph each. */
export const USAGE = `Retrace ${APP_VERSION}: browse and rewind AI-agent history.

Usage:
  retrace serve [--demo] [--port N]          serve the app on http://127.0.0.1 (token in the printed URL)
  retrace workspaces [--json]                every workspace: those opened or imported, and every folder the
                                             agents' histories record, with sources, sessions, last activity,
                                             and whether the folder is still here (a missing one is browsable)
  retrace sessions <workspace-path> [--all] [--json]
                                             list a workspace's sessions, newest first (importing what its
                                             agents added since); the folder may be gone if a history records
                                             it; --all also lists the agents' start-up work (Claude Code warm-ups)
  retrace show <session-id> [--json] [--context]
                                             print a session's transcript (--context: what the model saw)
  retrace search <query> [--workspace PATH] [--json]
                                             full-text search across workspaces
  retrace changes <session-id> [--turn N] [--json]
                                             the files each turn changed
  retrace diff <session-id> --turn N --file PATH
                                             what turn N did to one file
  retrace blame FILE [--workspace PATH] [--json]
                                             who last wrote each line: session, turn, date (or a
                                             change outside any agent turn, or on disk since)
  retrace rewind <session-id> --turn N [--dry-run] [--yes] [--on-conflict skip|overwrite|keep-both] [--allow-sensitive] [--leave PATH]... [--json]
                                             files back to before turn N (turns count from 1), after a preview;
                                             files that run code or grant access (.bashrc, .ssh/, .envrc…) from
                                             a history this computer did not record are only written with
                                             --allow-sensitive, which confirms those the preview names
  retrace undo <rewind-id> [--yes] [--json]  put back what a rewind replaced
  retrace restore FILE [--change N | --session ID --turn N] [--workspace PATH] [--dry-run] [--yes] [--on-conflict …] [--json]
                                             one file back to a recorded version, after the same preview
                                             (and undo) as a rewind: without a version, its recorded changes,
                                             numbered; --change N: the file as change N left it; --session
                                             --turn: as it was before turn N of that session
  retrace fork <session-id> --turn N [--name NAME] [--with-files] [--allow-sensitive]
                                             a branch with the conversation before turn N (and its files)
  retrace continue <session-id> [--turn N] [--in claude-code|codex] [--json]
                                             a new session file in the agent's own folder with the
                                             conversation up to turn N (default: the last), and the
                                             command that resumes it (claude --resume, codex resume);
                                             Claude Code and Codex sessions and Retrace branches of them
  retrace merge <branch-id> [--mode append|replace]
                                             merge a branch back into its parent (merged before:
                                             only what was added since; refused if nothing was)
  retrace unmerge <branch-id>                undo a branch's latest merge into its parent
  retrace mcp [--allow-rewind]               an MCP server (stdio) for agents: search, read turns, blame,
                                             preview rewinds; --allow-rewind lets them rewind and undo
  retrace checkpoint begin|end --workspace PATH --session ID
                                             for agent hooks: scan before and after a turn (or read
                                             session_id/cwd/prompt from the hook's JSON on stdin)
${HOOKS_USAGE}

  retrace import [WORKSPACE | --all] [--source ${IMPORT_SOURCES.join('|')}] [--json]
                                             import the agents' sessions (only what is new);
                                             WORKSPACE defaults to the current folder (never Retrace's
                                             own: name it, or \`.\`), --all takes every
                                             session found, into a workspace per recorded folder;
                                             --source NAME --path DIR adds DIR as that source's history
                                             for the workspace (imported now and whenever it is opened)
  retrace import --all --watch [--json]      import every agent's history, then keep following it until
                                             Ctrl-C (one line per round that added something), so it is
                                             kept before an agent's clean-up deletes it
  retrace service install [--dry-run] [--force]
                                             write the user service that runs import --all --watch
                                             (systemd on Linux, launchd on macOS; Node and Retrace by
                                             absolute path), and print how to start it

  retrace export <session-id> [--format html|md|json] [--out FILE] [--turn N] [--no-redact] [--with-files] [--keep ID]… [--anonymize-path] [--force]
                                             one file a colleague can open offline (format from --out's
                                             extension by default); secrets are found, listed on stderr and
                                             hidden unless --keep ID (a false positive) or --no-redact;
                                             --with-files (json): carry the changed files' contents;
                                             --turn N: only the conversation up to the end of turn N;
                                             --anonymize-path: the workspace folder shows as its name
                                             (and your home folder as ~) everywhere in the file
  retrace export --workspace PATH [--out FILE] [--no-redact] [--keep ID]… [--anonymize-path] [--force]
                                             the workspace's index page: every session in tree order in
                                             one self-contained HTML file, each linked from a list at the
                                             top, after the same secret review
  retrace import-json FILE [--workspace PATH] [--json]
                                             a JSON export back as a session of the workspace (default:
                                             the current folder), replayable and rewindable with its files

  retrace doctor [--json]                    how long each agent keeps its history (Claude Code's
                                             cleanupPeriodDays), and the sessions Retrace kept after
                                             their agent deleted the file
  retrace doctor --set-claude-retention DAYS [--yes]
                                             write cleanupPeriodDays into Claude Code's settings.json
                                             (asks first; a backup is kept beside it)
  retrace doctor --undo-claude-retention     put that file back exactly as it was (refused if it
                                             changed since)

  retrace gc                                  delete file snapshots nothing refers to any more
  retrace recovery [--json]                   rewinds a crash interrupted, and the files changed since
                                             that recovery left as they were
  retrace recovery <rewind-id> --file PATH --out FILE [--found]
                                             write that file's version from before the rewind (or,
                                             with --found, the one recovery found) to a new file

A <session-id> (or <branch-id>) may also be the agent's own session id (what a hook passed as
--session, or the Claude Code / Codex id of an imported session) or the first characters of an id.
Every command takes --data-dir DIR (default: $RETRACE_HOME, else ~/.retrace). Every command first
finishes any rewind a crash interrupted, putting back only files nobody changed since.`
