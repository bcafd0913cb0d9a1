// MCP Apps end to end (docs/APPS.md), with the official example servers
// from .ci/mcp: server-basic-vanillajs and server-basic-react. The fake
// model calls get-time; its UI renders in the tool card, inside the sandbox
// proxy. A button in the UI calls get-time again through Maestro: the
// approval dialog asks first, saying the app asked. "Send Message" lands in
// the composer as a draft; what it tells the model with
// ui/update-model-context goes with the next message. The UI follows the app's theme. A script in the
// UI cannot reach window.go or the app's DOM.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {copyFileSync, existsSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Frame, Page} from 'playwright-core'
import {killGroup, launchApp, launchGui, outDir, prodBinary, repoRoot, startFakes, startXvfb, waitFor} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, closeTools, docShot, inKeyringSession, lastAssistantText, newChat, nodeModules, send,
  setConnector, shutdown, waitForReply,
} from './chatkit'

const vanilla = join(nodeModules, '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js')
const react = join(nodeModules, '@modelcontextprotocol', 'server-basic-react', 'dist', 'index.js')

let fakes: Fakes
let app: AppHandle
const ids: Record<string, string> = {}

/** The view's frame: the srcdoc frame inside the card's sandbox proxy. */
async function viewFrame(page: Page, cardIndex: number): Promise<Frame> {
  const proxy = await page.getByTestId('app-card').nth(cardIndex).locator('iframe').elementHandle()
  let found: Frame | undefined
  await expect.poll(async () => {
    const outer = await proxy?.contentFrame()
    found = outer?.childFrames()[0]
    return found ? await found.evaluate(() => document.readyState).catch(() => 'loading') : 'none'
  }, {timeout: 20_000}).toBe('complete')
  return found!
}

/** Asks the fake for a get-time call of server (a connector's slug) and waits for the card's UI. */
async function callGetTime(page: Page, server: string, reply: string): Promise<Frame> {
  const script = fakes.script('anthropic')
  await script.push({toolCalls: [{name: `${server}__get-time`, args: {}}]}, {text: reply})
  await send(page, `What time is it (${server})?`)
  const dialog = page.getByTestId('approval-dialog')
  await expect.poll(async () => {
    if (await dialog.isVisible()) await page.getByTestId('approval-allow-once').click().catch(() => {})
    return lastAssistantText(page)
  }, {timeout: 30_000}).toContain(reply)
  const n = await page.getByTestId('app-card').count()
  return viewFrame(page, n - 1)
}

describe.skipIf(!existsSync(vanilla) || !existsSync(react) || !inKeyringSession)('MCP Apps in the tool card', () => {
  beforeAll(async () => {
    fakes = await startFakes('apps-fakes')
    app = await launchApp({name: 'apps', env: fakes.env})
    ids.basic = await addStdioConnector(app.page, 'Basic', 'node', `${vanilla} --stdio`)
    ids.react = await addStdioConnector(app.page, 'React', 'node', `${react} --stdio`)
    await addApiKey(app.page, 'anthropic')
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  test('the vanilla UI renders in the card; its button calls get-time through the approval dialog', async () => {
    const {page} = app
    await newChat(page, 'anthropic')
    await setConnector(page, ids.basic, true)
    await setConnector(page, ids.react, true)
    await closeTools(page)
    const view = await callGetTime(page, 'basic', 'Here is the time.')
    const time = view.locator('#server-time')
    await expect.poll(() => time.textContent(), {timeout: 15_000}).not.toBe('Loading...')
    await docShot(page, 'mcp-app-card')

    const before = await time.textContent()
    await view.locator('#get-time-btn').click()
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor({timeout: 15_000})
    expect(await page.getByTestId('approval-requested-by-app').textContent()).toContain('app')
    expect(await page.getByTestId('approval-tool').textContent()).toContain('get-time')
    await docShot(page, 'mcp-app-approval')
    await page.getByTestId('approval-allow-once').click()
    await expect.poll(() => time.textContent(), {timeout: 15_000}).not.toBe(before)
  }, 90_000)

  test('Send Message puts the text in the composer, unsent', async () => {
    const {page} = app
    const view = await viewFrame(page, 0)
    await view.locator('#message-text').fill('What about Tokyo?')
    const assistants = await page.getByTestId('assistant-message').count()
    await view.locator('#send-message-btn').click()
    await expect.poll(() => page.getByTestId('composer').inputValue(), {timeout: 10_000}).toContain('What about Tokyo?')
    expect(await page.getByTestId('assistant-message').count()).toBe(assistants)
  }, 30_000)

  test('what the UI tells the model (ui/update-model-context) rides the next message, once', async () => {
    const {page} = app
    const view = await viewFrame(page, 0)
    // The view speaks the bridge's own wire, as the SDK's updateModelContext does.
    await view.evaluate(() => window.parent.postMessage({jsonrpc: '2.0', id: 9001, method: 'ui/update-model-context',
      params: {content: [{type: 'text', text: 'The user is looking at Tokyo'}], structuredContent: {city: 'Tokyo'}}}, '*'))
    const card = page.getByTestId('app-model-context').first()
    await expect.poll(() => card.textContent(), {timeout: 10_000})
      .toContain('For the model with your next message: The user is looking at Tokyo')
    const script = fakes.script('anthropic')
    const bodies = async () => ((await script.requests()) as {body?: unknown}[]).map((r) => JSON.stringify(r.body ?? ''))
    const before = (await bodies()).length
    await script.push({text: 'Tokyo it is.'}, {text: 'Noted.'})
    await send(page, 'Which city am I looking at?')
    await waitForReply(page, 'Tokyo it is.')
    const sent = (await bodies()).slice(before)
    expect(sent.some((b) => b.includes('The user is looking at Tokyo') && b.includes('State of the get-time app') &&
      b.includes('not a request from the user'))).toBe(true)
    // The user sees what went with their message: the app's context as a resource on it.
    const users = page.locator('[data-testid="message"][data-role="user"]')
    await expect.poll(async () => (await users.last().textContent()) ?? '', {timeout: 10_000}).toContain('State of the get-time app')
    await expect.poll(() => card.textContent(), {timeout: 10_000}).toContain('Sent to the model with your message')
    await docShot(page, 'mcp-app-model-context')
    const next = (await bodies()).length
    await send(page, 'Thanks.')
    await waitForReply(page, 'Noted.')
    const after = (await bodies()).slice(next)
    expect(after.every((b) => b.split('The user is looking at Tokyo').length - 1 <= 1)).toBe(true) // only in history
  }, 60_000)

  test("the UI follows the app's theme", async () => {
    const {page} = app
    const view = await viewFrame(page, 0)
    await page.emulateMedia({colorScheme: 'light'})
    await expect.poll(() => view.evaluate(() => document.documentElement.dataset.theme), {timeout: 10_000}).toBe('light')
    await page.emulateMedia({colorScheme: 'dark'})
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    await expect.poll(() => view.evaluate(() => document.documentElement.dataset.theme), {timeout: 10_000}).toBe('dark')
    await docShot(page, 'mcp-app-card-dark')
    await page.emulateMedia({colorScheme: 'light'})
  }, 30_000)

  test('a script in the UI reaches neither window.go nor the app DOM', async () => {
    const {page} = app
    expect(await page.evaluate(() => typeof (window as any).go)).toBe('object')
    const view = await viewFrame(page, 0)
    const probe = await view.evaluate(() => {
      const tryIt = (f: () => unknown) => {
        try {
          return String(f())
        } catch {
          return 'blocked'
        }
      }
      return {
        topGo: tryIt(() => typeof (window.top as any).go),
        parentGo: tryIt(() => typeof (window.parent.parent as any).go),
        topDom: tryIt(() => window.top!.document.body.innerHTML.length),
        proxyDom: tryIt(() => window.parent.document.body.innerHTML.length),
        storage: tryIt(() => localStorage.length),
        origin: self.origin,
      }
    })
    expect(probe).toEqual({topGo: 'blocked', parentGo: 'blocked', topDom: 'blocked', proxyDom: 'blocked', storage: 'blocked', origin: 'null'})
  }, 30_000)

  test('the React UI of the second server renders in its card', async () => {
    const {page} = app
    const view = await callGetTime(page, 'react', 'Here is the time again.')
    await expect.poll(() => view.getByText('Get Server Time').count(), {timeout: 20_000}).toBeGreaterThan(0)
    await docShot(page, 'mcp-app-card-react')
  }, 90_000)

  // The release binary's WebKitGTK (docs/APPS.md): the same data reopened
  // there re-renders the stored result's UI in the card. The window is
  // driven with xdotool and read with ImageMagick.
  test('the release window renders the stored card with its app', async () => {
    const dataDir = app.dataDir
    await app.quit()
    app = undefined as unknown as AppHandle // shut down already
    const d = await startXvfb('1280x800x24')
    const env = {...process.env, DISPLAY: d.display, MAESTRO_DATA_DIR: dataDir, NO_AT_BRIDGE: '1', ...fakes.env}
    const x = (...args: string[]) => execFileSync(args[0], args.slice(1), {env}).toString()
    const {child, value: wid} = await launchGui(prodBinary, [], {env, log: join(outDir, 'apps-release.log')}, 'the Maestro window',
      () => {
        try {
          return x('xdotool', 'search', '--onlyvisible', '--name', '^Maestro$').trim().split('\n')[0] || undefined
        } catch {
          return undefined
        }
      })
    try {
      const shot = join(outDir, 'mcp-app-release.png')
      // The chat with the cards: the newest session in the sidebar.
      await waitFor('the sidebar to paint', () => {
        x('import', '-window', wid, shot)
        return Number(x('convert', shot, '-format', '%[fx:standard_deviation]', 'info:')) > 0.05 || undefined
      }, 20_000, 250)
      x('xdotool', 'mousemove', '--window', wid, '130', '188', 'click', '1')
      // The example app's blue button, drawn inside the sandboxed frames.
      await waitFor('the app to render in the release window', () => {
        x('import', '-window', wid, shot)
        const blue = Number(x('convert', shot, '-fuzz', '6%', '-fill', 'black', '+opaque', 'rgb(37,99,235)', '-fill', 'white',
          '-opaque', 'rgb(37,99,235)', '-format', '%[fx:mean]', 'info:'))
        return blue > 0.002 || undefined
      }, 30_000, 500)
      if (process.env.MAESTRO_DOC_SHOTS === '1') {
        mkdirSync(join(repoRoot, 'docs', 'screenshots'), {recursive: true})
        copyFileSync(shot, join(repoRoot, 'docs', 'screenshots', 'mcp-app-release.png'))
      }
    } finally {
      await killGroup(child)
      await killGroup(d.xvfb)
    }
  }, 90_000)
})
