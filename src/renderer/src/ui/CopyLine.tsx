import { useState } from 'react'

/** A command in a box, with a button that copies it (`autoFocus`: the dialog starts on that button). */
export function CopyLine({ text, testId, autoFocus = false }: { text: string; testId: string; autoFocus?: boolean }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = () =>
    void navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('failed')
    )
  return (
    <div className="copy-line">
      <code className="mono" data-testid={testId}>
        {text}
      </code>
      <button type="button" className="button small" data-autofocus={autoFocus ? true : undefined} onClick={copy} data-testid={`${testId}-copy`}>
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Select and copy' : 'Copy'}
      </button>
    </div>
  )
}
