/** The name a fork gets unless the user types another (the same one the server would give). */
export function defaultBranchName(parentTitle: string, turn: number): string {
  return `${parentTitle.trim() || 'Session'} (branch at turn ${turn})`
}

/** The title to send: trimmed, at most the contract's 500 characters; empty means "the default". */
export function branchTitle(input: string): string | undefined {
  const title = input.trim().slice(0, 500)
  return title === '' ? undefined : title
}

/** What a merge mode does, said before it happens. */
export function mergeModeEffect(mode: 'append' | 'replace', plan: { parentTitle: string; branchMessages: number; parentMessagesSinceFork: number }): string {
  const branch = `${plan.branchMessages} message${plan.branchMessages === 1 ? '' : 's'}`
  const parent = `${plan.parentMessagesSinceFork} message${plan.parentMessagesSinceFork === 1 ? '' : 's'}`
  if (mode === 'append') {
    return `Adds the branch’s ${branch} after the last message of “${plan.parentTitle}”. The parent’s own ${parent} since the fork stay in what the model sees.`
  }
  return `Adds the branch’s ${branch} after the last message of “${plan.parentTitle}”, and takes the parent’s own ${parent} since the fork out of what the model sees (its Context transcript). Nothing is deleted: the Display transcript keeps every message.`
}
