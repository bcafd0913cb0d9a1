// The end-to-end harness: it starts the real Maestro binary under its own
// Xvfb display, with a temporary MAESTRO_DATA_DIR, extra environment and any
// fake servers a test needs, and drives it with Playwright in Debian's
// Chromium through the Wails dev bridge (window.go bindings and events work
// there). Every process it starts is registered and killed at the end, even
// when a test fails.
//
// Reuse from any *.e2e.ts file:
//
//   const app = await launchApp({env: {MAESTRO_GEMINI_BASE_URL: fake.url}})
//   await app.page.getByTestId('new-session').click()
//   await app.quit()
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {mkdtempSync, mkdirSync, createWriteStream, rmSync, existsSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {chromium, type BrowserContext, type Page} from 'playwright-core'

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')
export const outDir = process.env.MAESTRO_TEST_OUT ?? join(repoRoot, 'test-results', 'e2e')
export const devBinary = join(repoRoot, 'build', 'bin', 'maestro-dev')
export const prodBinary = join(repoRoot, 'build', 'bin', 'maestro')
export const fakesBinary = join(repoRoot, 'build', 'bin', 'maestro-fakes')
const distDir = join(repoRoot, 'frontend', 'dist')
mkdirSync(outDir, {recursive: true})

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]

// Processes started by this module, killed by killAll.
const live = new Set<ChildProcess>()

export interface TrackOptions {
  env?: NodeJS.ProcessEnv
  /** File that receives stdout and stderr. */
  log?: string
  cwd?: string
  /** Leave stdout to the caller, who must read it; stderr still goes to log. */
  keepStdout?: boolean
}

/** Spawns a process in its own process group and registers it for cleanup. */
export function track(cmd: string, args: string[], opts: TrackOptions = {}): ChildProcess {
  const child = spawn(cmd, args, {env: opts.env ?? process.env, cwd: opts.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
  if (opts.log) {
    const out = createWriteStream(opts.log, {flags: 'a'})
    if (!opts.keepStdout) child.stdout?.pipe(out)
    child.stderr?.pipe(out)
  } else {
    if (!opts.keepStdout) child.stdout?.resume()
    child.stderr?.resume()
  }
  live.add(child)
  child.once('exit', () => live.delete(child))
  return child
}

/** Kills a tracked process group: SIGTERM, then SIGKILL after graceMs. */
export async function killGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = once(child, 'exit')
  try { process.kill(-child.pid, 'SIGTERM') } catch { return }
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch { /* gone */ } }, graceMs)
  await exited
  clearTimeout(timer)
}

export async function killAll(): Promise<void> {
  await Promise.all([...live].map((c) => killGroup(c, 1000)))
}

process.once('exit', () => {
  for (const c of live) { try { process.kill(-c.pid!, 'SIGKILL') } catch { /* gone */ } }
})

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const srv = createServer()
  srv.listen(0, '127.0.0.1')
  await once(srv, 'listening')
  const port = (srv.address() as {port: number}).port
  srv.close()
  await once(srv, 'close')
  return port
}

/**
 * Starts a GUI process and waits until ready() says it is up. If the
 * process exits first, it fails with the end of the process's stderr
 * rather than waiting out the timeout.
 */
export async function launchGui<T>(
  cmd: string, args: string[], opts: TrackOptions, what: string,
  ready: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000,
): Promise<{child: ChildProcess; value: T}> {
  const child = track(cmd, args, opts)
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-8000) })
  const exited = once(child, 'exit').then(() => undefined)
  const up = waitFor(what, ready, timeoutMs)
  const value = await Promise.race([up, exited])
  if (value !== undefined) return {child, value: value as T}
  up.catch(() => {})
  throw new Error(`${what}: the process exited with ${child.exitCode} first; its stderr ends:\n${stderr.slice(-2000)}`)
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastErr: unknown
  while (Date.now() < deadline) {
    try {
      const v = await fn()
      if (v !== undefined && v !== false) return v as T
    } catch (e) { lastErr = e }
    await new Promise((r) => setTimeout(r, everyMs))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastErr ? `: ${lastErr}` : ''}`)
}

export interface Display { display: string; xvfb: ChildProcess }

/** Starts an Xvfb server on a free display number (-displayfd picks it). */
export async function startXvfb(size = '1280x800x24'): Promise<Display> {
  // -noreset: an X server resets when its last client leaves, and a client
  // connecting during the reset fails ("failed to init GTK", openbox's
  // "Failed to open the display"); the readiness probe below is such a
  // last client. Measured: 2 of 100 connections failed without it, 0 of 200 with it.
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', size, '-nolisten', 'tcp', '-noreset'], {detached: true, stdio: ['ignore', 'pipe', 'ignore']})
  live.add(xvfb)
  xvfb.once('exit', () => live.delete(xvfb))
  let buf = ''
  const display = await new Promise<string>((res, rej) => {
    const t = setTimeout(() => rej(new Error('Xvfb did not report a display within 10 s')), 10_000)
    xvfb.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const m = buf.match(/^(\d+)\n/)
      if (m) { clearTimeout(t); res(':' + m[1]) }
    })
    xvfb.once('exit', (code) => { clearTimeout(t); rej(new Error(`Xvfb exited with ${code}`)) })
  })
  // The display number comes before the server takes clients: GTK started
  // in that window fails with "failed to init GTK". Wait for a client to get in.
  await waitFor(`Xvfb ${display} to accept clients`, () => {
    const r = spawnSync('xdpyinfo', ['-display', display], {stdio: 'ignore', timeout: 5_000})
    return r.status === 0 || undefined
  }, 10_000, 50)
  return {display, xvfb}
}

export interface LaunchOptions {
  /** Reuse a data dir (to test restarts); a fresh temp dir otherwise. */
  dataDir?: string
  /** Extra environment for the app, e.g. fake provider URLs. */
  env?: Record<string, string>
  /** Name used for log and screenshot files. */
  name?: string
  /** The page's size (default 1280×800). */
  viewport?: {width: number; height: number}
}

export interface AppHandle {
  page: Page
  browser: BrowserContext
  dataDir: string
  url: string
  display: Display
  app: ChildProcess
  /** Saves a full-page screenshot to the test output dir and returns its path. */
  screenshot(name: string): Promise<string>
  /** Quits through the Wails runtime and waits for the process to exit. */
  quit(): Promise<number | null>
  /** Kills the app with a signal (e.g. SIGKILL to simulate a crash). */
  kill(signal?: NodeJS.Signals): Promise<void>
}

export function tempDataDir(prefix = 'maestro-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** Starts the dev-tagged binary and connects Chromium to its dev bridge. */
export async function launchApp(opts: LaunchOptions = {}): Promise<AppHandle> {
  if (!existsSync(devBinary)) throw new Error(`${devBinary} is missing: run make build-dev`)
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} is not built: run make frontend`)
  const name = opts.name ?? 'app'
  const dataDir = opts.dataDir ?? tempDataDir()
  const display = await startXvfb()
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const {child: app} = await launchGui(devBinary, ['-devserver', `127.0.0.1:${port}`, '-assetdir', distDir, '-loglevel', 'warning'], {
    env: {...process.env, DISPLAY: display.display, MAESTRO_DATA_DIR: dataDir, NO_AT_BRIDGE: '1', ...opts.env},
    log: join(outDir, `${name}.log`),
  }, `the dev bridge at ${url} (see ${join(outDir, name + '.log')})`, async () => (await fetch(url)).ok || undefined)

  // A persistent context on a fresh profile dir: the --user-data-dir the
  // machines' Chromium needs, passed the way Playwright accepts it.
  const profile = mkdtempSync(join(tmpdir(), 'maestro-chromium-'))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? {width: 1280, height: 800},
  })
  const page = browser.pages()[0] ?? await browser.newPage()
  // The dev bridge's ipc.js throws "reading 'nodes'" once at load; it is
  // harmless (docs/PLATFORM.md §The dev bridge's harmless noise). Report
  // anything else.
  page.on('pageerror', (e) => {
    if (!e.message.includes("reading 'nodes'")) console.warn(`[${name}] page error: ${e.message}`)
  })
  await page.goto(url)
  await page.waitForFunction(() => (window as any).go?.app?.Sessions !== undefined, undefined, {timeout: 20_000})

  const handle: AppHandle = {
    page, browser, dataDir, url, display, app,
    async screenshot(shot) {
      const path = join(outDir, `${shot}.png`)
      await page.screenshot({path, fullPage: true})
      return path
    },
    async quit() {
      const exited = app.exitCode !== null ? Promise.resolve([app.exitCode]) : once(app, 'exit')
      await page.evaluate(() => (window as any).runtime.Quit()).catch(() => {})
      const timer = setTimeout(() => { void killGroup(app) }, 10_000)
      const [code] = await exited
      clearTimeout(timer)
      await browser.close()
      await killGroup(display.xvfb)
      removeDir(profile)
      return code as number | null
    },
    async kill(signal = 'SIGKILL') {
      const exited = app.exitCode !== null ? Promise.resolve() : once(app, 'exit')
      try { process.kill(-app.pid!, signal) } catch { /* gone */ }
      await exited
      await browser.close()
      await killGroup(display.xvfb)
      removeDir(profile)
    },
  }
  return handle
}

export function removeDir(dir: string) {
  rmSync(dir, {recursive: true, force: true})
}

export type FakeProvider = 'gemini' | 'anthropic' | 'openai'

/** The environment variables of each provider's endpoints (backend/auth EndpointsFromEnv). */
export const ENDPOINT_VARS: Record<FakeProvider, readonly string[]> = {
  openai: ['MAESTRO_OPENAI_AUTH_URL', 'MAESTRO_OPENAI_BASE_URL', 'MAESTRO_OPENAI_API_URL'],
  anthropic: ['MAESTRO_ANTHROPIC_AUTH_URL', 'MAESTRO_ANTHROPIC_TOKEN_URL', 'MAESTRO_ANTHROPIC_BASE_URL'],
  gemini: ['MAESTRO_GEMINI_AUTH_URL', 'MAESTRO_GEMINI_TOKEN_URL', 'MAESTRO_GEMINI_USERINFO_URL',
    'MAESTRO_GEMINI_CODE_ASSIST_URL', 'MAESTRO_GEMINI_BASE_URL'],
}

/** The control endpoints of one provider's fake (/_fake/<provider>/…). */
export interface FakeScript {
  /** Root of the provider's control endpoints. */
  control: string
  /** Queues scripted model replies (see backend/providers/fakescript.Reply). */
  push(...replies: unknown[]): Promise<void>
  /** The requests the fake has recorded. */
  requests(): Promise<unknown[]>
  /** Resets the script, the log and the served models. */
  reset(): Promise<void>
  /** Sets the models the fake serves and lists (null: its defaults). */
  models(ids: string[] | null): Promise<void>
  /** Posts JSON to one of the fake's own control endpoints (path under /_fake/<provider>/). */
  post(path: string, body: unknown): Promise<void>
}

export interface Fakes {
  /** The one origin the fakes are served on; each provider's fake is under url/<provider>. */
  url: string
  /** Every ENDPOINT_VARS variable set to its provider's fake: pass to launchApp({env}). */
  env: Record<string, string>
  script(provider: FakeProvider): FakeScript
  stop(): Promise<void>
}

async function control(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`)
  return res
}

/**
 * Starts the provider fakes (build/bin/maestro-fakes from make build-dev,
 * else go run) on a free port and waits for the {"url":…} line it prints.
 * The process is tracked, so killAll stops it too.
 */
export async function startFakes(name = 'fakes'): Promise<Fakes> {
  const args = ['-addr', '127.0.0.1:0']
  const [cmd, argv] = existsSync(fakesBinary)
    ? [fakesBinary, args]
    : ['go', ['run', './backend/providers/fakes/cmd/maestro-fakes', ...args]]
  const log = join(outDir, `${name}.log`)
  const child = track(cmd, argv, {cwd: repoRoot, log, keepStdout: true})
  const url = await new Promise<string>((resolve, reject) => {
    let buf = ''
    const t = setTimeout(() => reject(new Error(`maestro-fakes printed no URL within 90 s; see ${log}`)), 90_000)
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl < 0) return
      clearTimeout(t)
      try {
        const first = JSON.parse(buf.slice(0, nl)) as {url?: unknown}
        if (typeof first.url !== 'string') throw new Error('no url field')
        resolve(first.url.replace(/\/$/, ''))
      } catch (e) {
        reject(new Error(`maestro-fakes printed ${JSON.stringify(buf.slice(0, nl))}, not {"url":…}: ${e}`))
      }
    })
    child.once('exit', (code) => { clearTimeout(t); reject(new Error(`maestro-fakes exited with ${code}; see ${log}`)) })
  })
  return {
    url,
    env: Object.fromEntries(
      (Object.entries(ENDPOINT_VARS) as [FakeProvider, readonly string[]][]).flatMap(([p, vars]) => vars.map((v) => [v, `${url}/${p}`])),
    ),
    script(provider) {
      const root = `${url}/_fake/${provider}/`
      return {
        control: root,
        async push(...replies) {
          await control(root + 'replies', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(replies)})
        },
        async requests() {
          return (await (await control(root + 'requests')).json()) as unknown[]
        },
        async reset() {
          await control(root + 'reset', {method: 'POST'})
        },
        async models(ids) {
          await control(root + 'models', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(ids)})
        },
        async post(path, body) {
          await control(root + path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
        },
      }
    },
    stop: () => killGroup(child),
  }
}
