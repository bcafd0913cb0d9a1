// A chat turn with an MCP tool call, end to end, for each provider: an API
// key on the Accounts page, the provider's first model in the picker,
// server-everything switched on in the chat's Tools panel, then the fake
// scripts a call to its echo tool. Allowed once, the follow-up request
// carries the result in the provider's own shape; denied, it carries an
// error envelope.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {launchApp, startFakes} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  PROVIDERS, addApiKey, addStdioConnector, bodies, closeTools, docShot, everything, inKeyringSession,
  lastAssistantText, lastCallResults, newChat, send, setConnector, successful, shutdown,
} from './chatkit'

/** The exposed name of server-everything's echo for a connector named "Everything". */
const ECHO = 'everything__echo'
// server-everything marks echo readOnlyHint: true; that is the server's
// claim and grants nothing, so the echo is asked and allowed once. The denial
// uses a tool that is not read-only (harmless if it ran).
const TOGGLE = 'everything__toggle-simulated-logging'

let fakes: Fakes
let app: AppHandle
let connectorId: string

describe.skipIf(!existsSync(everything) || !inKeyringSession)('a tool-call turn with each provider', () => {
  beforeAll(async () => {
    fakes = await startFakes('chat-fakes')
    app = await launchApp({name: 'chat', env: fakes.env})
    connectorId = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
  }, 90_000)

  afterAll(() => shutdown(app, fakes))

  for (const p of PROVIDERS) {
    test(`${p}: an allowed echo call returns its result, a denied one an error envelope`, async () => {
      const {page} = app
      const script = fakes.script(p)
      await script.reset()

      await addApiKey(page, p)
      await newChat(page, p)
      await setConnector(page, connectorId, true)
      await closeTools(page)

      // 1. The echo call: the dialog asks (read-only is the server's claim);
      // allow once.
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
      let sent = await bodies(fakes, p)
      expect(sent.length).toBeGreaterThanOrEqual(2)
      const ok = lastCallResults(p, sent[sent.length - 1]).get(ECHO)!
      expect(ok).toContain('Echo: hi')
      expect(successful(ok, true), ok).toBe(true)
      if (p === 'anthropic') await docShot(page, 'tool-call-turn')

      // 2. A tool that is not read-only either: the dialog asks; deny.
      const done2 = `No toggling then (${p}).`
      await script.push({toolCalls: [{name: TOGGLE, args: {}}]}, {text: done2})
      await send(page, 'Toggle the simulated logging.')
      await dialog.waitFor({timeout: 20_000})
      expect(await page.getByTestId('approval-tool').textContent()).toContain('toggle-simulated-logging')
      await page.getByTestId('approval-deny').click()
      await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain(done2)
      await expect.poll(() => page.getByTestId('tool-card').last().getAttribute('data-status'), {timeout: 10_000}).toBe('denied')
      sent = await bodies(fakes, p)
      const denied = lastCallResults(p, sent[sent.length - 1]).get(TOGGLE)!
      expect(successful(denied, false), denied).toBe(true)
      expect(denied).toContain('denied')
    }, 60_000)
  }
})
