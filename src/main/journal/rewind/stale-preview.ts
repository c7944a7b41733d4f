import { displayPath, type PathKey } from '../../fs/paths'
import type { RewindPlan } from './plan'

/** How many recent previews are remembered (a window shows one at a time; the CLI, one per command). */
const KEPT = 32

/**
 * The disk state each recent preview saw, by its token, so an apply refused because the disk
 * changed since can say which files changed instead of only that some did.
 */
export class PreviewMemory {
  private readonly seen = new Map<string, { rootKey: string; items: Map<PathKey, string> }>()

  remember(plan: RewindPlan): void {
    this.seen.delete(plan.token)
    this.seen.set(plan.token, { rootKey: plan.rootKey, items: new Map(plan.items.map((item) => [item.key, fingerprint(item)])) })
    for (const token of this.seen.keys()) {
      if (this.seen.size <= KEPT) break
      this.seen.delete(token)
    }
  }

  /**
   * The message of an apply refused because `plan` (made just now) is not the preview `token`
   * was given for: the files whose state or action differs, by name, when that preview is known.
   */
  staleMessage(token: string, plan: RewindPlan): string {
    const preview = this.seen.get(token)
    if (preview && preview.rootKey !== plan.rootKey) {
      return 'The workspace folder was replaced since the preview was made (its path now leads to another folder, or a link to one); nothing was written. Review the new preview.'
    }
    const before = preview?.items
    const changed = before ? plan.items.filter((item) => before.get(item.key) !== fingerprint(item)).map((item) => displayPath(item.path)) : []
    const gone = before ? [...before.keys()].filter((key) => !plan.items.some((item) => item.key === key)).length : 0
    if (changed.length === 0 && gone === 0) return 'Files changed since the preview was made; nothing was written. Review the new preview.'
    const named = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '')
    const subject = named || `${gone} file${gone === 1 ? '' : 's'}`
    return `${subject} changed since the preview was made; nothing was written. Review the new preview.`
  }
}

/** What the token hashes for one item (see planFromTargets). */
const fingerprint = (item: RewindPlan['items'][number]) => `${JSON.stringify(item.current)}\0${item.action}`
