import { memo, useMemo, type MouseEvent } from 'react'
import { renderMarkdown } from './render-markdown'

/**
 * Links in transcripts lead nowhere: the app never navigates away (Electron forbids it, and in
 * the browser it would drop the session), so a click is swallowed; the URL shows on hover.
 */
function swallowLinkClicks(event: MouseEvent<HTMLDivElement>): void {
  if (event.target instanceof Element && event.target.closest('a')) event.preventDefault()
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text])
  // Sanitized by DOMPurify in renderMarkdown; never raw transcript HTML.
  return <div className="markdown" onClick={swallowLinkClicks} dangerouslySetInnerHTML={{ __html: html }} />
})
