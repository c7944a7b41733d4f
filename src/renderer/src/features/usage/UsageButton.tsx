import { DialogButton } from '../../ui/DialogButton'
import { UsageView } from './UsageView'

/** "Usage" in the workspace's More menu: its tokens and cost by day, model and source. */
export function UsageButton({ workspaceId }: { workspaceId: number }) {
  return (
    <DialogButton label="Usage" tooltip="This workspace's tokens and cost, by day, by model and by source" dialogTitle="Usage" testId="usage">
      <UsageView workspaceId={workspaceId} />
    </DialogButton>
  )
}
