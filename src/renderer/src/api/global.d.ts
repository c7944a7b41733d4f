import type { RetraceBridge } from '../../../shared/contract'

declare global {
  interface Window {
    /** Present only in the desktop app (exposed by the preload); absent in the web binding. */
    retrace?: RetraceBridge
  }
}

export {}
