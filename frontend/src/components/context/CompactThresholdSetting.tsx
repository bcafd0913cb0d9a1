import {useEffect, useState} from 'react'
import {settingsApi} from '../../api/client'
import {DEFAULT_THRESHOLD, useContextStore} from '../../stores/context'
import {toastError} from '../../stores/toasts'
import {CompactThresholdValue} from './CompactThresholdValue'

/** Settings' compaction threshold, read from and saved to Go (Settings.CompactThreshold). */
export function CompactThresholdSetting() {
  const value = useContextStore((s) => s.threshold)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    settingsApi
      .compactThreshold()
      .then((v) => useContextStore.getState().setThreshold(v || DEFAULT_THRESHOLD))
      .catch(() => {})
  }, [])

  async function change(share: number) {
    setBusy(true)
    try {
      useContextStore.getState().setThreshold(await settingsApi.setCompactThreshold(share))
    } catch (err) {
      toastError(err, "Couldn't change the compaction threshold")
    } finally {
      setBusy(false)
    }
  }

  return <CompactThresholdValue value={value} onChange={(v) => void change(v)} disabled={busy} />
}
