import { useEffect, useState } from 'react'
import { Modal } from './Modal'

/** Every keyboard shortcut of the window, for the `?` overlay. */
const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: '?', does: 'Show this list' },
  { keys: 'g', does: 'Go to a turn of the open session: type its number, then Enter' },
  { keys: 'j / k', does: 'Next / previous turn' },
  { keys: 'Ctrl+F (⌘F)', does: 'Find in the whole session; Enter / Shift+Enter walk the matches' },
  { keys: '/', does: 'Filter the sessions (list and graph)' },
  { keys: '↑ / ↓', does: 'In the graph: the next newer / older session' },
  { keys: '← / →', does: 'In the graph: the session it came from / the first that came from it' },
  { keys: 'Enter / Space', does: 'Open the session under the graph’s cursor (Tab also moves the focus)' },
  { keys: 'Esc', does: 'Close a dialog, a menu, the find bar or the search results' }
]

function typingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
}

/** `?` anywhere but a text field opens the list of shortcuts. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return
      if (document.querySelector('dialog[open]')) return
      event.preventDefault()
      setOpen(true)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
  if (!open) return null
  return (
    <Modal
      title="Keyboard shortcuts"
      onClose={() => setOpen(false)}
      testId="shortcuts-help"
      footer={
        <button type="button" className="button primary" onClick={() => setOpen(false)}>
          Close
        </button>
      }
    >
      <table className="history-table">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  )
}
