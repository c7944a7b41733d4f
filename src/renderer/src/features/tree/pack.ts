/** A box to place: a laid-out tree's size. */
export interface Box {
  width: number
  height: number
}

/** Width : height the packing aims for: the graph pane is wider than it is tall. */
const TARGET_ASPECT = 2

/**
 * Top-left corners for boxes placed in reading order: left to right, wrapping at a width that
 * makes the whole roughly TARGET_ASPECT, each box dropping as high as the boxes already above
 * its span allow (a skyline, as in masonry). Rows of plain shelves would leave a tall tree's
 * row full of holes; here a short tree's neighbours below move up into them. Boxes never
 * overlap: each sits below everything placed before it in its span, `gap` apart.
 */
export function packBoxes(boxes: readonly Box[], gap: number): { x: number; y: number }[] {
  const area = boxes.reduce((sum, box) => sum + (box.width + gap) * (box.height + gap), 0)
  const widest = boxes.reduce((max, box) => Math.max(max, box.width), 0)
  const rowWidth = Math.max(widest, Math.sqrt(area * TARGET_ASPECT))
  // The skyline: consecutive spans [x, next span's x) and the first free y in each.
  const skyline: { x: number; y: number }[] = [{ x: 0, y: 0 }]
  const corners: { x: number; y: number }[] = []
  let cursor = 0
  for (const box of boxes) {
    if (cursor > 0 && cursor + box.width > rowWidth) cursor = 0
    const from = cursor
    const to = cursor + box.width + gap
    const y = highestUnder(skyline, from, to)
    corners.push({ x: from, y })
    raise(skyline, from, to, y + box.height + gap)
    cursor = to
  }
  return corners
}

function highestUnder(skyline: readonly { x: number; y: number }[], from: number, to: number): number {
  let top = 0
  skyline.forEach((span, index) => {
    const end = skyline[index + 1]?.x ?? Infinity
    if (span.x < to && end > from) top = Math.max(top, span.y)
  })
  return top
}

/** Set the skyline to `y` over [from, to), keeping what lies either side. */
function raise(skyline: { x: number; y: number }[], from: number, to: number, y: number): void {
  let after = 0
  for (const span of skyline) {
    if (span.x > to) break
    after = span.y
  }
  const left = skyline.filter((span) => span.x < from)
  const right = skyline.filter((span) => span.x > to)
  skyline.splice(0, skyline.length, ...left, { x: from, y }, { x: to, y: after }, ...right)
}
