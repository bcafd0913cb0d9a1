import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {defineConfig, type Plugin} from 'vitest/config'
import react from '@vitejs/plugin-react'

// The Go binary embeds frontend/dist and needs at least one file there even
// before the first build, so dist/.gitkeep is tracked. Vite empties outDir
// on every build; this puts the file back afterwards.
function keepGitkeep(): Plugin {
  let outDir = ''
  return {
    name: 'maestro-keep-gitkeep',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir)
    },
    closeBundle() {
      if (outDir && existsSync(outDir)) writeFileSync(join(outDir, '.gitkeep'), '')
    },
  }
}

// https://vitejs.dev/config/
export default defineConfig({
  plugins: [react(), keepGitkeep()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    // A test that drives a long session through user events takes 3-4 s
    // alone and past the default 5 s on a 2-core machine running other
    // work; the limit only catches hangs.
    testTimeout: 20_000,
  },
})
