// The production binary opens a real, mapped window with the app drawn in it;
// the window keeps its size, place and maximised state across restarts
// under a real window manager (openbox), quits on Ctrl+Q, and on a dark
// desktop is dark from the first frame; F11 toggles full screen. The menu's
// accelerators (Ctrl+, Ctrl+K, Ctrl+N) and Help → About are driven in the
// dev binary's GTK window, and seen in the page the dev bridge serves. See
// docs/DESKTOP.md.
import {afterAll, expect, test} from 'vitest'
import {execFileSync, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {killAll, killGroup, launchApp, launchGui, outDir, prodBinary, startXvfb, tempDataDir, track, waitFor} from './harness'
import type {Display} from './harness'

afterAll(killAll)

function x(display: Display, cmd: string, ...args: string[]): string {
  return execFileSync(cmd, args, {env: {...process.env, DISPLAY: display.display}}).toString()
}

/** The client window's size and place as X reports it. */
function geometry(display: Display, wid: string): {x: number; y: number; width: number; height: number} {
  const out = x(display, 'xdotool', 'getwindowgeometry', wid)
  const pos = out.match(/Position: (-?\d+),(-?\d+)/)
  const size = out.match(/Geometry: (\d+)x(\d+)/)
  if (!pos || !size) throw new Error(`xdotool getwindowgeometry said: ${out}`)
  return {x: Number(pos[1]), y: Number(pos[2]), width: Number(size[1]), height: Number(size[2])}
}

function maximised(display: Display, wid: string): boolean {
  return /_NET_WM_STATE_MAXIMIZED_VERT.*_NET_WM_STATE_MAXIMIZED_HORZ|_NET_WM_STATE_MAXIMIZED_HORZ.*_NET_WM_STATE_MAXIMIZED_VERT/
    .test(x(display, 'xprop', '-id', wid, '_NET_WM_STATE'))
}

/** Starts the release binary on display with dataDir and waits for its window. */
async function launchRelease(display: Display, dataDir: string, name: string, env: Record<string, string> = {}) {
  const {child, value: wid} = await launchGui(prodBinary, [], {
    env: {...process.env, DISPLAY: display.display, MAESTRO_DATA_DIR: dataDir, NO_AT_BRIDGE: '1', ...env},
    log: join(outDir, `${name}.log`),
  }, 'the Maestro window to map', () => windowIds(display.display)[0])
  return {child, wid}
}

/** Waits until the window's pixels vary: WebKit has painted the UI. */
async function painted(display: Display, wid: string, shot: string) {
  await waitFor('the UI to paint inside the window', () => {
    x(display, 'import', '-window', wid, shot)
    const v = Number(execFileSync('/usr/bin/convert', [shot, '-format', '%[fx:standard_deviation]', 'info:']).toString())
    return v > 0.05 || undefined
  }, 20_000, 250)
}

/** Ctrl+Q, typed into the window, and the process's exit code. */
async function quitWithCtrlQ(display: Display, wid: string, child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit')
  x(display, 'xdotool', 'windowfocus', '--sync', wid)
  x(display, 'xdotool', 'key', '--clearmodifiers', 'ctrl+q')
  const timer = setTimeout(() => void killGroup(child), 10_000)
  const [code] = await exited
  clearTimeout(timer)
  return code as number | null
}

/** Starts openbox on d and waits until it manages the screen. */
async function startWindowManager(d: Display): Promise<ChildProcess> {
  const wm = track('openbox', ['--sm-disable'], {env: {...process.env, DISPLAY: d.display}, log: join(outDir, 'openbox.log')})
  await waitFor('openbox to manage the screen', () => {
    if (wm.exitCode !== null) throw new Error(`openbox exited with ${wm.exitCode}; see ${join(outDir, 'openbox.log')}`)
    return /_NET_SUPPORTING_WM_CHECK\(WINDOW\)/.test(x(d, 'xprop', '-root', '_NET_SUPPORTING_WM_CHECK')) || undefined
  }, 10_000)
  return wm
}

function fullscreen(display: Display, wid: string): boolean {
  return /_NET_WM_STATE_FULLSCREEN/.test(x(display, 'xprop', '-id', wid, '_NET_WM_STATE'))
}

function windowFile(dataDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dataDir, 'window.json'), 'utf8'))
}

function windowIds(display: string): string[] {
  // Only the app's own window: a dialog or the window manager has another name.
  try {
    return execFileSync('xdotool', ['search', '--onlyvisible', '--name', '^Maestro$'], {env: {...process.env, DISPLAY: display}})
      .toString().trim().split('\n').filter(Boolean)
  } catch {
    return [] // xdotool exits 1 when nothing matches
  }
}

test('the release window maps and renders', async () => {
  expect(existsSync(prodBinary), `${prodBinary} is missing: run make build`).toBe(true)
  const x = await startXvfb()
  const {child: app, value: ids} = await launchGui(prodBinary, [], {
    env: {...process.env, DISPLAY: x.display, MAESTRO_DATA_DIR: tempDataDir(), NO_AT_BRIDGE: '1'},
    log: join(outDir, 'release-window.log'),
  }, 'the Maestro window to map', () => {
    const found = windowIds(x.display)
    return found.length > 0 ? found : undefined
  })
  expect(ids.length).toBeGreaterThan(0)
  const geometry = execFileSync('xdotool', ['getwindowgeometry', ids[0]], {env: {...process.env, DISPLAY: x.display}}).toString()
  expect(geometry).toMatch(/Geometry: \d+x\d+/)

  // Wait until WebKit has painted the UI: the window's own pixels (not the
  // root) must vary, which a bare background colour does not.
  const shot = join(outDir, 'release-window.png')
  const sd = await waitFor('the UI to paint inside the window', () => {
    execFileSync('import', ['-display', x.display, '-window', ids[0], shot])
    const v = Number(execFileSync('/usr/bin/convert', [shot, '-format', '%[fx:standard_deviation]', 'info:']).toString())
    return v > 0.05 ? v : undefined
  }, 20_000, 250)
  expect(sd).toBeGreaterThan(0.05)
  expect(app.exitCode).toBeNull()
  await killGroup(app)
  await killGroup(x.xvfb)
})

test('the window keeps its size, place and maximised state across restarts, and Ctrl+Q quits', async () => {
  const d = await startXvfb('1600x1000x24')
  const wm = await startWindowManager(d)
  const dataDir = tempDataDir()

  // A first run: the default size, placed by the window manager.
  let app = await launchRelease(d, dataDir, 'window-state-1')
  await painted(d, app.wid, join(outDir, 'window-state-1.png'))
  expect(geometry(d, app.wid)).toMatchObject({width: 1200, height: 800})

  // The user makes it smaller and moves it, then maximises it.
  x(d, 'xdotool', 'windowsize', app.wid, '900', '600')
  x(d, 'xdotool', 'windowmove', app.wid, '123', '77')
  const placed = await waitFor('the window at its new size and place', () => {
    const g = geometry(d, app.wid)
    return g.width === 900 && g.height === 600 ? g : undefined
  })
  // The UI saves the size after a resize (stores/commands.ts): wait for it.
  await waitFor('window.json to hold the new size', () => {
    try { return windowFile(dataDir).width === 900 || undefined } catch { return undefined }
  }, 10_000, 100)
  x(d, 'wmctrl', '-i', '-r', app.wid, '-b', 'add,maximized_vert,maximized_horz')
  await waitFor('the window to be maximised', () => maximised(d, app.wid) || undefined)
  expect(await quitWithCtrlQ(d, app.wid, app.child)).toBe(0)
  expect(windowFile(dataDir)).toMatchObject({width: 900, height: 600, maximised: true, placed: true})

  // It comes back maximised; unmaximised, it is where it was.
  app = await launchRelease(d, dataDir, 'window-state-2')
  await waitFor('the window to come back maximised', () => maximised(d, app.wid) || undefined)
  await painted(d, app.wid, join(outDir, 'window-state-2.png'))
  x(d, 'wmctrl', '-i', '-r', app.wid, '-b', 'remove,maximized_vert,maximized_horz')
  await waitFor('the window back at its size and place', () => {
    const g = geometry(d, app.wid)
    return g.width === placed.width && g.height === placed.height && g.x === placed.x && g.y === placed.y || undefined
  }, 10_000)
  // Closed with the window manager's close button this time.
  const exited = once(app.child, 'exit')
  x(d, 'wmctrl', '-i', '-c', app.wid)
  expect((await exited)[0]).toBe(0)
  expect(windowFile(dataDir)).toMatchObject({width: 900, height: 600, maximised: false})

  // And a third launch opens it normal, at that size and place.
  app = await launchRelease(d, dataDir, 'window-state-3')
  await waitFor('the window at its saved size and place', () => {
    const g = geometry(d, app.wid)
    return g.width === placed.width && g.height === placed.height && g.x === placed.x && g.y === placed.y || undefined
  }, 10_000)
  expect(maximised(d, app.wid)).toBe(false)

  // F11 (View → Full Screen) fills the screen, and again leaves full screen.
  x(d, 'xdotool', 'windowfocus', '--sync', app.wid)
  x(d, 'xdotool', 'key', '--clearmodifiers', 'F11')
  await waitFor('the window to go full screen', () => fullscreen(d, app.wid) || undefined, 10_000)
  await waitFor('the window to fill the screen', () => {
    const g = geometry(d, app.wid)
    return g.width === 1600 && g.height === 1000 || undefined
  }, 10_000)
  x(d, 'xdotool', 'key', '--clearmodifiers', 'F11')
  await waitFor('the window to leave full screen', () => !fullscreen(d, app.wid) || undefined, 10_000)
  await killGroup(app.child)
  await killGroup(wm)
  await killGroup(d.xvfb)
})

test('on a dark desktop the window is dark from its first frame, on the first run and after', async () => {
  const d = await startXvfb()
  const dataDir = tempDataDir()
  for (const run of [1, 2]) {
    // Frames from the moment the window maps until the UI has painted.
    const app = await launchRelease(d, dataDir, `window-dark-${run}`, {GTK_THEME: 'Adwaita:dark'})
    const means: number[] = []
    let sd = 0
    for (let i = 0; i < 80 && sd <= 0.05; i++) {
      const shot = join(outDir, `window-dark-${run}-${i}.png`)
      x(d, 'import', '-window', app.wid, shot)
      const [mean, dev] = execFileSync('/usr/bin/convert', [shot, '-format', '%[fx:mean] %[fx:standard_deviation]', 'info:']).toString().split(' ').map(Number)
      means.push(mean)
      sd = dev
    }
    expect(sd, 'the UI never painted').toBeGreaterThan(0.05)
    // A white frame has a mean near 1; the dark theme's near 0.1.
    expect(Math.max(...means), `run ${run}: frame brightness ${means.map((m) => m.toFixed(2)).join(' ')}`).toBeLessThan(0.3)
    await quitWithCtrlQ(d, app.wid, app.child)
    expect(windowFile(dataDir).dark).toBe(true)
  }
  await killGroup(d.xvfb)
})

test('the menu: its shortcuts and Help → About reach the UI', async () => {
  const app = await launchApp({name: 'menu'})
  const d = app.display
  // The dev binary's own GTK window has the real menu; the page in Chromium
  // receives the events its items send.
  const wid = await waitFor('the dev window', () => windowIds(d.display)[0])
  x(d, 'xdotool', 'windowfocus', '--sync', wid)
  x(d, 'xdotool', 'key', '--clearmodifiers', 'ctrl+comma')
  await app.page.getByTestId('settings-page').waitFor({timeout: 10_000})

  // Help → About: F10 opens the menu bar's first menu, Left wraps round to Help.
  x(d, 'xdotool', 'key', 'F10')
  x(d, 'xdotool', 'key', 'Left')
  x(d, 'xdotool', 'key', 'Down')
  x(d, 'xdotool', 'key', 'Return')
  const about = app.page.getByTestId('about-dialog')
  await about.waitFor({timeout: 10_000})
  await expect.poll(() => about.textContent()).toMatch(/Version \S+/)
  await app.screenshot('menu-about')
  await app.page.getByTestId('about-close').click()

  // Ctrl+K in the window focuses the search box in the page.
  x(d, 'xdotool', 'windowfocus', '--sync', wid)
  x(d, 'xdotool', 'key', '--clearmodifiers', 'ctrl+k')
  await expect.poll(() => app.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search')

  // Ctrl+N in the window starts a chat.
  const chats = await app.page.getByTestId('session-item').count()
  x(d, 'xdotool', 'windowfocus', '--sync', wid)
  x(d, 'xdotool', 'key', '--clearmodifiers', 'ctrl+n')
  await expect.poll(() => app.page.getByTestId('session-item').count(), {timeout: 10_000}).toBe(chats + 1)
  await app.page.getByTestId('composer').waitFor({timeout: 10_000})
  expect(await app.quit()).toBe(0)
})
