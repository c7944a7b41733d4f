import { createHash } from 'node:crypto'

export interface Migration {
  version: number
  name: string
  sql: string
  sha256: string
}

// Migrations are the numbered files in ./migrations, found by the bundler at build time, so
// adding one is adding a file: nothing to register, no order to keep by hand.
const files = import.meta.glob<string>('./migrations/*.sql', { query: '?raw', import: 'default', eager: true })

/** Parse `NNN_name.sql` file names into ordered migrations; refuses gaps and duplicates. */
export function loadMigrations(sources: Record<string, string> = files): Migration[] {
  const migrations = Object.entries(sources).map(([file, sql]) => {
    const match = /(\d{3})_([a-z0-9_]+)\.sql$/.exec(file)
    if (!match) throw new Error(`Migration file name must be NNN_name.sql: ${file}`)
    return {
      version: Number(match[1]),
      name: match[2] ?? '',
      sql,
      sha256: createHash('sha256').update(sql).digest('hex')
    }
  })
  migrations.sort((a, b) => a.version - b.version)
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) {
      throw new Error(`Migrations must be numbered 001, 002, … without gaps; found ${String(m.version).padStart(3, '0')} at position ${index + 1}`)
    }
  })
  return migrations
}
