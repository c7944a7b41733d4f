import { MAX_DEFLATED_SHARE } from '../../shared-constants.mts'
import type { WireFile } from '../protocol.ts'

/** Packed bytes replace the raw ones (`raw`, the file's range of the batch buffer) only when they save enough (MAX_DEFLATED_SHARE). */
export function keepIfWorthIt(file: WireFile, raw: Uint8Array, packed: Uint8Array, withDictionary: boolean): void {
  if (packed.length > file.size * MAX_DEFLATED_SHARE) return
  raw.set(packed)
  file.packed = packed.length
  if (withDictionary) file.withDictionary = true
}
