// The secret-redaction engine for session exports: scan decoded texts (never raw JSONL lines,
// where JSON escaping hides keys), let the user review the findings, redact the chosen ones.
export type { ScanInput, ScanOptions, SecretFinding, TextPlace } from './types'
export { scanForSecrets } from './scan'
export { redactInPlace, redactText } from './redact'
export { HIDDEN, readsAsName } from './context-mask'
