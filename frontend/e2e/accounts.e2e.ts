// Sign-in through the real app against the provider fakes: the browser the
// app opens is a script that records the URL, which the test then visits
// with Playwright. Tokens must land in the real Secret Service (this runs
// under .ci/keyring-session.sh, with a throwaway keyring) and nowhere else:
// not in the bbolt file, not in the logs.
import {afterAll, expect, test} from 'vitest'
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {killAll, launchApp, outDir, startFakes, waitFor} from './harness'
import {recordingBrowser} from './chatkit'

afterAll(killAll)

const PROVIDERS = ['gemini', 'anthropic', 'openai'] as const
type Provider = (typeof PROVIDERS)[number]

/** The keychain service name main.go gives auth.New. */
const SERVICE = 'Maestro'

// Outside the keyring session the app and secret-tool would use the
// desktop's own keyring; never touch that.
const inKeyringSession = process.env.MAESTRO_REQUIRE_KEYRING === '1'

function secretTool(...args: string[]): {stdout: string; stderr: string; status: number | null} {
  const r = spawnSync('secret-tool', args, {encoding: 'utf8', timeout: 15_000})
  if (r.error) throw r.error
  return {stdout: r.stdout, stderr: r.stderr, status: r.status}
}

/** The accounts (go-keyring's "username" attribute) stored under SERVICE. */
function keychainAccounts(): string[] {
  // secret-tool prints label/secret on stdout and the attributes on stderr.
  const {stderr} = secretTool('search', '--all', 'service', SERVICE)
  return [...stderr.matchAll(/^attribute\.username = (.*)$/gm)].map((m) => m[1]).sort()
}

/** The secret stored for account, or undefined. */
function keychainSecret(account: string): string | undefined {
  const {stdout, status} = secretTool('lookup', 'service', SERVICE, 'username', account)
  return status === 0 && stdout !== '' ? stdout : undefined
}

/** Files that must never hold a secret: the data file and the logs. */
function leakChecks(dataDir: string): {name: string; bytes: () => Buffer}[] {
  return [
    {name: 'maestro.db', bytes: () => readFileSync(join(dataDir, 'maestro.db'))},
    {name: 'maestro.log', bytes: () => (existsSync(join(dataDir, 'maestro.log')) ? readFileSync(join(dataDir, 'maestro.log')) : Buffer.alloc(0))},
    {name: 'app output', bytes: () => readFileSync(join(outDir, 'accounts.log'))},
  ]
}

function expectNowhere(dataDir: string, secrets: string[]) {
  for (const f of leakChecks(dataDir)) {
    const bytes = f.bytes()
    for (const s of secrets) {
      expect(s.length, 'a secret to look for').toBeGreaterThan(8)
      expect(bytes.includes(Buffer.from(s)), `${f.name} holds a secret (${s.slice(0, 6)}…)`).toBe(false)
    }
  }
}

async function text(page: Page, testId: string): Promise<string> {
  const el = page.getByTestId(testId)
  return (await el.count()) ? ((await el.textContent()) ?? '') : ''
}

test.skipIf(!inKeyringSession)('sign in to all three providers against the fakes, keep tokens only in the keychain, sign out', async () => {
  // A keyring from an earlier run must not answer for this one.
  for (const p of PROVIDERS) {
    secretTool('clear', 'service', SERVICE, 'username', `oauth:${p}`)
    secretTool('clear', 'service', SERVICE, 'username', `apikey:${p}`)
  }
  const fakes = await startFakes('accounts-fakes')
  const browser = recordingBrowser()
  const app = await launchApp({name: 'accounts', env: {...fakes.env, MAESTRO_BROWSER: browser.script}})
  const {page} = app
  await page.getByTestId('nav-accounts').click()
  await page.getByTestId('accounts-page').waitFor()

  const secrets: string[] = []
  for (const p of PROVIDERS) {
    const before = browser.urls().length
    const signIn = page.getByTestId(`signin-${p}`)
    await expect.poll(() => signIn.isEnabled(), {timeout: 10_000}).toBe(true)
    await signIn.click()
    const url = await waitFor(`the ${p} sign-in URL handed to MAESTRO_BROWSER`, () => browser.urls()[before])
    expect(url).toMatch(new RegExp(`^${fakes.url}/`))
    await page.getByTestId(`cancel-signin-${p}`).waitFor()
    expect(await text(page, `account-${p}`)).toContain('Waiting for your browser')
    if (p === 'anthropic') await app.screenshot('accounts-waiting')

    // The fake's authorize page approves at once and redirects to the
    // app's loopback callback.
    const tab = await app.browser.newPage()
    await tab.goto(url)
    await expect.poll(() => text(page, `account-email-${p}`), {timeout: 20_000}).toContain('@')
    expect(await text(page, `account-method-${p}`)).toContain('Signed in with')
    await tab.close()

    // The tokens are in the real keychain, as JSON under oauth:<provider>.
    expect(keychainAccounts()).toContain(`oauth:${p}`)
    const entry = JSON.parse(keychainSecret(`oauth:${p}`) ?? '{}') as {access_token?: string; refresh_token?: string}
    expect(entry.access_token, `oauth:${p} access token`).toBeTruthy()
    expect(entry.refresh_token, `oauth:${p} refresh token`).toBeTruthy()
    secrets.push(entry.access_token!, entry.refresh_token!)
  }
  await app.screenshot('accounts-signed-in')
  expectNowhere(app.dataDir, secrets)
  const html = await page.content()
  for (const s of secrets) expect(html.includes(s), 'the page holds a token').toBe(false)

  // Sign out deletes each keychain entry.
  for (const p of PROVIDERS) {
    await page.getByTestId(`signout-${p}`).click()
    await page.getByTestId(`signin-${p}`).waitFor({timeout: 10_000})
    await expect.poll(() => keychainAccounts()).not.toContain(`oauth:${p}`)
    expect(keychainSecret(`oauth:${p}`)).toBeUndefined()
  }

  // Cancel: the card goes back to Sign in, without an error.
  const before = browser.urls().length
  await page.getByTestId('signin-openai').click()
  await waitFor('the sign-in URL', () => browser.urls()[before])
  await page.getByTestId('cancel-signin-openai').click()
  await page.getByTestId('signin-openai').waitFor({timeout: 10_000})
  expect(await page.getByTestId('account-error-openai').count()).toBe(0)

  // An API key: masked in the field, masked on the card, stored in the
  // keychain and nowhere else, and removed again.
  const key = `sk-proj-e2e${Date.now()}${Math.random().toString(36).slice(2)}XyZ9`
  await page.getByTestId('apikey-toggle-openai').click()
  const input = page.getByTestId('apikey-input-openai')
  expect(await input.getAttribute('type')).toBe('password')
  await input.fill(key)
  await page.getByTestId('apikey-save-openai').click()
  await expect.poll(() => text(page, 'apikey-hint-openai'), {timeout: 10_000}).toBe('sk-proj-…XyZ9')
  expect(await page.content()).not.toContain(key)
  expect(keychainSecret('apikey:openai')).toBe(key)
  expectNowhere(app.dataDir, [key])
  await app.screenshot('accounts-api-key')
  await page.getByTestId('apikey-remove-openai').click()
  await page.getByTestId('signin-openai').waitFor({timeout: 10_000})
  await expect.poll(() => keychainSecret('apikey:openai')).toBeUndefined()

  expect(await app.quit()).toBe(0)
  expectNowhere(app.dataDir, [...secrets, key])
  expect(keychainAccounts().filter((a) => /^(oauth|apikey):/.test(a))).toEqual([])
  await fakes.stop()
})
