import {createContext, useContext} from 'react'
import type {Attachment} from '../../api/types'
import {EmbeddedResource, type ResourceContent, ResourceLink} from './ResourceView'

/**
 * Reads a resource a tool's result linked to (resources/read on the
 * connector that serves the tool, canonical name "server.tool"). Provided
 * around the messages of a chat; without it a link is shown but cannot be
 * opened.
 */
export type ToolResourceReader = (toolName: string, uri: string) => Promise<ResourceContent[]>

export const ToolResourceContext = createContext<ToolResourceReader | null>(null)

/**
 * A tool result's resource attachment drawn as such: a resource_link as a
 * link that reads the resource on click, an embedded resource by its MIME
 * type. Other attachments (images, audio) are null: ToolResultView draws
 * them.
 */
export function ToolResourceAttachment({a, tool}: {a: Attachment; tool?: string}) {
  const read = useContext(ToolResourceContext)
  if (a.type === 'resource_link' && a.uri) {
    const uri = a.uri
    return (
      <ResourceLink
        uri={uri}
        name={a.name}
        description={a.text}
        mimeType={a.mimeType}
        keepKey={tool ? `resource-link:${tool}:${uri}` : undefined}
        read={async () => {
          if (!read || !tool) throw new Error('This link cannot be opened here.')
          return read(tool, uri)
        }}
      />
    )
  }
  if (a.type === 'resource' && a.uri) {
    return <EmbeddedResource r={{uri: a.uri, name: a.name, mimeType: a.mimeType, text: a.text, data: a.data}} />
  }
  return null
}
