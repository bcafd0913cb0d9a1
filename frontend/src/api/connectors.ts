// The MCP connectors and a session's tools: the Connectors service's calls
// and the events Go sends about them, typed by the generated contract
// (contract.gen.ts, from app/connectors_dto.go). Every call rejects with an
// AppError (see errors.ts).

import {call, go} from './client'
import type * as C from './contract.gen'
import {EventConnectorLog, EventConnectorState, EventToolsChanged} from './contract.gen'
import {on} from './events'

export type {ConnectorState, Transport} from './contract.gen'
export type Connector = C.ConnectorDTO
/** An env variable or header; the value stays in Go, hint shows it masked. */
export type KeyHint = C.KeyValueDTO
export type KeyValueInput = C.KeyValueInputDTO
export type ConnectorInput = C.ConnectorInputDTO
export type TestTool = C.TestToolDTO
export type TestResult = C.TestResultDTO
export type LogLine = C.LogLineDTO
export type ConnectorLogEvent = C.ConnectorLogDTO
export type ImportEntry = C.ImportEntryDTO
export type ImportReport = C.ImportReportDTO
export type SessionTool = C.SessionToolDTO
export type SessionConnector = C.SessionConnectorDTO
export type SessionTools = C.SessionToolsDTO
export type ToolsChangedEvent = C.ToolsChangedDTO

export const connectorsApi = {
  list: () => call(() => go().Connectors.List()),
  save: (input: ConnectorInput) => call(() => go().Connectors.Save(input)),
  remove: (id: string) => call(() => go().Connectors.Delete(id)),
  setEnabled: (id: string, on: boolean) => call(() => go().Connectors.SetEnabled(id, on)),
  /** Switches a connector on or off in every new chat (Settings); the connector keeps running. */
  setNewChats: (id: string, on: boolean) => call(() => go().Connectors.SetNewChats(id, on)),
  restart: (id: string) => call(() => go().Connectors.Restart(id)),
  test: (input: ConnectorInput) => call(() => go().Connectors.Test(input)),
  logs: (id: string) => call(() => go().Connectors.Logs(id)),
  suggestSecretArgs: (args: string[]) => call(() => go().Connectors.SuggestSecretArgs(args)),
  pickImportFile: () => call(() => go().Connectors.PickImportFile()),
  pickExportFile: () => call(() => go().Connectors.PickExportFile()),
  importFile: (path: string) => call(() => go().Connectors.Import(path)),
  exportFile: (path: string) => call(() => go().Connectors.Export(path)),
  signIn: (id: string) => call(() => go().Connectors.SignIn(id)),
  cancelSignIn: (id: string) => call(() => go().Connectors.CancelSignIn(id)),
  signOut: (id: string) => call(() => go().Connectors.SignOut(id)),
}

export const toolsApi = {
  sessionTools: (sessionId: string) => call(() => go().Connectors.SessionTools(sessionId)),
  setConnector: (sessionId: string, connectorId: string, on: boolean) =>
    call(() => go().Connectors.SetSessionConnector(sessionId, connectorId, on)),
  setTool: (sessionId: string, canonical: string, on: boolean) => call(() => go().Connectors.SetSessionTool(sessionId, canonical, on)),
  setRoots: (sessionId: string, roots: string[]) => call(() => go().Connectors.SetSessionRoots(sessionId, roots)),
  pickFolder: () => call(() => go().Connectors.PickFolder()),
}

/** Subscribes to connector:state and connector:log; returns the unsubscribe. */
export function onConnectorEvents(handlers: {
  state?: (c: Connector) => void
  log?: (ev: ConnectorLogEvent) => void
}): () => void {
  const offs: (() => void)[] = []
  const {state, log} = handlers
  if (state) offs.push(on(EventConnectorState, (c) => c && state(c)))
  if (log) offs.push(on(EventConnectorLog, (ev) => ev && log(ev)))
  return () => offs.forEach((off) => off())
}

/** Subscribes to tools:changed; returns the unsubscribe. */
export function onToolsChanged(cb: (ev: ToolsChangedEvent) => void): () => void {
  return on(EventToolsChanged, (ev) => ev && cb(ev))
}
