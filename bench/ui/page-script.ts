// Runs inside the page (installed with addInitScript before the app's own scripts), as plain
// JavaScript: a string, so nothing the TypeScript transform adds can leak into the browser.
// Exposes `window.__retraceBench`:
//
// - arm(kind) → then the harness clicks → done(): milliseconds from the click event to the
//   first frame, after it was painted, holding what `kind` waits for. Checked once per frame
//   (requestAnimationFrame), the time read in a task posted from that frame's callback, which
//   runs once the frame is painted.
// - frames(ms) / record() + stop(): frame times (rAF deltas) and long tasks over a period.
// - scroll(step, maxMs): scroll the transcript to its very end, `step` px a frame.
// - rpc(name, body, n): the raw HTTP round trip of one contract call and JSON.parse of its reply.

export const PAGE_SCRIPT = String.raw`
(() => {
  const now = () => performance.now()
  const longTasks = []
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch (error) {
    // No Long Tasks API: the long-task columns stay empty.
  }
  let clickAt = null
  addEventListener('click', (event) => { clickAt = event.timeStamp }, true)

  const afterPaint = () => new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve(now())
    channel.port2.postMessage(0)
  })

  const conditions = {
    // The transcript of the session just clicked, showing its first turn: header and prompt.
    open: () => {
      const transcript = document.querySelector('[data-testid="transcript"]')
      if (!transcript || !transcript.querySelector('[data-testid="turn-header"][data-turn="1"]')) return null
      return transcript.querySelector('[data-testid="message-user"]') ? { rows: transcript.querySelectorAll('.transcript-row').length } : null
    },
    // The graph, every node React Flow put in the DOM measured and visible.
    graph: () => {
      const tree = document.querySelector('[data-testid="session-tree"]')
      if (!tree) return null
      const nodes = tree.querySelectorAll('.react-flow__node')
      if (nodes.length === 0) return null
      for (const node of nodes) if (node.style.visibility === 'hidden') return null
      return { nodes: nodes.length, edges: tree.querySelectorAll('.react-flow__edge').length }
    }
  }

  let pending = null
  const statsOf = (samples) => {
    const sorted = [...samples].sort((a, b) => a - b)
    const at = (q) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN
    const mid = sorted.length / 2
    const median = sorted.length % 2 ? at(0.5) : (sorted[mid - 1] + sorted[mid]) / 2
    return { n: sorted.length, median, p95: at(0.95), max: sorted.length ? sorted[sorted.length - 1] : NaN, over50: sorted.filter((x) => x > 50).length }
  }
  const tasksBetween = (from, to) => {
    const tasks = longTasks.filter((task) => task.start >= from && task.start <= to)
    return { count: tasks.length, totalMs: tasks.reduce((sum, task) => sum + task.duration, 0), longestMs: tasks.reduce((max, task) => Math.max(max, task.duration), 0) }
  }
  // rAF deltas until stop() says so.
  const recorder = (stop) => new Promise((resolve) => {
    const deltas = []
    let last = null
    const from = now()
    const frame = (time) => {
      if (last !== null) deltas.push(time - last)
      last = time
      const verdict = stop()
      if (verdict) {
        const to = now()
        resolve({ frames: statsOf(deltas), longTasks: tasksBetween(from, to), ms: to - from, ...verdict })
      } else requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  })

  window.__retraceBench = {
    arm(kind) {
      clickAt = null
      const condition = conditions[kind]
      pending = new Promise((resolve) => {
        const frame = () => {
          const seen = clickAt !== null ? condition() : null
          if (!seen) return requestAnimationFrame(frame)
          afterPaint().then((paintedAt) => resolve({ ms: paintedAt - clickAt, ...seen }))
        }
        requestAnimationFrame(frame)
      })
    },
    done() {
      return pending
    },
    frames(ms) {
      const end = now() + ms
      return recorder(() => (now() >= end ? {} : null))
    },
    record() {
      let stopped = false
      const result = recorder(() => (stopped ? {} : null))
      this.stop = () => { stopped = true; return result }
    },
    stop() {
      return null
    },
    scroll(step, maxMs) {
      // The transcript's scrolling list: the nearest scrollable ancestor of its first row.
      const row = document.querySelector('[data-testid="transcript"] .transcript-row')
      let scroller = row ? row.parentElement : null
      while (scroller && !(scroller.scrollHeight > scroller.clientHeight + 2 && /auto|scroll/.test(getComputedStyle(scroller).overflowY))) scroller = scroller.parentElement
      if (!scroller) return Promise.reject(new Error('the transcript has nothing to scroll: no row inside a scrollable, height-bounded element'))
      const start = now()
      let waiting = 0
      let distance = 0
      return recorder(() => {
        const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2
        const tail = scroller.querySelector('.transcript-tail')
        if (atEnd && tail && /End of transcript/.test(tail.textContent)) return { reachedEnd: true, distance, waitingFrames: waiting, tail: tail.textContent }
        if (now() - start > maxMs) return { reachedEnd: false, distance, waitingFrames: waiting, tail: tail ? tail.textContent : '' }
        if (atEnd) waiting += 1
        const before = scroller.scrollTop
        scroller.scrollTop = before + step
        distance += scroller.scrollTop - before
        return null
      })
    },
    async rpc(name, body, n) {
      const token = sessionStorage.getItem('retrace.token') || ''
      const call = () => fetch('/api/rpc/' + encodeURIComponent(name), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Retrace-Token': token },
        body,
        cache: 'no-store',
        credentials: 'omit'
      }).then((response) => response.text())
      let text = await call()
      const trips = []
      for (let i = 0; i < n; i++) {
        const started = now()
        text = await call()
        trips.push(now() - started)
      }
      const parses = []
      let items = null
      for (let i = 0; i < Math.max(n, 20); i++) {
        const started = now()
        const parsed = JSON.parse(text)
        parses.push(now() - started)
        items = parsed && parsed.data ? (parsed.data.items || parsed.data.nodes || []).length : null
      }
      return { roundTrip: statsOf(trips), parse: statsOf(parses), bytes: text.length, items }
    }
  }
})()
`
