import type { FileTools } from '../adapter'

/**
 * Aider calls no tools: its edits are SEARCH/REPLACE or whole-file blocks in the answer and
 * "Applied edit to X" lines, which its importer reports itself (edit-records.ts). Nothing here
 * for the pipeline to match.
 */
export const fileTools: FileTools = { writes: [], reads: [], shell: [] }
