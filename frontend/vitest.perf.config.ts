import {defineConfig} from 'vitest/config'

// Measurements, not tests: e2e/*.perf.ts drive the real app like the
// end-to-end tests and print figures for docs/PERFORMANCE.md; nothing in
// them asserts a time. Run with `make perf-session`.
export default defineConfig({
  test: {
    include: ['e2e/**/*.perf.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
})
