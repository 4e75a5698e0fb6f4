import { defineConfig } from 'vitest/config'

/**
 * Unit and integration tests beside the code. Node by default; a browser-like file opts in with
 * a `// @vitest-environment jsdom` comment. Server tests each build their own app (server/testing/test-app.ts).
 */
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // Each server test file starts a fresh database (PGlite takes a few seconds to boot).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
