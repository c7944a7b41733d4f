import { describe, expect, it } from 'vitest'
import {
  buildChoices,
  buildConfirmed,
  buildExcluded,
  changedPathCount,
  changedPaths,
  changedRows,
  choiceEffect,
  countChanges,
  formatBytes,
  groupPlan,
  isExcludable,
  keptCopies,
  kindNote,
  modeChange,
  sizeChange,
  type Choices,
  type PlanItem,
  type RewindResult
} from './plan-model'

const item = (path: string, action: PlanItem['action'], extra: Partial<PlanItem> = {}): PlanItem => ({
  path,
  pathId: btoa(path),
  action,
  conflict: null,
  refused: null,
  currentSize: 10,
  targetSize: 20,
  currentKind: action === 'create' ? null : 'file',
  targetKind: action === 'delete' ? null : 'file',
  currentMode: action === 'create' ? null : 0o644,
  targetMode: action === 'delete' ? null : 0o644,
  linkTarget: null,
  needsConfirmation: null,
  ...extra
})

const plan = [
  item('src/b.ts', 'restore'),
  item('src/a.ts', 'restore', { conflict: 'changed since the agent last wrote it' }),
  item('new.txt', 'delete', { targetSize: null }),
  item('gone.txt', 'create', { currentSize: null }),
  item('run.sh', 'mode'),
  item('same.ts', 'none'),
  item('../escape', 'restore', { refused: 'outside the workspace' }),
  item('unreadable', 'none', { refused: 'cannot be read: EACCES' })
]

describe('groupPlan', () => {
  it('groups changing paths by action in a fixed order, sorted by path', () => {
    const { groups } = groupPlan(plan)
    expect(groups.map((group) => group.action)).toEqual(['restore', 'create', 'delete', 'mode'])
    expect(groups[0]?.items.map((i) => i.path)).toEqual(['src/a.ts', 'src/b.ts'])
  })

  it('keeps refused paths apart whatever their action, and collapses the unchanged ones', () => {
    const { groups, refused, unchanged } = groupPlan(plan)
    expect(refused.map((i) => i.path)).toEqual(['../escape', 'unreadable'])
    expect(unchanged.map((i) => i.path)).toEqual(['same.ts'])
    expect(groups.flatMap((group) => group.items).some((i) => i.refused !== null)).toBe(false)
  })

  it('lists the conflicts that need a choice', () => {
    expect(groupPlan(plan).conflicts.map((i) => i.path)).toEqual(['src/a.ts'])
  })

  it('words an undo as restoring what the rewind replaced, never what the agent made', () => {
    const undo = groupPlan(plan, true).groups
    expect(undo.map((group) => group.explain).join(' ')).not.toMatch(/agent/)
    expect(undo.find((group) => group.action === 'restore')?.explain).toBe('Replaced by the rewind: what it replaced is written back.')
    expect(undo.find((group) => group.action === 'delete')?.explain).toMatch(/^Created by the rewind/)
    expect(groupPlan(plan).groups.find((group) => group.action === 'delete')?.explain).toMatch(/the agent created them later/)
  })

  it('leaves out empty groups', () => {
    expect(groupPlan([item('x', 'delete')]).groups.map((group) => group.action)).toEqual(['delete'])
    expect(groupPlan([]).groups).toEqual([])
  })
})

describe('buildChoices', () => {
  it('sends an explicit choice for every conflict, skip by default', () => {
    const conflicts = [item('a', 'restore', { conflict: 'x' }), item('b', 'delete', { conflict: 'y' }), item('c', 'restore')]
    const choices: Choices = new Map([[btoa('b'), 'keep-both']])
    expect(buildChoices(conflicts, choices)).toEqual([
      { pathId: btoa('a'), choice: 'skip' },
      { pathId: btoa('b'), choice: 'keep-both' }
    ])
  })

  it('drops choices for paths that no longer conflict, and never sends refused or unchanged paths', () => {
    const items = [item('a', 'restore'), item('r', 'restore', { conflict: 'x', refused: 'no' }), item('n', 'none', { conflict: 'x' })]
    const choices: Choices = new Map([
      [btoa('a'), 'overwrite'],
      [btoa('r'), 'overwrite']
    ])
    expect(buildChoices(items, choices)).toEqual([])
  })
})

describe('countChanges', () => {
  it('counts what an apply would change: skipped conflicts, refused and unchanged paths do not count', () => {
    expect(countChanges(plan, new Map())).toBe(4)
    expect(countChanges(plan, new Map([[btoa('src/a.ts'), 'overwrite']]))).toBe(5)
  })
})

describe('files that need confirmation', () => {
  const envrc = item('.envrc', 'create', { needsConfirmation: 'runs code when a shell enters the folder (direnv, mise): .envrc' })
  const items = [item('a.ts', 'restore'), envrc, item('.bashrc', 'none', { needsConfirmation: 'runs code: .bashrc' }), item('x', 'create', { needsConfirmation: 'y', refused: 'z' })]

  it('change something only once ticked', () => {
    expect(countChanges(items, new Map())).toBe(1)
    expect(countChanges(items, new Map(), new Set([envrc.pathId]))).toBe(2)
  })

  it('are confirmed to the server only if ticked and still in this plan', () => {
    expect(buildConfirmed(items, new Set())).toEqual([])
    expect(buildConfirmed(items, new Set([envrc.pathId, btoa('.bashrc'), btoa('x'), btoa('gone')]))).toEqual([envrc.pathId])
  })
})

describe('kind and mode of an entry', () => {
  it('shows a mode that changes, and a new file\'s mode unless it is the ordinary 644', () => {
    expect(modeChange(item('a', 'restore'))).toBeNull()
    expect(modeChange(item('a', 'mode', { currentMode: 0o644, targetMode: 0o755 }))).toBe('mode 644 → 755')
    expect(modeChange(item('a', 'create'))).toBeNull()
    expect(modeChange(item('a', 'create', { targetMode: 0o777 }))).toBe('mode 777')
    expect(modeChange(item('a', 'create', { targetMode: 0o4755 }))).toBe('mode 4755')
    expect(modeChange(item('a', 'delete'))).toBeNull()
  })

  it('names links and where they point', () => {
    expect(kindNote(item('a', 'restore'))).toBeNull()
    expect(kindNote(item('l', 'create', { targetKind: 'symlink', targetMode: null, linkTarget: '../README.md' }))).toBe('link → ../README.md')
    expect(kindNote(item('l', 'restore', { targetKind: 'symlink', targetMode: null, linkTarget: 'b' }))).toBe('file → link → b')
    expect(kindNote(item('l', 'restore', { currentKind: 'symlink', currentMode: null }))).toBe('link → file')
    expect(kindNote(item('l', 'delete', { currentKind: 'symlink', currentMode: null }))).toBe('link')
  })
})

describe('choiceEffect', () => {
  it('says where a kept copy goes and that overwritten content can be undone', () => {
    const conflict = item('src/a.ts', 'restore', { conflict: 'changed' })
    expect(choiceEffect(conflict, 'keep-both')).toContain('src/a.ts.retrace-kept')
    expect(choiceEffect(conflict, 'overwrite')).toContain('Undo')
    expect(choiceEffect(conflict, 'skip')).toContain('Left exactly as it is')
    expect(choiceEffect(item('x', 'delete', { conflict: 'created' }), 'overwrite')).toMatch(/deleted.*Undo/)
  })
})

describe('results', () => {
  const result: RewindResult = {
    rewindId: 'r1',
    changed: [
      { path: 'a', pathId: 'YQ==', action: 'keep', keptAs: 'a.retrace-kept' },
      { path: 'a', pathId: 'YQ==', action: 'write', keptAs: null },
      { path: 'b', pathId: 'Yg==', action: 'delete', keptAs: null }
    ],
    skipped: [],
    refused: []
  }

  it('counts a kept copy and the write to the same path as one file', () => {
    expect(changedPathCount(result)).toBe(2)
  })

  it('lists each changed path once, so the list is as long as the count beside it', () => {
    const rows = changedRows(result)
    expect(rows).toHaveLength(changedPathCount(result))
    expect(rows).toEqual([
      { key: 'YQ==', path: 'a', note: 'your version kept as a.retrace-kept · written' },
      { key: 'Yg==', path: 'b', note: 'deleted' }
    ])
  })

  it('lists the names of kept copies', () => {
    expect(keptCopies(result)).toEqual([{ path: 'a', keptAs: 'a.retrace-kept' }])
  })
})

describe('sizes', () => {
  it('formats bytes and the change of size', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB')
    expect(sizeChange(item('x', 'create', { currentSize: null, targetSize: 2048 }))).toBe('absent → 2.0 KB')
  })
})

describe('unticking files in a preview', () => {
  const items = [
    item('keep.ts', 'restore'),
    item('drop.ts', 'delete', { targetSize: null }),
    item('mine.ts', 'restore', { conflict: 'changed since the agent last wrote it' }),
    item('.envrc', 'create', { currentSize: null, needsConfirmation: 'runs code when you enter the folder (direnv): .envrc' }),
    item('bad', 'restore', { refused: 'hostile path' }),
    item('same.ts', 'none')
  ]

  it('offers the tick only on files with no other decision on them', () => {
    expect(items.filter(isExcludable).map((i) => i.path)).toEqual(['keep.ts', 'drop.ts'])
  })

  it('sends only this plan\'s unticked files, and counts them out', () => {
    const unticked = new Set([btoa('drop.ts'), btoa('mine.ts'), btoa('elsewhere.ts')])
    expect(buildExcluded(items, unticked)).toEqual([btoa('drop.ts')])
    const overwrite: Choices = new Map([[btoa('mine.ts'), 'overwrite']])
    const confirmed = new Set([btoa('.envrc')])
    expect(countChanges(items, overwrite, confirmed)).toBe(4)
    expect(countChanges(items, overwrite, confirmed, unticked)).toBe(3)
    expect(countChanges(items, new Map(), new Set(), new Set([btoa('keep.ts'), btoa('drop.ts')]))).toBe(0)
  })
})

describe('changedPaths', () => {
  it('names the rows a fresh preview shows differently, and rows that are gone', () => {
    const before = [item('a.ts', 'restore'), item('b.ts', 'restore'), item('c.ts', 'delete', { targetSize: null })]
    const after = [item('a.ts', 'restore'), item('b.ts', 'restore', { conflict: 'changed since the agent last wrote it', currentSize: 11 })]
    expect(changedPaths(before, after)).toEqual(['b.ts', 'c.ts'])
    expect(changedPaths(before, before)).toEqual([])
  })
})
