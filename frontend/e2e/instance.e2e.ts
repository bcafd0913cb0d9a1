// One Maestro per data dir: a second launch hands over to the first window
// and exits, instead of racing it for the bbolt file.
import {afterAll, expect, test} from 'vitest'
import {execFileSync} from 'node:child_process'
import {once} from 'node:events'
import {join} from 'node:path'
import {killAll, killGroup, launchGui, outDir, prodBinary, startXvfb, tempDataDir, track} from './harness'

afterAll(killAll)

function visibleWindows(display: string): number {
  try {
    return execFileSync('xdotool', ['search', '--onlyvisible', '--name', '^Maestro$'], {env: {...process.env, DISPLAY: display}})
      .toString().trim().split('\n').filter(Boolean).length
  } catch {
    return 0
  }
}

test('a second launch on the same data dir exits and leaves the first running', async () => {
  const x = await startXvfb()
  const env = {...process.env, DISPLAY: x.display, MAESTRO_DATA_DIR: tempDataDir(), NO_AT_BRIDGE: '1'}
  const {child: first} = await launchGui(prodBinary, [], {env, log: join(outDir, 'instance-first.log')}, 'the first window',
    () => visibleWindows(x.display) === 1 || undefined)

  const second = track(prodBinary, [], {env, log: join(outDir, 'instance-second.log')})
  const [code] = await Promise.race([
    once(second, 'exit'),
    new Promise<never>((_, rej) => setTimeout(() => rej(new Error('the second instance did not exit within 10 s')), 10_000)),
  ])
  expect(code).toBe(1) // Wails exits 1 after handing its arguments to the first instance
  expect(first.exitCode).toBeNull()
  expect(visibleWindows(x.display)).toBe(1)

  // A different data dir is a different instance.
  const {child: other} = await launchGui(prodBinary, [], {env: {...env, MAESTRO_DATA_DIR: tempDataDir()}, log: join(outDir, 'instance-other.log')},
    'a second window for another data dir', () => visibleWindows(x.display) === 2 || undefined)
  await killGroup(other)
  await killGroup(first)
  await killGroup(x.xvfb)
})
