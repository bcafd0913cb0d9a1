// What each provider's account can use, end to end (issue 10): the model
// picker is filled from the provider's own model list (the fake serves one
// the test sets), a model the plan stops serving is refused with the
// provider's real message and shown as such, and Claude's 2026 third-party
// gate on a subscription sign-in leads to the API-key form and works again.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {launchApp, startFakes, waitFor} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'
import {PROVIDERS, addApiKey, clearApiKeys, expectReadable, inKeyringSession, send, shutdown, waitForReply} from './chatkit'

/** Removes the Claude sign-in this file makes, so no other run starts signed in. */
function clearClaudeSignIn() {
  spawnSync('secret-tool', ['clear', 'service', 'Maestro', 'username', 'oauth:anthropic'], {timeout: 15_000})
}

/** The models each fake serves in this test: two, so one can be withdrawn. */
const SERVED: Record<FakeProvider, [string, string]> = {
  openai: ['gpt-5.5', 'gpt-5.4-mini'],
  anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
  gemini: ['gemini-2.5-pro', 'gemini-2.5-flash'],
}

let fakes: Fakes
let app: AppHandle
const browserLog = join(mkdtempSync(join(tmpdir(), 'maestro-browser-')), 'urls.txt')

/** A MAESTRO_BROWSER that records the URLs the app opens. */
function recordingBrowser(): string {
  const script = join(tmpdir(), `maestro-browser-${process.pid}.sh`)
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${browserLog}'\n`)
  chmodSync(script, 0o755)
  return script
}

function openedURLs(): string[] {
  return existsSync(browserLog) ? readFileSync(browserLog, 'utf8').split('\n').filter(Boolean) : []
}

/** The model ids the open picker offers for p, enabled or not. */
async function offered(page: Page, p: FakeProvider): Promise<string[]> {
  const ids = await page.locator(`[data-testid^="model-option-${p}-"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))
  return ids.map((id) => id!.slice(`model-option-${p}-`.length))
}

async function openPicker(page: Page) {
  if (!(await page.getByTestId('model-menu').isVisible())) await page.getByTestId('model-picker').click()
  await page.getByTestId('model-menu').waitFor()
}

async function closePicker(page: Page) {
  if (await page.getByTestId('model-menu').isVisible()) await page.getByTestId('model-picker').click()
  await expect.poll(() => page.getByTestId('model-menu').count()).toBe(0)
}

async function choose(page: Page, p: FakeProvider, model: string) {
  await openPicker(page)
  await page.getByTestId(`model-option-${p}-${model}`).click()
  await expect.poll(() => page.getByTestId('model-menu').count()).toBe(0)
}

describe.skipIf(!inKeyringSession)('the models each account can use', () => {
  beforeAll(async () => {
    clearApiKeys()
    clearClaudeSignIn()
    fakes = await startFakes('models-fakes')
    app = await launchApp({name: 'models', env: {...fakes.env, MAESTRO_BROWSER: recordingBrowser()}})
  }, 90_000)

  afterAll(async () => {
    try {
      await shutdown(app, fakes)
    } finally {
      clearClaudeSignIn()
    }
  })

  for (const p of PROVIDERS) {
    test(`${p}: the picker shows the provider's list; a model the plan stops serving shows its card`, async () => {
      const {page} = app
      const script = fakes.script(p)
      await script.reset()
      await script.models(SERVED[p])
      await addApiKey(page, p)

      await page.getByTestId('new-session').click()
      await page.getByTestId('composer').waitFor()
      // The key's list is fetched in the background; the picker shows it
      // once it lands (models:changed), with where it came from.
      await openPicker(page)
      await expect.poll(async () => {
        await closePicker(page)
        await openPicker(page)
        return offered(page, p)
      }, {timeout: 20_000}).toEqual(SERVED[p])
      expect(await page.getByTestId(`models-source-${p}`).textContent()).toContain("Your account's models")

      // The plan stops serving the second model: the provider refuses it.
      const [kept, dropped] = SERVED[p]
      await choose(page, p, dropped)
      await script.models([kept])
      await send(page, 'Hello there')
      const card = page.getByTestId('run-error').last()
      await card.waitFor({timeout: 20_000})
      expectReadable(await card.textContent())
      expect(await card.locator('.run-error-title').textContent()).toBe("This model isn't available to your account")
      const quote = (await card.getByTestId('run-error-quote').textContent()) ?? ''
      expect(quote).toContain(dropped)
      if (p === 'anthropic') await app.screenshot('model-unavailable-card')

      // The card leads to the picker, which marks the chat's model.
      await card.getByTestId('run-error-choose-model').click()
      await page.getByTestId('model-menu').waitFor()
      const row = page.getByTestId(`model-option-${p}-${dropped}`)
      await expect.poll(() => row.isDisabled(), {timeout: 20_000}).toBe(true)
      expectReadable(await row.getAttribute('title'))
      // Another model, and Retry answers.
      await page.getByTestId(`model-option-${p}-${kept}`).click()
      await script.push({text: `Hello from ${kept}.`})
      await page.getByTestId('retry').last().click()
      await waitForReply(page, `Hello from ${kept}.`)
    }, 90_000)
  }

  test("Claude's third-party gate on a subscription sign-in leads to the API-key form, and the key works", async () => {
    const {page} = app
    const script = fakes.script('anthropic')
    await script.reset()
    // Start from a Claude subscription sign-in, without an API key.
    await page.getByTestId('nav-accounts').click()
    if (await page.getByTestId('apikey-remove-anthropic').isVisible()) {
      await page.getByTestId('apikey-remove-anthropic').click()
    }
    const before = openedURLs().length
    await page.getByTestId('signin-anthropic').click()
    const url = await waitFor('the Claude sign-in URL', () => openedURLs()[before])
    const tab = await app.browser.newPage()
    await tab.goto(url)
    await expect.poll(() => page.getByTestId('account-method-anthropic').textContent(), {timeout: 20_000}).toContain('Signed in with')
    await tab.close()

    await script.post('gate', {mode: 'third_party'})
    await page.getByTestId('new-session').click()
    await page.getByTestId('composer').waitFor()
    const sessionId = await page.locator('.session-item.is-active').getAttribute('data-session-id')
    await choose(page, 'anthropic', SERVED.anthropic[0])
    await send(page, 'Plan a trip to Lisbon')
    const card = page.getByTestId('run-error').last()
    await card.waitFor({timeout: 20_000})
    expectReadable(await card.textContent())
    expect(await card.locator('.run-error-title').textContent()).toBe("Your Claude plan doesn't cover Maestro")
    expect(await card.getByTestId('run-error-quote').textContent()).toContain('Third-party apps now draw from your extra usage')
    // Never retried: one refused request.
    const refused = ((await script.requests()) as {path: string; status: number}[]).filter((r) => r.path.endsWith('/v1/messages'))
    expect(refused.map((r) => r.status)).toEqual([400])
    await app.screenshot('claude-gate-card')

    // The card opens the API-key form; with a key the same turn goes through.
    await card.getByTestId('run-error-apikey').click()
    const input = page.getByTestId('apikey-input-anthropic')
    await input.waitFor({timeout: 10_000})
    await input.fill(`e2e-anthropic-key-${Date.now()}abcd`)
    await page.getByTestId('apikey-save-anthropic').click()
    await page.getByTestId('apikey-hint-anthropic').waitFor({timeout: 10_000})
    await page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"] .session-main`).click()
    await script.push({text: 'Lisbon it is.'})
    await page.getByTestId('retry').last().click()
    await waitForReply(page, 'Lisbon it is.')
    const last = ((await script.requests()) as {path: string; status: number; header: Record<string, string[]>}[]).at(-1)!
    expect(last.status).toBe(200)
    expect(Object.keys(last.header).map((k) => k.toLowerCase())).toContain('x-api-key')
    await script.post('gate', {mode: 'off'})
  }, 90_000)
})
