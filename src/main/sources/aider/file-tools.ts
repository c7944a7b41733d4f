import type { FileTools } from '../adapter'

/**
 * Aider calls no tools: its chat history says what it did in its own output lines
 * (aider/coders/base_coder.py, aider/io.py). `Applied edit to <path>` is a file change (its
 * SEARCH/REPLACE block, the commit, or a change-not-captured record: session-records.ts);
 * `Running <command>` a shell command it ran after asking. Nothing else it logs changes files
 * (`/add`, `/read-only` only put files in the chat).
 */
export const AIDER_FILE_TOOLS: FileTools = {
  writes: ['Applied edit'],
  reads: [],
  shell: ['Running']
}
