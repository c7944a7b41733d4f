/**
 * The top-level fields of the conversation lines (user, assistant, system) that Claude Code
 * writes as of 2.1.x, read or left out on purpose: those of the real sessions under fixtures/
 * and those the schemas read. A field outside this list is a format change: it is counted as
 * unread (`field "x" of user lines`), so it shows in the Sources panel and `retrace doctor`
 * instead of going unnoticed. Extend the list when such a field is looked at.
 */
export const KNOWN_CONVERSATION_FIELDS: ReadonlySet<string> = new Set([
  // Identity, place and time of the line.
  'type', 'uuid', 'parentUuid', 'logicalParentUuid', 'sessionId', 'session_id', 'timestamp', 'version', 'cwd', 'gitBranch', 'slug',
  'userType', 'entrypoint', 'isSidechain', 'agentId', 'requestId', 'promptId', 'permissionMode', 'forkedFrom',
  // The content and what came with it.
  'message', 'content', 'toolUseResult', 'sourceToolAssistantUUID', 'sourceToolUseID', 'toolUseID', 'parentToolUseID',
  'thinkingMetadata', 'todos', 'isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'compactMetadata',
  // System lines: their kind, level and hook reports.
  'subtype', 'level', 'hookCount', 'hookInfos', 'hookErrors', 'preventedContinuation', 'stopReason', 'hasOutput', 'durationMs', 'messageCount',
  // API errors and retries.
  'error', 'isApiErrorMessage', 'retryAttempt', 'retryInMs', 'maxRetries', 'cause'
])

export const CONVERSATION_LINE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system'])
