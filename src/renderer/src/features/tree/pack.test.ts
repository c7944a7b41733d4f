import { describe, expect, it } from 'vitest'
import { packBoxes } from './pack'

describe('packBoxes', () => {
  it('places boxes in reading order, and later ones move up into the holes beside a tall one', () => {
    const tall = { width: 100, height: 300 }
    const short = { width: 100, height: 50 }
    const corners = packBoxes([tall, short, short, short, short, short], 10)
    expect(corners).toEqual([
      { x: 0, y: 0 },
      { x: 110, y: 0 },
      { x: 220, y: 0 },
      // The row wraps; under the tall box, then up beside it instead of a whole row lower.
      { x: 0, y: 310 },
      { x: 110, y: 60 },
      { x: 220, y: 60 }
    ])
  })

  it('never overlaps boxes of mixed sizes', () => {
    let seed = 3
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const boxes = Array.from({ length: 400 }, () => ({ width: 100 + Math.floor(random() * 900), height: 50 + Math.floor(random() * 600) }))
    const corners = packBoxes(boxes, 8)
    const rects = boxes.map((box, index) => ({ ...box, ...(corners[index] as { x: number; y: number }) }))
    const overlapping: [number, number][] = []
    for (let i = 0; i < rects.length; i += 1) {
      for (let j = i + 1; j < rects.length; j += 1) {
        const a = rects[i] as (typeof rects)[number]
        const b = rects[j] as (typeof rects)[number]
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
        if (!apart) overlapping.push([i, j])
      }
    }
    expect(overlapping).toEqual([])
  })
})
