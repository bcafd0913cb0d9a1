// Issue 18's attachments and math through the real app, against the three
// provider fakes (which refuse what the real services refuse):
//   - a PNG, a PDF and a Markdown note attached by the paperclip show as
//     chips, are sent, and reach each provider in its own shape (Claude's
//     image and document blocks, Gemini's inlineData, ChatGPT's input_image
//     and input_file); the sent image shows inline;
//   - a dropped image and a pasted file are attached too; an image over
//     Claude's 5 MiB limit is refused as text before anything is sent;
//   - after a restart (pages carry references, not bytes) the sent image is
//     still shown, the note opens to its text, and the PDF is saved through
//     the app's save dialog;
//   - $…$ and $$…$$ in an answer are rendered by KaTeX.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import type {Page} from 'playwright-core'
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {launchApp, removeDir, startFakes, tempDataDir, waitFor} from './harness'
import type {AppHandle, FakeProvider, Fakes} from './harness'
import {
  addApiKey, bodies, docShot, expectNoRejections, expectReadable, inKeyringSession, newChat, PROVIDERS, shutdown, waitForReply, type Json,
} from './chatkit'
import {noisePNG, onePagePDF, picturePNG} from './testFiles'

let fakes: Fakes
let app: AppHandle
let dataDir: string
const png = picturePNG()
const pdf = onePagePDF('Quarterly report: revenue up 12%')
const note = '# Shopping\n\nMilk, eggs and 42 lemons.\n'
const files = [
  {name: 'sky.png', mimeType: 'image/png', buffer: png},
  {name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf},
  {name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(note)},
]

/** What of the three files the last user turn of a request carries, read in the provider's wire shape. */
function sentFiles(p: FakeProvider, body: Json): {image?: string; pdf?: string; text: string} {
  if (p === 'anthropic') {
    const blocks: Json[] = (body.messages as Json[]).filter((m) => m.role === 'user').at(-1).content
    const image = blocks.find((b) => b.type === 'image' && b.source.type === 'base64' && b.source.media_type === 'image/png')
    const doc = blocks.find((b) => b.type === 'document' && b.source.type === 'base64' && b.source.media_type === 'application/pdf')
    const text = blocks.find((b) => b.type === 'document' && b.source.type === 'text' && b.title === 'notes.md')
    return {image: image?.source.data, pdf: doc?.source.data, text: text?.source.data ?? ''}
  }
  if (p === 'gemini') {
    const contents: Json[] = body.contents ?? body.request.contents
    const parts: Json[] = contents.filter((c) => c.role === 'user').at(-1).parts
    const inline = (mime: string) => parts.find((x) => x.inlineData?.mimeType === mime)?.inlineData.data
    return {image: inline('image/png'), pdf: inline('application/pdf'), text: parts.filter((x) => typeof x.text === 'string').map((x) => x.text).join('\n')}
  }
  const content: Json[] = (body.input as Json[]).filter((x) => x.role === 'user').at(-1).content
  const image = content.find((c) => c.type === 'input_image')?.image_url as string | undefined
  const file = content.find((c) => c.type === 'input_file' && c.filename === 'report.pdf')?.file_data as string | undefined
  return {
    image: image?.replace(/^data:image\/png;base64,/, ''),
    pdf: file?.replace(/^data:application\/pdf;base64,/, ''),
    text: content.filter((c) => c.type === 'input_text').map((c) => c.text).join('\n'),
  }
}

/** The natural width of the last sent image, once it has loaded (0 before). */
async function lastImageWidth(page: Page): Promise<number> {
  const imgs = page.getByTestId('message-attachment-image')
  const n = await imgs.count()
  return n ? imgs.nth(n - 1).evaluate((e: HTMLImageElement) => (e.complete ? e.naturalWidth : 0)) : 0
}

/**
 * Presses Enter in the composer once Send is on: the chat's model, the
 * attachments' check and the files' reading can still be settling when the
 * last step returns, and Enter does nothing until then (as for a user).
 */
async function sendWhenReady(page: Page) {
  await expect.poll(() => page.getByTestId('send').isEnabled(), {timeout: 15_000}).toBe(true)
  await page.getByTestId('composer').press('Enter')
}

/** Runs xdotool on the app's display. */
function xdo(app: AppHandle, ...args: string[]): string {
  return execFileSync('xdotool', args, {env: {...process.env, DISPLAY: app.display.display}}).toString()
}

/** The visible windows of the app's display named name. */
function xWindows(app: AppHandle, name: string): string[] {
  try {
    return xdo(app, 'search', '--onlyvisible', '--name', `^${name}$`).trim().split('\n').filter(Boolean)
  } catch {
    return [] // xdotool exits 1 when nothing matches
  }
}

/** Dispatches a drop of one file on the composer box, or a paste of it into the text box, as the browser would. */
async function dropOrPaste(page: Page, how: 'drop' | 'paste', name: string, mimeType: string, bytes: Buffer) {
  await page.evaluate(
    ({how, name, mimeType, b64}) => {
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
      const dt = new DataTransfer()
      dt.items.add(new File([raw], name, {type: mimeType}))
      if (how === 'paste') {
        document.querySelector('[data-testid="composer"]')!.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}))
        return
      }
      const box = document.querySelector('.composer-box')!
      box.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}))
      box.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}))
    },
    {how, name, mimeType, b64: bytes.toString('base64')},
  )
}

describe.skipIf(!inKeyringSession)('attachments and math', () => {
  beforeAll(async () => {
    dataDir = tempDataDir()
    fakes = await startFakes('attach-fakes')
    app = await launchApp({name: 'attach', env: fakes.env, dataDir})
    for (const p of PROVIDERS) await addApiKey(app.page, p)
  }, 120_000)

  afterAll(async () => {
    await shutdown(app, fakes)
    removeDir(dataDir)
  })

  test.each(PROVIDERS)('%s: a PNG, a PDF and a note by the paperclip reach the provider in its shape', async (p) => {
    const {page} = app
    const script = fakes.script(p)
    await newChat(page, p)
    const composer = page.getByTestId('composer')
    await page.getByTestId('attach-input').setInputFiles(files)
    await expect.poll(() => page.getByTestId('attachment-chip').count(), {timeout: 15_000}).toBe(3)
    await composer.fill(`Describe these files for ${p}`)
    if (p === 'anthropic') await docShot(page, 'attach-chips')
    expect(await page.getByTestId('attachment-refusal').count()).toBe(0)
    const before = (await bodies(fakes, p)).length
    await script.push({text: `Three files for ${p}.`})
    await sendWhenReady(page)
    await waitForReply(page, `Three files for ${p}.`)

    const sent = (await bodies(fakes, p)).slice(before)
    expect(sent.length).toBe(1)
    const got = sentFiles(p, sent[0])
    expect(got.image, `${p}: the PNG's bytes`).toBe(png.toString('base64'))
    expect(got.pdf, `${p}: the PDF's bytes`).toBe(pdf.toString('base64'))
    expect(got.text, `${p}: the note's text`).toContain('Milk, eggs and 42 lemons.')
    expect(await page.getByTestId('attachment-chip').count()).toBe(0) // the draft went with the message
    await expect.poll(() => lastImageWidth(page), {timeout: 15_000}).toBe(320)
    await expectNoRejections(fakes, p)
  }, 90_000)

  test("drop and paste attach files; an image over Claude's limit is refused before sending", async () => {
    const {page} = app
    const p = 'anthropic' as const
    const script = fakes.script(p)
    await newChat(page, p)
    const composer = page.getByTestId('composer')
    await dropOrPaste(page, 'drop', 'dropped.png', 'image/png', png)
    await dropOrPaste(page, 'paste', 'pasted.txt', 'text/plain', Buffer.from('Pasted: 7 pears.'))
    await expect.poll(() => page.getByTestId('attachment-chip').count(), {timeout: 15_000}).toBe(2)
    const before = (await bodies(fakes, p)).length
    await script.push({text: 'Dropped and pasted.'})
    await composer.fill('What came in?')
    await sendWhenReady(page)
    await waitForReply(page, 'Dropped and pasted.')
    const sent = (await bodies(fakes, p)).slice(before)
    const blocks: Json[] = (sent[0].messages as Json[]).at(-1).content
    expect(blocks.find((b) => b.type === 'image')?.source.data).toBe(png.toString('base64'))
    expect(blocks.find((b) => b.type === 'document' && b.title === 'pasted.txt')?.source.data).toContain('Pasted: 7 pears.')

    // 1200×1200 of noise: 5.8 MB of base64, over Claude's 5 MiB per image.
    const sentCount = (await bodies(fakes, p)).length
    await page.getByTestId('attach-input').setInputFiles({name: 'huge.png', mimeType: 'image/png', buffer: noisePNG(1200, 1200)})
    const refusal = page.getByTestId('attachment-refusal')
    await refusal.waitFor({timeout: 20_000})
    const why = await refusal.textContent()
    expectReadable(why)
    expect(why).toContain('huge.png')
    expect(why).toMatch(/: 5\.\d MiB of base64 per image; Claude takes at most 5\.0 MiB/)
    await composer.fill('Look at this big one')
    expect(await page.getByTestId('send').isDisabled()).toBe(true)
    await composer.press('Enter')
    await page.getByRole('button', {name: 'Remove huge.png'}).click()
    await refusal.waitFor({state: 'detached'})
    expect((await bodies(fakes, p)).length).toBe(sentCount)
    await expectNoRejections(fakes, p)
  }, 90_000)

  test('$…$ and $$…$$ in an answer are rendered by KaTeX', async () => {
    const {page} = app
    const p = 'gemini' as const
    await newChat(page, p)
    await fakes.script(p).push({
      text: "Euler's identity is $e^{i\\pi} + 1 = 0$, and the area under $x^2$ from 0 to 1 is\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\nA price of $5 stays text.",
    })
    const composer = page.getByTestId('composer')
    await composer.fill('Show me some math')
    await sendWhenReady(page)
    await waitForReply(page, 'stays text')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.locator('.katex').count()).toBe(3)
    expect(await answer.locator('.katex-display').count()).toBe(1)
    expect(await answer.locator('.katex-error').count()).toBe(0)
    expect(await answer.textContent()).toContain('A price of $5 stays text.')
    await docShot(page, 'math')
  }, 60_000)

  test('after a restart the sent image shows again, the note and the PDF open from their chips', async () => {
    expect(await app.quit()).toBe(0)
    app = await launchApp({name: 'attach-restarted', env: fakes.env, dataDir})
    const {page} = app
    await page.getByTestId('session-item').filter({hasText: 'Describe these files for anthropic'}).click()
    await page.mouse.move(0, 400) // no hovered row in the screenshot
    const turn = page.getByTestId('message').filter({has: page.getByTestId('message-attachments')}).first()
    await turn.waitFor({timeout: 15_000})
    await expect.poll(() => lastImageWidth(page), {timeout: 15_000}).toBe(320)
    const chips = turn.getByTestId('message-attachment-open')
    expect(await chips.allTextContents()).toEqual([expect.stringContaining('report.pdf'), expect.stringContaining('notes.md')])
    await docShot(page, 'attachment-turn')

    await chips.filter({hasText: 'notes.md'}).click()
    const panel = page.getByTestId('message-attachment-panel')
    await expect.poll(() => panel.getByTestId('resource-body').textContent(), {timeout: 15_000}).toContain('Milk, eggs and 42 lemons.')
    await chips.filter({hasText: 'report.pdf'}).click()
    await expect.poll(() => panel.textContent()).toContain('report.pdf')
    expect(await page.getByTestId('message-attachment-error').count()).toBe(0)

    // Save a copy…: the app's own GTK save dialog (in the dev binary's window on this Xvfb), a path typed in it.
    const target = join(dataDir, 'saved-report.pdf')
    await panel.getByTestId('message-attachment-save').click()
    const dialog = await waitFor('the save dialog', () => xWindows(app, 'Save attachment')[0], 20_000)
    xdo(app, 'windowfocus', '--sync', dialog)
    xdo(app, 'key', '--clearmodifiers', 'ctrl+a')
    xdo(app, 'type', '--delay', '5', target)
    xdo(app, 'key', 'Return')
    await expect.poll(() => panel.getByTestId('message-attachment-saved').textContent().catch(() => ''), {timeout: 15_000}).toBe(`Saved to ${target}`)
    expect(readFileSync(target).equals(pdf)).toBe(true)
  }, 90_000)
})
