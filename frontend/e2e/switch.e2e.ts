// Item 10 of issue 5: the 3×3 provider switch matrix through the real app.
// For each provider A, a chat makes a tool call on A, then continues on each
// other provider B in turn (each B making a tool call of its own), so every
// ordered pair (A, B) renders a history with tool calls made on A — and the
// second B also one made on the first. The fakes enforce the real services'
// rules on each rendered request; none may be refused.
import {afterAll, beforeAll, describe, expect, test} from 'vitest'
import {existsSync} from 'node:fs'
import {launchApp, startFakes} from './harness'
import type {AppHandle, Fakes} from './harness'
import {
  PROVIDERS, addApiKey, addStdioConnector, bodies, closeTools, everything, expectNoRejections,
  inKeyringSession, lastCallResults, newChat, pickModel, send, setConnector, toolResults, waitForReply, shutdown,
} from './chatkit'

let fakes: Fakes
let app: AppHandle
let everyId: string

describe.skipIf(!existsSync(everything) || !inKeyringSession)('switching providers mid-session', () => {
  beforeAll(async () => {
    fakes = await startFakes('switch-fakes')
    app = await launchApp({name: 'switch', env: fakes.env})
    everyId = await addStdioConnector(app.page, 'Everything', 'node', `${everything} stdio`)
    for (const p of PROVIDERS) await addApiKey(app.page, p)
  }, 120_000)

  afterAll(() => shutdown(app, fakes))

  for (const a of PROVIDERS) {
    test(`a history with tool calls made on ${a} continues on the other two`, async () => {
      const {page} = app
      for (const p of PROVIDERS) await fakes.script(p).reset()
      await newChat(page, a)
      await setConnector(page, everyId, true)
      await closeTools(page)
      await fakes.script(a).push({toolCalls: [{name: 'everything__echo', args: {message: `from-${a}`}}]}, {text: `Echoed on ${a}.`})
      await send(page, `Echo from-${a}.`)
      await waitForReply(page, `Echoed on ${a}.`)
      const echoes = [`Echo: from-${a}`]

      for (const b of PROVIDERS.filter((p) => p !== a)) {
        await pickModel(page, b)
        const from = (await bodies(fakes, b)).length
        await fakes.script(b).push({toolCalls: [{name: 'everything__echo', args: {message: `from-${b}-after-${a}`}}]}, {text: `Continued on ${b}.`})
        await send(page, `Now echo from-${b}-after-${a}.`)
        await waitForReply(page, `Continued on ${b}.`)
        const sent = (await bodies(fakes, b)).slice(from)
        expect(sent, `${a} → ${b}: the first request and the follow-up with the result`).toHaveLength(2)
        // The first request on b carries every earlier call's result in b's shape.
        const earlier = toolResults(b, sent[0]).join('\n')
        for (const e of echoes) expect(earlier, `${a} → ${b}: the result of "${e}"`).toContain(e)
        expect(lastCallResults(b, sent[1]).get('everything__echo')).toContain(`Echo: from-${b}-after-${a}`)
        await expectNoRejections(fakes, b)
        echoes.push(`Echo: from-${b}-after-${a}`)
      }
      await expectNoRejections(fakes, a)
    }, 120_000)
  }
})
