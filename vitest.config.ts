import { defineConfig } from 'vitest/config'

/**
 * Unit and integration tests beside the code. Node by default; a browser-like file opts in with
 * a `// @vitest-environment jsdom` comment. Server tests each build their own app (server/testing/test-app.ts).
 */
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // Each server test app starts a fresh database, cloned from one migrated per run (PGlite takes
    // seconds to initialise a cluster; see server/testing/template-db.ts).
    globalSetup: ['server/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
