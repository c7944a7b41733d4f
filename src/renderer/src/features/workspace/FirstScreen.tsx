import { ThemeToggle } from '../../ui/ThemeToggle'
import { GlobalSearch } from '../search'
import { AllUsageButton } from '../usage'
import { OpenFolder } from './OpenFolder'
import { RecentWorkspaces } from './RecentWorkspaces'
import { useAppInfo } from '../../state/app-info'

/** Where every visit starts: pick a workspace you opened before, or open a new one. */
export function FirstScreen() {
  const info = useAppInfo()
  return (
    <div className="first-screen" data-testid="first-screen">
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ⟲
          </span>
          <span className="brand-name">Retrace</span>
        </div>
        <GlobalSearch />
        {/* Room for actions across every workspace (usage…), beside the theme. */}
        <div className="header-actions" data-testid="first-screen-actions">
          <AllUsageButton />
          <ThemeToggle />
        </div>
      </header>
      <main className="first-main">
        <div className="intro">
          <h1>See what your AI agents did</h1>
          <p className="tagline">
            Every session that touched a folder, from every agent — prompts, reasoning, tool calls and compactions, turn by turn.
          </p>
        </div>
        <div className="first-columns">
          <section aria-labelledby="recent-heading" className="panel">
            <h2 id="recent-heading">Workspaces</h2>
            <RecentWorkspaces />
          </section>
          <section aria-labelledby="open-heading" className="panel">
            <h2 id="open-heading">Open a folder</h2>
            <OpenFolder />
          </section>
        </div>
      </main>
      {info.data ? (
        <footer className="first-footer muted">
          {info.data.name} {info.data.version} · {info.data.binding === 'web' ? 'web server' : 'desktop'} · data in{' '}
          <span className="mono">{info.data.dataDir}</span>
        </footer>
      ) : null}
    </div>
  )
}
