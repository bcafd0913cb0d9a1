import {Plug, Plus} from 'lucide-react'
import {EmptyState} from '../EmptyState'
import {Page} from './Page'

export function ConnectorsPage() {
  return (
    <Page
      title="Connectors"
      description="Connectors are MCP servers that give the agent tools. Turn their tools on or off for each chat."
      testId="connectors-page"
    >
      <div className="card card-empty">
        <EmptyState
          icon={Plug}
          title="No connectors yet"
          testId="connectors-empty"
          action={
            <button type="button" className="btn btn-primary" disabled>
              <Plus size={16} aria-hidden="true" />
              Add connector
            </button>
          }
        >
          MCP servers over stdio, streamable HTTP or SSE will be added here.
        </EmptyState>
      </div>
    </Page>
  )
}
