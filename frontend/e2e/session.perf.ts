// Time from a click on a session in the sidebar until its last message is
// on screen, in the real app (the dev binary under Xvfb, driven through the
// dev bridge by Chromium like the end-to-end tests). The data dir is seeded
// by build/bin/maestro-seed with one long session (MESSAGES, default
// 10,000) and two 20-message sessions; switching between the two short ones
// is the baseline, measured in the same run.
//
// Each figure is measured inside the page: performance.now() before the
// click, then every animation frame looks for the row of the session's last
// message (data-seq) inside the scroll viewport; the time is taken in a task
// queued from that frame, i.e. after it has been drawn. "answered" is when
// the Sessions.Open promise resolved (Go read, DTOs, JSON, the bridge).
//
//   make perf-session            (RUNS=5 MESSAGES=10000 by default)
import {afterAll, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {killAll, launchApp, removeDir, repoRoot, tempDataDir} from './harness'

afterAll(killAll)

const RUNS = Number(process.env.RUNS ?? 5)
const MESSAGES = Number(process.env.MESSAGES ?? 10_000)
const seeder = join(repoRoot, 'build', 'bin', 'maestro-seed')

interface Seeded {
  id: string
  title: string
  messages: number
  lastSeq: number
}

/** Fills dataDir with one session per count (the last is the newest). */
function seed(dataDir: string, counts: number[]): Seeded[] {
  const args = ['-dir', dataDir, ...counts.map(String)]
  const out = existsSync(seeder)
    ? execFileSync(seeder, args, {encoding: 'utf8'})
    : execFileSync('go', ['run', './backend/store/cmd/maestro-seed', ...args], {cwd: repoRoot, encoding: 'utf8'})
  return out.trim().split('\n').map((l) => JSON.parse(l) as Seeded)
}

interface Opened {
  /** Click → the last message's row drawn inside the viewport. */
  visibleMs: number
  /** Click → Sessions.Open resolved. */
  answeredMs: number
  /** Message rows in the DOM once visible. */
  rows: number
}

/** Clicks the session in the sidebar and times it until its last message is drawn. */
async function openAndTime(page: Page, s: Seeded): Promise<Opened> {
  return page.evaluate(async ({id, seq}) => {
    const w = window as unknown as {__answered?: number}
    const item = document.querySelector<HTMLElement>(`[data-testid="session-item"][data-session-id="${id}"] .session-main`)
    if (!item) throw new Error(`no sidebar item for session ${id}`)
    w.__answered = undefined
    const t0 = performance.now()
    item.click()
    const t1 = await new Promise<number>((resolve) => {
      const frame = () => {
        const row = document.querySelector(`[data-testid="message"][data-seq="${seq}"]`)
        const view = document.querySelector('[data-testid="message-scroll"]')
        if (row && view) {
          const r = row.getBoundingClientRect()
          const v = view.getBoundingClientRect()
          // Drawn in this frame: take the time once it has been painted.
          if (r.bottom > v.top && r.top < v.bottom) return void setTimeout(() => resolve(performance.now()), 0)
        }
        requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
    })
    return {
      visibleMs: t1 - t0,
      answeredMs: (w.__answered ?? NaN) - t0,
      rows: document.querySelectorAll('[data-testid="message"]').length,
    }
  }, {id: s.id, seq: s.lastSeq})
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

test(`open a ${MESSAGES}-message session: click → last message visible`, async () => {
  const dataDir = tempDataDir('maestro-perf-')
  const [long, shortA, shortB] = seed(dataDir, [MESSAGES, 20, 20])
  const app = await launchApp({dataDir, name: 'perf-session'})
  const {page} = app
  // The last session seeded (shortB) is the one the app reopens at launch.
  await page.locator(`[data-testid="message"][data-seq="${shortB.lastSeq}"]`).waitFor({timeout: 30_000})
  await page.evaluate(() => {
    const w = window as unknown as {__answered?: number; go: {app: {Sessions: Record<string, (...a: unknown[]) => Promise<unknown>>}}}
    const api = w.go.app.Sessions
    const open = api.Open
    api.Open = (...a) => open(...a).then((v) => ((w.__answered = performance.now()), v))
  })

  const runs: {long: Opened[]; short: Opened[]} = {long: [], short: []}
  for (let i = 0; i < RUNS; i++) {
    await openAndTime(page, shortA) // leaving the long session: not measured
    runs.short.push(await openAndTime(page, shortB))
    runs.long.push(await openAndTime(page, long))
    console.log(`run ${i + 1}: long ${JSON.stringify(runs.long[i])}; short ${JSON.stringify(runs.short[i])}`)
  }
  await app.screenshot('perf-session-long')
  expect(await app.quit()).toBe(0)
  removeDir(dataDir)

  const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`)
  const row = (label: string, pick: (o: Opened) => number, unit: (n: number) => string) => {
    const l = median(runs.long.map(pick))
    const s = median(runs.short.map(pick))
    return `| ${label} | ${unit(l)} | ${unit(s)} | ${(l / s).toFixed(1)}× |`
  }
  console.log(
    [
      `| figure (median of ${RUNS}) | ${MESSAGES.toLocaleString('en')}-message session | 20-message session | ratio |`,
      '| --- | --- | --- | --- |',
      row('click → last message visible', (o) => o.visibleMs, fmt),
      row('click → OpenSession answered', (o) => o.answeredMs, fmt),
      row('message rows in the DOM', (o) => o.rows, (n) => String(n)),
    ].join('\n'),
  )
})
