// MCP Apps end to end (docs/APPS.md), with the official example servers
// from .ci/mcp: server-basic-vanillajs and server-basic-react. The fake
// model calls get-time; its UI renders in the tool card, inside the sandbox
// proxy. A button in the UI calls get-time again through Maestro: the
// approval dialog asks first, saying the app asked. "Send Message" lands in
// the composer as a draft. The UI follows the app's theme. A script in the
// UI cannot reach window.go or the app's DOM.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import type {Frame, Page} from 'playwright-core'
import {launchApp, startFakes} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, closeTools, docShot, inKeyringSession, lastAssistantText, newChat, nodeModules, send,
  setConnector, shutdown,
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
})
