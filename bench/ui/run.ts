import { mkdirSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { chromium, type Page } from '@playwright/test'
import { makeTempDir, removeDir } from '../lib/files'
import { formatCount, formatMs, summarize, type Timing } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { CHROMIUM_ARGS, TARGETS, uiConfig } from './config'
import { BIG_TITLE, generateUiData, type UiData } from './generate'
import { PAGE_SCRIPT } from './page-script'
import { serve, staleBuildWarning, type Served } from './server'

// `npm run bench:ui`: issue 5's window benchmarks. A data folder is filled through the recorder
// (a workspace with a 10,000-message session and 2,000 sessions in trees, and one of 500 for
// issue 41's graph), `retrace serve` serves
// it, and Debian's Chromium opens it with a fresh profile. Every figure is measured inside the
// page and printed beside a reference measured in the same run, in one table.

const log = (line: string): void => void process.stderr.write(`${line}\n`)
const WARMUP = 2
const CLICK_TIMEOUT_MS = 60_000

interface FrameStats {
  n: number
  median: number
  p95: number
  max: number
  over50: number
}
interface Recording {
  frames: FrameStats
  longTasks: { count: number; totalMs: number; longestMs: number }
  ms: number
}
interface ScrollRecording extends Recording {
  reachedEnd: boolean
  distance: number
  waitingFrames: number
  tail: string
}
interface RpcTiming {
  roundTrip: FrameStats
  parse: FrameStats
  bytes: number
  items: number | null
}
interface Painted {
  ms: number
  rows?: number
  nodes?: number
  edges?: number
}

const bench = (expression: string): string => `window.__retraceBench.${expression}`

async function shot(page: Page, name: string): Promise<void> {
  if (!uiConfig.shots) return
  mkdirSync(uiConfig.shots, { recursive: true })
  await page.screenshot({ path: join(uiConfig.shots, `${name}.png`) })
}

/** Arm the in-page watcher, click, and wait for the frame that shows the result. */
async function timeClick(page: Page, kind: 'open' | 'graph', click: () => Promise<void>): Promise<Painted> {
  await page.evaluate(bench(`arm(${JSON.stringify(kind)})`))
  await click()
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${kind}: nothing painted within ${CLICK_TIMEOUT_MS / 1000} s`)), CLICK_TIMEOUT_MS).unref())
  return Promise.race([page.evaluate<Painted>(bench('done()')), timeout])
}

/** A freshly loaded workspace page (empty query cache), in the list view, settled. */
async function loadWorkspace(page: Page, server: Served, data: UiData): Promise<void> {
  await page.goto('about:blank')
  await page.goto(`${server.origin}/#/w/${data.workspaceId}`)
  await page.getByTestId('session-row').filter({ hasText: BIG_TITLE }).waitFor()
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))')
}

/** Capture the body of the first contract call `name` the app sends whose body contains `needle`. */
function captureCall(page: Page, name: string, needle: string): () => string {
  let body: string | null = null
  page.on('request', (request) => {
    if (body === null && request.url().endsWith(`/api/rpc/${name}`) && (request.postData() ?? '').includes(needle)) body = request.postData()
  })
  return () => {
    if (body === null) throw new Error(`the app never called ${name}`)
    return body
  }
}

async function measureOpen(page: Page, server: Served, data: UiData): Promise<{ timing: Timing; painted: Painted[] }> {
  const painted: Painted[] = []
  for (let run = 0; run < WARMUP + uiConfig.runs; run++) {
    await loadWorkspace(page, server, data)
    const result = await timeClick(page, 'open', () => page.getByTestId('session-row').filter({ hasText: BIG_TITLE }).click())
    if (run >= WARMUP) painted.push(result)
    log(`  open ${run < WARMUP ? 'warm-up' : `run ${run - WARMUP + 1}/${uiConfig.runs}`}: ${formatMs(result.ms)} ms (${result.rows} rows in the DOM)`)
  }
  return { timing: summarize(painted.map((p) => p.ms)), painted }
}

async function measureGraph(page: Page, server: Served, data: UiData): Promise<{ timing: Timing; painted: Painted[] }> {
  const painted: Painted[] = []
  for (let run = 0; run < WARMUP + uiConfig.runs; run++) {
    await loadWorkspace(page, server, data)
    const result = await timeClick(page, 'graph', () => page.getByTestId('session-view-graph').click())
    if (run >= WARMUP) painted.push(result)
    log(`  graph ${run < WARMUP ? 'warm-up' : `run ${run - WARMUP + 1}/${uiConfig.runs}`}: ${formatMs(result.ms)} ms (${result.nodes} nodes, ${result.edges} edges in the DOM)`)
  }
  return { timing: summarize(painted.map((p) => p.ms)), painted }
}

type Direction = [number, number]
const UP: Direction = [0, -1]
const DOWN: Direction = [0, 1]
const LEFT: Direction = [-1, 0]
const RIGHT: Direction = [1, 0]
/** At the opening zoom: down the graph, across, back up, across, down again. */
const READABLE_PAN = [UP, UP, UP, UP, LEFT, LEFT, DOWN, DOWN, DOWN, DOWN, LEFT, LEFT, UP, UP, UP, UP]
/** Down the time axis and back (the graph is one tall column of rows), a lane to the right and back. */
const TIME_PAN = [UP, UP, UP, UP, UP, UP, RIGHT, LEFT, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN]
/** Zoomed out to the whole graph: there and back, both ways. */
const FITTED_PAN = [UP, DOWN, LEFT, RIGHT, DOWN, UP, RIGHT, LEFT]

/**
 * Drag the graph as a hand would: 500 px drags in 20 px steps about a frame apart. Returns the
 * frame recording and how many nodes were in the DOM after each drag (what there was to draw).
 */
async function pan(page: Page, plan: Direction[]): Promise<{ recording: Recording; drags: number; nodes: number[] }> {
  const box = await page.getByTestId('session-tree').boundingBox()
  if (!box) throw new Error('no graph to pan')
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  const steps = 25
  const stepPx = 20
  const nodes: number[] = []
  await page.evaluate(bench('record()'))
  for (const [dx, dy] of plan) {
    const x0 = cx - (dx * steps * stepPx) / 2
    const y0 = cy - (dy * steps * stepPx) / 2
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    for (let i = 1; i <= steps; i++) {
      await page.mouse.move(x0 + dx * stepPx * i, y0 + dy * stepPx * i)
      await page.waitForTimeout(16)
    }
    await page.mouse.up()
    nodes.push(await page.locator('[data-testid="session-tree"] .react-flow__node').count())
  }
  const recording = await page.evaluate<Recording>(bench('stop()'))
  return { recording, drags: plan.length, nodes }
}

/** Zoom with the wheel as a hand would: out in 20 notches a frame apart, back in, twice, over the graph's centre. */
async function zoom(page: Page): Promise<{ recording: Recording; notches: number; nodes: number[] }> {
  const box = await page.getByTestId('session-tree').boundingBox()
  if (!box) throw new Error('no graph to zoom')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  const nodes: number[] = []
  let notches = 0
  await page.evaluate(bench('record()'))
  for (const deltaY of [120, -120, 120, -120]) {
    for (let i = 0; i < 20; i++, notches++) {
      await page.mouse.wheel(0, deltaY)
      await page.waitForTimeout(16)
    }
    nodes.push(await page.locator('[data-testid="session-tree"] .react-flow__node').count())
  }
  const recording = await page.evaluate<Recording>(bench('stop()'))
  return { recording, notches, nodes }
}

const framesCell = (f: FrameStats): string => `median ${formatMs(f.median)} / p95 ${formatMs(f.p95)} / max ${formatMs(f.max)} ms`
const tasksCell = (r: Recording): string =>
  `${r.longTasks.count} long tasks (${formatMs(r.longTasks.totalMs)} ms in all, longest ${formatMs(r.longTasks.longestMs)}); ${r.frames.over50} of ${formatCount(r.frames.n)} frames > 50 ms`
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`
/** One 60 Hz frame: rAF deltas come in whole vsync intervals, so an idle page's median is 16.7 ms, not under 16. */
const FRAME_60HZ = 1000 / 60

async function main(): Promise<void> {
  const started = performance.now()
  const dir = makeTempDir()
  const dataDir = join(dir, 'data')
  log(`Retrace UI bench: ${formatCount(uiConfig.bigMessages)}-message session, ${formatCount(uiConfig.sessions)} sessions; ${uiConfig.runs} runs each; Node ${process.version}, ${cpus().length} CPUs; data in ${dir}`)
  let server: Served | null = null
  try {
    log('Generating the data folder through the recorder…')
    const data = generateUiData(dataDir, { seed: uiConfig.seed, sessions: uiConfig.sessions, bigMessages: uiConfig.bigMessages })
    const treeData = generateUiData(dataDir, { seed: uiConfig.seed + 1, sessions: uiConfig.treeSessions, bigMessages: 40, workspace: 'bench-ui-tree' })
    log(`  and a second workspace of ${formatCount(treeData.sessions)} sessions for the graph (${Object.entries(treeData.kinds).map(([kind, n]) => `${n} ${kind}`).join(', ')})`)
    log(`  ${formatCount(data.sessions)} sessions (${Object.entries(data.kinds).map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${data.merges} merged back), ${formatCount(data.messages)} messages, in ${(data.ms / 1000).toFixed(1)} s`)
    const stale = staleBuildWarning()
    if (stale) log(`Warning: ${stale}`)
    server = await serve(dataDir)
    const context = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), { executablePath: uiConfig.chromium, args: CHROMIUM_ARGS, viewport: uiConfig.viewport })
    try {
      await context.addInitScript({ content: PAGE_SCRIPT })
      // Every load starts in the list view (the app remembers the graph once it was shown).
      await context.addInitScript({ content: "try { localStorage.setItem('retrace.sessionView', 'list') } catch (error) {}" })
      const page = context.pages()[0] ?? (await context.newPage())
      const pageCall = captureCall(page, 'transcript.page', data.bigSessionId)
      const treeCall = captureCall(page, 'sessions.tree', `"workspaceId":${data.workspaceId}`)
      // The printed URL hands the page its token (kept in sessionStorage for the reloads below).
      await page.goto(server.url)
      await page.getByTestId('first-screen').waitFor()
      const userAgent = await page.evaluate<string>('navigator.userAgent')

      log('Opening the long session to its first turn…')
      const open = await measureOpen(page, server, data)
      await shot(page, 'ui-1-opened')
      const pageRef = await page.evaluate<RpcTiming>(bench(`rpc('transcript.page', ${JSON.stringify(pageCall())}, ${uiConfig.runs * 3})`))

      log('Idle frames (the reference), then scrolling the transcript end to end…')
      const idle = await page.evaluate<Recording>(bench(`frames(${uiConfig.idleMs})`))
      const scroll = await page.evaluate<ScrollRecording>(bench(`scroll(${uiConfig.scrollStep}, 600000)`))
      await shot(page, 'ui-2-scrolled-to-end')
      log(`  ${scroll.reachedEnd ? 'reached' : 'did NOT reach'} the end (${scroll.tail}) after ${formatCount(scroll.distance)} px in ${(scroll.ms / 1000).toFixed(1)} s; ${scroll.waitingFrames} frames waited at the loaded end for the next page`)

      log('Showing the graph…')
      const graph = await measureGraph(page, server, data)
      await shot(page, 'ui-3-graph')
      const treeRef = await page.evaluate<RpcTiming>(bench(`rpc('sessions.tree', ${JSON.stringify(treeCall())}, ${uiConfig.runs * 3})`))
      log('Panning the graph at its opening zoom, then zoomed out to all of it…')
      const panned = await pan(page, READABLE_PAN)
      await shot(page, 'ui-4-panned')
      log(`  nodes in the DOM after each drag: ${panned.nodes.join(' ')}`)
      await page.locator('[data-testid="session-tree"] .react-flow__controls-fitview').click()
      await page.evaluate(bench('frames(1000)'))
      const fittedZoom = await page.evaluate<number>("Number((/scale\\(([\\d.]+)\\)/.exec(document.querySelector('.react-flow__viewport').style.transform) || [0, 0])[1])")
      const fitted = await pan(page, FITTED_PAN)
      await shot(page, 'ui-5-panned-fitted')
      log(`  zoomed out to ${fittedZoom.toFixed(3)}; nodes in the DOM after each drag: ${fitted.nodes.join(' ')}`)

      log(`The ${formatCount(treeData.sessions)}-session graph: drawn, panned, zoomed…`)
      const smallTree = await measureGraph(page, server, treeData)
      await shot(page, 'ui-6-tree-opened')
      const treePanned = await pan(page, TIME_PAN)
      const treeZoomed = await zoom(page)
      await shot(page, 'ui-7-tree-zoomed')
      log(`  nodes in the DOM after each drag: ${treePanned.nodes.join(' ')}; after each zoom: ${treeZoomed.nodes.join(' ')}`)

      /** Long tasks and slow frames while something moved, beside the idle page's. */
      const tasksRow = (measure: string, recording: Recording): ResultRow => ({
        measure,
        retrace: tasksCell(recording),
        reference: `idle: ${tasksCell(idle)}`,
        target: '(none set)',
        met: null,
        n: formatCount(recording.frames.n)
      })
      /** Issue 41's target for moving the graph: not one long task (the API reports only tasks over 50 ms). */
      const movedRow = (measure: string, recording: Recording): ResultRow => ({
        ...tasksRow(measure, recording),
        target: 'no long task (> 50 ms)',
        met: recording.longTasks.count <= TARGETS.longTasks
      })
      /** A pan's frame times and its long tasks: two rows, no target. */
      const panRows = (measure: string, activity: string, recording: Recording): ResultRow[] => [
        {
          measure: `${measure}: frame time`,
          retrace: framesCell(recording.frames),
          reference: `the same page idle: ${framesCell(idle.frames)}`,
          target: '(none set)',
          met: null,
          n: formatCount(recording.frames.n)
        },
        tasksRow(`… while ${activity}: long tasks, slow frames`, recording)
      ]
      const rows: ResultRow[] = [
        {
          measure: `Open the ${formatCount(uiConfig.bigMessages)}-message session: click → first turn painted`,
          retrace: `${formatMs(open.timing.median)} ms (p95 ${formatMs(open.timing.p95)})`,
          reference: `its first \`transcript.page\` (${pageRef.items} messages, ${kib(pageRef.bytes)}) over HTTP from the page: ${formatMs(pageRef.roundTrip.median)} ms; \`JSON.parse\` of it: ${formatMs(pageRef.parse.median)} ms`,
          target: `≤ ${TARGETS.firstPaintMs} ms`,
          met: open.timing.median <= TARGETS.firstPaintMs,
          n: String(open.timing.n)
        },
        {
          measure: `Scroll it end to end (${uiConfig.scrollStep} px a frame, ${formatCount(scroll.distance)} px, ${(scroll.ms / 1000).toFixed(1)} s${scroll.reachedEnd ? '' : ', END NOT REACHED'}): frame time`,
          retrace: framesCell(scroll.frames),
          reference: `the same page idle: ${framesCell(idle.frames)}`,
          target: `median ≤ ${TARGETS.scrollMedianMs} ms (one 60 Hz frame: ${formatMs(FRAME_60HZ)})`,
          met: scroll.reachedEnd && scroll.frames.median <= FRAME_60HZ + 0.5,
          n: formatCount(scroll.frames.n)
        },
        tasksRow('… while scrolling: long tasks, slow frames', scroll),
        {
          measure: `Graph of ${formatCount(data.sessions)} sessions: Graph click → visible nodes painted (${graph.painted.at(-1)?.nodes ?? 0} in the DOM)`,
          retrace: `${formatMs(graph.timing.median)} ms (p95 ${formatMs(graph.timing.p95)})`,
          reference: `its \`sessions.tree\` (${kib(treeRef.bytes)}) over HTTP from the page: ${formatMs(treeRef.roundTrip.median)} ms; \`JSON.parse\` of it: ${formatMs(treeRef.parse.median)} ms`,
          target: `≤ ${formatCount(TARGETS.graphMs)} ms`,
          met: graph.timing.median <= TARGETS.graphMs,
          n: String(graph.timing.n)
        },
        ...panRows(`Pan the graph at its opening zoom (${panned.drags} drags of 500 px, 20 px a frame; ${Math.min(...panned.nodes)}–${Math.max(...panned.nodes)} nodes in the DOM)`, 'panning', panned.recording),
        ...panRows(`Pan it zoomed out to the whole graph (zoom ${fittedZoom.toFixed(2)}, ${fitted.drags} drags; ${Math.min(...fitted.nodes)}–${Math.max(...fitted.nodes)} nodes in the DOM)`, 'panning zoomed out', fitted.recording),
        {
          measure: `Graph of ${formatCount(treeData.sessions)} sessions (issue 41): Graph click → visible nodes painted (${smallTree.painted.at(-1)?.nodes ?? 0} in the DOM)`,
          retrace: `${formatMs(smallTree.timing.median)} ms (p95 ${formatMs(smallTree.timing.p95)})`,
          reference: `the ${formatCount(data.sessions)}-session graph above: ${formatMs(graph.timing.median)} ms`,
          target: `≤ ${formatCount(TARGETS.treeMs)} ms`,
          met: smallTree.timing.median <= TARGETS.treeMs,
          n: String(smallTree.timing.n)
        },
        movedRow(`… panned at its opening zoom (${treePanned.drags} drags of 500 px): long tasks, slow frames`, treePanned.recording),
        movedRow(`… zoomed with the wheel (${treeZoomed.notches} notches, out and in twice; ${Math.min(...treeZoomed.nodes)}–${Math.max(...treeZoomed.nodes)} nodes in the DOM): long tasks, slow frames`, treeZoomed.recording)
      ]
      console.log(`\n${renderTable(rows, 'reference, same run')}\n`)
      console.log(`Data: ${formatCount(data.sessions)} sessions (${Object.entries(data.kinds).map(([kind, n]) => `${formatCount(n)} ${kind}`).join(', ')}; ${data.merges} merged back), ${formatCount(data.messages)} messages; generated in ${(data.ms / 1000).toFixed(1)} s.`)
      console.log(`Open and graph: median (p95) of ${uiConfig.runs} runs after ${WARMUP} warm-ups, each on a freshly loaded page; timed in the page from the click event to the first frame showing the result, after paint.`)
      console.log(`Frame times: requestAnimationFrame deltas; long tasks from the Long Tasks API (> 50 ms). Idle reference: ${(uiConfig.idleMs / 1000).toFixed(0)} s of the transcript page doing nothing.`)
      console.log(`${userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? userAgent} headless, ${uiConfig.viewport.width}×${uiConfig.viewport.height}; Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; whole run ${((performance.now() - started) / 1000).toFixed(0)} s.`)
      if (stale) console.log(`Warning: ${stale}`)
    } finally {
      await context.close()
    }
  } finally {
    await server?.stop()
    if (uiConfig.keep) log(`Kept the data folder: ${dir}`)
    else removeDir(dir)
  }
}

await main()
