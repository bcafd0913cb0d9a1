import '@testing-library/jest-dom/vitest'
import {cleanup} from '@testing-library/react'
import {afterEach, beforeEach} from 'vitest'
import {installFakeBackend, resetStores} from './fakeBackend'

beforeEach(() => {
  resetStores()
  installFakeBackend()
})

afterEach(() => {
  cleanup()
})
