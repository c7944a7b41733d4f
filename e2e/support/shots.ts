import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { snapshot } from './fixtures'

/** Where the lead looks at a round's screenshots (outside the repository); unset: only e2e/artifacts. */
const SHOTS_DIR = process.env.RETRACE_SHOTS_DIR ?? null

export interface ShotLook {
  theme: 'light' | 'dark'
  /** The window's width in pixels (its height stays as it was). */
  width: number
}

/** Light at the default width, dark, and a narrow 1024 px window: the three looks each new screen is checked in. */
export const THREE_LOOKS: readonly ShotLook[] = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 1024 }
]

/**
 * Screenshot the page in each look (the theme set with the toggle's attribute, the width with
 * the viewport), then put back how it was. `prepare` runs after each change, to scroll what
 * is shown back into view.
 */
export async function shotsInLooks(page: Page, testInfo: TestInfo, name: string, prepare: () => Promise<void> = async () => {}): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const look of THREE_LOOKS) {
    await page.emulateMedia({ colorScheme: look.theme })
    await page.locator(`html[data-theme="${look.theme}"]`).waitFor()
    await page.setViewportSize({ width: look.width, height: viewport.height })
    await prepare()
    const label = `${name}-${look.theme}-${look.width}`
    await snapshot(page, testInfo, label)
    if (SHOTS_DIR) {
      mkdirSync(SHOTS_DIR, { recursive: true })
      await page.screenshot({ path: join(SHOTS_DIR, `${label}.png`) })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize(viewport)
}
