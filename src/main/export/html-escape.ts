// Escaping for the two HTML contexts the export writes user text into. The export has no
// script and no user-controlled attribute or URL, so these two are all it needs.

const TEXT_SPECIALS = /[&<>]/
const TEXT_SPECIALS_ALL = /[&<>]/g
const ATTR_SPECIALS_ALL = /[&<>"]/g
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/**
 * Text content of an element (never `<script>`, `<style>` or `<textarea>`, which the export
 * never fills with user text). Quotes need no escaping there, and leaving them keeps the file
 * close to the size of the text it carries.
 */
export function escapeHtml(text: string): string {
  // Most strings have nothing to escape: testing first skips building a copy of them.
  return TEXT_SPECIALS.test(text) ? text.replace(TEXT_SPECIALS_ALL, (char) => ENTITY[char] ?? char) : text
}

/** A double-quoted attribute value (the export writes no other kind). */
export function escapeAttribute(text: string): string {
  return text.replace(ATTR_SPECIALS_ALL, (char) => ENTITY[char] ?? char)
}
