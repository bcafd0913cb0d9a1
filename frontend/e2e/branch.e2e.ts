// Edit and resend, end to end: a question answered by the Claude fake is
// edited, the new version gets its own answer from a request that no longer
// carries the old turn, "‹" shows the old question with its old answer, and
// the branch shown survives a restart.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import type {Page} from 'playwright-core'
import {launchApp, startFakes, tempDataDir} from './harness'
import type {AppHandle, Fakes} from './harness'
import {addApiKey, bodies, inKeyringSession, newChat, send, shutdown} from './chatkit'

let fakes: Fakes
let app: AppHandle

async function texts(page: Page, testId: string): Promise<string[]> {
  return (await page.getByTestId(testId).allTextContents()).map((t) => t.trim())
}

/** The user messages' and replies' texts, in order. */
async function conversation(page: Page): Promise<string[]> {
  return page.locator('[data-testid="message"] .message-text, [data-testid="assistant-message"]').allTextContents()
}

describe.skipIf(!inKeyringSession)('edit and resend', () => {
  const dataDir = tempDataDir()

  beforeAll(async () => {
    fakes = await startFakes('branch-fakes')
    app = await launchApp({name: 'branch', dataDir, env: fakes.env})
  }, 90_000)

  afterAll(() => shutdown(app, fakes))

  test('an edited question gets its own answer; ‹ brings back the old one', async () => {
    const {page} = app
    const script = fakes.script('anthropic')
    await script.reset()

    await addApiKey(page, 'anthropic')
    await newChat(page, 'anthropic')

    await script.push({text: 'Lisbon is lovely in May.'})
    await send(page, 'When should I visit Lisbon?')
    await expect.poll(() => conversation(page), {timeout: 20_000})
      .toEqual(['When should I visit Lisbon?', 'Lisbon is lovely in May.'])
    await page.getByTestId('send').waitFor() // the reply is over

    // Edit the question.
    await script.push({text: 'Take the train from Porto.'})
    await page.getByTestId('message').first().hover()
    await page.getByTestId('message-edit').click()
    const input = page.getByTestId('message-edit-input')
    await expect.poll(() => input.inputValue()).toBe('When should I visit Lisbon?')
    await input.fill('How do I get to Lisbon?')
    await app.screenshot('branch-editing')
    await input.press('Enter')
    await expect.poll(() => conversation(page), {timeout: 20_000})
      .toEqual(['How do I get to Lisbon?', 'Take the train from Porto.'])
    expect(await texts(page, 'branch-position')).toEqual(['2 / 2'])
    await page.getByTestId('send').waitFor()
    await app.screenshot('branch-edited')

    // The edited turn was sent without the old one.
    const last = JSON.stringify((await bodies(fakes, 'anthropic')).at(-1))
    expect(last).toContain('How do I get to Lisbon?')
    expect(last).not.toContain('When should I visit Lisbon?')
    expect(last).not.toContain('Lisbon is lovely in May.')

    // Back to the first version, with its own answer.
    await page.getByTestId('branch-prev').click()
    await expect.poll(() => conversation(page), {timeout: 10_000})
      .toEqual(['When should I visit Lisbon?', 'Lisbon is lovely in May.'])
    expect(await texts(page, 'branch-position')).toEqual(['1 / 2'])
    expect(await page.getByTestId('branch-prev').isDisabled()).toBe(true)
  }, 90_000)

  test('the version shown is kept across a restart', async () => {
    expect(await app.quit()).toBe(0)
    app = await launchApp({name: 'branch-2', dataDir, env: fakes.env})
    const {page} = app
    await expect.poll(() => conversation(page), {timeout: 15_000})
      .toEqual(['When should I visit Lisbon?', 'Lisbon is lovely in May.'])
    await page.getByTestId('branch-next').click()
    await expect.poll(() => conversation(page), {timeout: 10_000})
      .toEqual(['How do I get to Lisbon?', 'Take the train from Porto.'])

    // A search hit in the version not shown opens that version at the hit.
    await page.getByTestId('session-search').fill('lovely in may')
    const hit = page.getByTestId('search-hit').first()
    await expect.poll(() => hit.textContent(), {timeout: 10_000}).toContain('lovely in May')
    await hit.click()
    await expect.poll(() => conversation(page), {timeout: 10_000})
      .toEqual(['When should I visit Lisbon?', 'Lisbon is lovely in May.'])
    expect(await page.locator('[data-testid="message"][data-found="true"]').textContent()).toContain('Lisbon is lovely in May.')
    expect(await texts(page, 'branch-position')).toEqual(['1 / 2'])
  }, 60_000)
})
