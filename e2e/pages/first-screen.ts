import type { Locator, Page } from '@playwright/test'

/** The first screen: recent workspaces, open a folder, open the demo. */
export class FirstScreen {
  readonly root: Locator
  readonly openDemoButton: Locator
  readonly recentWorkspaces: Locator
  readonly pathInput: Locator
  readonly openPathButton: Locator
  readonly openError: Locator

  constructor(readonly page: Page) {
    this.root = page.getByTestId('first-screen')
    this.openDemoButton = page.getByTestId('open-demo')
    this.recentWorkspaces = page.getByTestId('recent-workspace')
    this.pathInput = page.getByTestId('workspace-path-input')
    this.openPathButton = page.getByTestId('open-path')
    this.openError = page.getByTestId('open-error')
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url)
    await this.root.waitFor()
  }

  async openDemo(): Promise<void> {
    await this.openDemoButton.click()
  }

  async openPath(path: string): Promise<void> {
    await this.pathInput.fill(path)
    await this.openPathButton.click()
  }
}
