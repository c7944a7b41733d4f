import { useMemo } from 'react'
import { ErrorState, Loading } from '../../ui/States'
import { highlight } from '../../ui/highlighter'
import { formatBytes, shortHash } from './changes'
import { chunkLines, lineHtml, type LineRef } from './diff-rows'
import { FileNotice } from './DiffView'
import { languageOfPath } from './language'
import { useFileVersion } from './queries'
import { CodeText, VirtualLines } from './VirtualLines'

interface NumberedLine {
  key: string
  no: number
  text: string
  colour: LineRef | null
}

/** One recorded version of a file, whole, with line numbers and syntax highlighting. */
export function VersionView({ workspaceId, hash, path }: { workspaceId: number; hash: string; path: string }) {
  const version = useFileVersion(workspaceId, hash)
  if (version.isError) return <ErrorState title="Could not load this version" error={version.error} onRetry={() => void version.refetch()} />
  if (!version.data) return <Loading label="Loading the file…" />
  const { data } = version
  if (data.truncated) {
    return (
      <FileNotice title="Too large to show">
        <p>
          This version is {formatBytes(data.size)} <span className="mono muted">({shortHash(hash)})</span>; files over 2 MB are not shown here.
        </p>
      </FileNotice>
    )
  }
  if (data.binary || data.text === null) {
    return (
      <FileNotice title="Binary file: not shown as text">
        <p>
          {formatBytes(data.size)} <span className="mono muted">({shortHash(hash)})</span>
        </p>
      </FileNotice>
    )
  }
  if (data.text === '') return <FileNotice title="This version is empty" />
  return <TextLines text={data.text} path={path} />
}

function TextLines({ text, path }: { text: string; path: string }) {
  const lines = useMemo((): NumberedLine[] => {
    // A final newline ends the last line; it does not start an empty one.
    const texts = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
    const language = languageOfPath(path)
    const colours = chunkLines(texts, language ? (code: string) => highlight(code, language) : null)
    return texts.map((line, index) => ({ key: String(index), no: index + 1, text: line, colour: colours[index] ?? null }))
  }, [text, path])
  return (
    <VirtualLines
      rows={lines}
      rowKey={(line) => line.key}
      renderRow={renderLine}
      label={`Contents of ${path}`}
      gutterDigits={String(lines.length).length}
      testId="file-version"
    />
  )
}

function renderLine(line: NumberedLine) {
  return (
    <div className="diff-line version-line">
      <span className="line-no">{line.no}</span>
      <CodeText text={line.text} html={lineHtml(line.colour)} />
    </div>
  )
}
