import { DialogButton } from '../../ui/DialogButton'
import { AllUsageView } from './AllUsageView'

/** "Usage" on the first screen: every workspace's tokens and cost, by day, model, source and workspace. */
export function AllUsageButton() {
  return (
    <DialogButton label="Usage" tooltip="Tokens and cost of every workspace, by day, model, source and workspace, with a calendar of the days" dialogTitle="Usage across every workspace" testId="all-usage">
      <AllUsageView />
    </DialogButton>
  )
}
