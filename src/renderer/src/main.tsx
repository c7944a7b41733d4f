import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { initTransport } from './api/client'
import { App } from './app/App'
import { AuthProblem } from './app/AuthProblem'
import { ErrorBoundary } from './app/ErrorBoundary'
import { restorePlaceFromHash } from './app/use-hash-sync'
import { createQueryClient } from './app/query-client'
import { applyTheme, followSystemTheme } from './state/theme'
import { useUiStore } from './state/ui-store'
import './styles/index.css'

// Theme before the first paint, so a dark-mode user never sees a white flash.
applyTheme(useUiStore.getState().theme)
followSystemTheme((theme) => useUiStore.setState({ theme }))

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element.')
const root = createRoot(container)
const setup = initTransport()

if (!setup.ok) {
  root.render(<AuthProblem detail={null} />)
} else {
  restorePlaceFromHash()
  const queryClient = createQueryClient()
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </ErrorBoundary>
    </StrictMode>
  )
}
