// A chat turn with an MCP tool call, end to end, for each provider: an API
// key on the Accounts page, the provider's first model in the picker,
// server-everything switched on in the chat's Tools panel, then the fake
// scripts a call to its echo tool. Allowed once, the follow-up request
// carries the result in the provider's own shape; denied, it carries an
// error envelope.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {killAll, launchApp, repoRoot, startFakes, waitFor} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'

const nodeModules = process.env.MAESTRO_MCP_NODE_MODULES ?? join(repoRoot, '.ci', 'mcp', 'node_modules')
const everything = join(nodeModules, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
const docsShots = join(repoRoot, 'docs', 'screenshots')
const inKeyringSession = process.env.MAESTRO_REQUIRE_KEYRING === '1'
/** The exposed name of server-everything's echo for a connector named "Everything". */
const ECHO = 'everything__echo'
// This server-everything marks echo readOnlyHint: true, so it runs without
// asking; the denial uses a tool that is not read-only (harmless if it ran).
const TOGGLE = 'everything__toggle-simulated-logging'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

let fakes: Fakes
let app: AppHandle
let connectorId: string

async function shot(page: Page, name: string) {
  mkdirSync(docsShots, {recursive: true})
  await page.mouse.move(0, 400)
  await page.screenshot({path: join(docsShots, `${name}.png`)})
}

/** The bodies of the model requests the fake recorded (those with a conversation). */
async function bodies(p: FakeProvider): Promise<Json[]> {
  const reqs = (await fakes.script(p).requests()) as {body?: Json}[]
  return reqs.map((r) => r.body).filter((b) => b && (b.contents || b.request?.contents || b.messages || b.input))
}

/** The tool result for the last call in a request body, checked for the provider's shape; returns it as JSON text. */
function lastToolResult(p: FakeProvider, body: Json, name: string): string {
  if (p === 'gemini') {
    const contents: Json[] = body.contents ?? body.request.contents
    const i = contents.map((c) => c.role === 'model' && c.parts?.some((x: Json) => x.functionCall)).lastIndexOf(true)
    expect(i, 'a model content with a functionCall').toBeGreaterThanOrEqual(0)
    const call = contents[i].parts.find((x: Json) => x.functionCall).functionCall
    expect(call.name).toBe(name)
    const next = contents[i + 1]
    expect(next?.role).toBe('user')
    const resp = next.parts.find((x: Json) => x.functionResponse)?.functionResponse
    expect(resp, 'a functionResponse part right after the functionCall').toBeTruthy()
    expect(resp.name).toBe(name)
    return JSON.stringify(resp)
  }
  if (p === 'anthropic') {
    const msgs: Json[] = body.messages
    const i = msgs.map((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b: Json) => b.type === 'tool_use')).lastIndexOf(true)
    expect(i, 'an assistant message with a tool_use').toBeGreaterThanOrEqual(0)
    const use = msgs[i].content.find((b: Json) => b.type === 'tool_use')
    expect(use.name).toBe(name)
    const next = msgs[i + 1]
    expect(next?.role).toBe('user')
    expect(next.content[0].type, 'tool_result first in the next user message').toBe('tool_result')
    expect(next.content[0].tool_use_id).toBe(use.id)
    return JSON.stringify(next.content[0])
  }
  const items: Json[] = body.input
  const calls = items.filter((x) => x.type === 'function_call')
  expect(calls.length, 'a function_call item').toBeGreaterThan(0)
  const call = calls[calls.length - 1]
  expect(call.name).toBe(name)
  const out = items.find((x) => x.type === 'function_call_output' && x.call_id === call.call_id)
  expect(out, `a function_call_output for ${call.call_id}`).toBeTruthy()
  return JSON.stringify(out)
}

/** Whether the JSON text holds "successful": v, directly or inside an escaped string. */
function successful(text: string, v: boolean): boolean {
  return new RegExp(`\\\\*"successful\\\\*"\\s*:\\s*${v}`).test(text)
}

async function lastAssistantText(page: Page): Promise<string> {
  const msgs = page.getByTestId('assistant-message')
  const n = await msgs.count()
  return n ? ((await msgs.nth(n - 1).textContent()) ?? '') : ''
}

async function send(page: Page, text: string) {
  const composer = page.getByTestId('composer')
  await composer.fill(text)
  await composer.press('Enter')
}

describe.skipIf(!existsSync(everything) || !inKeyringSession)('a tool-call turn with each provider', () => {
  beforeAll(async () => {
    fakes = await startFakes('chat-fakes')
    app = await launchApp({name: 'chat', env: fakes.env})
    const {page} = app
    await page.getByTestId('nav-connectors').click()
    await page.getByTestId('add-connector').click()
    const form = page.getByTestId('connector-form')
    await form.waitFor()
    await page.getByTestId('connector-name').fill('Everything')
    await page.getByTestId('connector-transport').getByRole('radio', {name: /Local command/}).click()
    await page.getByTestId('connector-command').fill('node')
    await page.getByTestId('connector-args').fill(`${everything} stdio`)
    await page.getByTestId('connector-save').click()
    await form.waitFor({state: 'detached'})
    // expect.poll only runs inside a test.
    const card = page.getByTestId('connector-item').first()
    await waitFor('the connector to be ready', async () => ((await card.getAttribute('data-state')) === 'ready' ? true : undefined), 30_000)
    connectorId = (await card.getAttribute('data-connector-id'))!
    expect(connectorId).toBeTruthy()
  }, 90_000)

  afterAll(async () => {
    try {
      if (app) expect(await app.quit()).toBe(0)
      if (fakes) await fakes.stop()
    } finally {
      await killAll()
      // Leave no API keys in the throwaway keyring for the files after this one.
      for (const p of ['gemini', 'anthropic', 'openai']) {
        spawnSync('secret-tool', ['clear', 'service', 'Maestro', 'username', `apikey:${p}`], {timeout: 15_000})
      }
    }
  })

  const providers: FakeProvider[] = ['gemini', 'anthropic', 'openai']
  for (const p of providers) {
    test(`${p}: an allowed echo call returns its result, a denied one an error envelope`, async () => {
      const {page} = app
      const script = fakes.script(p)
      await script.reset()

      // An API key for the provider.
      await page.getByTestId('nav-accounts').click()
      await page.getByTestId('accounts-page').waitFor()
      await page.getByTestId(`apikey-toggle-${p}`).click()
      await page.getByTestId(`apikey-input-${p}`).fill(`e2e-${p}-key-${Date.now()}abcd`)
      await page.getByTestId(`apikey-save-${p}`).click()
      await page.getByTestId(`apikey-hint-${p}`).waitFor({timeout: 10_000})

      // A new chat on the provider's first model.
      await page.getByTestId('new-session').click()
      await page.getByTestId('composer').waitFor()
      await page.getByTestId('model-picker').click()
      const option = page.locator(`[data-testid^="model-option-${p}-"]:not([disabled])`).first()
      await option.waitFor({timeout: 10_000})
      await option.click()
      await expect.poll(() => page.getByTestId('model-menu').count()).toBe(0)

      // server-everything on in this chat.
      await page.getByTestId('tools-button').click()
      const panel = page.getByTestId('tools-panel')
      await panel.waitFor()
      const toggle = panel.locator(`[data-testid="session-connector-toggle"][data-connector-id="${connectorId}"]`)
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
      await page.getByTestId('tools-close').click()
      await expect.poll(() => panel.count()).toBe(0)

      // 1. The echo call: read-only, so it may run without a dialog; if
      // one is shown, allow once.
      const done1 = `The echo said hi (${p}).`
      await script.push({toolCalls: [{name: ECHO, args: {message: 'hi'}}]}, {text: done1})
      await send(page, 'Echo hi, please.')
      const dialog = page.getByTestId('approval-dialog')
      await expect.poll(async () => {
        if (await dialog.isVisible()) await page.getByTestId('approval-allow-once').click()
        return lastAssistantText(page)
      }, {timeout: 20_000}).toContain(done1)
      const card = page.getByTestId('tool-card').last()
      await expect.poll(() => card.getAttribute('data-status'), {timeout: 10_000}).toBe('succeeded')
      expect(await card.getAttribute('data-call-id')).toBeTruthy()
      let sent = await bodies(p)
      expect(sent.length).toBeGreaterThanOrEqual(2)
      const ok = lastToolResult(p, sent[sent.length - 1], ECHO)
      expect(ok).toContain('Echo: hi')
      expect(successful(ok, true), ok).toBe(true)
      if (p === 'anthropic') await shot(page, 'tool-call-turn')

      // 2. A tool that is not read-only: the dialog asks; deny.
      const done2 = `No toggling then (${p}).`
      await script.push({toolCalls: [{name: TOGGLE, args: {}}]}, {text: done2})
      await send(page, 'Toggle the simulated logging.')
      await dialog.waitFor({timeout: 20_000})
      expect(await page.getByTestId('approval-tool').textContent()).toContain('toggle-simulated-logging')
      if (p === 'anthropic') {
        await page.waitForTimeout(400) // the dialog's fade-in
        await shot(page, 'approval-dialog')
      }
      await page.getByTestId('approval-deny').click()
      await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain(done2)
      await expect.poll(() => page.getByTestId('tool-card').last().getAttribute('data-status'), {timeout: 10_000}).toBe('denied')
      sent = await bodies(p)
      const denied = lastToolResult(p, sent[sent.length - 1], TOGGLE)
      expect(successful(denied, false), denied).toBe(true)
      expect(denied).toContain('denied')
    }, 60_000)
  }
})
