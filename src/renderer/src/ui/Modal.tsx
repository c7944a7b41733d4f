import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])'

/**
 * A modal dialog on the native `<dialog>`: `showModal()` makes the rest of the page inert,
 * Escape asks to close (refused while `canClose` is false, e.g. while files are being written),
 * Tab and Shift+Tab wrap inside it, and focus goes back to `returnFocusTo` when it closes.
 * Initial focus: an element marked `data-autofocus`, else the title, so a screen reader starts
 * by reading what the dialog is about.
 */
export function Modal({
  title,
  onClose,
  canClose = true,
  returnFocusTo,
  testId,
  wide = false,
  focusKey,
  children,
  footer
}: {
  title: ReactNode
  onClose: () => void
  canClose?: boolean
  returnFocusTo?: HTMLElement | null
  testId?: string
  wide?: boolean
  /** When this changes (the dialog moved to another step), focus moves to the step's start again. */
  focusKey?: string
  children: ReactNode
  footer?: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const onCloseRef = useRef(onClose)
  const canCloseRef = useRef(canClose)
  useEffect(() => {
    onCloseRef.current = onClose
    canCloseRef.current = canClose
  })

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (!dialog.open) dialog.showModal()
    // Escape: the browser fires `cancel`; closing is React's decision, not the element's.
    const onCancel = (event: Event) => {
      event.preventDefault()
      if (canCloseRef.current) onCloseRef.current()
    }
    // Closed some other way (the browser may force-close after repeated Escapes): keep state in step.
    const onNativeClose = () => onCloseRef.current()
    dialog.addEventListener('cancel', onCancel)
    dialog.addEventListener('close', onNativeClose)
    return () => {
      dialog.removeEventListener('cancel', onCancel)
      dialog.removeEventListener('close', onNativeClose)
      if (dialog.open) dialog.close()
      if (returnFocusTo?.isConnected) returnFocusTo.focus()
    }
  }, [returnFocusTo])

  useEffect(() => {
    const dialog = ref.current
    const first = dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog?.querySelector<HTMLElement>('.modal-title')
    first?.focus()
  }, [focusKey])

  const wrapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent !== null || element === document.activeElement)
    const first = focusable[0]
    const last = focusable.at(-1)
    if (!first || !last) return
    if (event.shiftKey && (document.activeElement === first || !ref.current.contains(document.activeElement) || document.activeElement === ref.current.querySelector('.modal-title'))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <dialog ref={ref} className={`modal${wide ? ' modal-wide' : ''}`} aria-labelledby={titleId} data-testid={testId} onKeyDown={wrapTab}>
      <div className="modal-frame">
        <h2 id={titleId} className="modal-title" tabIndex={-1}>
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        {footer ? <div className="modal-footer">{footer}</div> : null}
      </div>
    </dialog>
  )
}
