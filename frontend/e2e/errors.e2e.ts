// What a user reads when a bound call fails (issue 11): every error that
// reaches the screen is the real message, never "[object Object]",
// "undefined" or a raw Go error. Each case goes through the real UI of the
// real app: a connector whose command is missing, a connector name already
// taken, an API key that is not one, a file to import that is not JSON (the
// native file dialog answered with xdotool), and an app with no keychain.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {killAll, launchApp, waitFor} from './harness'
import type {AppHandle, Display} from './harness'
import {expectReadable, inKeyringSession} from './chatkit'

let app: AppHandle

async function addConnector(page: Page, name: string, command: string) {
  await page.getByTestId('nav-connectors').click()
  await page.getByTestId('add-connector').first().click()
  await page.getByTestId('connector-form').waitFor()
  await page.getByTestId('connector-name').fill(name)
  await page.getByTestId('connector-transport').getByRole('radio', {name: /Local command/}).click()
  await page.getByTestId('connector-command').fill(command)
  await page.getByTestId('connector-save').click()
}

/** Answers the native file dialog titled title with path: Ctrl+L, the path, Enter. */
function answerFileDialog(display: Display, title: string, path: string) {
  const env = {...process.env, DISPLAY: display.display}
  const id = execFileSync('xdotool', ['search', '--onlyvisible', '--name', title], {env}).toString().trim().split('\n')[0]
  execFileSync('xdotool', ['windowfocus', '--sync', id], {env})
  execFileSync('xdotool', ['key', '--clearmodifiers', 'ctrl+l'], {env})
  execFileSync('xdotool', ['type', '--delay', '5', path], {env})
  execFileSync('xdotool', ['key', 'Return'], {env})
}

function dialogOpen(display: Display, title: string): boolean {
  try {
    execFileSync('xdotool', ['search', '--onlyvisible', '--name', title], {env: {...process.env, DISPLAY: display.display}})
    return true
  } catch {
    return false // xdotool exits 1 when nothing matches
  }
}

describe.skipIf(!inKeyringSession)('errors read as what happened', () => {
  beforeAll(async () => {
    app = await launchApp({name: 'errors'})
  }, 90_000)

  afterAll(async () => {
    try {
      if (app) expect(await app.quit()).toBe(0)
    } finally {
      await killAll()
    }
  })

  test('a connector whose command is missing shows its error on the card, without leaving the page', async () => {
    const {page} = app
    await addConnector(page, 'Nowhere', 'maestro-no-such-command')
    await page.getByTestId('connector-form').waitFor({state: 'detached'})
    const card = page.getByTestId('connector-item').filter({hasText: 'Nowhere'}).first()
    const began = Date.now()
    await expect.poll(() => card.getAttribute('data-state'), {timeout: 10_000}).toBe('error')
    console.log(`missing command: error on the card ${Date.now() - began} ms after the save returned`)
    const error = await card.getByTestId('connector-error').textContent()
    expectReadable(error)
    expect(error).toContain('maestro-no-such-command')
  })

  test('a connector name already taken says so in the form', async () => {
    const {page} = app
    await addConnector(page, 'nowhere', 'node')
    const error = page.getByTestId('connector-form-error')
    await error.waitFor({timeout: 10_000})
    const text = await error.textContent()
    expectReadable(text)
    expect(text).toContain('a connector named "Nowhere" exists already')
    await page.keyboard.press('Escape')
  })

  test('an API key that is not one is refused with why', async () => {
    const {page} = app
    await page.getByTestId('nav-accounts').click()
    await page.getByTestId('apikey-toggle-openai').click()
    await page.getByTestId('apikey-input-openai').fill('sk-short')
    await page.getByTestId('apikey-save-openai').click()
    const error = page.getByTestId('account-error-openai')
    await error.waitFor({timeout: 10_000})
    const text = await error.textContent()
    expectReadable(text)
    expect(text).toContain('the API key is too short (8 characters)')
  })

  test('a file to import that is not JSON is reported with its path and why', async () => {
    const {page, display} = app
    const dir = mkdtempSync(join(tmpdir(), 'maestro-import-'))
    const path = join(dir, 'notes.json')
    writeFileSync(path, 'these are my notes, not a config\n')
    await page.getByTestId('nav-connectors').click()
    await page.getByTestId('import-connectors').first().click()
    await waitFor('the import dialog', () => dialogOpen(display, 'Import MCP servers') || undefined, 15_000)
    answerFileDialog(display, 'Import MCP servers', path)
    const toast = page.getByTestId('toast').filter({hasText: "Couldn't import"}).first()
    await toast.waitFor({timeout: 15_000})
    const text = await toast.textContent()
    expectReadable(text)
    expect(text).toContain('notes.json: the file is not JSON (line 1, column 2: invalid character')
  })
})

describe.skipIf(!inKeyringSession)('with no keychain', () => {
  let bare: AppHandle
  afterAll(async () => {
    try {
      if (bare) expect(await bare.quit()).toBe(0)
    } finally {
      await killAll()
    }
  })

  test('Accounts says which keychain is missing, and saving a key says the same', async () => {
    // A session bus that is not there: no Secret Service to store keys in.
    bare = await launchApp({name: 'errors-nokeychain', env: {DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/maestro-e2e-bus'}})
    const {page} = bare
    await page.getByTestId('nav-accounts').click()
    const toast = page.getByTestId('toast').first()
    await toast.waitFor({timeout: 20_000})
    const loaded = await toast.textContent()
    expectReadable(loaded)
    expect(loaded?.toLowerCase()).toContain('keychain')

    await page.getByTestId('apikey-toggle-gemini').click()
    await page.getByTestId('apikey-input-gemini').fill(`AIza-e2e-${Date.now()}-not-stored`)
    await page.getByTestId('apikey-save-gemini').click()
    const error = page.getByTestId('account-error-gemini')
    await error.waitFor({timeout: 20_000})
    const text = await error.textContent()
    expectReadable(text)
    expect(text?.toLowerCase()).toContain('keychain')
    await bare.screenshot('errors-no-keychain')
  }, 60_000)
})
