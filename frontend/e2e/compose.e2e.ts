// Issue 15 (and issue 18's attachments) through the real app, against the
// Claude fake and server-everything over stdio:
//   - "/" opens the prompt menu; completable-prompt's form takes
//     "Engineering" from the server's completions; the prompt's text is
//     inserted, sent, and the fake sees it;
//   - "@" opens the resource picker; a resource attached from it reaches
//     the fake with its text.
//   - a file Claude does not take, attached by the paperclip, is refused as
//     text before anything is sent.
// Not yet covered end to end: a resource link opened inline from a tool
// result (Vitest covers it).
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {launchApp, startFakes} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  addApiKey, addStdioConnector, bodies, closeTools, docShot, everything, expectNoRejections, expectReadable, inKeyringSession, newChat,
  setConnector, shutdown, userTexts, waitForReply,
} from './chatkit'

let fakes: Fakes
let app: AppHandle
let everyId: string
const p = 'anthropic' as const

describe.skipIf(!existsSync(everything) || !inKeyringSession)('prompts, resources and attachments in the composer', () => {
  beforeAll(async () => {
    fakes = await startFakes('compose-fakes')
    app = await launchApp({name: 'compose', env: fakes.env})
    everyId = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  test('a prompt with completions, an attached resource, a refused file', async () => {
    const {page} = app
    const script = fakes.script(p)
    await script.reset()
    await addApiKey(page, p)
    await newChat(page, p)
    await setConnector(page, everyId, true)
    await closeTools(page)
    const composer = page.getByTestId('composer')

    // "/" → the menu, filtered → the form with the server's completions.
    await composer.fill('/')
    await page.getByTestId('prompt-option').first().waitFor()
    await docShot(page, 'compose-slash-menu')
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
    await docShot(page, 'compose-prompt-form')
    await page.getByTestId('prompt-insert').click()
    await expect.poll(() => page.getByTestId('prompt-error').count().then(async (n) => (n ? await page.getByTestId('prompt-error').textContent() : await composer.inputValue())), {timeout: 15_000}).toBe('Please promote Alice to the head of the Engineering team.')
    await script.push({text: 'Promoted.'})
    await composer.press('Enter')
    await waitForReply(page, 'Promoted.')
    let last = (await bodies(fakes, p)).at(-1)
    expect(userTexts(p, last).join('\n')).toContain('Please promote Alice to the head of the Engineering team.')

    // "@" → the picker → a resource in the message the fake gets.
    await composer.fill('What does this say? @')
    const picker = page.getByTestId('resource-picker')
    await picker.waitFor()
    await page.getByTestId('picker-resource').first().waitFor()
    await docShot(page, 'compose-resource-picker')
    const first = page.getByTestId('picker-resource').first()
    const uri = (await first.getAttribute('data-uri')) ?? ''
    await first.click()
    await picker.waitFor({state: 'detached'})
    await expect.poll(() => page.getByTestId('attachment-chip').count(), {timeout: 15_000}).toBe(1)
    await expect.poll(() => composer.inputValue(), {timeout: 10_000}).toBe('What does this say? ')
    await script.push({text: 'It says what it says.'})
    await composer.press('End')
    await composer.type('Tell me.')
    await composer.press('Enter')
    await waitForReply(page, 'It says what it says.')
    last = (await bodies(fakes, p)).at(-1)
    expect(JSON.stringify(last)).toContain(uri)
    await expect.poll(() => page.getByTestId('message-attachment').count()).toBeGreaterThan(0)

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
  }, 240_000)
})
