import { DialogButton } from '../../ui/DialogButton'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { addFolderSummary } from './add-folder-summary'
import { useAppInfo } from '../../state/app-info'
import { importKeys } from '../../state/query-keys'
import { unreadText } from '../../../../shared/unread-text'

const foldersKey = (workspaceId: number) => ['source-folders', workspaceId] as const

/**
 * "Sources": where each agent's histories are looked for, and the folders added to this
 * workspace as one source's history (a copied ~/.claude, an agent home elsewhere, a deployment on
 * another disk) — added, imported at once, followed like the rest, and removable.
 */
export function SourcesButton({ workspaceId, isDemo = false }: { workspaceId: number; isDemo?: boolean }) {
  return (
    <DialogButton label="Sources" tooltip="Where agent histories are read from, and folders added to this workspace" dialogTitle="Agent history sources" testId="sources">
      <SourcesView workspaceId={workspaceId} isDemo={isDemo} />
    </DialogButton>
  )
}

/** The demo's history is Retrace's own recording: where agents are read from shows, but no folder is added to it. */
function SourcesView({ workspaceId, isDemo }: { workspaceId: number; isDemo: boolean }) {
  const sources = useQuery({ queryKey: ['sources'], queryFn: () => call('sources.list', {}) })
  return (
    <div className="sources">
      <p className="dialog-intro">Retrace reads each agent&apos;s own files, read-only, and never writes beside them.</p>
      <table className="history-table" data-testid="sources-table">
        <thead>
          <tr>
            <th>Source</th>
            <th>Looks for</th>
          </tr>
        </thead>
        <tbody>
          {sources.data?.items.map((item) => (
            <tr key={item.name}>
              <td className="source-name">
                {item.label}
                {item.seenOnRealFiles ? null : <div className="muted source-unverified">from its format&apos;s description; not yet tested on files it wrote</div>}
              </td>
              <td className="muted">{item.looksIn}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <UnreadRecords workspaceId={workspaceId} />

      {isDemo ? (
        <p className="muted" data-testid="sources-demo-note">
          The demo&apos;s sessions were recorded by Retrace itself. To read your agents&apos; histories, open your project folder (← Workspaces); there you can also add a folder as an agent&apos;s history.
        </p>
      ) : (
        <SourceFolders workspaceId={workspaceId} />
      )}
    </div>
  )
}

/** The folders added to a workspace as one source's history, and the form that adds one. */
function SourceFolders({ workspaceId }: { workspaceId: number }) {
  const queryClient = useQueryClient()
  const sources = useQuery({ queryKey: ['sources'], queryFn: () => call('sources.list', {}) })
  const folders = useQuery({ queryKey: foldersKey(workspaceId), queryFn: () => call('workspaces.sourceFolders', { workspaceId }) })
  const info = useAppInfo()
  const [source, setSource] = useState('')
  const [path, setPath] = useState('')
  const pathId = useId()
  const sourceId = useId()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: foldersKey(workspaceId) })
  const add = useMutation({ mutationFn: () => call('workspaces.addSourceFolder', { workspaceId, source: source || sources.data?.items[0]?.name || '', path: path.trim() }), onSuccess: refresh })
  const remove = useMutation({ mutationFn: (folderId: number) => call('workspaces.removeSourceFolder', { workspaceId, folderId }), onSuccess: refresh })
  const pick = async () => {
    const picked = await call('workspaces.pickFolder', {})
    if (picked.path) setPath(picked.path)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (path.trim()) add.mutate()
  }

  return (
    <>
      <h3 className="sources-title">Folders added to this workspace</h3>
      {folders.data && folders.data.items.length === 0 ? <p className="muted">None yet.</p> : null}
      <ul className="result-list" data-testid="source-folders">
        {folders.data?.items.map((folder) => (
          <li key={folder.id} data-testid="source-folder">
            <span>{sources.data?.items.find((item) => item.name === folder.source)?.label ?? folder.source}</span> <span className="mono">{folder.path}</span>{' '}
            <button type="button" className="button ghost small" onClick={() => remove.mutate(folder.id)} disabled={remove.isPending}>
              Remove
            </button>
          </li>
        ))}
      </ul>

      <form className="sources-add" onSubmit={submit}>
        <label htmlFor={sourceId} className="field-label">
          Add a folder as the history of
        </label>
        <select id={sourceId} data-testid="source-folder-source" value={source || sources.data?.items[0]?.name || ''} onChange={(event) => setSource(event.target.value)}>
          {sources.data?.items.map((item) => (
            <option key={item.name} value={item.name}>
              {item.label}
            </option>
          ))}
        </select>
        <label htmlFor={pathId} className="visually-hidden">
          Folder path{info.data?.binding === 'web' ? ' on the server' : ''}
        </label>
        <input id={pathId} className="input mono" data-testid="source-folder-path" value={path} onChange={(event) => setPath(event.target.value)} placeholder="/path/to/the/agent/folder" spellCheck={false} autoComplete="off" />
        {info.data?.nativeFolderDialog ? (
          <button type="button" className="button" onClick={() => void pick()}>
            Choose…
          </button>
        ) : null}
        <button type="submit" className="button primary" data-testid="source-folder-add" disabled={add.isPending || !path.trim()}>
          {add.isPending ? 'Importing…' : 'Add and import'}
        </button>
      </form>
      {add.isError ? (
        <p className="open-error" role="alert">
          {errorMessage(add.error)}
        </p>
      ) : null}
      {add.data ? (
        <p className="muted" role="status" data-testid="source-folder-report">
          {addFolderSummary(add.data)}
        </p>
      ) : null}
    </>
  )
}

/**
 * Records the importers met in this workspace's histories and do not read yet: an agent changed
 * its format. Shown as counts so a change shows up here instead of as history gone missing.
 */
function UnreadRecords({ workspaceId }: { workspaceId: number }) {
  const unread = useQuery({ queryKey: importKeys.unread(workspaceId), queryFn: () => call('imports.unread', { workspaceId }) })
  const items = unread.data?.items ?? []
  if (items.length === 0) return null
  return (
    <section data-testid="sources-unread">
      <h3 className="sources-title">Records not read</h3>
      <p className="muted">These agents wrote records of kinds Retrace does not read yet (their format changed). The rest of each session is imported; these records are not.</p>
      <ul className="result-list">
        {items.map((item) => (
          <li key={`${item.source}\0${item.agentVersion ?? ''}\0${item.what}`} title={`First seen in ${item.example.file} at byte ${item.example.offset}`}>
            {unreadText(item)}
          </li>
        ))}
      </ul>
    </section>
  )
}
