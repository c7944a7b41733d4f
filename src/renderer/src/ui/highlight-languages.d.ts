// highlight.js ships no declarations for its per-language modules; each one default-exports
// a LanguageFn to register with the core.
declare module 'highlight.js/lib/languages/*' {
  import type { LanguageFn } from 'highlight.js'
  const language: LanguageFn
  export default language
}
