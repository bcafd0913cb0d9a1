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
//      the tool says so.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {freePort, launchApp, startFakes, waitFor} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, closeTools, docShot, expectNoRejections, hostileBinary, inKeyringSession,
  everything, lastAssistantText, lastCallResults, mcpTestBinary, newChat, send, setConnector, shutdown, waitForReply,
} from './chatkit'

const P = 'anthropic'
let fakes: Fakes
let app: AppHandle
let modern: string // the maestro-mcp-test connector id
let control: string // its control endpoints
let hostile: string // the maestro-mcp-hostile connector id
let every: string // the server-everything connector id

describe.skipIf(!existsSync(mcpTestBinary) || !existsSync(hostileBinary) || !existsSync(everything) || !inKeyringSession)('trust you can see, and the 2026-07-28 protocol', () => {
  beforeAll(async () => {
    fakes = await startFakes('trust-fakes')
    app = await launchApp({name: 'trust', env: fakes.env})
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
    expect(await drawer.getByTestId('audit-tool').first().textContent()).toBe('everything.simulate-research-query')
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
})
