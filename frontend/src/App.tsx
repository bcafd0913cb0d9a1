import {useEffect} from 'react'
import {AboutDialog} from './components/AboutDialog'
import {ChatPane} from './components/ChatPane'
import {DialogHost} from './components/dialogs/DialogHost'
import {syncDialogs} from './stores/dialogs'
import {syncTasks} from './stores/tasks'
import {AccountsPage} from './components/pages/AccountsPage'
import {ConnectorsPage} from './components/pages/ConnectorsPage'
import {SettingsPage} from './components/pages/SettingsPage'
import {Sidebar} from './components/Sidebar'
import {StoreErrorScreen} from './components/StoreErrorScreen'
import {Toasts} from './components/Toasts'
import {syncAccounts} from './stores/accounts'
import {syncCommands} from './stores/commands'
import {useAppStore} from './stores/app'
import {useModels} from './stores/models'
import {syncRuns} from './stores/chatEvents'
import {syncContext} from './stores/context'
import {syncSessions} from './stores/sessions'
import {syncTheme} from './stores/theme'
import {useUI} from './stores/ui'

function Main() {
  const view = useUI((s) => s.view)
  switch (view) {
    case 'accounts':
      return <AccountsPage />
    case 'connectors':
      return <ConnectorsPage />
    case 'settings':
      return <SettingsPage />
    default:
      return <ChatPane />
  }
}

function Shell() {
  useEffect(() => syncSessions(), [])
  useEffect(() => syncAccounts(), [])
  useEffect(() => syncRuns(), [])
  useEffect(() => syncContext(), [])
  useEffect(() => syncDialogs(), [])
  useEffect(() => syncTasks(), [])
  useEffect(() => {
    void useModels.getState().load()
  }, [])

  useEffect(() => syncCommands(), [])

  return (
    <div className="shell">
      <Sidebar />
      <main className="main">
        <Main />
      </main>
      <DialogHost />
      <AboutDialog />
    </div>
  )
}

export default function App() {
  const phase = useAppStore((s) => s.phase)
  const status = useAppStore((s) => s.status)

  useEffect(() => {
    void useAppStore.getState().init()
  }, [])
  // After init: the theme setting lives in the data file.
  useEffect(() => (phase === 'loading' ? undefined : syncTheme()), [phase])

  return (
    <>
      {phase === 'loading' && <div className="splash" aria-busy="true" aria-label="Loading Maestro" />}
      {phase === 'store-error' && status && <StoreErrorScreen status={status} />}
      {phase === 'ready' && <Shell />}
      <Toasts />
    </>
  )
}
