// The first run on the release binary (issue 11), whose WebKitGTK runtime
// differs from the dev bridge: a fresh data dir shows the checklist; an API
// key is saved against the fakes; a Claude Desktop config is imported; a
// chat makes a tool call. Playwright cannot drive WebKitGTK, so the release
// window is driven with xdotool, and checked through what it leaves behind:
// the keychain, the log, the requests the fakes saw, and screenshots of each
// step (docs/screenshots/first-run-*.png with make screenshots).
//
// Where to click comes from a twin: the dev binary, on its own fresh data
// dir, renders the same frontend at the window's size in Chromium; each step
// is done in the twin first, and the element's box there is where xdotool
// clicks in the release window. Both run the same HTML and CSS, so the
// boxes match (text widths differ by a few pixels; clicks go to centres).
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {execFileSync, spawnSync} from 'node:child_process'
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {killAll, killGroup, launchApp, launchGui, outDir, prodBinary, repoRoot, startXvfb, tempDataDir, waitFor} from './harness'
import type {AppHandle, Display, Fakes} from './harness'
import {startFakes} from './harness'
import {clearApiKeys, everything, inKeyringSession} from './chatkit'

/** The release window's size on a first run (backend/desktop): the twin's page is its web view's size. */
const SIZE = {width: 1200, height: 800}
/** The light sidebar's background (--bg-sidebar in tokens.css): the first row of it is the web view's top. */
const SIDEBAR_BG = 'srgb(247,247,248)'
const KEY = `AIza-first-run-${Date.now()}-e2e`
const ECHO = 'everything__echo'

interface Release {
  display: Display
  wid: string
  /** Where the web view starts in the window, below the menu bar. */
  top: number
  dataDir: string
  app: import('node:child_process').ChildProcess
}

let fakes: Fakes
let twin: AppHandle
let release: Release
let config: string

function x(display: Display, ...args: string[]): string {
  return execFileSync('xdotool', args, {env: {...process.env, DISPLAY: display.display}}).toString()
}

function windowId(display: Display, name: string): string | undefined {
  const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', name], {env: {...process.env, DISPLAY: display.display}})
  return r.status === 0 ? r.stdout.toString().trim().split('\n')[0] : undefined
}

/** Saves the release window as first-run-NAME.png (into docs/screenshots with make screenshots). */
function shot(name: string, docs = true): string {
  const path = join(outDir, `first-run-${name}.png`)
  execFileSync('import', ['-display', release.display.display, '-window', release.wid, path])
  if (docs && process.env.MAESTRO_DOC_SHOTS === '1') {
    const docs = join(repoRoot, 'docs', 'screenshots')
    mkdirSync(docs, {recursive: true})
    copyFileSync(path, join(docs, `first-run-${name}.png`))
  }
  return path
}

/**
 * Waits until the release window stops changing (two captures 150 ms
 * apart are the same): a view switching, a panel sliding in or a list
 * loading would otherwise move what the next click aims at.
 */
async function settle() {
  const capture = () => execFileSync('import', ['-display', release.display.display, '-window', release.wid, 'rgb:-'], {maxBuffer: 64 << 20})
  let prev = capture()
  await waitFor('the release window to settle', async () => {
    await new Promise((r) => setTimeout(r, 150))
    const next = capture()
    const same = next.equals(prev)
    prev = next
    return same || undefined
  }, 10_000, 0)
}

/** Clicks, in the release window, the centre of what testId is in the twin. */
async function click(testId: string, page: Page = twin.page) {
  const el = page.getByTestId(testId).first()
  await el.waitFor({timeout: 15_000})
  await settle()
  await clickBox((await el.boundingBox())!)
}

function clickBox(box: {x: number; y: number; width: number; height: number}) {
  x(release.display, 'mousemove', '--window', release.wid, String(Math.round(box.x + box.width / 2)), String(Math.round(release.top + box.y + box.height / 2)))
  x(release.display, 'click', '1')
}

/** The first row of the sidebar's colour in a screenshot of the window: the menu bar is above it. */
function webViewTop(png: string): number {
  const column = execFileSync('/usr/bin/convert', [png, '-crop', '1x80+3+0', '+repage', 'txt:-']).toString()
  for (const line of column.split('\n')) {
    const m = line.match(/^0,(\d+):.*\b(srgb\([^)]*\))/)
    if (m && m[2].replace(/ /g, '') === SIDEBAR_BG) return Number(m[1])
  }
  throw new Error(`no row of the sidebar's colour ${SIDEBAR_BG} in the first 80 of ${png}`)
}

/** Does the same click in the twin, after the release window got it. */
async function both(testId: string) {
  await click(testId)
  await twin.page.getByTestId(testId).first().click()
}

async function typeInRelease(text: string, enter = false) {
  await settle()
  x(release.display, 'type', '--delay', '8', text)
  if (enter) x(release.display, 'key', 'Return')
}

/** Answers the native file dialog on display with path. */
async function answerFileDialog(display: Display, path: string) {
  const wid = await waitFor('the file dialog', () => windowId(display, 'Import MCP servers'), 15_000)
  x(display, 'windowfocus', '--sync', wid)
  x(display, 'key', '--clearmodifiers', 'ctrl+l')
  x(display, 'type', '--delay', '5', path)
  x(display, 'key', 'Return')
}

function releaseLog(): string {
  const p = join(release.dataDir, 'maestro.log')
  return existsSync(p) ? readFileSync(p, 'utf8') : ''
}

function keychainHas(account: string): boolean {
  const r = spawnSync('secret-tool', ['lookup', 'service', 'Maestro', 'username', account], {encoding: 'utf8', timeout: 15_000})
  return r.status === 0 && r.stdout === KEY
}

/** The model requests the fake recorded, as bodies. */
async function geminiBodies(): Promise<any[]> {
  const reqs = (await fakes.script('gemini').requests()) as {body?: any}[]
  return reqs.map((r) => r.body).filter((b) => b?.contents)
}

describe.skipIf(!inKeyringSession || !existsSync(prodBinary) || !existsSync(everything))('first run on the release binary', () => {
  beforeAll(async () => {
    clearApiKeys()
    fakes = await startFakes('first-run-fakes')
    const dir = mkdtempSync(join(tmpdir(), 'maestro-first-run-'))
    config = join(dir, 'claude_desktop_config.json')
    writeFileSync(config, JSON.stringify({mcpServers: {Everything: {command: 'node', args: [everything, 'stdio']}}}, null, 2))

    twin = await launchApp({name: 'first-run-twin', env: fakes.env, viewport: SIZE})
    const display = await startXvfb()
    const dataDir = tempDataDir('maestro-first-run-release-')
    const {child, value: wid} = await launchGui(prodBinary, [], {
      env: {...process.env, ...fakes.env, DISPLAY: display.display, MAESTRO_DATA_DIR: dataDir, NO_AT_BRIDGE: '1'},
      log: join(outDir, 'first-run-release.log'),
    }, 'the release window to map', () => windowId(display, '^Maestro$'))
    release = {display, wid, dataDir, app: child, top: 0}
    // Painted: the window's pixels vary.
    const painted = await waitFor('the release UI to paint', () => {
      const p = shot('0-launch', false)
      const sd = Number(execFileSync('/usr/bin/convert', [p, '-format', '%[fx:standard_deviation]', 'info:']).toString())
      return sd > 0.05 ? p : undefined
    }, 20_000, 250)
    release.top = webViewTop(painted)
    await twin.page.setViewportSize({width: SIZE.width, height: SIZE.height - release.top})
  }, 120_000)

  afterAll(async () => {
    try {
      if (release) {
        await killGroup(release.app)
        await killGroup(release.display.xvfb)
      }
      if (twin) await twin.quit()
      if (fakes) await fakes.stop()
    } finally {
      await killAll()
      clearApiKeys()
    }
  })

  test('checklist, an API key, an imported connector and a chat with a tool call', async () => {
    const {page} = twin
    // 1. A fresh data dir shows the checklist.
    await page.getByTestId('first-run').waitFor({timeout: 15_000})
    await new Promise((r) => setTimeout(r, 500))
    shot('1-checklist')

    // 2. An API key for Gemini, from the checklist's Accounts button.
    await both('first-run-accounts')
    await both('apikey-toggle-gemini')
    await typeInRelease(KEY, true)
    await waitFor('the key in the keychain, saved by the release app', () => keychainHas('apikey:gemini') || undefined, 15_000)
    await page.getByTestId('apikey-input-gemini').fill(KEY)
    await page.getByTestId('apikey-input-gemini').press('Enter')
    await page.getByTestId('apikey-hint-gemini').waitFor({timeout: 15_000})
    await new Promise((r) => setTimeout(r, 500))
    shot('2-api-key')

    // 3. The Claude Desktop config imported from the Connectors page.
    await both('nav-connectors')
    await click('import-connectors')
    await answerFileDialog(release.display, config)
    await waitFor('the imported connector to start in the release app', () =>
      /"connector state".*"connector":"Everything".*"state":"ready"/.test(releaseLog()) || undefined, 30_000)
    await page.getByTestId('import-connectors').first().click()
    await answerFileDialog(twin.display, config)
    await page.getByTestId('import-report').waitFor({timeout: 15_000})
    await page.keyboard.press('Escape')
    const card = page.getByTestId('connector-item').filter({hasText: 'Everything'}).first()
    await waitFor('the twin connector to be ready', async () => ((await card.getAttribute('data-state')) === 'ready') || undefined, 30_000)
    x(release.display, 'key', 'Escape') // the import report
    await new Promise((r) => setTimeout(r, 500))
    shot('3-connector')

    // 4. A chat: the imported connector is on in new chats (a user's
    // first connectors are), then a message whose reply calls echo.
    await both('new-session')
    await page.getByTestId('composer').waitFor()
    await expect.poll(() => page.getByTestId('tools-button-count').textContent(), {timeout: 15_000}).toMatch(/^\d+$/)
    await fakes.script('gemini').reset()
    await fakes.script('gemini').push({toolCalls: [{name: ECHO, args: {message: 'first day'}}]}, {text: 'The echo said: first day.'})
    await click('composer')
    await typeInRelease('Echo "first day", please.', true)
    // echo asks for approval: Allow once has the focus.
    const first = await waitFor('the first model request', async () => (await geminiBodies())[0], 20_000)
    // The connector is on in the release window's new chat.
    expect(JSON.stringify(first.tools ?? first.request?.tools ?? [])).toContain(ECHO)
    await new Promise((r) => setTimeout(r, 1500))
    shot('4-approval')
    x(release.display, 'key', 'Return')
    const sent = await waitFor('the request carrying the echo result', async () => {
      const b = await geminiBodies()
      return b.length >= 2 ? b : undefined
    }, 30_000)
    const results = JSON.stringify(sent[1].request?.contents ?? sent[1].contents)
    expect(results).toContain('Echo: first day')
    await new Promise((r) => setTimeout(r, 1500))
    shot('5-tool-call')

    // The log says what happened, and holds no secret.
    const log = releaseLog()
    expect(log).toMatch(/"msg":"agent: model request".*"provider":"gemini"/)
    expect(log).toMatch(/"connector state".*"state":"ready"/)
    expect(log).not.toContain(KEY)
  }, 180_000)
})
