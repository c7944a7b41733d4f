import { describe, expect, it } from 'vitest'
import { highlight } from '../../ui/highlighter'
import { languageOfPath } from './language'

describe('languageOfPath', () => {
  it('maps extensions to the highlighter’s languages, case-insensitively', () => {
    expect(languageOfPath('src/search.ts')).toBe('typescript')
    expect(languageOfPath('App.TSX')).toBe('typescript')
    expect(languageOfPath('bin/retrace.cjs')).toBe('javascript')
    expect(languageOfPath('docs/README.md')).toBe('markdown')
    expect(languageOfPath('a/b/c.py')).toBe('python')
    expect(languageOfPath('config/app.yml')).toBe('yaml')
    expect(languageOfPath('styles\\site.scss')).toBe('css')
  })

  it('knows a few files by name and leaves the rest plain', () => {
    expect(languageOfPath('home/.bashrc')).toBe('bash')
    expect(languageOfPath('.env')).toBeNull()
    expect(languageOfPath('Makefile')).toBeNull()
    expect(languageOfPath('notes.')).toBeNull()
    expect(languageOfPath('photo.png')).toBeNull()
  })

  it('only names languages the highlighter has registered', () => {
    for (const path of ['a.ts', 'a.js', 'a.json', 'a.md', 'a.py', 'a.rs', 'a.go', 'a.css', 'a.html', 'a.yaml', 'a.sh', 'a.sql', 'a.diff']) {
      const language = languageOfPath(path)
      expect(language, path).not.toBeNull()
      expect(highlight('x', language ?? ''), path).not.toBeNull()
    }
  })
})
