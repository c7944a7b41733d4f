import { useState } from 'react'
import { ErrorState, Loading } from '../../ui/States'
import { useFolders } from './queries'

/**
 * The web binding's folder picker: the browser cannot see the serving machine's disk, so we
 * walk it through `folders.list`, one level at a time, starting from the server's home.
 */
export function FolderBrowser({ onOpen, disabled }: { onOpen: (path: string) => void; disabled: boolean }) {
  const [path, setPath] = useState<string | null>(null)
  const folders = useFolders(path)
  const listing = folders.data

  return (
    <section className="folder-browser" data-testid="folder-browser" aria-label="Folders on the server">
      <div className="folder-browser-bar">
        <span className="folder-current mono" title={listing?.path}>
          {/* The container is right-to-left so a long path is clipped at its start, not its end;
              <bdi> keeps the path itself reading left to right. */}
          <bdi>{listing?.path ?? '…'}</bdi>
        </span>
        <button type="button" className="button" disabled={!listing || disabled} onClick={() => listing && onOpen(listing.path)}>
          Open this folder
        </button>
      </div>
      {folders.isError ? (
        <ErrorState title="Cannot list this folder" error={folders.error} onRetry={() => setPath(null)} actionLabel="Go to the home folder" />
      ) : !listing ? (
        <Loading label="Loading folders…" />
      ) : (
        // Keyed by folder so each listing starts scrolled to the top.
        <ul key={listing.path} className="folder-list" aria-busy={folders.isFetching}>
          {listing.parent !== null ? (
            <li>
              <button type="button" className="folder-entry" onClick={() => setPath(listing.parent)} aria-label="Parent folder">
                <span aria-hidden="true">↰</span> ..
              </button>
            </li>
          ) : null}
          {listing.entries.map((entry) => (
            <li key={entry.path}>
              <button type="button" className="folder-entry" onClick={() => setPath(entry.path)}>
                <span aria-hidden="true">▸</span> {entry.name}
              </button>
            </li>
          ))}
          {listing.entries.length === 0 ? <li className="folder-empty">No sub-folders here.</li> : null}
        </ul>
      )}
    </section>
  )
}
