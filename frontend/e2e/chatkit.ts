// What the chat end-to-end files share: driving the app's pages the way a
// person does (an API key on Accounts, a new chat on a provider, a stdio
// connector, the chat's Tools panel, approvals) and reading the requests
// the provider fakes recorded, in each provider's own shape.
import {spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect} from 'vitest'
import type {Locator, Page} from 'playwright-core'
import {killAll, outDir, repoRoot, waitFor} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export const PROVIDERS: FakeProvider[] = ['gemini', 'anthropic', 'openai']
export const nodeModules = process.env.MAESTRO_MCP_NODE_MODULES ?? join(repoRoot, '.ci', 'mcp', 'node_modules')
export const everything = join(nodeModules, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
export const mcpTestBinary = join(repoRoot, 'build', 'bin', 'maestro-mcp-test')
export const hostileBinary = join(repoRoot, 'build', 'bin', 'maestro-mcp-hostile')
export const inKeyringSession = process.env.MAESTRO_REQUIRE_KEYRING === '1'
const docsShots = join(repoRoot, 'docs', 'screenshots')

/** A MAESTRO_BROWSER that appends each URL it is given to a file. */
export function recordingBrowser(): {script: string; urls: () => string[]} {
  const dir = mkdtempSync(join(tmpdir(), 'maestro-browser-'))
  const file = join(dir, 'urls.txt')
  const script = join(dir, 'browser.sh')
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${file}'\n`)
  chmodSync(script, 0o755)
  return {script, urls: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [])}
}

/**
 * Takes a screenshot for the docs, pointer out of the way and animations
 * done: into the test
 * output, and into docs/screenshots/NAME.png when MAESTRO_DOC_SHOTS=1
 * (make screenshots), so a plain test run leaves the repository alone.
 */
export async function docShot(page: Page, name: string) {
  const dir = process.env.MAESTRO_DOC_SHOTS === '1' ? docsShots : outDir
  mkdirSync(dir, {recursive: true})
  await page.mouse.move(0, 400)
  // Finite CSS transitions and animations (a dialog fading in, a row's
  // hover fading out) end first, so nothing is caught half drawn.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().iterations ?? Infinity)).map((a) => a.finished.catch(() => {}))),
  )
  await page.screenshot({path: join(dir, `${name}.png`)})
}

/**
 * Ends a file's app and fakes: quits the app (expecting exit status 0),
 * stops the fakes, kills anything left and clears the API keys, even when
 * the quit fails.
 */
export async function shutdown(app: AppHandle | undefined, fakes: Fakes | undefined) {
  try {
    if (app) expect(await app.quit()).toBe(0)
    if (fakes) await fakes.stop()
  } finally {
    await killAll()
    clearApiKeys()
  }
}

/** Removes the API keys the tests stored, so the throwaway keyring is clean for the next file. */
export function clearApiKeys() {
  for (const p of PROVIDERS) {
    spawnSync('secret-tool', ['clear', 'service', 'Maestro', 'username', `apikey:${p}`], {timeout: 15_000})
  }
}

/** Stores an API key for p on the Accounts page. */
export async function addApiKey(page: Page, p: FakeProvider) {
  await page.getByTestId('nav-accounts').click()
  await page.getByTestId('accounts-page').waitFor()
  await page.getByTestId(`apikey-toggle-${p}`).click()
  await page.getByTestId(`apikey-input-${p}`).fill(`e2e-${p}-key-${Date.now()}abcd`)
  await page.getByTestId(`apikey-save-${p}`).click()
  await page.getByTestId(`apikey-hint-${p}`).waitFor({timeout: 10_000})
}

/** Picks p's first model for the open chat in the header's picker. */
export async function pickModel(page: Page, p: FakeProvider) {
  await page.getByTestId('model-picker').click()
  const option = page.locator(`[data-testid^="model-option-${p}-"]:not([disabled])`).first()
  await option.waitFor({timeout: 10_000})
  await option.click()
  await expect.poll(() => page.getByTestId('model-menu').count()).toBe(0)
}

/** Starts a new chat on p's first model. */
export async function newChat(page: Page, p: FakeProvider) {
  await page.getByTestId('new-session').click()
  await page.getByTestId('composer').waitFor()
  await pickModel(page, p)
}

/** Adds a stdio connector on the Connectors page, waits for it to be ready and returns its id. */
export async function addStdioConnector(page: Page, name: string, command: string, args: string): Promise<string> {
  await page.getByTestId('nav-connectors').click()
  await page.getByTestId('add-connector').click()
  const form = page.getByTestId('connector-form')
  await form.waitFor()
  await page.getByTestId('connector-name').fill(name)
  await page.getByTestId('connector-transport').getByRole('radio', {name: /Local command/}).click()
  await page.getByTestId('connector-command').fill(command)
  await page.getByTestId('connector-args').fill(args)
  await page.getByTestId('connector-save').click()
  await form.waitFor({state: 'detached'})
  const card = page.getByTestId('connector-item').filter({hasText: name}).first()
  await waitFor(`connector ${name} to be ready`, async () => ((await card.getAttribute('data-state')) === 'ready' ? true : undefined), 30_000)
  const id = await card.getAttribute('data-connector-id')
  if (!id) throw new Error(`connector ${name} has no id`)
  return id
}

/** Opens the chat's Tools panel (if closed) and returns it. */
export async function openTools(page: Page): Promise<Locator> {
  const panel = page.getByTestId('tools-panel')
  if (!(await panel.isVisible())) {
    await page.getByTestId('tools-button').click()
    await panel.waitFor()
  }
  return panel
}

export async function closeTools(page: Page) {
  const panel = page.getByTestId('tools-panel')
  if (await panel.isVisible()) {
    await page.getByTestId('tools-close').click()
    await expect.poll(() => panel.count()).toBe(0)
  }
}

/** Switches a connector on or off for the open chat. */
export async function setConnector(page: Page, connectorId: string, on: boolean) {
  const panel = await openTools(page)
  const toggle = panel.locator(`[data-testid="session-connector-toggle"][data-connector-id="${connectorId}"]`)
  if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click()
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(on))
}

/** The switch of one tool (by canonical name) in the Tools panel, with its connector expanded. */
export async function toolSwitch(page: Page, connectorId: string, canonical: string): Promise<Locator> {
  const panel = await openTools(page)
  const row = panel.locator(`[data-testid="session-connector"][data-connector-id="${connectorId}"]`)
  const expand = row.locator('.tp-expand')
  if ((await expand.getAttribute('aria-expanded')) !== 'true') await expand.click()
  return row.locator(`[data-testid="session-tool-toggle"][data-tool="${canonical}"]`)
}

/** Switches one tool on or off for the open chat. */
export async function setTool(page: Page, connectorId: string, canonical: string, on: boolean) {
  const toggle = await toolSwitch(page, connectorId, canonical)
  await toggle.waitFor({timeout: 10_000})
  if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click()
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(on))
}

/** Types text in the composer and presses Enter. */
export async function send(page: Page, text: string) {
  const composer = page.getByTestId('composer')
  await composer.fill(text)
  await composer.press('Enter')
}

export async function lastAssistantText(page: Page): Promise<string> {
  const msgs = page.getByTestId('assistant-message')
  const n = await msgs.count()
  return n ? ((await msgs.nth(n - 1).textContent()) ?? '') : ''
}

/**
 * Waits for the last reply to contain text, answering any approval dialog
 * on the way with Allow once.
 */
export async function waitForReply(page: Page, text: string, timeout = 30_000) {
  const dialog = page.getByTestId('approval-dialog')
  await expect.poll(async () => {
    if (await dialog.isVisible()) await page.getByTestId('approval-allow-once').click().catch(() => {})
    return lastAssistantText(page)
  }, {timeout}).toContain(text)
}

/**
 * Text the user reads must be the real message: never a serialised object,
 * "undefined", or a raw Go error. Fails the test with the text otherwise.
 */
export function expectReadable(text: string | null | undefined) {
  const t = text ?? ''
  expect(t.trim(), 'visible error text').not.toBe('')
  for (const bad of ['[object Object]', 'undefined', 'exec:', '%!']) expect(t, `visible text holds "${bad}"`).not.toContain(bad)
}

/** The bodies of the model requests the fake recorded (those with a conversation). */
export async function bodies(fakes: Fakes, p: FakeProvider): Promise<Json[]> {
  const reqs = ((await fakes.script(p).requests()) ?? []) as {body?: Json}[]
  return reqs.map((r) => r.body).filter((b) => b && (b.contents || b.request?.contents || b.messages || b.input))
}

/** Fails if the fake answered any request with an error (a rule the real service enforces). */
export async function expectNoRejections(fakes: Fakes, p: FakeProvider) {
  const reqs = ((await fakes.script(p).requests()) ?? []) as {path: string; status: number; rejection?: string; body?: Json}[]
  const bad = reqs.filter((r) => r.status >= 400 || r.rejection)
  expect(bad.map((r) => `${r.status} ${r.path}: ${r.rejection}`), `${p} requests the fake refused`).toEqual([])
}

/** The names of the tools a request declares, as the provider spells them. */
export function declaredTools(p: FakeProvider, body: Json): string[] {
  if (p === 'gemini') {
    const tools: Json[] = body.tools ?? body.request?.tools ?? []
    return tools.flatMap((t) => (t.functionDeclarations ?? t.function_declarations ?? []).map((d: Json) => d.name))
  }
  return (body.tools ?? []).map((t: Json) => t.name).filter(Boolean)
}

/** The tool results a request carries, in the provider's shape, as JSON text. */
export function toolResults(p: FakeProvider, body: Json): string[] {
  if (p === 'gemini') {
    const contents: Json[] = body.contents ?? body.request.contents
    return contents.flatMap((c) => (c.parts ?? []).filter((x: Json) => x.functionResponse).map((x: Json) => JSON.stringify(x.functionResponse)))
  }
  if (p === 'anthropic') {
    return (body.messages as Json[]).flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((b: Json) => b.type === 'tool_result').map((b: Json) => JSON.stringify(b)) : [])
  }
  return (body.input as Json[]).filter((x) => x.type === 'function_call_output').map((x) => JSON.stringify(x))
}

/** The user texts a request carries, in order. */
export function userTexts(p: FakeProvider, body: Json): string[] {
  if (p === 'gemini') {
    const contents: Json[] = body.contents ?? body.request.contents
    return contents.filter((c) => c.role === 'user').flatMap((c) => (c.parts ?? []).filter((x: Json) => typeof x.text === 'string').map((x: Json) => x.text))
  }
  if (p === 'anthropic') {
    return (body.messages as Json[]).filter((m) => m.role === 'user').flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.filter((b: Json) => b.type === 'text').map((b: Json) => b.text))
  }
  return (body.input as Json[]).filter((x) => x.role === 'user').flatMap((x) =>
    typeof x.content === 'string' ? [x.content] : (x.content ?? []).filter((c: Json) => c.type === 'input_text').map((c: Json) => c.text))
}

/**
 * The results of the tool calls in the last model turn of a request, checked
 * for the provider's shape: Gemini's functionResponse parts right after the
 * functionCall content, Anthropic's tool_result blocks first in the next
 * user message with matching ids, OpenAI's function_call_output items with
 * matching call ids. Returns name → result JSON text.
 */
export function lastCallResults(p: FakeProvider, body: Json): Map<string, string> {
  const out = new Map<string, string>()
  if (p === 'gemini') {
    const contents: Json[] = body.contents ?? body.request.contents
    const i = contents.map((c) => c.role === 'model' && c.parts?.some((x: Json) => x.functionCall)).lastIndexOf(true)
    expect(i, 'a model content with a functionCall').toBeGreaterThanOrEqual(0)
    const calls = contents[i].parts.filter((x: Json) => x.functionCall).map((x: Json) => x.functionCall)
    const next = contents[i + 1]
    expect(next?.role).toBe('user')
    const resps = next.parts.filter((x: Json) => x.functionResponse).map((x: Json) => x.functionResponse)
    expect(resps.map((r: Json) => r.name), 'one functionResponse per functionCall, in order').toEqual(calls.map((c: Json) => c.name))
    for (const r of resps) out.set(r.name, JSON.stringify(r))
    return out
  }
  if (p === 'anthropic') {
    const msgs: Json[] = body.messages
    const i = msgs.map((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b: Json) => b.type === 'tool_use')).lastIndexOf(true)
    expect(i, 'an assistant message with a tool_use').toBeGreaterThanOrEqual(0)
    const uses = msgs[i].content.filter((b: Json) => b.type === 'tool_use')
    const next = msgs[i + 1]
    expect(next?.role).toBe('user')
    const results = next.content.slice(0, uses.length)
    expect(results.map((b: Json) => b.type), 'tool_result blocks first in the next user message').toEqual(uses.map(() => 'tool_result'))
    expect(results.map((b: Json) => b.tool_use_id)).toEqual(uses.map((u: Json) => u.id))
    uses.forEach((u: Json, k: number) => out.set(u.name, JSON.stringify(results[k])))
    return out
  }
  const items: Json[] = body.input
  let end = items.length - 1
  while (end >= 0 && items[end].type !== 'function_call') end--
  expect(end, 'a function_call item').toBeGreaterThanOrEqual(0)
  let start = end
  while (start > 0 && items[start - 1].type === 'function_call') start--
  for (const call of items.slice(start, end + 1)) {
    const res = items.find((x) => x.type === 'function_call_output' && x.call_id === call.call_id)
    expect(res, `a function_call_output for ${call.call_id}`).toBeTruthy()
    out.set(call.name, JSON.stringify(res))
  }
  return out
}

/** Whether the JSON text holds "successful": v, directly or inside an escaped string. */
export function successful(text: string, v: boolean): boolean {
  return new RegExp(`\\\\*"successful\\\\*"\\s*:\\s*${v}`).test(text)
}
