/**
 * Reads a non-negative integer from the environment, so a quick smoke run can shrink the bench.
 * `min` guards sizes that make no sense at 0 (a store of zero sessions); 0 is allowed where it
 * means "skip this part".
 */
export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return value
}
