import {useEffect, useState} from 'react'
import {ScrollText} from 'lucide-react'
import {settingsApi} from '../api/client'
import {toastError} from '../stores/toasts'
import {InstructionsDialog} from './dialogs/InstructionsDialog'

/**
 * The chat header's "Instructions" pill: shows whether the chat has its
 * own instructions and opens the dialog that edits them.
 */
export function InstructionsButton({sessionId}: {sessionId: string}) {
  const [text, setText] = useState<string | null>(null)
  const [open, setOpen] = useState<{defaults: string} | null>(null)

  useEffect(() => {
    let live = true
    setText(null)
    settingsApi
      .instructions(sessionId)
      .then((t) => live && setText(t))
      .catch(() => live && setText(''))
    return () => {
      live = false
    }
  }, [sessionId])

  async function show() {
    try {
      const [current, prefs] = await Promise.all([settingsApi.instructions(sessionId), settingsApi.prefs()])
      setText(current)
      setOpen({defaults: prefs.instructions})
    } catch (err) {
      toastError(err, "Couldn't read the chat's instructions")
    }
  }

  return (
    <>
      <button
        type="button"
        className={text ? 'pill pill-on' : 'pill'}
        data-testid="instructions-button"
        aria-label={text ? 'Instructions (set)' : 'Instructions'}
        title={text ? text.slice(0, 200) : 'No instructions for this chat'}
        onClick={() => void show()}
      >
        <ScrollText size={14} aria-hidden="true" />
        <span>Instructions</span>
      </button>
      {open && (
        <InstructionsDialog
          value={text ?? ''}
          defaults={open.defaults}
          onSave={async (t) => setText(await settingsApi.setInstructions(sessionId, t))}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  )
}
