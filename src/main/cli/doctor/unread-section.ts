import { unreadText } from '../../../shared/unread-text'
import type { DoctorCheck } from './section'

/**
 * Records the importers met and do not read, in every workspace: the first sign that an agent
 * changed its format (the history around them imports; they do not).
 */
export const unreadSection: DoctorCheck = async ({ call }) => {
  const { items } = await call('imports.unread', {})
  const lines =
    items.length === 0
      ? ['None: every record the agents wrote is of a kind Retrace reads (or leaves out on purpose).']
      : items.map((item) => `${unreadText(item)} (first in ${item.example.file} at byte ${item.example.offset})`)
  if (items.length > 0) lines.push('Their sessions are imported without them. An update of Retrace that reads them imports them on the next change of their file.')
  return { key: 'unread', title: 'Records of kinds Retrace does not read yet', lines, json: items }
}
