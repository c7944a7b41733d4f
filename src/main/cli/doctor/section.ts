import type { Runtime } from '../../runtime/runtime'
import type { CliCall } from '../call'

/** One part of `retrace doctor`: a title and lines for people, and the same facts as JSON. */
export interface DoctorSection {
  /** The key of this section in `--json` output. */
  key: string
  title: string
  lines: string[]
  json: unknown
}

export interface DoctorContext {
  runtime: Runtime
  call: CliCall
}

/** A check the doctor runs; each is its own module (doctor-command.ts lists them). */
export type DoctorCheck = (context: DoctorContext) => Promise<DoctorSection>
