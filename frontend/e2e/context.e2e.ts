// Long conversations and everyday answers, end to end (issues 14 and 18):
// a session of 400 messages seeded by maestro-seed, far larger than the
// 20,000-token window the Gemini fake is set to (its model list carries
// that window, and it refuses a request over it with the real "too long"
// error), completes a turn: Maestro compacts first, so no request is
// refused, and the list marks where the summary begins. The answer shows
// its usage line; Regenerate answers again as a new branch, and the
// versions switcher brings the first answer back.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {launchApp, repoRoot, startFakes, tempDataDir} from './harness'
import type {AppHandle, Fakes} from './harness'
import {addApiKey, bodies, docShot, expectNoRejections, inKeyringSession, lastAssistantText, pickModel, send, shutdown, waitForReply} from './chatkit'

let fakes: Fakes
let app: AppHandle

const WINDOW = 20_000
const SEEDED = 400
const seeder = join(repoRoot, 'build', 'bin', 'maestro-seed')

/** Fills dataDir with one session of n messages, which the app reopens at launch. */
function seed(dataDir: string, n: number) {
  const args = ['-dir', dataDir, String(n)]
  if (existsSync(seeder)) execFileSync(seeder, args)
  else execFileSync('go', ['run', './backend/store/cmd/maestro-seed', ...args], {cwd: repoRoot})
}

describe.skipIf(!inKeyringSession)('a long conversation', () => {
  const dataDir = tempDataDir()

  beforeAll(async () => {
    fakes = await startFakes('context-fakes')
    const script = fakes.script('gemini')
    await script.reset()
    await script.post('window', {tokens: WINDOW})
    // The agent's summarising requests end with this instruction (backend/agent compact.go).
    await script.post('route', {contains: 'Write the summary now.', reply: {text: 'SUMMARY: a long pairing session on retries, sorting and caching.'}})
    seed(dataDir, SEEDED)
    app = await launchApp({name: 'context', dataDir, env: fakes.env})
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  test('completes a turn by compacting first: no request refused, a summary marker in the list', async () => {
    const {page} = app
    await addApiKey(page, 'gemini')
    await page.locator('[data-testid="session-item"] .session-main').first().click()
    await page.getByTestId('composer').waitFor()
    await pickModel(page, 'gemini')

    await fakes.script('gemini').push({text: 'Here is where we are.'})
    await send(page, 'Where are we?')
    await waitForReply(page, 'Here is where we are.', 60_000)
    await page.getByTestId('send').waitFor()
    await expectNoRejections(fakes, 'gemini')

    // Several summarising requests, then the answer, which carries the summary.
    const sent = await bodies(fakes, 'gemini')
    expect(sent.length).toBeGreaterThan(2)
    expect(JSON.stringify(sent.at(-1))).toContain('SUMMARY: a long pairing session')

    // The list draws only the rows near the view: scroll up until the marker is drawn.
    const marker = page.getByTestId('summary-marker')
    // The reader's wheel: a scroll the page makes alone keeps the view at the bottom.
    await page.getByTestId('message-scroll').hover()
    for (let i = 0; i < 40 && (await marker.count()) === 0; i++) {
      await page.mouse.wheel(0, -500)
      await page.waitForTimeout(100)
    }
    await marker.first().scrollIntoViewIfNeeded()
    await expect.poll(() => marker.first().isVisible(), {timeout: 10_000}).toBe(true)
    expect(await marker.first().textContent()).toMatch(/messages above are summarised for the model/)
    await marker.first().getByTestId('summary-toggle').click()
    await expect.poll(() => page.getByTestId('summary-text').first().textContent()).toContain('SUMMARY: a long pairing session')
    await docShot(page, 'context-summary-marker')

    // The header's meter: the context after compaction, within the window.
    const meter = page.getByTestId('context-meter')
    await meter.waitFor()
    await meter.click()
    await page.getByTestId('context-panel').waitFor()
    expect(await page.getByTestId('context-tokens').textContent()).toMatch(/of 20k tokens/)
    expect(await page.getByTestId('context-summarised').textContent()).toMatch(/earlier messages/)
    await docShot(page, 'context-meter')
    await page.keyboard.press('Escape')
  }, 120_000)

  test('the answer shows its usage; Regenerate answers again as a new branch', async () => {
    const {page} = app
    await page.getByTestId('jump-to-latest').click().catch(() => {})
    const usage = page.getByTestId('usage-line').last()
    await usage.waitFor()
    expect(await usage.textContent()).toMatch(/in · \d[\d.]*k? out/)
    await docShot(page, 'usage-line')

    await fakes.script('gemini').push({text: 'A second take on where we are.'})
    await page.getByTestId('regenerate').last().click()
    await waitForReply(page, 'A second take on where we are.', 60_000)
    await page.getByTestId('send').waitFor()
    await expect.poll(() => page.getByTestId('branch-position').last().textContent()).toBe('2 / 2')
    await expectNoRejections(fakes, 'gemini')
    // The regenerated request answers the same question, without the first answer.
    const last = JSON.stringify((await bodies(fakes, 'gemini')).at(-1))
    expect(last).toContain('Where are we?')
    expect(last).not.toContain('Here is where we are.')

    await page.getByTestId('branch-prev').last().click()
    await expect.poll(() => lastAssistantText(page), {timeout: 10_000}).toContain('Here is where we are.')
    expect(await page.getByTestId('branch-position').last().textContent()).toBe('1 / 2')
  }, 120_000)
})
