import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A small menu for the header's less frequent actions, on the native `<details>`: its summary is
 * the button (keyboard and screen readers know it), and it closes on Escape, on a click outside
 * and once an item inside was used.
 */
export function HeaderMenu({ label, title, children, testId, className }: { label: ReactNode; title: string; children: ReactNode; testId?: string; className?: string }) {
  const ref = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current
      if (!menu?.open) return
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menu.contains(event.target as Node)) menu.open = false
    }
    document.addEventListener('pointerdown', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('pointerdown', close)
      document.removeEventListener('keydown', close)
    }
  }, [])
  // The item used is hidden with the menu: focus goes back to the menu's button, not to the page.
  const closeAfterUse = () => {
    const menu = ref.current
    if (!menu) return
    menu.open = false
    menu.querySelector<HTMLElement>(':scope > summary')?.focus()
  }
  return (
    <details ref={ref} className={`header-menu${className ? ` ${className}` : ''}`} data-testid={testId}>
      <summary className="button small" title={title}>
        {label}
      </summary>
      <div className="header-menu-items" onClick={closeAfterUse}>
        {children}
      </div>
    </details>
  )
}
