/**
 * A command line Retrace cannot run as typed: an unknown command or option, a missing argument,
 * a value out of range, options that do not go together. The CLI prints its message (a sentence
 * naming the option) and exits 2, as the README says; a command that ran and failed exits 1.
 */
export class UsageError extends Error {}
