import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'

/** Where and how big the window was, and whether it was maximized (no electron import: tested in Node). */
export const WindowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean()
})
export type WindowState = z.infer<typeof WindowStateSchema>

export interface Area {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_SIZE = { width: 1280, height: 820 }
export const MIN_SIZE = { width: 760, height: 480 }

/** The saved state, or null when there is none or it is unreadable (a bad file never stops the app). */
export function loadWindowState(file: string): WindowState | null {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Written to a temp file and renamed, so a crash mid-write leaves the previous state. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(state))
  renameSync(temp, file)
}

/**
 * Where to open the window: the saved bounds if at least a usable part of them is on one of
 * today's displays (a monitor may have been unplugged since), shrunk to fit it; otherwise the
 * default size, centred by the window manager (no position).
 */
export function placeWindow(saved: WindowState | null, displays: Area[]): { bounds: Partial<Area> & { width: number; height: number }; maximized: boolean } {
  if (!saved) return { bounds: { ...DEFAULT_SIZE }, maximized: false }
  const display = displays.find((area) => visiblePart(saved, area) >= 100 * 100)
  if (!display) return { bounds: { ...DEFAULT_SIZE }, maximized: saved.maximized }
  const width = clamp(saved.width, MIN_SIZE.width, display.width)
  const height = clamp(saved.height, MIN_SIZE.height, display.height)
  const x = clamp(saved.x, display.x, display.x + display.width - width)
  const y = clamp(saved.y, display.y, display.y + display.height - height)
  return { bounds: { x, y, width, height }, maximized: saved.maximized }
}

function visiblePart(a: Area, b: Area): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)))
}
