import {render, screen, within} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import type {AuditRecord, DefinitionChange, TaskView} from '../../lib/trust'
import {
  AlwaysAllow,
  AnnotationBadges,
  AuditLogView,
  ChatPolicySelect,
  ConnectorPolicyPicker,
  ConnectorTrustDrawer,
  DefinitionDiff,
  JobCard,
  ProtocolBadge,
  TaskList,
  TrustIcon,
  UrlConsentDialog,
} from '.'
import {Plug} from 'lucide-react'

function task(over: Partial<TaskView> = {}): TaskView {
  return {
    id: 't1',
    connectorId: 'c1',
    tool: 'simulate-research-query',
    status: 'working',
    createdAt: '2026-11-25T10:00:00Z',
    updatedAt: '2026-11-25T10:00:05Z',
    ...over,
  }
}

function audit(over: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: '2026-11-25T10:00:00Z',
    sessionId: 's1',
    connectorId: 'c1',
    connector: 'Files',
    tool: 'write_file',
    callId: 'call-1',
    arguments: {path: '/tmp/a', token: '[redacted]'},
    approvedBy: 'user',
    how: 'allow_once',
    outcome: 'ok',
    durationMs: 120,
    ...over,
  }
}

describe('ProtocolBadge', () => {
  it.each([
    ['2026-07-28', 'true', /server\/discover/],
    ['2025-11-25', 'false', /initialize/],
  ])('shows %s', (v, modern, how) => {
    render(<ProtocolBadge version={v} />)
    const b = screen.getByTestId('connector-protocol')
    expect(b).toHaveTextContent(`MCP ${v}`)
    expect(b.classList.contains('is-modern')).toBe(modern === 'true')
    expect(b.title).toMatch(how)
  })

  it('says a version is pinned, and shows nothing before negotiation', () => {
    const {rerender} = render(<ProtocolBadge version="2025-06-18" pinned="2025-06-18" />)
    expect(screen.getByTestId('connector-protocol').title).toMatch(/pinned to 2025-06-18/)
    rerender(<ProtocolBadge />)
    expect(screen.queryByTestId('connector-protocol')).toBeNull()
  })
})

describe('AnnotationBadges', () => {
  it('shows each stated hint with the server as its source', () => {
    render(<AnnotationBadges hints={{destructiveHint: true, idempotentHint: true, openWorldHint: true}} />)
    expect(screen.getByTestId('hint-destructive')).toHaveTextContent('Destructive')
    expect(screen.getByTestId('hint-idempotent')).toHaveTextContent('Idempotent')
    expect(screen.getByTestId('hint-open-world').title).toMatch(/server’s claim/)
    expect(screen.queryByTestId('hint-read-only')).toBeNull()
  })

  it('renders nothing without hints', () => {
    const {container} = render(<AnnotationBadges hints={{}} />)
    expect(container).toBeEmptyDOMElement()
  })
})

describe('JobCard', () => {
  it('shows a running task with progress from its message and cancels it', async () => {
    const onCancel = vi.fn(async () => {})
    render(<JobCard task={task({message: 'task working: 2/4 sources'})} onCancel={onCancel} />)
    const card = screen.getByTestId('job-card')
    expect(card.dataset.status).toBe('working')
    expect(within(card).getByTestId('job-status')).toHaveTextContent('Working')
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50')
    await userEvent.click(within(card).getByTestId('job-cancel'))
    expect(onCancel).toHaveBeenCalledOnce()
  })

  it('shows an indeterminate bar when nothing says how far it is', () => {
    render(<JobCard task={task()} onCancel={() => {}} />)
    expect(screen.getByTestId('job-progress').dataset.determinate).toBe('false')
  })

  it.each([
    ['completed', 'Completed', false],
    ['failed', 'Failed', false],
    ['cancelled', 'Cancelled', false],
    ['lost', 'Lost', true],
  ])('an ended task (%s) has no Cancel and no bar', (status, label, lost) => {
    render(<JobCard task={task({status, message: 'why'})} onCancel={() => {}} />)
    expect(screen.getByTestId('job-status')).toHaveTextContent(label)
    expect(screen.queryByTestId('job-cancel')).toBeNull()
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.getByTestId('job-message')).toHaveTextContent('why')
    expect(!!screen.queryByTestId('job-lost')).toBe(lost)
  })

  it('says when the task needs input', () => {
    render(<JobCard task={task({status: 'input_required'})} />)
    expect(screen.getByRole('note')).toHaveTextContent(/answer it in the dialog/)
  })
})

describe('UrlConsentDialog', () => {
  const req = {requestId: 'r1', connector: 'Everything', server: 'mcp-servers/everything', message: 'Sign in to the demo', url: 'https://example.com/oauth?x=1'}

  it('shows the connector, the server and the domain, and opens only on Open', async () => {
    const onOpen = vi.fn()
    const onDecline = vi.fn()
    render(<UrlConsentDialog request={req} phase="consent" onOpen={onOpen} onDecline={onDecline} onContinue={() => {}} onCancel={() => {}} />)
    expect(screen.getByTestId('url-consent-connector')).toHaveTextContent('Everything')
    expect(screen.getByTestId('url-consent-server')).toHaveTextContent('mcp-servers/everything')
    expect(screen.getByTestId('url-consent-domain')).toHaveTextContent('example.com')
    expect(screen.getByTestId('url-consent-url')).toHaveTextContent(req.url)
    expect(screen.queryByTestId('url-consent-punycode')).toBeNull()
    // Focus starts on Decline, and Enter does not open.
    expect(screen.getByTestId('url-consent-decline')).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(onDecline).toHaveBeenCalledOnce()
    expect(onOpen).not.toHaveBeenCalled()
    await userEvent.click(screen.getByTestId('url-consent-open'))
    expect(onOpen).toHaveBeenCalledOnce()
  })

  it.each([
    ['flagged by the backend', {url: 'https://example.com/', domain: 'example.com', punycode: true}],
    ['found in the URL', {url: 'https://xn--pple-43d.com/login'}],
  ])('warns of Punycode %s', (_, over) => {
    render(<UrlConsentDialog request={{...req, ...over}} phase="consent" onOpen={() => {}} onDecline={() => {}} onContinue={() => {}} onCancel={() => {}} />)
    expect(screen.getByTestId('url-consent-punycode')).toHaveTextContent(/Punycode/)
    expect(screen.getByTestId('url-consent-domain').classList.contains('is-punycode')).toBe(true)
  })

  it('waits for Continue once the page is open', async () => {
    const onContinue = vi.fn()
    const onCancel = vi.fn()
    render(<UrlConsentDialog request={req} phase="waiting" onOpen={() => {}} onDecline={() => {}} onContinue={onContinue} onCancel={onCancel} />)
    expect(screen.queryByTestId('url-consent-open')).toBeNull()
    expect(screen.getByTestId('url-consent-continue')).toHaveFocus()
    await userEvent.click(screen.getByTestId('url-consent-continue'))
    expect(onContinue).toHaveBeenCalledOnce()
    await userEvent.click(screen.getByTestId('url-consent-cancel'))
    expect(onCancel).toHaveBeenCalledOnce()
  })
})

describe('DefinitionDiff', () => {
  const change: DefinitionChange = {
    connectorId: 'c1',
    tool: 'rename_me',
    allowedAt: '2026-11-24T09:00:00Z',
    description: [
      {op: '-', text: 'Renames a file.'},
      {op: '+', text: 'Deletes every file.'},
    ],
    schema: [
      {op: ' ', text: '{'},
      {op: '+', text: '  "force": true'},
      {op: ' ', text: '}'},
    ],
  }

  it('shows each changed part with its added and removed lines', () => {
    render(<DefinitionDiff change={change} />)
    const desc = screen.getByTestId('diff-description')
    expect(desc.querySelector('[data-op="del"]')).toHaveTextContent('Renames a file.')
    expect(desc.querySelector('[data-op="add"]')).toHaveTextContent('Deletes every file.')
    expect(screen.getByTestId('diff-schema').querySelectorAll('[data-op="same"]')).toHaveLength(2)
    expect(screen.queryByTestId('diff-annotations')).toBeNull()
    expect(screen.getByRole('alert')).toHaveTextContent(/changed since you allowed it on/)
  })
})

describe('AlwaysAllow', () => {
  it.each([
    ['approval-always-chat', 'chat'],
    ['approval-always-all', 'all_chats'],
  ])('%s allows with scope %s', async (item, scope) => {
    const onAllow = vi.fn()
    render(<AlwaysAllow onAllow={onAllow} tool="write_file" />)
    expect(screen.queryByRole('menu')).toBeNull()
    await userEvent.click(screen.getByTestId('approval-always'))
    expect(screen.getByRole('menu')).toHaveAccessibleName('Always allow write_file')
    await userEvent.click(screen.getByTestId(item))
    expect(onAllow).toHaveBeenCalledWith(scope)
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('closes on Esc without allowing', async () => {
    const onAllow = vi.fn()
    render(<AlwaysAllow onAllow={onAllow} />)
    await userEvent.click(screen.getByTestId('approval-always'))
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(onAllow).not.toHaveBeenCalled()
  })
})

describe('policies', () => {
  it('sets a connector policy', async () => {
    const onChange = vi.fn()
    render(<ConnectorPolicyPicker value="ask" onChange={onChange} name="Files" />)
    expect(screen.getByTestId('policy-ask')).toBeChecked()
    await userEvent.click(screen.getByTestId('policy-read_only'))
    expect(onChange).toHaveBeenCalledWith('read_only')
  })

  it('overrides it in a chat, and follows the connector again', async () => {
    const onChange = vi.fn()
    const {rerender} = render(<ChatPolicySelect connectorPolicy="read_only" onChange={onChange} name="Files" />)
    const sel = screen.getByTestId('chat-policy')
    expect(sel).toHaveValue('')
    expect(within(sel).getAllByRole('option')[0]).toHaveTextContent('As the connector (Allow read-only tools)')
    await userEvent.selectOptions(sel, 'all')
    expect(onChange).toHaveBeenLastCalledWith('all')
    rerender(<ChatPolicySelect value="all" connectorPolicy="read_only" onChange={onChange} name="Files" />)
    await userEvent.selectOptions(screen.getByTestId('chat-policy'), '')
    expect(onChange).toHaveBeenLastCalledWith(undefined)
  })
})

describe('AuditLogView', () => {
  it('lists calls newest first with how they were decided, and exports', async () => {
    const onExport = vi.fn()
    render(
      <AuditLogView
        records={[audit(), audit({callId: 'call-2', tool: 'files.delete', how: 'connector_all', approvedBy: 'policy', outcome: 'error', error: 'no such file'})]}
        onExport={onExport}
        chatTitle={(id) => (id === 's1' ? 'Cleanup' : undefined)}
      />,
    )
    expect(screen.getByTestId('audit-count')).toHaveTextContent('2 calls')
    const rows = screen.getAllByTestId('audit-row')
    expect(rows.map((r) => r.dataset.outcome)).toEqual(['error', 'ok'])
    expect(within(rows[0]).getByTestId('audit-how')).toHaveTextContent('Allow-everything policy')
    // The connector's drawer names its tools without the server before them; the title has it all.
    expect(within(rows[0]).getByTestId('audit-tool')).toHaveTextContent(/^delete$/)
    expect(within(rows[0]).getByTitle('files.delete')).toBeInTheDocument()
    await userEvent.click(within(rows[1]).getByRole('button'))
    expect(within(rows[1]).getByText('Cleanup')).toBeInTheDocument()
    expect(within(rows[1]).getByTestId('audit-args')).toHaveTextContent('[redacted]')
    await userEvent.click(screen.getByTestId('audit-export'))
    expect(onExport).toHaveBeenCalledOnce()
  })

  it('has nothing to export when empty', () => {
    render(<AuditLogView records={[]} onExport={() => {}} />)
    expect(screen.getByTestId('audit-export')).toBeDisabled()
    expect(screen.getByTestId('audit-count')).toHaveTextContent('No tool calls yet')
  })
})

describe('TaskList', () => {
  it('puts running tasks first and cancels by id', async () => {
    const onCancel = vi.fn()
    render(<TaskList tasks={[task({id: 'done', status: 'completed'}), task({id: 'run'}), task({id: 'gone', status: 'lost'})]} onCancel={onCancel} />)
    const cards = screen.getAllByTestId('job-card')
    expect(cards.map((c) => c.dataset.taskId)).toEqual(['run', 'done', 'gone'])
    expect(screen.getAllByTestId('job-cancel')).toHaveLength(1)
    await userEvent.click(screen.getByTestId('job-cancel'))
    expect(onCancel).toHaveBeenCalledWith('run')
  })

  it('says when there are none', () => {
    render(<TaskList tasks={[]} onCancel={() => {}} />)
    expect(screen.getByTestId('task-list-empty')).toBeInTheDocument()
  })
})

describe('TrustIcon', () => {
  it.each([
    ['data:', [{src: 'data:image/png;base64,iVBORw0KGgo='}], true],
    ['https:', [{src: 'https://example.com/i.png'}], true],
    ['http: falls back', [{src: 'http://example.com/i.png'}], false],
    ['javascript: falls back', [{src: 'javascript:alert(1)'}], false],
    ['none', undefined, false],
  ])('%s', (_, icons, img) => {
    const {container} = render(<TrustIcon icons={icons} fallback={Plug} size={16} testId="icon" />)
    expect(!!screen.queryByTestId('icon')).toBe(img)
    expect(!!container.querySelector('svg')).toBe(!img)
  })
})

describe('ConnectorTrustDrawer', () => {
  it('switches tabs, sets the policy, revokes a grant, and closes on Esc', async () => {
    const props = {
      connector: {id: 'c1', name: 'Files', protocol: '2026-07-28'},
      policy: 'ask' as const,
      onPolicy: vi.fn(),
      grants: [{tool: 'write_file', grantedAt: '2026-11-25T10:00:00Z'}],
      onRevoke: vi.fn(),
      tasks: [task()],
      onCancelTask: vi.fn(),
      audit: [audit()],
      onExportAudit: vi.fn(),
      onClose: vi.fn(),
      onTab: vi.fn(),
    }
    const {rerender} = render(<ConnectorTrustDrawer {...props} tab="approvals" />)
    expect(screen.getByTestId('connector-protocol')).toHaveTextContent('MCP 2026-07-28')
    expect(screen.getByTestId('trust-tab-tasks')).toHaveTextContent('1')
    await userEvent.click(screen.getByTestId('policy-all'))
    expect(props.onPolicy).toHaveBeenCalledWith('all')
    await userEvent.click(screen.getByTestId('grant-revoke'))
    expect(props.onRevoke).toHaveBeenCalledWith('write_file')
    await userEvent.click(screen.getByTestId('trust-tab-audit'))
    expect(props.onTab).toHaveBeenCalledWith('audit')
    rerender(<ConnectorTrustDrawer {...props} tab="audit" />)
    expect(screen.getByTestId('audit-log')).toBeInTheDocument()
    rerender(<ConnectorTrustDrawer {...props} tab="tasks" />)
    expect(screen.getByTestId('task-list')).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    expect(props.onClose).toHaveBeenCalled()
  })
})
