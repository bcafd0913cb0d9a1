// Plain shapes of what the Go side sends. Components and stores use these
// rather than the generated classes in wailsjs/go/models.ts.

import type {AppError} from './errors'

export interface Status {
  version: string
  dataDir: string
  dataFile: string
  /** Set when the data file could not be opened; nothing else works then. */
  storeError?: AppError
  /** The session to reopen at launch, or "". */
  lastSessionId: string
}

export interface Session {
  id: string
  title: string
  provider: string
  model: string
  /** Unix milliseconds. */
  createdAt: number
  /** Unix milliseconds; the list is sorted by this, newest first. */
  updatedAt: number
}

export type Role = 'user' | 'assistant' | 'tool'

export interface Part {
  type: string
  text?: string
}

export interface Message {
  id: string
  seq: number
  role: Role
  status: string
  error?: string
  parts: Part[]
  /** Unix milliseconds. */
  createdAt: number
}

export interface SessionView {
  session: Session
  messages: Message[]
}

export interface KeychainStatus {
  available: boolean
  message: string
}
