import '@testing-library/jest-dom/vitest'
import {cleanup} from '@testing-library/react'
import {afterEach, beforeEach} from 'vitest'
import {installFakeBackend, resetStores} from './fakeBackend'

// jsdom does no layout, so it has no scrolling into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {}

beforeEach(() => {
  resetStores()
  installFakeBackend()
})

afterEach(() => {
  cleanup()
})
