import type { SnippetPart } from '../../../../shared/contract'

/** Search snippet parts as text, matches in <mark>: message text is never parsed as HTML. */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <span className="snippet">
      {parts.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </span>
  )
}
