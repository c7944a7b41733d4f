/**
 * What to do about a turn whose shell commands may have changed files Retrace did not see (a
 * tool call says which files it wrote; `sed -i`, `git merge` or a formatter run from a shell do
 * not, and Claude Code's own file history does not back those files up either): the agent hooks
 * that scan the workspace before and after each turn (README, "Capturing shell changes with
 * agent hooks").
 */
export const SHELL_CAPTURE_HINT = 'Agent hooks running `retrace checkpoint begin` and `retrace checkpoint end` around each turn capture them (README: "Capturing shell changes with agent hooks").'
