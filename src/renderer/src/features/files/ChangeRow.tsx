import { LineCounts, OpBadge, PathText } from './bits'
import { OBSERVED_LABEL, OBSERVED_TITLE, type ChangeGroup } from './changes'

/**
 * One changed file of a turn, as a button that opens its diff: what happened to it, its path (the
 * old one too when renamed), how many edits, +/- lines and how each edit was seen. Used by a turn
 * header's file list and by the replay's.
 */
export function ChangeRow({
  group,
  added,
  removed,
  buttonId,
  testId,
  onOpen
}: {
  group: ChangeGroup
  /** Line counts to show (a multi-edit file's come from its net diff). */
  added: number | null
  removed: number | null
  /** `data-file-button`: where focus returns when the diff closes. */
  buttonId: string
  testId: string
  onOpen: () => void
}) {
  return (
    <button type="button" className="turn-file" data-testid={testId} data-path={group.path} data-file-button={buttonId} title="Show the diff" onClick={onOpen}>
      <OpBadge op={group.op} />
      <span className="turn-file-path">
        {group.from ? (
          <>
            <PathText path={group.from.path} />
            <span className="rename-arrow" aria-hidden="true">
              →
            </span>
            <span className="visually-hidden">renamed to</span>
          </>
        ) : null}
        <PathText path={group.path} />
      </span>
      {group.entries.length > 1 ? <span className="turn-file-edits">{group.entries.length} edits</span> : null}
      <LineCounts added={added} removed={removed} tooManyChanges={group.tooManyChanges && added === null} />
      <span className="observed-tags">
        {group.observed.map((observed) => (
          <span key={observed} className="observed-tag" title={OBSERVED_TITLE[observed]}>
            {OBSERVED_LABEL[observed]}
          </span>
        ))}
      </span>
    </button>
  )
}
