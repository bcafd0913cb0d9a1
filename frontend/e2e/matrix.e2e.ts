// The per-provider end-to-end matrix (items 2–5 and 7–9 of issue 5; 1 and 6
// are in chat.e2e.ts), through the real app against the provider fakes and
// two real MCP servers: server-everything over stdio, and the in-repo
// maestro-mcp-test whose tool list this test changes while the app runs.
// For each provider, in one chat:
//   2. a tool the server adds mid-session, and one switched back on in the
//      Tools panel, are declared in the very next request and can be called
//      (on Gemini a call to an undeclared tool would end the stream with
//      UNEXPECTED_TOOL_CALL and no call);
//   3. a tool switched off in the panel, and one the server removes, are
//      gone from the next request;
//   4. Apply now while a reply streams restarts the step with the new tool
//      list, without the cancelled partial text and with the user message
//      once;
//   5. two tool calls in one step both run and both results go back;
//   7. server-everything's elicitation form is filled in the dialog and the
//      answer reaches the tool result;
//   8. its sampling request, approved in the dialog, is answered by the
//      session provider's fake;
//   9. its long-running operation shows a determinate progress bar.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import type {Page} from 'playwright-core'
import {freePort, launchApp, startFakes, waitFor} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'
import {
  PROVIDERS, addApiKey, addStdioConnector, bodies, closeTools, declaredTools, docShot, everything,
  expectNoRejections, inKeyringSession, lastAssistantText, lastCallResults, mcpTestBinary, newChat, openTools, send, setConnector,
  setTool, successful, toolSwitch, userTexts, waitForReply, shutdown,
} from './chatkit'

let fakes: Fakes
let app: AppHandle
let live: string // the maestro-mcp-test connector id
let everyId: string
let control: string // its control endpoints

async function liveTools(method: 'POST' | 'DELETE', name: string) {
  const res = await fetch(method === 'POST' ? `${control}/tools` : `${control}/tools/${name}`, {
    method,
    headers: {'content-type': 'application/json'},
    body: method === 'POST' ? JSON.stringify({name}) : undefined,
  })
  if (!res.ok) throw new Error(`${method} ${name}: ${res.status} ${await res.text()}`)
}

/** Waits until the chat's Tools panel lists (or no longer lists) a live tool. */
async function panelHas(page: Page, canonical: string, present: boolean) {
  await waitFor(`${canonical} to be ${present ? 'listed' : 'gone'} in the Tools panel`, async () => {
    const n = await (await toolSwitch(page, live, canonical)).count()
    return (n > 0) === present ? true : undefined
  }, 20_000, 100)
}

/** The requests the fake recorded since `from`. */
async function since(p: FakeProvider, from: number) {
  return (await bodies(fakes, p)).slice(from)
}

const lastCard = (page: Page) => page.getByTestId('tool-card').last()

describe.skipIf(!existsSync(everything) || !existsSync(mcpTestBinary) || !inKeyringSession)('the per-provider matrix', () => {
  beforeAll(async () => {
    fakes = await startFakes('matrix-fakes')
    app = await launchApp({name: 'matrix', env: fakes.env})
    const port = await freePort()
    control = `http://127.0.0.1:${port}`
    everyId = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
    live = await addStdioConnector(app.page, 'Live', mcpTestBinary, `-control 127.0.0.1:${port} -tools forecast,alerts`)
    await waitFor('the live server control endpoints', async () => (await fetch(`${control}/tools`)).ok || undefined)
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  for (const p of PROVIDERS) {
    test(`${p}: tools change mid-session, Apply now, parallel calls, elicitation, sampling and progress`, async () => {
      const {page} = app
      const script = fakes.script(p)
      await script.reset()
      await addApiKey(page, p)
      await newChat(page, p)
      await setConnector(page, everyId, true)
      await setConnector(page, live, true)

      // 2 + 3: the server adds radar_<p>; alerts is switched off in the panel.
      const radar = `radar_${p}`
      await liveTools('POST', radar)
      await panelHas(page, `live.${radar}`, true)
      await setTool(page, live, 'live.alerts', false)
      await closeTools(page)
      let from = (await bodies(fakes, p)).length
      await script.push({toolCalls: [{name: `live__${radar}`, args: {text: 'Oslo'}}]}, {text: `Radar checked (${p}).`})
      await send(page, 'Check the radar over Oslo.')
      await waitForReply(page, `Radar checked (${p}).`)
      await expect.poll(() => lastCard(page).getAttribute('data-status')).toBe('succeeded')
      let sent = await since(p, from)
      expect(sent).toHaveLength(2)
      expect(declaredTools(p, sent[0]), 'a tool the server added is declared in the next request').toContain(`live__${radar}`)
      expect(declaredTools(p, sent[0]), 'a tool switched off is not declared').not.toContain('live__alerts')
      expect(declaredTools(p, sent[0])).toContain('live__forecast')
      expect(lastCallResults(p, sent[1]).get(`live__${radar}`)).toContain(`${radar} ran with`)

      // 2 + 3 the other way: alerts back on in the panel; the server removes radar_<p>.
      await setTool(page, live, 'live.alerts', true)
      await liveTools('DELETE', radar)
      await panelHas(page, `live.${radar}`, false)
      await closeTools(page)
      from = (await bodies(fakes, p)).length
      await script.push({toolCalls: [{name: 'live__alerts', args: {text: 'Bergen'}}]}, {text: `No alerts (${p}).`})
      await send(page, 'Any weather alerts for Bergen?')
      await waitForReply(page, `No alerts (${p}).`)
      sent = await since(p, from)
      expect(sent).toHaveLength(2)
      expect(declaredTools(p, sent[0]), 'a tool switched back on is declared in the next request').toContain('live__alerts')
      expect(declaredTools(p, sent[0]), 'a tool the server removed is gone').not.toContain(`live__${radar}`)
      expect(lastCallResults(p, sent[1]).get('live__alerts')).toContain('alerts ran with')

      // 5: two calls in one step, on two servers.
      from = (await bodies(fakes, p)).length
      await script.push(
        {toolCalls: [{name: 'everything__echo', args: {message: `one-${p}`}}, {name: 'live__forecast', args: {text: `two-${p}`}}]},
        {text: `Both done (${p}).`},
      )
      await send(page, 'Echo one and get the forecast, at the same time.')
      await waitForReply(page, `Both done (${p}).`)
      const cards = page.getByTestId('tool-card')
      const n = await cards.count()
      expect(await cards.nth(n - 2).getAttribute('data-status')).toBe('succeeded')
      expect(await cards.nth(n - 1).getAttribute('data-status')).toBe('succeeded')
      sent = await since(p, from)
      const both = lastCallResults(p, sent[sent.length - 1])
      expect([...both.keys()]).toEqual(['everything__echo', 'live__forecast'])
      expect(both.get('everything__echo')).toContain(`Echo: one-${p}`)
      expect(both.get('live__forecast')).toContain(`two-${p}`)
      expect(successful(both.get('live__forecast')!, true)).toBe(true)

      // 4: Apply now during a slow stream, after switching forecast off.
      from = (await bodies(fakes, p)).length
      const partial = `This partial answer from ${p} streams slowly and will be thrown away when the tools change. `.repeat(3)
      await script.push({text: partial, chunkRunes: 4, delayMs: 120}, {text: `Restarted with the new tools (${p}).`})
      const ask = `Summarise the forecast tools, ${p}.`
      await send(page, ask)
      await expect.poll(() => lastAssistantText(page), {timeout: 15_000}).toContain('This partial')
      await setTool(page, live, 'live.forecast', false)
      const apply = page.getByTestId('apply-now')
      await apply.waitFor({timeout: 10_000})
      await apply.click()
      await closeTools(page)
      await waitForReply(page, `Restarted with the new tools (${p}).`)
      sent = await since(p, from)
      expect(sent.length, 'the cut attempt and the restarted one').toBe(2)
      expect(declaredTools(p, sent[0])).toContain('live__forecast')
      expect(declaredTools(p, sent[1]), 'the restarted request carries the new tool list').not.toContain('live__forecast')
      expect(declaredTools(p, sent[1])).toContain('live__alerts')
      expect(userTexts(p, sent[1]).filter((t) => t.includes(ask)), 'the user message once').toHaveLength(1)
      expect(JSON.stringify(sent[1])).not.toContain('This partial answer')
      expect(await page.locator('[data-testid="message"][data-role="user"]').filter({hasText: ask}).count(), 'the user message shown once').toBe(1)
      expect(await page.getByTestId('assistant-message').filter({hasText: 'This partial answer'}).count(), 'the cut attempt is not shown').toBe(0)

      // 9: a long-running tool shows a determinate progress bar.
      await script.push({toolCalls: [{name: 'everything__trigger-long-running-operation', args: {duration: 4, steps: 4}}]}, {text: `Operation finished (${p}).`})
      await send(page, 'Run the long operation.')
      // Asked first: its read-only hint is the server's claim.
      await page.getByTestId('approval-dialog').waitFor({timeout: 20_000})
      await page.getByTestId('approval-allow-once').click()
      const bar = lastCard(page).locator('[data-testid="tool-progress"][data-determinate="true"]')
      await bar.waitFor({timeout: 20_000})
      expect(await lastCard(page).getAttribute('data-status')).toBe('running')
      await waitForReply(page, `Operation finished (${p}).`)
      await expect.poll(() => lastCard(page).getAttribute('data-status')).toBe('succeeded')

      // 7: elicitation: the tool asks (approval first: it is not read-only), the form is filled in the dialog.
      from = (await bodies(fakes, p)).length
      await script.push({toolCalls: [{name: 'everything__trigger-elicitation-request', args: {}}]}, {text: `Thanks for the details (${p}).`})
      await send(page, 'Ask me for my details.')
      const approval = page.getByTestId('approval-dialog')
      await approval.waitFor({timeout: 20_000})
      await page.getByTestId('approval-allow-once').click()
      const form = page.getByTestId('elicitation-dialog')
      await form.waitFor({timeout: 20_000})
      expect(await page.getByTestId('elicitation-connector').textContent()).toBe('Everything')
      await page.getByTestId('elicitation-field-name').fill(`Ada Lovelace ${p}`)
      await page.getByTestId('elicitation-field-email').fill('ada@example.org')
      if (p === 'anthropic') {
        await page.waitForTimeout(400) // the dialog's fade-in
        await docShot(page, 'elicitation-form')
      }
      await page.getByTestId('elicitation-accept').click()
      await form.waitFor({state: 'detached', timeout: 10_000})
      await waitForReply(page, `Thanks for the details (${p}).`)
      sent = await since(p, from)
      const elicited = lastCallResults(p, sent[sent.length - 1]).get('everything__trigger-elicitation-request')!
      expect(elicited).toContain(`Name: Ada Lovelace ${p}`)
      expect(elicited).toContain('ada@example.org')

      // 8: sampling: approved in the dialog, answered by this provider's fake.
      from = (await bodies(fakes, p)).length
      const sampled = `Haiku sampled from the ${p} fake`
      await script.push(
        {toolCalls: [{name: 'everything__trigger-sampling-request', args: {prompt: 'Write a haiku about tools', maxTokens: 60}}]},
        {text: sampled},
        {text: `The server got its haiku (${p}).`},
      )
      await send(page, 'Let the server sample a haiku.')
      await approval.waitFor({timeout: 20_000})
      expect(await page.getByTestId('approval-dialog').textContent()).toContain('Write a haiku about tools')
      if (p === 'anthropic') {
        await page.waitForTimeout(400) // the dialog's fade-in
        await docShot(page, 'approval-dialog')
      }
      await page.getByTestId('approval-allow-once').click()
      const sampling = page.getByTestId('sampling-dialog')
      await sampling.waitFor({timeout: 20_000})
      expect(await sampling.getByTestId('sampling-message').first().textContent()).toContain('Write a haiku about tools')
      await page.getByTestId('sampling-approve').click()
      await expect.poll(() => page.getByTestId('sampling-result').textContent(), {timeout: 20_000}).toContain(sampled)
      await page.getByTestId('sampling-close').click()
      await waitForReply(page, `The server got its haiku (${p}).`)
      sent = await since(p, from)
      expect(sent.some((b) => JSON.stringify(b).includes('Write a haiku about tools') && !JSON.stringify(b).includes('Let the server sample')),
        `the sampling request went to the ${p} fake on its own`).toBe(true)
      expect(lastCallResults(p, sent[sent.length - 1]).get('everything__trigger-sampling-request')).toContain(sampled)

      await expectNoRejections(fakes, p)
      await openTools(page)
      await setTool(page, live, 'live.forecast', true)
      await closeTools(page)
    }, 180_000)
  }
})
