import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { RewindResult } from './plan-model'
import { RewindResultView } from './RewindResultView'

const result = {
  rewindId: '7c1a0c52-8f1e-4d59-9a52-6d1e0d7a1b11',
  changed: [],
  skipped: [],
  refused: [],
  keptDuring: [{ pathId: 'p1', path: 'src/app.ts', keptAs: 'src/app.ts.retrace-kept', hash: 'ab12' }]
} as unknown as RewindResult

describe('the rewind result in the window', () => {
  it('lists the files another program wrote to while the rewind ran, and where their version was kept (R33)', () => {
    const html = renderToStaticMarkup(<RewindResultView result={result} undo={false} turn={3} />)
    expect(html).toContain('data-testid="result-kept-during"')
    expect(html).toContain('src/app.ts.retrace-kept')
    expect(html).toContain('and saved in Retrace')
  })
})
