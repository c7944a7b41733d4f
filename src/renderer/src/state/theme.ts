export type Theme = 'light' | 'dark'

const STORAGE_KEY = 'retrace.theme'
const SYSTEM_DARK = '(prefers-color-scheme: dark)'

function savedTheme(): Theme | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (saved === 'light' || saved === 'dark') return saved
  } catch {
    // Storage disabled: the system preference applies.
  }
  return null
}

/** The user's saved choice, else the operating system's preference. */
export function initialTheme(): Theme {
  return savedTheme() ?? (window.matchMedia(SYSTEM_DARK).matches ? 'dark' : 'light')
}

/**
 * Until the user picks a theme with the toggle, the window follows the operating system's,
 * also when it changes while the window is open (a scheduled dark mode at sunset).
 */
export function followSystemTheme(apply: (theme: Theme) => void): void {
  window.matchMedia(SYSTEM_DARK).addEventListener('change', (event) => {
    if (savedTheme() === null) apply(event.matches ? 'dark' : 'light')
  })
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
