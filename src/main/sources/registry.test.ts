import { describe, expect, it } from 'vitest'
import { IMPORT_SOURCES } from '../../shared/contract'
import { SOURCE_ADAPTERS } from './registry'
import { describeSource } from './source-info'

describe('the sources Retrace imports', () => {
  it('has one adapter per source the contract names, each with a label and where it looks', () => {
    expect(SOURCE_ADAPTERS.map((adapter) => adapter.name).sort()).toEqual([...IMPORT_SOURCES].sort())
    for (const adapter of SOURCE_ADAPTERS) {
      const info = describeSource(adapter, { HOME: '/home/someone' })
      expect(info.label.length, adapter.name).toBeGreaterThan(1)
      expect(info.looksIn.length, adapter.name).toBeGreaterThan(10)
    }
  })
})
