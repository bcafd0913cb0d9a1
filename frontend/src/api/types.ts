// The names the components and stores use for what the Go side sends: each
// is the generated contract's DTO (contract.gen.ts, from app/*.go), so a
// renamed or retyped Go field fails tsc here and wherever it is used.

import type * as C from './contract.gen'

export type {ApprovalDecision, ExportFormat, LoginStatus, MessageStatus, ProviderId, Role} from './contract.gen'

export type Status = C.StatusDTO
export type Session = C.SessionDTO
export type Attachment = C.AttachmentDTO
/** A stored attachment's bytes, read for the message view. */
export type StoredFile = C.StoredFileDTO
/** A tool result's envelope as a card shows it: the DTO without the call it answers (cards pair results by call id). */
export type ToolResult = Omit<C.ToolResultDTO, 'callId' | 'name'>
export type Part = C.PartDTO
export type Message = C.MessageDTO
export type Branch = C.BranchDTO
export type SessionView = C.SessionViewDTO
export type MessagePage = C.MessagePageDTO
export type KeychainStatus = C.KeychainDTO
export type Account = C.AccountDTO
export type Login = C.LoginDTO
export type LoginEvent = C.LoginEventDTO
export type SendResult = C.SendResultDTO
export type ModelInfo = C.ModelDTO
export type ProviderModels = C.ProviderModelsDTO
export type RunStartedEvent = C.RunDTO
export type RunStepEvent = C.StepDTO
export type DeltaEvent = C.DeltaDTO
export type RetryingEvent = C.RetryDTO
export type ToolEvent = C.ToolEventDTO
export type ApprovalEvent = C.ApprovalDTO
export type MessageSavedEvent = C.SavedDTO
export type RunFinishedEvent = C.FinishedDTO
export type SearchHit = C.SearchHitDTO
/** A failed turn's classification as stored: its kind may also be "interrupted". */
export type StoredFailure = C.ErrorDTO
