import {useEffect} from 'react'
import {Check, KeyRound, MessageSquarePlus, Plug} from 'lucide-react'
import type {LucideIcon} from 'lucide-react'
import {useAccounts} from '../stores/accounts'
import {useConnectors} from '../stores/connectors'
import {useSessions} from '../stores/sessions'
import {useUI} from '../stores/ui'

interface Step {
  id: string
  icon: LucideIcon
  title: string
  text: string
  done: boolean
  actions: {label: string; testId: string; primary?: boolean; onClick: () => void}[]
}

/** Whether the first-run checklist still has a step to do (accounts and connectors loaded). */
export function useFirstRunSteps(): Step[] | null {
  const accountsLoaded = useAccounts((s) => s.loaded)
  const hasAccount = useAccounts((s) => Object.keys(s.accounts).length > 0)
  const connectorsLoaded = useConnectors((s) => s.loaded)
  const hasConnector = useConnectors((s) => s.connectors.length > 0)
  const hasChat = useSessions((s) => s.sessions.length > 0)

  useEffect(() => {
    if (!useAccounts.getState().loaded) void useAccounts.getState().load()
    if (!useConnectors.getState().loaded) void useConnectors.getState().load()
  }, [])

  if (!accountsLoaded || !connectorsLoaded) return null
  const {setView} = useUI.getState()
  return [
    {
      id: 'account', icon: KeyRound, done: hasAccount,
      title: 'Sign in or add an API key',
      text: 'Gemini, Claude or ChatGPT: sign in with your account, or paste an API key.',
      actions: [{label: 'Open Accounts', testId: 'first-run-accounts', primary: !hasAccount, onClick: () => setView('accounts')}],
    },
    {
      id: 'connector', icon: Plug, done: hasConnector,
      title: 'Add a connector',
      text: 'Connect an MCP server, or import the ones in your Claude Desktop config.',
      actions: [
        {label: 'Add a connector', testId: 'first-run-connectors', primary: hasAccount && !hasConnector, onClick: () => setView('connectors')},
        {label: 'Import…', testId: 'first-run-import', onClick: () => void importThenShow()},
      ],
    },
    {
      id: 'chat', icon: MessageSquarePlus, done: hasChat,
      title: 'Start a chat',
      text: 'Pick a model and ask away; switch tools on in the chat’s Tools panel.',
      actions: [{label: 'Start a new chat', testId: 'start-chat', primary: hasAccount, onClick: () => void useSessions.getState().create()}],
    },
  ]
}

async function importThenShow() {
  const report = await useConnectors.getState().importFile()
  if (report) useUI.getState().setView('connectors')
}

/** The first-run checklist: each step a button, each ticked when done. */
export function FirstRun({steps}: {steps: Step[]}) {
  const left = steps.filter((s) => !s.done).length
  return (
    <section className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title" className="first-run-title">
        {left === steps.length ? 'Three steps to your first chat' : `${left} step${left === 1 ? '' : 's'} to go`}
      </h2>
      <ol className="first-run-steps">
        {steps.map((s) => (
          <li key={s.id} className={`first-run-step${s.done ? ' is-done' : ''}`} data-testid={`first-run-${s.id}`} data-done={s.done}>
            <span className="first-run-mark" aria-hidden="true">
              {s.done ? <Check size={14} strokeWidth={2.5} /> : <s.icon size={14} />}
            </span>
            <div className="first-run-body">
              <p className="first-run-step-title">
                {s.title}
                {s.done && <span className="visually-hidden"> (done)</span>}
              </p>
              <p className="first-run-step-text">{s.text}</p>
            </div>
            <div className="first-run-actions">
              {s.actions.map((a) => (
                <button
                  key={a.testId}
                  type="button"
                  className={`btn btn-sm ${a.primary && !s.done ? 'btn-primary' : 'btn-secondary'}`}
                  data-testid={a.testId}
                  onClick={a.onClick}
                >
                  {a.label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}
