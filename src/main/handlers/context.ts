import type { ChangeFeed } from '../events/change-feed'
import type { FileJournal } from '../journal/file-journal'
import type { RewindService } from '../journal/rewind/rewind-service'
import type { PreviewWatches } from '../journal/rewind/preview-watch'
import type { Store } from '../store/store'
import type { ImportService } from '../sources/import-service'
import type { RecordedIndex } from '../sources/recorded-index'
import type { Recorder } from '../transcripts/recorder'

/** What the binding hosting the services can do beyond plain Node. */
export interface Host {
  binding: 'electron' | 'web'
  /** Native folder dialog; only the Electron binding has one. */
  pickFolder?: () => Promise<string | null>
}

/** Everything a service needs, passed in (no globals), so tests build one per temp folder. */
export interface HandlerContext {
  store: Store
  recorder: Recorder
  feed: ChangeFeed
  host: Host
  version: string
  journal: FileJournal
  rewinds: RewindService
  /** The files of open rewind previews, watched on disk. */
  previewWatches: PreviewWatches
  /** Imports of foreign agent histories (Claude Code, Codex CLI), and live following. */
  imports: ImportService
  /** The kept index of what the agents' histories record, per file: the first screen lists from it. */
  recorded: RecordedIndex
  /** Resolves once start-up recovery (interrupted rewinds, blob temp files) has run. */
  ready: Promise<void>
}
