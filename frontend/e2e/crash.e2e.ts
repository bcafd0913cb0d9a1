// Item 11 of issue 5: kill -9 of the app while a reply streams, then a
// restart on the same data dir. The user message and the completed tool
// result are there, the cut reply is shown as interrupted with its partial
// text, and Retry continues the turn from the tool result without sending
// the partial text again.
import {afterAll, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {killAll, launchApp, startFakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, clearApiKeys, closeTools, everything, expectNoRejections, expectReadable, inKeyringSession,
  lastAssistantText, lastCallResults, newChat, send, setConnector, userTexts, waitForReply,
} from './chatkit'

afterAll(async () => {
  await killAll()
  clearApiKeys()
})

const P = 'gemini'

test.skipIf(!existsSync(everything) || !inKeyringSession)('a turn cut by kill -9 survives the restart and can be retried', async () => {
  const fakes = await startFakes('crash-fakes')
  let app = await launchApp({name: 'crash', env: fakes.env})
  const {dataDir} = app
  let page = app.page
  const script = fakes.script(P)
  await addStdioConnector(page, 'Everything', 'node', `${everything} stdio`).then(async (id) => {
    await addApiKey(page, P)
    await newChat(page, P)
    await setConnector(page, id, true)
    await closeTools(page)
  })

  const partial = 'The echo came back, and here is a long explanation that streams slowly so the app dies halfway through it. '.repeat(4)
  await script.push({toolCalls: [{name: 'everything__echo', args: {message: 'before the crash'}}]}, {text: partial, chunkRunes: 3, delayMs: 100})
  const ask = 'Echo "before the crash" and explain.'
  await send(page, ask)
  // The echo is asked (its read-only hint is the server's claim): allow once.
  const dialog = page.getByTestId('approval-dialog')
  await expect.poll(async () => {
    if (await dialog.isVisible()) await page.getByTestId('approval-allow-once').click().catch(() => {})
    return page.getByTestId('tool-card').last().getAttribute('data-status')
  }, {timeout: 20_000}).toBe('succeeded')
  await expect.poll(() => lastAssistantText(page), {timeout: 20_000}).toContain('The echo came back')
  await page.waitForTimeout(1600) // past the once-a-second checkpoint
  await app.kill('SIGKILL')

  app = await launchApp({name: 'crash-restarted', env: fakes.env, dataDir})
  page = app.page
  try {
    // The last chat opens again, with everything that was completed.
    const users = page.locator('[data-testid="message"][data-role="user"]')
    await expect.poll(() => users.filter({hasText: ask}).count(), {timeout: 20_000}).toBe(1)
    const card = page.getByTestId('tool-card').first()
    await expect.poll(() => card.getAttribute('data-status'), {timeout: 10_000}).toBe('succeeded')
    const err = page.getByTestId('run-error')
    await err.waitFor({timeout: 10_000})
    expect(await err.textContent()).toContain('closed before this reply finished')
    expectReadable(await err.textContent())
    expect(await lastAssistantText(page)).toContain('The echo came back')
    await app.screenshot('crash-restarted')

    const from = (await bodies(fakes, P)).length
    await script.push({text: 'Recovered after the restart.'})
    await page.getByTestId('retry').click()
    await waitForReply(page, 'Recovered after the restart.')
    // The cut attempt stays on record, no longer offering Retry.
    await expect.poll(() => page.getByTestId('retry').count()).toBe(0)
    const sent = (await bodies(fakes, P)).slice(from)
    expect(sent).toHaveLength(1)
    expect(lastCallResults(P, sent[0]).get('everything__echo'), 'the completed tool result is sent').toContain('Echo: before the crash')
    expect(JSON.stringify(sent[0]), 'the cut reply is not sent again').not.toContain('halfway through')
    expect(userTexts(P, sent[0]).filter((t) => t.includes('before the crash')), 'the user message once').toHaveLength(1)
    await expectNoRejections(fakes, P)
    expect(await users.filter({hasText: ask}).count()).toBe(1)
  } finally {
    expect(await app.quit()).toBe(0)
    await fakes.stop()
  }
}, 150_000)
