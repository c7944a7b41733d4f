import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { fenceOf, findEditBlocks } from './edit-blocks'

const SET = join(FIXTURES, 'aider', 'official')
const AT = '@'.repeat(20)

/**
 * Aider's own test of its history (tests/basic/test_find_or_blocks.py `process_markdown`),
 * line for line: split at `####\s`, skip sections naming the edit-block coder, pick the fence,
 * print every block found (or the error).
 */
function processMarkdown(content: string): string {
  let out = ''
  for (const section of content.split(/(?=####\s)/)) {
    if (section.includes('editblock_coder.py') || section.includes('test_editblock.py')) continue
    if (section.trim() === '') continue
    const header = (section.split('\n')[0] ?? '').trim()
    const firstEnd = /\r\n|\r|\n/.exec(section)
    const body = firstEnd ? section.slice(firstEnd.index + firstEnd[0].length) : ''
    const scan = findEditBlocks(body, fenceOf(body))
    if (scan.error !== undefined) {
      out += `\n\n@@@ ${header} ${AT}\n${scan.error}\n`
      continue
    }
    if (scan.blocks.length > 0) out += `\n\n@@@ ${header} ${AT}\n`
    for (const block of scan.blocks) {
      if (block.kind === 'shell') out += `@@@ SHELL ${AT}\n${block.command}@@@ ENDSHELL ${AT}\n`
      else out += `@@@ SEARCH: ${block.path} ${AT}\n${block.search}${AT}\n${block.replace}@@@ REPLACE ${AT}\n`
    }
  }
  return out
}

describe('Aider SEARCH/REPLACE blocks', () => {
  it('finds in the real chat history exactly what Aider\'s own test expects (the gold file)', () => {
    const history = readFileSync(join(SET, 'chat-history.md'), 'utf8')
    const gold = readFileSync(join(SET, 'chat-history-search-replace-gold.txt'), 'utf8')
    const output = processMarkdown(history)
    expect(output.split('\n')).toEqual(gold.split('\n'))
    expect(output.match(/^@@@ SEARCH: /gm)).toHaveLength(106)
    expect(output.match(/^@@@ SHELL /gm)).toHaveLength(12)
    expect(output.match(/^@@@ #### /gm)).toHaveLength(80)
  })

  it('takes the file name from the line before the fence, reuses it, and reports a block left open', () => {
    const answer = 'src/a.py\n```python\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n'
    expect(findEditBlocks(answer).blocks).toEqual([
      { kind: 'edit', path: 'src/a.py', search: 'old\n', replace: 'new\n' },
      { kind: 'edit', path: 'src/a.py', search: 'x\n', replace: 'y\n' }
    ])
    expect(findEditBlocks('b.py\n```\n<<<<<<< SEARCH\nold\n').error).toMatch(/\^\^\^ Expected `=======`$/)
    expect(findEditBlocks('<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n').error).toContain('Bad/missing filename')
  })
})
