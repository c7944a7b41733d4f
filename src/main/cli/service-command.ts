import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { RetraceError } from '../../shared/contract'
import { retraceProgram, type RetraceProgram } from '../agent-hooks/retrace-command'
import type { Output } from './commands'

const SYSTEMD_UNIT = 'retrace-import.service'
const LAUNCHD_LABEL = 'dev.retrace.import'

/** The user service's file and text on this platform, and how to start it. */
export interface ServiceUnit {
  file: string
  text: string
  start: string
  stop: string
}

/**
 * The user service that runs `retrace import --all --watch` (docs/keeping-history.md): a systemd
 * user unit on Linux, a launchd agent on macOS. It names Node and `bin/retrace.js` by absolute
 * path, as the agents' hooks do, so it runs with a service manager's bare PATH and never depends
 * on `retrace` being on it.
 */
export function serviceUnit(dataDir: string, options: { env: NodeJS.ProcessEnv; platform?: NodeJS.Platform; program?: RetraceProgram }): ServiceUnit {
  const platform = options.platform ?? process.platform
  const program = options.program ?? retraceProgram(dataDir)
  const args = [program.node, program.script, 'import', '--all', '--watch', ...program.dataDirArgs]
  const home = options.env.HOME || homedir()
  if (platform === 'linux') {
    const config = options.env.XDG_CONFIG_HOME || join(home, '.config')
    return {
      file: join(config, 'systemd', 'user', SYSTEMD_UNIT),
      text: systemdUnit(args),
      start: `systemctl --user enable --now ${SYSTEMD_UNIT}`,
      stop: `systemctl --user disable --now ${SYSTEMD_UNIT}`
    }
  }
  if (platform === 'darwin') {
    const file = join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`)
    return { file, text: launchdAgent(args, join(home, 'Library', 'Logs', 'retrace-import.log')), start: `launchctl bootstrap gui/$(id -u) ${file}`, stop: `launchctl bootout gui/$(id -u)/${LAUNCHD_LABEL}` }
  }
  throw new RetraceError('VALIDATION', `Retrace writes a user service for Linux (systemd) and macOS (launchd), not for ${platform}: run \`retrace import --all --watch\` from the system's own task scheduler.`)
}

/**
 * `retrace service install [--dry-run] [--force]`: write the user service's file (or, with
 * --dry-run, print it), then say how to start it. A different file already there (one edited by
 * hand, say) is kept unless --force.
 */
export function serviceCommand(options: { dataDir: string; env: NodeJS.ProcessEnv; dryRun: boolean; force: boolean; io: Output; platform?: NodeJS.Platform }): number {
  const unit = serviceUnit(options.dataDir, options)
  if (options.dryRun) {
    options.io.out(`Would write ${unit.file}:\n\n${unit.text}`)
    return 0
  }
  const existing = existsSync(unit.file) ? readFileSync(unit.file, 'utf8') : null
  if (existing === unit.text) {
    options.io.out(`${unit.file} is already this service; nothing to change. Start it (now and at every login): ${unit.start}`)
    return 0
  }
  if (existing !== null && !options.force) throw new RetraceError('VALIDATION', `${unit.file} exists and differs from the service Retrace would write: see it with --dry-run, then replace it with --force.`)
  mkdirSync(dirname(unit.file), { recursive: true })
  writeFileSync(unit.file, unit.text)
  options.io.out(`Wrote ${unit.file}. Start it (now and at every login): ${unit.start}`)
  options.io.out(`Stop it: ${unit.stop}`)
  return 0
}

function systemdUnit(args: string[]): string {
  return [
    '[Unit]',
    "Description=Retrace: import AI agents' history",
    '',
    '[Service]',
    `ExecStart=${args.map(systemdWord).join(' ')}`,
    '# A service does not read your shell start-up files: set the agents\' folders you moved here, e.g.',
    '# Environment=CLAUDE_CONFIG_DIR=/home/you/.claude-work',
    'Restart=on-failure',
    'RestartSec=60',
    '',
    '[Install]',
    'WantedBy=default.target',
    ''
  ].join('\n')
}

/** One word of ExecStart: systemd expands `%` specifiers and `$` variables, and splits on spaces and quotes. */
export function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$')
  return /^[\w@+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

function launchdAgent(args: string[], log: string): string {
  const string = (value: string) => `<string>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</string>`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${string(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args.map((arg) => `    ${string(arg)}`),
    '  </array>',
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key><true/>',
    `  <key>StandardOutPath</key>${string(log)}`,
    `  <key>StandardErrorPath</key>${string(log)}`,
    '</dict>',
    '</plist>',
    ''
  ].join('\n')
}
