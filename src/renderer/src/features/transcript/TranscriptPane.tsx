import { isRetraceError } from '../../../../shared/contract'
import { useUiStore } from '../../state/ui-store'
import { ErrorState, SkeletonRows } from '../../ui/States'
import { FileDialogHost } from '../files/FileDialog'
import { DialogHost } from '../rewind/DialogHost'
import { useSessionDetail } from '../sessions/queries'
import { DisclosureProvider } from './disclosure'
import { MessageList } from './MessageList'
import { TranscriptHeader } from './TranscriptHeader'

/** The right-hand side: the selected session's transcript, or a hint to pick one. */
export function TranscriptPane() {
  const sessionId = useUiStore((state) => state.sessionId)
  if (!sessionId) {
    return (
      <div className="transcript-placeholder" data-testid="transcript-placeholder">
        <p className="state-title">Select a session</p>
        <p className="muted">Pick one on the left (or use ↑ and ↓ in the list) to read its transcript.</p>
      </div>
    )
  }
  return (
    <>
      <Transcript key={sessionId} sessionId={sessionId} />
      <DialogHost />
    </>
  )
}

function Transcript({ sessionId }: { sessionId: string }) {
  const detail = useSessionDetail(sessionId)
  const mode = useUiStore((state) => state.transcriptMode)
  const selectSession = useUiStore((state) => state.selectSession)

  if (detail.isError) {
    return (
      <section className="transcript" data-testid="transcript" aria-label="Transcript">
        {isRetraceError(detail.error) && detail.error.code === 'NOT_FOUND' ? (
          <ErrorState title="Cannot show this session" error={detail.error} onRetry={() => selectSession(null)} actionLabel="Close it" />
        ) : (
          <ErrorState title="Cannot show this session" error={detail.error} onRetry={() => void detail.refetch()} />
        )}
      </section>
    )
  }
  return (
    <section className="transcript" data-testid="transcript" aria-label={detail.data ? `Transcript: ${detail.data.title}` : 'Transcript'}>
      {detail.data ? <TranscriptHeader detail={detail.data} /> : <SkeletonRows count={2} className="header-skeleton" />}
      <DisclosureProvider key={mode}>
        <MessageList key={mode} sessionId={sessionId} mode={mode} />
      </DisclosureProvider>
      <FileDialogHost sessionId={sessionId} />
    </section>
  )
}
