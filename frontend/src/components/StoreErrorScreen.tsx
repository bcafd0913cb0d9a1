import {TriangleAlert} from 'lucide-react'
import type {Status} from '../api/types'
import {CodeField} from './CopyButton'

/** Replaces the whole window when the data file could not be opened. */
export function StoreErrorScreen({status}: {status: Status}) {
  const message = status.storeError?.message || 'The data file could not be opened.'
  return (
    <main className="store-error" data-testid="store-error">
      <div className="store-error-card" role="alert" aria-labelledby="store-error-title">
        <div className="store-error-icon">
          <TriangleAlert size={24} aria-hidden="true" />
        </div>
        <h1 id="store-error-title" className="store-error-title">
          Maestro couldn't open its data file
        </h1>
        <p className="store-error-message" data-testid="store-error-message">
          {message}
        </p>
        <div className="store-error-field">
          <div className="field-label">Data file</div>
          <CodeField text={status.dataFile} label="data file path" testId="store-error-path" />
        </div>
        <div className="store-error-advice">
          <p>Maestro left the file untouched. To fix this:</p>
          <ul>
            <li>If another Maestro window is open, close it.</li>
            <li>If the file is damaged, move it somewhere else to keep it as a backup; Maestro starts fresh without it.</li>
          </ul>
          <p>Then restart Maestro.</p>
        </div>
      </div>
    </main>
  )
}
