// Issue 16 through the real app (docs/E2E.md): Claude's fake as the model.
//   1. A 2026-07-28 server's tool asks with a Multi Round-Trip elicitation
//      (backend/mcp/cmd/maestro-mcp-test, a tool added with "ask"): the
//      connector card shows the negotiated protocol, the question is
//      answered in the dialog, and the answer reaches the tool's result.
//   2. A re-approval with a diff: the hostile server's rename_me, allowed
//      once (its definition pinned), turns into "Delete every file"; its
//      next call asks again, "Allow rename_me again?", with the diff of its
//      description and schema, and a denial keeps it from running.
//   3. server-everything's simulate-research-query runs as a task: the tool
//      card shows its job card (status, Cancel while it works) through to
//      Completed, and the connector's Trust drawer lists it; its audit log
//      has the calls.
//   4. server-everything's trigger-url-elicitation asks consent with the
//      server's name and the target domain first; Decline opens nothing and
//      the tool says so; Open hands the URL to the system browser (a script
//      that records it, MAESTRO_BROWSER) and the call completes; a call
//      refused until a page is visited (-32042) waits in the dialog, and
//      Continue makes it again.
//   5. "Allow read-only tools" set for one chat in its Tools panel: the
//      server's read-only echo runs there without a dialog, while another
//      chat still asks; the panel shows each tool's annotations as the
//      server's claims.
//   6. Icons: the hostile server offers javascript:, http:, a tracking
//      https: pixel, an oversized data: PNG and a data: page besides one
//      good SVG; its card and its tool's row draw the SVG and nothing else.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {freePort, launchApp, startFakes, waitFor} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, closeTools, docShot, expectNoRejections, hostileBinary, inKeyringSession,
  everything, lastAssistantText, lastCallResults, mcpTestBinary, newChat, openTools, recordingBrowser, send, setConnector,
  shutdown, toolSwitch, waitForReply,
} from './chatkit'

const P = 'anthropic'
let fakes: Fakes
let app: AppHandle
let modern: string // the maestro-mcp-test connector id
let control: string // its control endpoints
let hostile: string // the maestro-mcp-hostile connector id
let every: string // the server-everything connector id
const browser = recordingBrowser()

describe.skipIf(!existsSync(mcpTestBinary) || !existsSync(hostileBinary) || !existsSync(everything) || !inKeyringSession)('trust you can see, and the 2026-07-28 protocol', () => {
  beforeAll(async () => {
    fakes = await startFakes('trust-fakes')
    app = await launchApp({name: 'trust', env: {...fakes.env, MAESTRO_BROWSER: browser.script}})
    const port = await freePort()
    control = `http://127.0.0.1:${port}`
    modern = await addStdioConnector(app.page, 'Modern', mcpTestBinary, `-control 127.0.0.1:${port} -tools forecast`)
    await waitFor('the test server control endpoints', async () => (await fetch(`${control}/tools`)).ok || undefined)
    hostile = await addStdioConnector(app.page, 'Hostile', hostileBinary, '')
    every = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
    await addApiKey(app.page, P)
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  test('a 2026-07-28 server asks with a Multi Round-Trip elicitation, answered in the dialog', async () => {
    const {page} = app
    const res = await fetch(`${control}/tools`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({name: 'whoami', ask: 'Which city are you in?'}),
    })
    expect(res.ok).toBe(true)
    await page.getByTestId('nav-connectors').click()
    const card = page.getByTestId('connector-item').filter({hasText: 'Modern'}).first()
    await expect.poll(() => card.getByTestId('connector-protocol').textContent(), {timeout: 20_000}).toBe('MCP 2026-07-28')
    await docShot(page, 'connector-protocol')

    const script = fakes.script(P)
    await script.reset()
    await newChat(page, P)
    await setConnector(page, modern, true)
    await closeTools(page)
    await script.push({toolCalls: [{name: 'modern__whoami', args: {text: 'hello'}}]}, {text: 'You are in Oslo.'})
    await send(page, 'Where am I?')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    const form = page.getByTestId('elicitation-dialog')
    await form.waitFor({timeout: 20_000})
    expect(await form.textContent()).toContain('Which city are you in?')
    expect(await page.getByTestId('elicitation-connector').textContent()).toBe('Modern')
    await page.getByTestId('elicitation-field-answer').fill('Oslo')
    await page.waitForTimeout(400) // the dialog's fade-in
    await docShot(page, 'mrtr-elicitation')
    await page.getByTestId('elicitation-accept').click()
    await form.waitFor({state: 'detached', timeout: 10_000})
    await waitForReply(page, 'You are in Oslo.')
    const sent = await bodies(fakes, P)
    const result = lastCallResults(P, sent[sent.length - 1]).get('modern__whoami')!
    expect(result).toContain('whoami ran with')
    expect(result).toContain('answered Oslo')
    await expectNoRejections(fakes, P)
  }, 90_000)

  test('a tool changed after it was allowed asks again with the diff of its definition', async () => {
    const {page} = app
    const script = fakes.script(P)
    await script.reset()
    await newChat(page, P)
    await setConnector(page, hostile, true)
    await closeTools(page)
    // Allowed once: its definition is pinned.
    await script.push({toolCalls: [{name: 'hostile__rename_me', args: {name: 'Ada'}}]}, {text: 'Said hello.'})
    await send(page, 'Say hello to Ada.')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    expect(await page.getByTestId('approval-dialog').textContent()).not.toContain('again')
    await page.getByTestId('approval-allow-once').click()
    await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain('Said hello.')
    // The server changes rename_me.
    await script.push({toolCalls: [{name: 'hostile__arm_rename', args: {}}]}, {text: 'Armed.'})
    await send(page, 'Arm it.')
    await waitForReply(page, 'Armed.')
    // Its next call asks again, with the diff.
    await script.push({toolCalls: [{name: 'hostile__rename_me', args: {path: '/home'}}]}, {text: 'Not renamed.'})
    await send(page, 'Rename my home folder.')
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor({timeout: 20_000})
    await expect.poll(() => dialog.textContent(), {timeout: 10_000}).toContain('again?')
    const desc = page.getByTestId('diff-description')
    expect(await desc.locator('[data-op="del"]').first().textContent()).toContain('Say hello.')
    expect(await desc.locator('[data-op="add"]').first().textContent()).toContain('Delete every file.')
    expect(await page.getByTestId('diff-schema').locator('[data-op="add"]').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('"path"')]),
    )
    await page.waitForTimeout(400) // the dialog's fade-in
    await docShot(page, 'reapproval-diff')
    await page.getByTestId('approval-deny').click()
    await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain('Not renamed.')
    const sent = await bodies(fakes, P)
    expect(lastCallResults(P, sent[sent.length - 1]).get('hostile__rename_me')).toContain('denied')
    await expectNoRejections(fakes, P)
  }, 120_000)

  /** A new chat on Claude's fake with server-everything on. */
  async function everythingChat() {
    const script = fakes.script(P)
    await script.reset()
    await newChat(app.page, P)
    await setConnector(app.page, every, true)
    await closeTools(app.page)
    return script
  }

  test('a task runs with its job card through to completion, and is listed in the connector\'s drawer', async () => {
    const {page} = app
    const script = await everythingChat()
    await script.push({toolCalls: [{name: 'everything__simulate-research-query', args: {topic: 'tides'}}]}, {text: 'Research done.'})
    await send(page, 'Research tides.')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    const card = page.getByTestId('tool-card').last()
    const job = card.getByTestId('job-card')
    await job.waitFor({timeout: 20_000})
    if ((await job.getAttribute('data-status')) === 'working') {
      expect(await job.getByTestId('job-cancel').isVisible()).toBe(true)
      await docShot(page, 'task-job-card')
    }
    await waitForReply(page, 'Research done.', 60_000)
    await expect.poll(() => job.getAttribute('data-status'), {timeout: 10_000}).toBe('completed')
    expect(await job.getByTestId('job-cancel').count()).toBe(0)
    await page.getByTestId('nav-connectors').click()
    const item = page.getByTestId('connector-item').filter({hasText: 'Everything'}).first()
    await item.getByTestId('connector-trust-open').click()
    const drawer = page.getByTestId('connector-trust-drawer')
    await drawer.waitFor()
    await drawer.getByTestId('trust-tab-tasks').click()
    await expect.poll(() => drawer.getByTestId('job-card').first().getAttribute('data-status'), {timeout: 10_000}).toBe('completed')
    await drawer.getByTestId('trust-tab-audit').click()
    await expect.poll(() => drawer.getByTestId('audit-row').count(), {timeout: 10_000}).toBeGreaterThan(0)
    expect(await drawer.getByTestId('audit-tool').first().textContent()).toBe('simulate-research-query')
    expect(await drawer.locator('.audit-tool').first().getAttribute('title')).toBe('everything.simulate-research-query')
    await docShot(page, 'audit-log')
    await page.keyboard.press('Escape')
  }, 120_000)

  test('a URL elicitation asks consent with the server and the domain first; Decline opens nothing', async () => {
    const {page} = app
    const script = await everythingChat()
    await script.push(
      {toolCalls: [{name: 'everything__trigger-url-elicitation', args: {url: 'https://auth.example.com/connect?step=1', message: 'Connect your account'}}]},
      {text: 'You declined.'},
    )
    await send(page, 'Connect my account.')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    const dialog = page.getByTestId('url-consent-dialog')
    await dialog.waitFor({timeout: 20_000})
    expect(await page.getByTestId('url-consent-domain').textContent()).toContain('auth.example.com')
    expect(await page.getByTestId('url-consent-connector').textContent()).toBe('Everything')
    expect(await page.getByTestId('url-consent-server').textContent()).toContain('mcp-servers/everything')
    expect(await page.getByTestId('url-consent-url').textContent()).toBe('https://auth.example.com/connect?step=1')
    await page.waitForTimeout(400) // the dialog's fade-in
    await docShot(page, 'url-elicitation-consent')
    await page.getByTestId('url-consent-decline').click()
    await dialog.waitFor({state: 'detached', timeout: 10_000})
    await waitForReply(page, 'You declined.')
    const sent = await bodies(fakes, P)
    expect(lastCallResults(P, sent[sent.length - 1]).get('everything__trigger-url-elicitation')).toContain('decline')
    await expectNoRejections(fakes, P)
  }, 120_000)

  test('a URL elicitation accepted opens the system browser; a required one waits for Continue, then the call is made again', async () => {
    const {page} = app
    const script = await everythingChat()
    const url = 'https://auth.example.com/connect?step=2'
    const dialog = page.getByTestId('url-consent-dialog')
    /** Consents to the page on domain and returns the URL the system browser was given. */
    const consent = async (domain: string) => {
      await dialog.waitFor({timeout: 20_000})
      expect(await page.getByTestId('url-consent-connector').textContent()).toBe('Everything')
      expect(await page.getByTestId('url-consent-domain').textContent()).toContain(domain)
      const before = browser.urls().length
      await page.getByTestId('url-consent-open').click()
      return waitFor('the URL handed to the system browser', () => browser.urls()[before])
    }
    const result = async () => {
      const card = page.getByTestId('tool-card').last()
      await expect.poll(() => card.getByTestId('tool-result').textContent(), {timeout: 10_000}).toContain('User completed the URL elicitation flow')
      const sent = await bodies(fakes, P)
      return lastCallResults(P, sent[sent.length - 1]).get('everything__trigger-url-elicitation')
    }

    // Asked with elicitation/create: Open is the answer, and the server goes on.
    await script.push(
      {toolCalls: [{name: 'everything__trigger-url-elicitation', args: {url, message: 'Connect your account'}}]},
      {text: 'Connected.'},
    )
    await send(page, 'Connect my account, for real.')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    expect(await consent('auth.example.com')).toBe(url)
    await dialog.waitFor({state: 'detached', timeout: 10_000})
    await waitForReply(page, 'Connected.')
    expect(await result()).toContain(url)

    // Refused until a page is visited (URLElicitationRequiredError): the
    // dialog waits for the user to finish there; Continue makes the call
    // again, and the server now asks for its own page.
    await script.push(
      {toolCalls: [{name: 'everything__trigger-url-elicitation', args: {url, message: 'Connect again', errorPath: true}}]},
      {text: 'Connected after the prerequisite.'},
    )
    await send(page, 'Connect it once more.')
    await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    expect(await consent('modelcontextprotocol.io')).toBe('https://modelcontextprotocol.io')
    await page.getByTestId('url-consent-continue').waitFor({timeout: 10_000})
    expect(await dialog.textContent()).toContain('Finish in your browser')
    expect(await page.getByTestId('url-consent-domain').textContent()).toContain('modelcontextprotocol.io')
    await page.waitForTimeout(400) // the dialog's fade-in
    await docShot(page, 'url-elicitation-waiting')
    await page.getByTestId('url-consent-continue').click()
    expect(await consent('auth.example.com')).toBe(url)
    await waitForReply(page, 'Connected after the prerequisite.')
    expect(await result()).toContain(url)
    await expectNoRejections(fakes, P)
  }, 120_000)

  test('"allow read-only tools" in one chat runs a read-only tool there without asking; another chat still asks', async () => {
    const {page} = app
    const script = await everythingChat()
    // This chat believes the server's read-only claims.
    const echo = await toolSwitch(page, every, 'everything.echo')
    await echo.waitFor({timeout: 10_000})
    const row = page.locator(`[data-testid="session-connector"][data-connector-id="${every}"]`)
    const select = row.getByTestId('chat-policy')
    expect(await select.inputValue()).toBe('')
    expect(await select.locator('option').first().textContent()).toBe('As the connector (Ask every time)')
    const echoRow = row.locator('li.tp-tool').filter({has: page.locator('[data-tool="everything.echo"]')})
    expect(await echoRow.textContent()).toContain('Read-only')
    await select.selectOption('read_only')
    await expect.poll(() => select.isEnabled()).toBe(true)
    await echoRow.scrollIntoViewIfNeeded()
    await docShot(page, 'tools-panel-chat-policy')
    await closeTools(page)
    await script.push({toolCalls: [{name: 'everything__echo', args: {message: 'no question'}}]}, {text: 'Echoed without asking.'})
    await send(page, 'Echo something.')
    await waitForReply(page, 'Echoed without asking.')
    expect(await page.getByTestId('approval-dialog').count()).toBe(0)
    let sent = await bodies(fakes, P)
    expect(lastCallResults(P, sent[sent.length - 1]).get('everything__echo')).toContain('no question')
    // The panel remembers the chat's choice.
    await openTools(page)
    await toolSwitch(page, every, 'everything.echo')
    expect(await select.inputValue()).toBe('read_only')
    await closeTools(page)

    // Another chat follows the connector's policy: it asks.
    const other = await everythingChat()
    await other.push({toolCalls: [{name: 'everything__echo', args: {message: 'asked first'}}]}, {text: 'Echoed after asking.'})
    await send(page, 'Echo something else.')
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor({timeout: 20_000})
    expect(await dialog.textContent()).toContain('echo')
    await page.getByTestId('approval-allow-once').click()
    await waitForReply(page, 'Echoed after asking.')
    sent = await bodies(fakes, P)
    expect(lastCallResults(P, sent[sent.length - 1]).get('everything__echo')).toContain('asked first')

    // The connector's own policy, set in its Trust drawer, is what "as the
    // connector" means in a chat's panel; the server keeps running.
    await page.getByTestId('nav-connectors').click()
    const card = page.getByTestId('connector-item').filter({hasText: 'Everything'}).first()
    await card.getByTestId('connector-trust-open').click()
    const drawer = page.getByTestId('connector-trust-drawer')
    await drawer.getByTestId('policy-all').click() // a controlled radio: checked once Go answers
    await expect.poll(() => drawer.getByTestId('policy-all').isChecked()).toBe(true)
    await page.keyboard.press('Escape')
    await drawer.waitFor({state: 'detached'})
    expect(await card.getAttribute('data-state')).toBe('ready')
    await everythingChat()
    await toolSwitch(page, every, 'everything.echo')
    expect(await select.locator('option').first().textContent()).toBe('As the connector (Allow everything)')
    await closeTools(page)
    await page.getByTestId('nav-connectors').click()
    await card.getByTestId('connector-trust-open').click()
    await drawer.getByTestId('policy-ask').click()
    await expect.poll(() => drawer.getByTestId('policy-ask').isChecked()).toBe(true)
    await page.keyboard.press('Escape')
    await expectNoRejections(fakes, P)
  }, 120_000)

  test('a server\'s icons: the card and the tool row draw the one safe icon and nothing a hostile server slipped in', async () => {
    const {page} = app
    await page.getByTestId('nav-connectors').click()
    const card = page.getByTestId('connector-item').filter({hasText: 'Hostile'}).first()
    const icon = card.getByTestId('connector-server-icon')
    await icon.waitFor({timeout: 20_000})
    const src = (await icon.getAttribute('src'))!
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true)
    expect(await card.locator('img').count()).toBe(1)
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    // Nothing else the server offered reached the window.
    const html = await page.content()
    for (const bad of ['javascript:', 'tracker.example', 'data:text/html']) expect(html).not.toContain(bad)
    await docShot(page, 'connector-icons')

    await newChat(page, P)
    await setConnector(page, hostile, true)
    const row = page.locator(`[data-testid="session-connector"][data-connector-id="${hostile}"]`)
    expect(await row.getByTestId('session-connector-icon').getAttribute('src')).toBe(src)
    await (await toolSwitch(page, hostile, 'hostile.read_notes')).waitFor({timeout: 10_000})
    const notes = row.locator('li.tp-tool').filter({has: page.locator('[data-tool="hostile.read_notes"]')})
    expect(await notes.locator('img.tp-tool-icon').getAttribute('src')).toBe(src)
    expect(await row.locator('li.tp-tool img').count()).toBe(1)
    await closeTools(page)
  }, 60_000)
})
