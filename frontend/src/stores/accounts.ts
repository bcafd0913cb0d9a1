import {create} from 'zustand'
import {api, onLogin} from '../api/client'
import {toAppError} from '../api/errors'
import type {Account, LoginEvent, ProviderId} from '../api/types'
import {toastError} from './toasts'

export const PROVIDER_IDS: readonly ProviderId[] = ['gemini', 'anthropic', 'openai']

/** What the UI calls each provider. */
export const PROVIDER_NAMES: Record<ProviderId, string> = {gemini: 'Gemini', anthropic: 'Claude', openai: 'ChatGPT'}

/** A browser sign-in in progress. loginId is "" until SignIn has answered. */
export interface PendingLogin {
  loginId: string
  authUrl: string
  manual: boolean
  status: 'starting' | 'waiting' | 'exchanging'
  /** Why no browser could be opened: the card shows the link and the fallbacks at once. */
  browserError?: string
  /** Cancel was pressed before SignIn answered; it is sent once it does. */
  cancelRequested?: boolean
}

/** The one-at-a-time action running on a card, to disable its buttons. */
export type Busy = 'signout' | 'apikey' | 'code' | 'cancel'

type ByProvider<T> = Partial<Record<ProviderId, T>>

interface AccountsState {
  loaded: boolean
  accounts: ByProvider<Account>
  logins: ByProvider<PendingLogin>
  busy: ByProvider<Busy>
  /** The last failure on each card, in plain words. */
  errors: ByProvider<string>
  load: () => Promise<void>
  signIn: (p: ProviderId) => Promise<void>
  cancelSignIn: (p: ProviderId) => Promise<void>
  submitCode: (p: ProviderId, code: string) => Promise<boolean>
  /** Opens the sign-in page again; paste: the page that shows a code to paste (Claude). */
  reopen: (p: ProviderId, opts?: {paste?: boolean}) => Promise<void>
  signOut: (p: ProviderId) => Promise<void>
  saveKey: (p: ProviderId, key: string) => Promise<boolean>
  removeKey: (p: ProviderId) => Promise<void>
  clearError: (p: ProviderId) => void
  /** Applies an auth:login event. */
  handleLogin: (ev: LoginEvent) => void
}

// Logins that have ended (by event or by a successful cancel), so a SignIn
// answer or a late event cannot bring them back. Bounded: ids are unique.
const ended = new Set<string>()
function markEnded(id: string) {
  ended.add(id)
  if (ended.size > 100) ended.delete(ended.values().next().value!)
}

function without<T>(m: ByProvider<T>, p: ProviderId): ByProvider<T> {
  const next = {...m}
  delete next[p]
  return next
}

export const useAccounts = create<AccountsState>()((set, get) => {
  // A card's failure shows on the card, where the user acted; a toast as
  // well would say it twice.
  const fail = (p: ProviderId, err: unknown) => {
    set((s) => ({errors: {...s.errors, [p]: toAppError(err).message}}))
  }
  const setBusy = (p: ProviderId, b: Busy | null) =>
    set((s) => ({busy: b ? {...s.busy, [p]: b} : without(s.busy, p)}))

  /** Runs one card action: clears the card's error, marks it busy, reports failure. */
  async function action<T>(p: ProviderId, b: Busy, fn: () => Promise<T>): Promise<T | undefined> {
    set((s) => ({errors: without(s.errors, p)}))
    setBusy(p, b)
    try {
      return await fn()
    } catch (err) {
      fail(p, err)
      return undefined
    } finally {
      setBusy(p, null)
    }
  }

  return {
    loaded: false,
    accounts: {},
    logins: {},
    busy: {},
    errors: {},

    load: async () => {
      try {
        const list = await api.accounts()
        const accounts: ByProvider<Account> = {}
        for (const a of list) accounts[a.provider] = a
        set({accounts, loaded: true})
      } catch (err) {
        set({loaded: true})
        toastError(err, "Couldn't load your accounts")
      }
    },

    signIn: async (p) => {
      if (get().logins[p]) return
      set((s) => ({
        errors: without(s.errors, p),
        logins: {...s.logins, [p]: {loginId: '', authUrl: '', manual: false, status: 'starting'}},
      }))
      try {
        const login = await api.signIn(p)
        if (ended.has(login.loginId)) return // it finished before SignIn answered
        const cur = get().logins[p]
        if (!cur || (cur.loginId && cur.loginId !== login.loginId)) return
        const status = cur.status === 'starting' ? 'waiting' : cur.status
        set((s) => ({logins: {...s.logins, [p]: {...cur, ...login, status}}}))
        if (cur.cancelRequested) await get().cancelSignIn(p)
      } catch (err) {
        set((s) => ({logins: without(s.logins, p)}))
        fail(p, err)
      }
    },

    cancelSignIn: async (p) => {
      const login = get().logins[p]
      if (!login) return
      if (!login.loginId) {
        set((s) => ({logins: {...s.logins, [p]: {...login, cancelRequested: true}}}))
        return
      }
      const id = login.loginId
      await action(p, 'cancel', async () => {
        try {
          await api.cancelSignIn(id)
        } catch (err) {
          // Already over: the card just has to catch up.
          if (toAppError(err).kind !== 'not_found') throw err
        }
        markEnded(id)
        if (get().logins[p]?.loginId === id) set((s) => ({logins: without(s.logins, p)}))
      })
    },

    submitCode: async (p, code) => {
      const login = get().logins[p]
      if (!login?.loginId || code.trim() === '') return false
      const ok = await action(p, 'code', async () => {
        await api.submitSignInCode(login.loginId, code.trim())
        return true
      })
      return ok === true
    },

    reopen: async (p, {paste = false} = {}) => {
      const login = get().logins[p]
      if (!login?.loginId) return
      try {
        await api.openSignInPage(login.loginId, {paste})
      } catch (err) {
        // No browser: say so on the card, which then shows the link to open elsewhere.
        const cur = get().logins[p]
        if (cur) set((s) => ({logins: {...s.logins, [p]: {...cur, browserError: toAppError(err).message}}}))
      }
    },

    signOut: async (p) => {
      await action(p, 'signout', async () => {
        await api.signOut(p)
        set((s) => ({accounts: without(s.accounts, p)}))
      })
      // Another credential (an API key) may still be there.
      await get().load()
    },

    saveKey: async (p, key) => {
      if (key.trim() === '') {
        set((s) => ({errors: {...s.errors, [p]: 'Paste an API key first.'}}))
        return false
      }
      const acc = await action(p, 'apikey', () => api.setAPIKey(p, key))
      if (!acc) return false
      set((s) => ({accounts: {...s.accounts, [p]: acc}}))
      return true
    },

    removeKey: async (p) => {
      await action(p, 'apikey', async () => {
        await api.removeAPIKey(p)
        set((s) => ({accounts: without(s.accounts, p)}))
      })
      await get().load()
    },

    clearError: (p) => set((s) => ({errors: without(s.errors, p)})),

    handleLogin: (ev) => {
      const p = ev.provider
      if (!PROVIDER_IDS.includes(p)) return
      const cur = get().logins[p]
      // Events of a login this card is not (or no longer) showing are old
      // news, except a sign-in that succeeded: that account is real.
      const mine = !!cur && (cur.loginId === '' || cur.loginId === ev.loginId) && !ended.has(ev.loginId)
      switch (ev.status) {
        case 'waiting':
        case 'exchanging': {
          const status = ev.status
          if (mine) set((s) => ({logins: {...s.logins, [p]: {...cur, loginId: ev.loginId, status}}}))
          return
        }
        case 'signed_in':
          markEnded(ev.loginId)
          set((s) => ({
            logins: mine ? without(s.logins, p) : s.logins,
            accounts: ev.account ? {...s.accounts, [p]: ev.account} : s.accounts,
            errors: without(s.errors, p),
          }))
          if (!ev.account) void get().load()
          return
        case 'failed':
        case 'canceled':
          markEnded(ev.loginId)
          if (!mine) return
          set((s) => ({logins: without(s.logins, p)}))
          if (ev.status === 'failed') {
            fail(p, ev.error ?? {kind: 'internal', message: 'The sign-in failed.'})
          }
      }
    },
  }
})

/** Applies auth:login events to the store; returns the unsubscribe. */
export function syncAccounts(): () => void {
  return onLogin((ev) => useAccounts.getState().handleLogin(ev))
}

/** For tests: forgets ended logins. */
export function resetAccountsModule(): void {
  ended.clear()
}
