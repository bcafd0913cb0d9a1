// MCP tasks as the chat's job cards and the connectors' task lists see
// them: every task:changed event, kept by task id, and found by the tool
// call that started it.

import {create} from 'zustand'
import {onTaskChanged, type Task, trustApi} from '../api/trust'
import {toastError} from './toasts'

interface TasksState {
  byId: Record<string, Task>
  /** Puts a task (an event, or a connector's list). */
  put: (t: Task) => void
  /** Loads a connector's tasks (its Trust drawer). */
  load: (connectorId: string) => Promise<void>
  cancel: (connectorId: string, taskId: string) => Promise<void>
}

const key = (t: Pick<Task, 'connectorId' | 'id'>) => `${t.connectorId}/${t.id}`

export const useTasks = create<TasksState>()((set) => ({
  byId: {},
  put: (t) => set((s) => ({byId: {...s.byId, [key(t)]: t}})),
  load: async (connectorId) => {
    try {
      const list = await trustApi.tasks(connectorId)
      set((s) => {
        const byId = {...s.byId}
        for (const t of list) byId[key(t)] = t
        return {byId}
      })
    } catch (err) {
      toastError(err, "Couldn't load the connector's tasks")
    }
  },
  cancel: async (connectorId, taskId) => {
    try {
      await trustApi.cancelTask(connectorId, taskId)
    } catch (err) {
      toastError(err, "Couldn't cancel the task")
    }
  },
}))

/** The task a tool call runs as, if any. */
export function taskOfCall(s: Pick<TasksState, 'byId'>, callId: string): Task | undefined {
  for (const t of Object.values(s.byId)) if (t.callId === callId) return t
  return undefined
}

/** A connector's tasks, newest first. */
export function tasksOf(s: Pick<TasksState, 'byId'>, connectorId: string): Task[] {
  return Object.values(s.byId)
    .filter((t) => t.connectorId === connectorId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/** Follows task:changed; returns the unsubscribe function. */
export function syncTasks(): () => void {
  return onTaskChanged((t) => useTasks.getState().put(t))
}
