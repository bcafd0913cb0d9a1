// Issue 15 (and issue 18's attachments) through the real app, against the
// three providers' fakes and server-everything over stdio:
//   - for each provider: "/" opens the prompt menu; completable-prompt's
//     form takes "Engineering" and "Alice" from the server's completions;
//     the prompt's text is inserted, sent, and the fake sees it in its wire
//     shape; "@" opens the resource picker and a resource attached from it
//     reaches the fake with its URI and text;
//   - a file Claude does not take, attached by the paperclip, is refused as
//     text before anything is sent;
//   - a get-resource-links tool result renders its links, and one opens
//     inline (resources/read);
//   - a resource attached to a SENT message stays followed, and is followed
//     again when the chat is opened after a restart: when the server says it
//     changed, the sent chip shows "updated", and Refresh puts the fresh read
//     into the draft of the next message.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import type {Page} from 'playwright-core'
import {launchApp, startFakes} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, closeTools, docShot, everything, expectNoRejections, expectReadable, inKeyringSession, newChat,
  PROVIDERS, setConnector, shutdown, userTexts, waitForReply,
} from './chatkit'

let fakes: Fakes
let app: AppHandle
let everyId: string
const PROMOTE = 'Please promote Alice to the head of the Engineering team.'

/** A new chat on p with server-everything on, its Tools panel closed. */
async function everythingChat(page: Page, p: FakeProvider) {
  await fakes.script(p).reset()
  await addApiKey(page, p)
  await newChat(page, p)
  await setConnector(page, everyId, true)
  await closeTools(page)
}

/**
 * Attaches the first resource the "@" picker lists to the draft "text @"
 * and returns its URI; the chip is shown and the "@…" is gone.
 */
async function attachFirstResource(page: Page, text: string, shot?: string): Promise<string> {
  const composer = page.getByTestId('composer')
  await composer.fill(`${text} @`)
  const picker = page.getByTestId('resource-picker')
  await picker.waitFor()
  await page.getByTestId('picker-resource').first().waitFor()
  if (shot) await docShot(page, shot)
  const first = page.getByTestId('picker-resource').first()
  const uri = (await first.getAttribute('data-uri')) ?? ''
  await first.click()
  await picker.waitFor({state: 'detached'})
  await expect.poll(() => page.getByTestId('attachment-chip').count(), {timeout: 15_000}).toBe(1)
  await expect.poll(() => composer.inputValue(), {timeout: 10_000}).toBe(`${text} `)
  return uri
}

describe.skipIf(!existsSync(everything) || !inKeyringSession)('prompts, resources and attachments in the composer', () => {
  beforeAll(async () => {
    fakes = await startFakes('compose-fakes')
    app = await launchApp({name: 'compose', env: fakes.env})
    everyId = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  for (const p of PROVIDERS) {
    test(`${p}: a prompt with completions from the server, and a resource attached with @, reach the fake`, async () => {
      const {page} = app
      const script = fakes.script(p)
      const shots = p === 'anthropic'
      await everythingChat(page, p)
      const composer = page.getByTestId('composer')

      // "/" → the menu, filtered → the form with the server's completions.
      await composer.fill('/')
      await page.getByTestId('prompt-option').first().waitFor()
      if (shots) await docShot(page, 'compose-slash-menu')
      await composer.fill('/completable')
      await expect.poll(() => page.getByTestId('prompt-option').count()).toBe(1)
      await composer.press('Enter')
      const department = page.getByTestId('field-department')
      await department.waitFor()
      await department.fill('Eng')
      await page.getByTestId('completion').filter({hasText: 'Engineering'}).click()
      await expect.poll(() => department.inputValue()).toBe('Engineering')
      const name = page.getByTestId('field-name')
      await name.click()
      await page.getByTestId('completion').filter({hasText: 'Alice'}).click()
      if (shots) await docShot(page, 'compose-prompt-form')
      await page.getByTestId('prompt-insert').click()
      await expect.poll(() => page.getByTestId('prompt-error').count().then(async (n) => (n ? await page.getByTestId('prompt-error').textContent() : await composer.inputValue())), {timeout: 15_000}).toBe(PROMOTE)
      await script.push({text: `Promoted (${p}).`})
      await composer.press('Enter')
      await waitForReply(page, `Promoted (${p}).`)
      let last = (await bodies(fakes, p)).at(-1)
      expect(userTexts(p, last), `${p}: the user texts of the request`).toContain(PROMOTE)

      // "@" → the picker → a resource in the message the fake gets.
      const uri = await attachFirstResource(page, 'What does this say?', shots ? 'compose-resource-picker' : undefined)
      await script.push({text: `It says what it says (${p}).`})
      await composer.press('End')
      await composer.type('Tell me.')
      await composer.press('Enter')
      await waitForReply(page, `It says what it says (${p}).`)
      last = (await bodies(fakes, p)).at(-1)
      const texts = userTexts(p, last)
      expect(texts, `${p}: the question in the user turn`).toContain('What does this say? Tell me.')
      // The resource as a user text: its header (name, URI, server) over its content.
      const resource = texts.find((t) => t.includes(uri)) ?? ''
      expect(resource, `${p}: the resource in the user turn`).toMatch(/^\[resource .* from Everything/)
      expect(resource.split('\n').slice(1).join('\n').trim(), `${p}: the resource's text`).not.toBe('')
      await expect.poll(() => page.getByTestId('message-attachment').count()).toBeGreaterThan(0)
      await expectNoRejections(fakes, p)
    }, 120_000)
  }

  test('a file Claude does not take is refused as text before sending', async () => {
    const p = 'anthropic'
    const {page} = app
    await everythingChat(page, p)
    const composer = page.getByTestId('composer')
    // An image type Claude does not take (JPEG, PNG, GIF, WebP only), by the
    // paperclip: refused as text before sending, and Send stays off.
    const sent = (await bodies(fakes, p)).length
    const tiff = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(2048, 0)])
    await page.getByTestId('attach-input').setInputFiles({name: 'scan.tiff', mimeType: 'image/tiff', buffer: tiff})
    const refusal = page.getByTestId('attachment-refusal')
    await refusal.waitFor({timeout: 15_000})
    expect(await refusal.textContent()).toMatch(/scan\.tiff/)
    expectReadable(await refusal.textContent())
    await composer.fill('Read the scan')
    await docShot(page, 'compose-chips')
    expect(await page.getByTestId('send').isDisabled()).toBe(true)
    await page.getByRole('button', {name: 'Remove scan.tiff'}).click()
    await refusal.waitFor({state: 'detached'})
    expect((await bodies(fakes, p)).length).toBe(sent)
    await expectNoRejections(fakes, p)
  }, 60_000)

  test('a get-resource-links result renders its links, and one opens inline', async () => {
    const p = 'anthropic'
    const {page} = app
    await everythingChat(page, p)
    await fakes.script(p).push({toolCalls: [{name: 'everything__get-resource-links', args: {count: 2}}]}, {text: 'Two links.'})
    const composer = page.getByTestId('composer')
    await composer.fill('Links please')
    await composer.press('Enter')
    await waitForReply(page, 'Two links.')
    const card = page.getByTestId('tool-card').last()
    await expect.poll(() => card.getAttribute('data-status'), {timeout: 10_000}).toBe('succeeded')
    const head = card.locator('.tool-head')
    if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click()
    const links = card.getByTestId('resource-link')
    await expect.poll(() => links.count(), {timeout: 10_000}).toBe(2)
    const link = links.filter({hasText: 'Text Resource 2'})
    expect(await link.getAttribute('data-uri')).toBe('demo://resource/dynamic/text/2')
    await link.getByTestId('resource-link-open').click()
    await expect.poll(() => link.getByTestId('resource-body').textContent(), {timeout: 15_000}).toContain('Resource 2: This is a plaintext resource')
    await docShot(page, 'compose-resource-link')
    await expectNoRejections(fakes, p)
  }, 60_000)

  test('a sent resource the server updates shows "updated", and Refresh puts the fresh read in the next message', async () => {
    const p = 'anthropic'
    const {page} = app
    const script = fakes.script(p)
    await everythingChat(page, p)
    const composer = page.getByTestId('composer')

    // A dynamic text resource, by its template (its text says when it was read).
    await composer.fill('Watch this @')
    await page.getByTestId('resource-picker').waitFor()
    await page.getByTestId('picker-template').filter({hasText: 'Dynamic Text Resource'}).click()
    await page.getByTestId('field-resourceId').fill('4')
    await page.getByTestId('template-attach').click()
    await expect.poll(() => page.getByTestId('attachment-chip').count(), {timeout: 15_000}).toBe(1)
    const uri = 'demo://resource/dynamic/text/4'
    await script.push({text: 'Watching.'})
    await composer.press('Enter')
    await waitForReply(page, 'Watching.')
    const sentChip = page.locator('[data-testid="message-attachment"][data-kind="resource"]').first()
    await sentChip.waitFor()
    expect(await sentChip.textContent()).toContain('Dynamic Text Resource (resourceId: 4)') // the template's name and what filled it
    expect(await page.getByTestId('sent-updated').count()).toBe(0)

    // The model turns the server's simulated updates on (every 5 s for what
    // the client follows): the sent chip says "updated".
    await script.push({toolCalls: [{name: 'everything__toggle-subscriber-updates', args: {}}]}, {text: 'Updates are on.'})
    await composer.fill('Turn the updates on')
    await composer.press('Enter')
    await waitForReply(page, 'Updates are on.')
    await expect.poll(() => sentChip.getByTestId('sent-updated').count(), {timeout: 20_000}).toBe(1)
    expect(await sentChip.getByTestId('sent-updated').textContent()).toBe('updated')
    await docShot(page, 'compose-resource-updated')

    // Refresh → the fresh read is a chip of the draft, and the next message carries it.
    await sentChip.getByTestId('sent-refresh').click()
    const draftChip = page.getByTestId('attachment-chip')
    await expect.poll(() => draftChip.count(), {timeout: 15_000}).toBe(1)
    expect(await draftChip.getAttribute('title')).toBe(uri)
    await expect.poll(() => sentChip.getByTestId('sent-updated').count()).toBe(0)
    await script.push({text: 'It changed.'})
    await composer.fill('What does it say now?')
    await composer.press('Enter')
    await waitForReply(page, 'It changed.')
    const last = (await bodies(fakes, p)).at(-1)
    // The last user turn: the question and the fresh read (the first message keeps its own).
    const texts = userTexts(p, last)
    const turn = texts.slice(texts.lastIndexOf('What does it say now?')).join('\n')
    expect(turn).toContain('What does it say now?')
    expect(turn).toContain(`${uri} from Everything`)
    expect(texts.filter((t) => t.includes('Resource 4: This is a plaintext resource created at'))).toHaveLength(2)
    await expectNoRejections(fakes, p)

    // After a restart (a new server process, nothing followed in Go) the
    // opened chat follows its sent resources again.
    expect(await app.quit()).toBe(0)
    app = await launchApp({dataDir: app.dataDir, name: 'compose-2', env: fakes.env})
    const again = app.page
    await again.getByTestId('session-item').filter({hasText: 'Watch this'}).click()
    const firstChip = again.locator('[data-testid="message-attachment"][data-kind="resource"]').first()
    await firstChip.waitFor({timeout: 15_000})
    expect(await again.getByTestId('sent-updated').count()).toBe(0)
    await script.push({toolCalls: [{name: 'everything__toggle-subscriber-updates', args: {}}]}, {text: 'Updates are on again.'})
    await again.getByTestId('composer').fill('Turn the updates on again')
    await again.getByTestId('composer').press('Enter')
    await waitForReply(again, 'Updates are on again.')
    await expect.poll(() => firstChip.getByTestId('sent-updated').count(), {timeout: 20_000}).toBe(1)
    await expectNoRejections(fakes, p)
  }, 120_000)
})
