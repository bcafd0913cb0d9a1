// Sessions persist in the real bbolt file across a real restart of the app.
import {afterAll, expect, test} from 'vitest'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {addApiKey, expectReadable, inKeyringSession, lastAssistantText, shutdown, waitForReply} from './chatkit'
import {killAll, launchApp, startFakes, tempDataDir} from './harness'

afterAll(killAll)

test('two sessions, one renamed, survive a restart', async () => {
  const dataDir = tempDataDir()
  let app = await launchApp({dataDir, name: 'sessions-1'})
  const {page} = app
  const items = page.getByTestId('session-item')

  await page.getByTestId('new-session').click()
  await expect.poll(() => items.count()).toBe(1)
  await page.getByTestId('new-session').click()
  await expect.poll(() => items.count()).toBe(2)

  // Rename the older session (second in the list: newest first).
  await items.nth(1).getByTestId('session-title').dblclick()
  const input = page.getByTestId('rename-input')
  await input.fill('Quarterly planning')
  await input.press('Enter')
  await expect.poll(() => page.getByTestId('session-title').allTextContents())
    .toContain('Quarterly planning')

  const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')))
  expect(await app.quit()).toBe(0)
  expect(existsSync(join(dataDir, 'maestro.db'))).toBe(true)

  app = await launchApp({dataDir, name: 'sessions-2'})
  const again = app.page.getByTestId('session-item')
  await expect.poll(() => again.count()).toBe(2)
  const titles = await app.page.getByTestId('session-title').allTextContents()
  expect(titles).toContain('Quarterly planning')
  expect(titles).toContain('New chat')
  const idsAgain = await again.evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')))
  expect(new Set(idsAgain)).toEqual(new Set(ids))
  await app.screenshot('sessions-after-restart')
  expect(await app.quit()).toBe(0)
})

// Sending needs a provider that can answer (the composer says why otherwise),
// so this chat has a Gemini API key against the fakes.
test.skipIf(!inKeyringSession)('a message typed in the composer, and its reply, are stored and shown after a restart', async () => {
  const dataDir = tempDataDir()
  const fakes = await startFakes('composer-fakes')
  let app = await launchApp({dataDir, name: 'composer-1', env: fakes.env})
  try {
    await addApiKey(app.page, 'gemini')
    await app.page.getByTestId('new-session').click()
    const composer = app.page.getByTestId('composer')
    await fakes.script('gemini').push({text: 'Maestro calls MCP tools for you.'})
    await composer.fill('What can Maestro do with MCP tools?')
    await composer.press('Enter')
    await waitForReply(app.page, 'Maestro calls MCP tools for you.')
    // The session takes its title from the first message.
    await expect.poll(() => app.page.getByTestId('session-title').first().textContent())
      .toBe('What can Maestro do with MCP tools?')
    expect(await app.quit()).toBe(0)

    app = await launchApp({dataDir, name: 'composer-2', env: fakes.env})
    // The last opened session is reopened with its history.
    await expect.poll(() => app.page.getByTestId('message').first().textContent(), {timeout: 10_000})
      .toContain('What can Maestro do with MCP tools?')
    expect(await lastAssistantText(app.page)).toContain('Maestro calls MCP tools for you.')
    await app.screenshot('chat-after-restart')
  } finally {
    await shutdown(app, fakes)
  }
})

test('a damaged data file is reported with its path and left untouched', async () => {
  const dataDir = tempDataDir()
  const file = join(dataDir, 'maestro.db')
  const garbage = Buffer.from('this is not a bbolt database\n'.repeat(400))
  writeFileSync(file, garbage)
  const app = await launchApp({dataDir, name: 'damaged'})
  const err = app.page.getByTestId('store-error')
  await err.waitFor({timeout: 10_000})
  expect(await err.textContent()).toContain(file)
  expectReadable(await err.textContent())
  await app.screenshot('store-error')
  expect(await app.quit()).toBe(0)
  expect(readFileSync(file).equals(garbage)).toBe(true)
})
