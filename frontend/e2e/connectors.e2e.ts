// MCP connectors through the real app: add the npm server-everything as a
// stdio connector in the form, see it become ready with its tool count,
// break its command and see the error with the reason node printed on
// stderr, then switch it on in a chat's Tools panel and watch the tools
// revision move.
import {afterAll, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import type {Locator, Page} from 'playwright-core'
import {expectReadable} from './chatkit'
import {killAll, launchApp, repoRoot} from './harness'

afterAll(killAll)

const nodeModules = process.env.MAESTRO_MCP_NODE_MODULES ?? join(repoRoot, '.ci', 'mcp', 'node_modules')
const everything = join(nodeModules, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
const missing = '/nonexistent/maestro-e2e/server.js'

/** The card of the only connector. */
function card(page: Page): Locator {
  return page.getByTestId('connector-item').first()
}

async function fillArgs(page: Page, args: string) {
  const field = page.getByTestId('connector-args')
  await field.fill(args)
}

test.skipIf(!existsSync(everything))('a stdio connector becomes ready, breaks with the stderr reason, and toggles in a chat', async () => {
  const app = await launchApp({name: 'connectors'})
  const {page} = app
  try {
    await page.getByTestId('nav-connectors').click()
    await page.getByTestId('add-connector').click()
    const form = page.getByTestId('connector-form')
    await form.waitFor()
    await page.getByTestId('connector-name').fill('Everything')
    await page.getByTestId('connector-transport').getByRole('radio', {name: /Local command/}).click()
    await page.getByTestId('connector-command').fill('node')
    await fillArgs(page, `${everything} stdio`)
    // A first connector is on in new chats unless the form says otherwise:
    // off here, so the chat below switches it on itself.
    const newChats = page.getByTestId('connector-new-chats')
    expect(await newChats.getAttribute('aria-checked')).toBe('true')
    await newChats.click()
    await expect.poll(() => newChats.getAttribute('aria-checked')).toBe('false')

    // Test connection first: it lists the tools and saves nothing.
    await page.getByTestId('connector-test').click()
    const tested = page.getByTestId('connector-test-result')
    await expect.poll(() => tested.getAttribute('data-ok'), {timeout: 30_000}).toBe('true')
    expect(await tested.textContent()).toMatch(/Connected .*· \d+ tools/)
    expect(await tested.textContent()).toContain('echo')
    await app.screenshot('connectors-form')

    await page.getByTestId('connector-save').click()
    await expect.poll(() => form.count()).toBe(0)

    // Ready, with the number of tools the server listed.
    await expect.poll(() => card(page).getAttribute('data-state'), {timeout: 30_000}).toBe('ready')
    expect(await card(page).getByTestId('connector-state').textContent()).toBe('Ready')
    const count = (await card(page).getByTestId('connector-tools-count').textContent()) ?? ''
    expect(count).toMatch(/^ · \d+ tools$/)
    expect(Number(count.match(/\d+/)![0])).toBeGreaterThan(3)
    await app.screenshot('connectors-ready')

    // Break it: the args now name a file that does not exist.
    await card(page).getByTestId('connector-edit').click()
    await expect.poll(() => page.getByTestId('connector-args').inputValue()).toContain('server-everything')
    await fillArgs(page, `${missing} stdio`)
    await page.getByTestId('connector-save').click()
    await expect.poll(() => form.count()).toBe(0)

    // The supervisor retries with backoff: the card goes to error (between
    // retries), with node's own words.
    const error = card(page).getByTestId('connector-error')
    await expect.poll(async () => ((await error.count()) ? await error.textContent() : ''), {timeout: 30_000})
      .toContain('Cannot find module')
    expect(await error.textContent()).toContain(missing)
    expectReadable(await error.textContent())
    expect(await card(page).getByTestId('connector-state').textContent()).toBe('Error')
    const stderr = card(page).getByTestId('connector-stderr')
    expect(await stderr.textContent()).toContain(`Error: Cannot find module '${missing}'`)
    await app.screenshot('connectors-error')

    // The log drawer has the same lines, and Maestro's notes.
    await card(page).getByTestId('connector-logs').click()
    const drawer = page.getByTestId('connector-logs-drawer')
    await expect.poll(() => drawer.textContent()).toContain('Cannot find module')
    await page.waitForTimeout(300) // the slide-in
    await app.screenshot('connectors-logs')
    await page.keyboard.press('Escape')
    await expect.poll(() => drawer.count()).toBe(0)

    // Fix it again.
    await card(page).getByTestId('connector-edit').click()
    await fillArgs(page, `${everything} stdio`)
    await page.getByTestId('connector-save').click()
    await expect.poll(() => card(page).getAttribute('data-state'), {timeout: 30_000}).toBe('ready')
    const id = await card(page).getAttribute('data-connector-id')
    expect(id).toBeTruthy()

    // A chat's Tools panel: switch the connector on, then one tool off.
    await page.getByTestId('new-session').click()
    await page.getByTestId('tools-button').click()
    const panel = page.getByTestId('tools-panel')
    await panel.waitFor()
    const revision = page.getByTestId('tools-revision')
    await expect.poll(() => revision.getAttribute('data-revision')).toMatch(/^\d+$/)
    const before = Number(await revision.getAttribute('data-revision'))
    const toggle = panel.locator(`[data-testid="session-connector-toggle"][data-connector-id="${id}"]`)
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    await toggle.click()
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
    await expect.poll(() => revision.getAttribute('data-revision')).toBe(String(before + 1))

    await panel.getByRole('button', {name: /Everything/}).click()
    const echo = panel.locator('[data-testid="session-tool-toggle"][data-tool$=".echo"]')
    await echo.click()
    await expect.poll(() => echo.getAttribute('aria-checked')).toBe('false')
    await expect.poll(() => revision.getAttribute('data-revision')).toBe(String(before + 2))
    expect(await page.getByTestId('tools-button-count').textContent()).toBe(String(Number(count.match(/\d+/)![0]) - 1))
    await page.mouse.move(0, 400)
    await page.waitForTimeout(300) // the switch's transition
    await app.screenshot('tools-panel')

    // The panel survives a reopen with the stored revision.
    await page.getByTestId('tools-close').click()
    await page.getByTestId('tools-button').click()
    await expect.poll(() => page.getByTestId('tools-revision').getAttribute('data-revision')).toBe(String(before + 2))
  } finally {
    expect(await app.quit()).toBe(0)
  }
})
