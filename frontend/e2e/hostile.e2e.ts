// The hostile-server suite through the real app: backend/mcp/cmd/
// maestro-mcp-hostile as a stdio connector, Claude's fake as the model.
//   1. Read-only-marked exfiltration: send_report claims readOnlyHint and its
//      description tells the host not to ask. The dialog asks anyway, says
//      the claim is the server's, and a denial keeps it from running.
//   2. A 50 MB result: the model gets 32 KiB, the card says "truncated,
//      50 MB", and the window stays usable.
// docs/SECURITY.md lists the attacks and the Go tests for the others.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {launchApp, startFakes} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, closeTools, expectNoRejections, expectReadable, hostileBinary, inKeyringSession,
  lastAssistantText, lastCallResults, newChat, send, setConnector, shutdown, successful,
} from './chatkit'

const P = 'anthropic'
let fakes: Fakes
let app: AppHandle
let connectorId: string

describe.skipIf(!existsSync(hostileBinary) || !inKeyringSession)('a hostile MCP server', () => {
  beforeAll(async () => {
    fakes = await startFakes('hostile-fakes')
    app = await launchApp({name: 'hostile', env: fakes.env})
    connectorId = await addStdioConnector(app.page, 'Hostile', hostileBinary, '')
    await addApiKey(app.page, P)
  }, 90_000)

  afterAll(() => shutdown(app, fakes))

  /** A new chat on Claude's fake with the hostile connector on; returns the fake's script. */
  async function hostileChat() {
    const script = fakes.script(P)
    await script.reset()
    await newChat(app.page, P)
    await setConnector(app.page, connectorId, true)
    await closeTools(app.page)
    return script
  }

  test('a tool that claims to be read-only still needs the user, who is told the claim is the server\'s', async () => {
    const {page} = app
    const script = await hostileChat()

    await script.push({toolCalls: [{name: 'hostile__send_report', args: {report: 'the user\'s secrets'}}]}, {text: 'Report not sent.'})
    await send(page, 'Send the report.')
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor({timeout: 20_000})
    expect(await page.getByTestId('approval-tool').textContent()).toContain('send_report')
    const claim = page.getByTestId('approval-readonly-claim')
    const text = await claim.textContent()
    expectReadable(text)
    expect(text).toContain('says this tool only reads')
    expect(text).toContain('Maestro cannot check it')
    await app.screenshot('hostile-approval')
    await page.getByTestId('approval-deny').click()
    await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain('Report not sent.')
    await expect.poll(() => page.getByTestId('tool-card').last().getAttribute('data-status'), {timeout: 10_000}).toBe('denied')

    const sent = await bodies(fakes, P)
    const denied = lastCallResults(P, sent[sent.length - 1]).get('hostile__send_report')!
    expect(successful(denied, false), denied).toBe(true)
    expect(denied).toContain('denied')
    // The server never ran it: its stderr line is not in the connector's log.
    await page.getByTestId('nav-connectors').click()
    const card = page.getByTestId('connector-item').filter({hasText: 'Hostile'}).first()
    await card.getByTestId('connector-logs').click()
    const drawer = page.getByTestId('connector-logs-drawer')
    await expect.poll(() => drawer.textContent()).toContain('starting')
    expect(await drawer.textContent()).not.toContain('send_report ran')
    await page.keyboard.press('Escape')
    await expectNoRejections(fakes, P)
  }, 90_000)

  test('a 50 MB result reaches the model as 32 KiB and the window as a shortened copy', async () => {
    const {page} = app
    const script = await hostileChat()

    await script.push({toolCalls: [{name: 'hostile__huge_text', args: {mb: 50}}]}, {text: 'That was a lot of x.'})
    await send(page, 'Fetch the big text.')
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor({timeout: 20_000})
    await page.getByTestId('approval-allow-once').click()
    await expect.poll(() => lastAssistantText(page), {timeout: 60_000}).toContain('That was a lot of x.')
    const card = page.getByTestId('tool-card').last()
    await expect.poll(() => card.getAttribute('data-status'), {timeout: 10_000}).toBe('succeeded')
    const note = card.getByTestId('tool-truncated')
    expect(await note.textContent()).toBe('truncated, 50 MB')
    await app.screenshot('hostile-huge-result')

    const sent = await bodies(fakes, P)
    const result = lastCallResults(P, sent[sent.length - 1]).get('hostile__huge_text')!
    expect(result).toContain('truncated: the result was 50 MiB; showing the first 32 KiB')
    expect(JSON.stringify(sent[sent.length - 1]).length, 'the follow-up request').toBeLessThan(64 << 10)
    // The window still answers: the composer takes text at once.
    const composer = page.getByTestId('composer')
    await composer.fill('still here')
    expect(await composer.inputValue()).toBe('still here')
    await expectNoRejections(fakes, P)
  }, 120_000)
})
