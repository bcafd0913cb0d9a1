// Settings through the real app: a connector switched off for new chats is
// off in the next chat; the instructions for new chats reach the
// provider (Anthropic's system blocks, after the required first one on a
// sign-in; here an API key), a chat's own instructions replace them from the
// next request, a refused row shows its reason, and Diagnostics shows and
// copies a report with every planted secret removed (a stored API key, a
// connector's env value, tokens in the log).
import {afterAll, expect, test} from 'vitest'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {launchApp, startFakes, tempDataDir, type AppHandle, type Fakes} from './harness'
import {bodies, closeTools, docShot, expectNoRejections, inKeyringSession, mcpTestBinary, newChat, openTools, send, shutdown, waitForReply, type Json} from './chatkit'

let app: AppHandle | undefined
let fakes: Fakes | undefined
afterAll(() => shutdown(app, fakes))

/** Anthropic's system text of a request body, blocks joined. */
function systemText(body: Json): string {
  return ((body.system ?? []) as {text: string}[]).map((b) => b.text).join('\n')
}

test.skipIf(!inKeyringSession)('instructions reach the provider, rows refuse with reasons, diagnostics keep no secret', async () => {
  const dataDir = tempDataDir()
  const logToken = `ya29.e2e-planted-${Date.now()}-token`
  // A log line from an earlier run with a bearer token in it.
  writeFileSync(join(dataDir, 'maestro.log'), JSON.stringify({level: 'WARN', msg: 'request', header: `Authorization: Bearer ${logToken}`}) + '\n')
  fakes = await startFakes('settings-fakes')
  app = await launchApp({name: 'settings', dataDir, env: fakes.env})
  const {page} = app

  // A stored API key (the secret the report must not hold).
  const apiKey = `sk-ant-api03-e2e${Date.now()}planted`
  await page.getByTestId('nav-accounts').click()
  await page.getByTestId('apikey-toggle-anthropic').click()
  await page.getByTestId('apikey-input-anthropic').fill(apiKey)
  await page.getByTestId('apikey-save-anthropic').click()
  await page.getByTestId('apikey-hint-anthropic').waitFor({timeout: 10_000})

  // A connector with a secret env value.
  const envSecret = `e2e-env-secret-${Date.now()}`
  await page.getByTestId('nav-connectors').click()
  await page.getByTestId('add-connector').click()
  const form = page.getByTestId('connector-form')
  await page.getByTestId('connector-name').fill('Secretive')
  await page.getByTestId('connector-transport').getByRole('radio', {name: /Local command/}).click()
  await page.getByTestId('connector-command').fill(mcpTestBinary)
  const env = page.getByTestId('connector-env')
  await env.locator('.cf-add-row').click()
  await env.locator('.cf-kv-key').last().fill('API_TOKEN')
  await env.locator('.cf-kv-value').last().fill(envSecret)
  await page.getByTestId('connector-save').click()
  await form.waitFor({state: 'detached'})
  const card = page.getByTestId('connector-item').filter({hasText: 'Secretive'}).first()
  await expect.poll(() => card.getAttribute('data-state'), {timeout: 30_000}).toBe('ready')

  // Settings: instructions for new chats, a refused threshold.
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('settings-instructions').fill('Use metric units.')
  await page.getByTestId('settings-instructions-save').click()
  await expect.poll(() => page.getByTestId('settings-instructions-save').isDisabled()).toBe(true)
  const compact = page.getByTestId('settings-compact')
  await compact.fill('99')
  await compact.press('Enter')
  await expect.poll(() => page.getByTestId('settings-compact-error').textContent()).toBe('Between 30 % and 95 %.')
  await compact.fill('70')
  await compact.press('Enter')
  await page.getByTestId('settings-approval-read_only').click()
  await expect.poll(() => page.getByTestId('settings-approval-read_only').getAttribute('aria-checked')).toBe('true')
  // The first connector starts on in new chats; switched off here, the next chat starts without it.
  const forNewChats = page.getByRole('switch', {name: 'Turn Secretive on in new chats'})
  await expect.poll(() => forNewChats.getAttribute('aria-checked')).toBe('true')
  const secretiveId = (await forNewChats.getAttribute('data-connector-id')) ?? ''
  await forNewChats.click()
  await expect.poll(() => forNewChats.getAttribute('aria-checked')).toBe('false')

  // Diagnostics: what the user sees is what Copy puts on the clipboard, and neither holds a secret.
  await page.getByTestId('diagnostics-refresh').click()
  const diag = page.getByTestId('diagnostics-text')
  await expect.poll(() => diag.textContent(), {timeout: 10_000}).toContain('Connectors (1)')
  const shown = (await diag.textContent()) ?? ''
  for (const want of ['Maestro diagnostics', '- Claude: API key', '- Secretive (ready, protocol 2026-07-28): maestro-mcp-test', 'Wails:     v2.15.0', `Data:      ${dataDir}`, '[redacted]']) {
    expect(shown, 'diagnostics text').toContain(want)
  }
  await page.getByTestId('diagnostics-copy').click()
  // The copy goes through the bridge to GTK's clipboard: read it once it is there.
  const clipboard = (): Promise<string> => page.evaluate(() => (window as Json).runtime.ClipboardGetText())
  await expect.poll(async () => (await clipboard()).trim(), {timeout: 10_000}).toBe(shown.trim())
  const copied = await clipboard()
  for (const secret of [apiKey, envSecret, logToken]) {
    expect(copied.includes(secret), `copied diagnostics hold a planted secret (${secret.slice(0, 12)}…)`).toBe(false)
  }
  await page.getByTestId('diagnostics').scrollIntoViewIfNeeded()
  await docShot(page, 'settings-diagnostics')
  await page.locator('#settings-chats').evaluate((el) => el.scrollIntoView({block: 'start'}))
  await docShot(page, 'settings')

  // A new chat starts with the default instructions, and the provider gets them.
  await newChat(page, 'anthropic')
  await expect.poll(() => page.getByTestId('instructions-button').getAttribute('aria-label')).toBe('Instructions (set)')
  const tools = await openTools(page)
  const inChat = tools.locator(`[data-testid="session-connector-toggle"][data-connector-id="${secretiveId}"]`)
  await expect.poll(() => inChat.getAttribute('aria-checked')).toBe('false')
  await closeTools(page)
  await fakes.script('anthropic').push({text: 'Twenty degrees Celsius.'})
  await send(page, 'How warm is it?')
  await waitForReply(page, 'Twenty degrees Celsius.')
  let sent = await bodies(fakes, 'anthropic')
  expect(systemText(sent[sent.length - 1])).toContain('Use metric units.')

  // The chat's own instructions replace them from the next request on.
  await page.getByTestId('instructions-button').click()
  const area = page.getByTestId('instructions-text')
  await expect.poll(() => area.inputValue()).toBe('Use metric units.')
  await area.fill('Answer in French.')
  await docShot(page, 'chat-instructions')
  await page.getByTestId('instructions-save').click()
  await page.getByTestId('instructions-dialog').waitFor({state: 'detached'})
  await fakes.script('anthropic').push({text: 'Vingt degrés.'})
  await send(page, 'And tomorrow?')
  await waitForReply(page, 'Vingt degrés.')
  sent = await bodies(fakes, 'anthropic')
  const system = systemText(sent[sent.length - 1])
  expect(system).toContain('Answer in French.')
  expect(system).not.toContain('Use metric units.')
  await expectNoRejections(fakes, 'anthropic')
})
