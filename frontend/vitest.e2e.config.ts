import {defineConfig} from 'vitest/config'

// End-to-end tests drive the real app binary under Xvfb. They run one file at
// a time: each starts its own X server, app and browser, and the machines
// that run them have two cores.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
})
