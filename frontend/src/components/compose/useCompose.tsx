import {type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode, useCallback, useEffect, useMemo, useState} from 'react'
import {AttachMenu, filesOf} from './AttachMenu'
import {AttachmentChips} from './AttachmentChips'
import {readFileDraft, readRefusal} from './attachFiles'
import type {ComposeApi, ConnectorOffer, WirePart} from './composeApi'
import {promptDraft, readDrafts, useDraftAttachments} from './draftAttachments'
import {PromptForm} from './PromptForm'
import {PromptMenu} from './PromptMenu'
import {atQuery, filterPrompts, slashQuery} from './promptFilter'
import {ResourcePicker, templateLabel} from './ResourcePicker'
import {useSentUpdates} from './sentResources'
import type {DraftAttachment, Prompt, Resource, ResourceTemplate} from './types'
import {errorText} from './types'
import {useMenuKeys} from './useMenuKeys'

interface Options {
  sessionId: string
  text: string
  setText: (text: string) => void
  api: ComposeApi
  /** Bumped when a connector's prompts or resources changed (FeatureEvents): the lists are read again. */
  revision?: number
  /** Nothing may be attached (no model can answer yet). */
  disabled?: boolean
}

const none: DraftAttachment[] = []
const noRefusals: string[] = []

/**
 * The composer's prompts, resources and attachments, around its text box:
 * "/" at the start opens the prompt menu (then the argument form), "@" the
 * resource picker, the paperclip either; files come by the paperclip, a
 * drop or a paste. It returns the pieces the Composer places (overlay,
 * chips, attach button), the text box's key handler (call it first: true
 * means handled) and the drop and paste handlers for the box.
 */
export function useCompose({sessionId, text, setText, api, revision = 0, disabled}: Options) {
  const attachments = useDraftAttachments((s) => s.bySession[sessionId] ?? none)
  const refusals = useDraftAttachments((s) => s.refusals[sessionId] ?? noRefusals)
  const store = useDraftAttachments.getState()
  const [prompts, setPrompts] = useState<{list: Prompt[]; unavailable: string[]; key: string} | null>(null)
  const [offers, setOffers] = useState<{list: ConnectorOffer[]; key: string} | null>(null)
  const [templates, setTemplates] = useState<ResourceTemplate[]>([])
  const [form, setForm] = useState<Prompt | null>(null)
  const [picker, setPicker] = useState<{query: string; fromAt: boolean} | null>(null)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const [dropping, setDropping] = useState(false)
  const key = `${sessionId}:${revision}`

  const slash = form || picker || dismissed === text ? null : slashQuery(text)
  const at = form || picker || dismissed === text ? null : atQuery(text)

  // The prompts, read when the menu opens (again after a change).
  useEffect(() => {
    if (slash === null || prompts?.key === key) return
    let live = true
    api.prompts(sessionId).then(
      (r) => live && setPrompts({list: r.prompts, unavailable: (r.unavailable ?? []).map((u) => `${u.server}: ${u.error}`), key}),
      (e) => live && setPrompts({list: [], unavailable: [errorText(e)], key}),
    )
    return () => {
      live = false
    }
  }, [slash, prompts?.key, key, api, sessionId])

  // The connectors' offers and templates, read when the picker opens or an "@" is typed.
  const wantOffers = picker !== null || at !== null
  useEffect(() => {
    if (!wantOffers || offers?.key === key) return
    let live = true
    void Promise.all([api.offers(sessionId), api.templates(sessionId).catch(() => [])]).then(
      ([o, t]) => {
        if (!live) return
        setOffers({list: o, key})
        setTemplates(t)
      },
      () => live && setOffers({list: [], key}),
    )
    return () => {
      live = false
    }
  }, [wantOffers, offers?.key, key, api, sessionId])

  // "@" opens the picker with what follows it as the search.
  useEffect(() => {
    if (at !== null) setPicker({query: at, fromAt: true})
  }, [at])

  // Go checks the draft against the model's limits whenever it changes.
  useEffect(() => {
    if (attachments.length === 0) {
      useDraftAttachments.getState().setRefusals(sessionId, [])
      return
    }
    let live = true
    api.checkAttachments(sessionId, attachments).then(
      (r) => live && useDraftAttachments.getState().setRefusals(sessionId, r),
      () => {}, // sending checks again
    )
    return () => {
      live = false
    }
  }, [attachments, api, sessionId])

  const shown = useMemo(() => (slash === null ? [] : filterPrompts(prompts?.list ?? [], slash)), [slash, prompts])
  const pickPrompt = useCallback(
    (p: Prompt) => {
      setForm(p)
    },
    [setForm],
  )
  const keys = useMenuKeys(shown.length, slash, (i) => pickPrompt(shown[i]), () => setDismissed(text))

  const sources = (offers?.list ?? []).filter((o) => o.resources).map((o) => ({connectorId: o.connectorId, server: o.server}))
  const subscribes = (id: string) => !!offers?.list.find((o) => o.connectorId === id)?.subscribe
  const completes = (id: string) => offers === null || !!offers.list.find((o) => o.connectorId === id)?.completions

  async function attachRead(connectorId: string, parts: WirePart[], name?: string) {
    const drafts = readDrafts(parts, name)
    if (drafts.length === 0) throw new Error('The server sent nothing for this resource.')
    store.add(sessionId, drafts)
    for (const d of drafts) useSentUpdates.getState().clear(sessionId, connectorId, d.uri) // the draft has the fresh read
    if (subscribes(connectorId)) for (const d of drafts) void api.subscribe(sessionId, connectorId, d.uri).catch(() => {})
  }

  function closePicker() {
    if (picker?.fromAt) setText(text.replace(/(^|\s)@\S*$/, '$1'))
    setPicker(null)
  }

  async function onFiles(files: File[]) {
    const refused: string[] = []
    const read: DraftAttachment[] = []
    for (const f of files) {
      const why = readRefusal(f)
      if (why) refused.push(why)
      else
        try {
          read.push(await readFileDraft(f))
        } catch (e) {
          refused.push(`${f.name}: ${errorText(e)}`)
        }
    }
    if (read.length) store.add(sessionId, read)
    if (refused.length) store.setRefusals(sessionId, [...useDraftAttachments.getState().refusals[sessionId] ?? [], ...refused])
  }

  async function refresh(i: number) {
    const a = attachments[i]
    if (a?.type !== 'resource') return
    try {
      const [fresh] = readDrafts(await api.readResource(sessionId, a.connectorId, a.uri), a.name)
      if (fresh) store.replace(sessionId, i, fresh)
      useSentUpdates.getState().clear(sessionId, a.connectorId, a.uri)
    } catch (e) {
      store.setRefusals(sessionId, [`${a.name || a.uri}: ${errorText(e)}`])
    }
  }

  let overlay: ReactNode = null
  if (form) {
    overlay = (
      <PromptForm
        key={`${form.connectorId}/${form.name}`}
        prompt={form}
        complete={
          completes(form.connectorId)
            ? (name, value, context) => api.complete(sessionId, form.connectorId, {prompt: form.name}, name, value, context)
            : undefined
        }
        onCancel={() => setForm(null)}
        onSubmit={async (args) => {
          const parts = await api.getPrompt(sessionId, form.connectorId, form.name, args)
          const draft = promptDraft(parts)
          setText(draft.text)
          if (draft.attachments.length) store.add(sessionId, draft.attachments)
          setForm(null)
        }}
      />
    )
  } else if (picker) {
    overlay = (
      <ResourcePicker
        key={key}
        sources={sources}
        listPage={(id, cursor) => api.resources(sessionId, id, cursor)}
        templates={templates}
        completeVariable={(t) =>
          completes(t.connectorId)
            ? (name, value, context) => api.complete(sessionId, t.connectorId, {uriTemplate: t.uriTemplate}, name, value, context)
            : undefined
        }
        initialQuery={picker.query}
        onClose={closePicker}
        onPick={async (r: Resource) => {
          await attachRead(r.connectorId, await api.readResource(sessionId, r.connectorId, r.uri), r.title || r.name)
          closePicker()
        }}
        onPickTemplate={async (t, values) => {
          await attachRead(t.connectorId, await api.readTemplate(sessionId, t.connectorId, t.uriTemplate, values), templateLabel(t, values))
          closePicker()
        }}
      />
    )
  } else if (slash !== null) {
    overlay = (
      <PromptMenu
        prompts={shown}
        active={keys.active}
        onHover={keys.setActive}
        onPick={pickPrompt}
        loading={prompts?.key !== key}
        unavailable={prompts?.unavailable}
      />
    )
  }

  return {
    attachments,
    refusals,
    overlay,
    dropping,
    chips: (
      <AttachmentChips attachments={attachments} refusals={refusals} onRemove={(i) => store.remove(sessionId, i)} onRefresh={(i) => void refresh(i)} />
    ),
    attachButton: (
      <AttachMenu
        disabled={disabled}
        onFiles={(f) => void onFiles(f)}
        onResources={() => {
          setDismissed(null)
          setPicker({query: '', fromAt: false})
        }}
      />
    ),
    /** Call first from the text box's keydown; true when the menu took the key. */
    onKeyDown: (e: KeyboardEvent): boolean => (slash !== null ? keys.onKeyDown(e) : false),
    onPaste: (e: ClipboardEvent) => {
      const files = filesOf(e.clipboardData)
      if (files.length === 0 || disabled) return
      e.preventDefault()
      void onFiles(files)
    },
    onDragOver: (e: DragEvent) => {
      if (disabled || !Array.from(e.dataTransfer?.types ?? []).includes('Files')) return
      e.preventDefault()
      setDropping(true)
    },
    onDragLeave: () => setDropping(false),
    onDrop: (e: DragEvent) => {
      setDropping(false)
      const files = filesOf(e.dataTransfer)
      if (files.length === 0 || disabled) return
      e.preventDefault()
      void onFiles(files)
    },
    /** After the message is sent: the draft's attachments are gone with it. */
    sent: () => store.clear(sessionId),
  }
}
