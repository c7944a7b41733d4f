import type { Locator, Page } from '@playwright/test'

/** A workspace: the session list on one side, the selected session's transcript on the other. */
export class WorkspaceView {
  readonly root: Locator
  readonly sessionList: Locator
  readonly sessionRows: Locator
  readonly sessionSearch: Locator
  readonly sourceFilter: Locator
  readonly transcript: Locator
  readonly transcriptMode: Locator
  readonly globalSearch: Locator
  readonly searchResults: Locator
  readonly themeToggle: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('workspace-view')
    this.sessionList = page.getByTestId('session-list')
    this.sessionRows = page.getByTestId('session-row')
    this.sessionSearch = page.getByTestId('session-search')
    this.sourceFilter = page.getByTestId('source-filter')
    this.transcript = page.getByTestId('transcript')
    this.transcriptMode = page.getByTestId('transcript-mode')
    this.globalSearch = page.getByTestId('global-search')
    this.searchResults = page.getByTestId('search-result')
    this.themeToggle = page.getByTestId('theme-toggle')
  }

  /** The row whose own title holds `title` (not one that only names it: "continues …", "from …"). */
  session(title: string): Locator {
    return this.sessionRows.filter({ has: this.page.locator('.session-title', { hasText: title }) })
  }

  async openSession(title: string): Promise<void> {
    await this.session(title).first().click()
    await this.transcript.waitFor()
  }

  /** The Display/Context toggle is one button; press it until it shows `mode`. */
  async setTranscriptMode(mode: 'display' | 'context'): Promise<void> {
    if ((await this.transcriptMode.getAttribute('data-mode')) !== mode) await this.transcriptMode.click()
    await this.page.waitForSelector(`[data-testid="transcript-mode"][data-mode="${mode}"]`)
  }

  /** The transcript header's Session menu (replay, export, compare, rewinds, internals). */
  get sessionMenu(): Locator {
    return this.transcript.getByTestId('session-menu')
  }

  /** An item of the Session menu, the menu opened first. */
  async sessionAction(testId: string): Promise<Locator> {
    if (!(await this.sessionMenu.evaluate((menu) => (menu as HTMLDetailsElement).open))) await this.sessionMenu.locator('summary').click()
    return this.sessionMenu.getByTestId(testId)
  }

  /** The tool call (a <details>) whose summary mentions `text`. */
  toolCall(text: string): Locator {
    return this.transcript.getByTestId('tool-call').filter({ hasText: text })
  }
}
