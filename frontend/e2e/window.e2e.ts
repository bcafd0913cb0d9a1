// The production binary opens a real, mapped window with the app drawn in it.
import {afterAll, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {killAll, killGroup, launchGui, outDir, prodBinary, startXvfb, tempDataDir, waitFor} from './harness'

afterAll(killAll)

function windowIds(display: string): string[] {
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
