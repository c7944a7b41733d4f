/** The name a fork gets unless the user types another (the same one the server would give). */
export function defaultBranchName(parentTitle: string, turn: number): string {
  return `${parentTitle.trim() || 'Session'} (branch at turn ${turn})`
}

/** The title to send: trimmed, at most the contract's 500 characters; empty means "the default". */
export function branchTitle(input: string): string | undefined {
  const title = input.trim().slice(0, 500)
  return title === '' ? undefined : title
}

/** The numbers of a merge preview (`sessions.planMerge`) the dialog's sentences use. */
export interface MergePreview {
  parentTitle: string
  branchMessages: number
  parentMessagesSinceFork: number
  alreadyMerged: number
}

const messages = (count: number) => `${count} message${count === 1 ? '' : 's'}`

/** What a merge mode does, said before it happens. Merged before, it takes only what is new. */
export function mergeModeEffect(mode: 'append' | 'replace', plan: MergePreview): string {
  const branch = plan.alreadyMerged > 0 ? `${messages(plan.branchMessages)} added since the last merge` : messages(plan.branchMessages)
  const parent = messages(plan.parentMessagesSinceFork)
  const since = plan.alreadyMerged > 0 ? 'since the last merge' : 'since the fork'
  if (mode === 'append') {
    return `Adds the branch’s ${branch} after the last message of “${plan.parentTitle}”. The parent’s own ${parent} ${since} stay in what the model sees.`
  }
  return `Adds the branch’s ${branch} after the last message of “${plan.parentTitle}”, and takes the parent’s own ${parent} ${since} out of what the model sees (its Context transcript). Nothing is deleted: the Display transcript keeps every message.`
}

/** The dialog's first sentence: what the branch has that the parent has not, and what it has already. */
export function mergeIntro(plan: MergePreview): string {
  if (plan.alreadyMerged === 0) {
    return `This branch has ${messages(plan.branchMessages)} of its own since it was forked from “${plan.parentTitle}”, which has ${messages(plan.parentMessagesSinceFork)} since that point.`
  }
  return `This branch was merged into “${plan.parentTitle}” before: its first ${messages(plan.alreadyMerged)} are there already and are not merged again. Since then it has ${messages(plan.branchMessages)} new, and “${plan.parentTitle}” ${messages(plan.parentMessagesSinceFork)} of its own.`
}

/** Why there is nothing to merge (the preview found no new message), or null when there is. */
export function mergeNothingText(plan: MergePreview): string | null {
  if (plan.branchMessages > 0) return null
  if (plan.alreadyMerged > 0) return 'Already merged; nothing new since. Messages added to this branch later can be merged then.'
  return 'Nothing to merge yet: this branch has no messages of its own since it was forked.'
}

/** Why "Merge into parent" is disabled for a branch (merged, and nothing added since), or null. */
export function mergeUnavailableReason(merged: { newMessages: number } | null, parentTitle: string): string | null {
  if (!merged || merged.newMessages > 0) return null
  return `Already merged into “${parentTitle}”; nothing new since. Add messages to this branch to merge again.`
}
