export type Theme = 'light' | 'dark'

const STORAGE_KEY = 'retrace.theme'

/** The user's saved choice, else the operating system's preference. */
export function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (saved === 'light' || saved === 'dark') return saved
  } catch {
    // Storage disabled: fall through to the system preference.
  }
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

export function saveTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme)
  } catch {
    // Not persisted; the toggle still works for this session.
  }
}

/** CSS variables hang off `data-theme`; `color-scheme` makes form controls and scrollbars match. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  root.dataset.theme = theme
  root.style.colorScheme = theme
}
