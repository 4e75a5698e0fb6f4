import { availableParallelism } from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The fuzz's shards (server/testing/fuzz-*.test.ts) are by far the longest files: they start
 * first, so the short files fill the other workers around them instead of the shards running
 * alone at the end (a fresh machine has no timings of an earlier run to order by).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const fuzz = (f: TestSpecification) => /\/fuzz-(?!shards)[^/]+\.test\.ts$/.test(f.moduleId)
    return [...sorted.filter(fuzz), ...sorted.filter((f) => !fuzz(f))]
  }
}

/**
 * Unit and integration tests beside the code, all in Node: no DOM is installed. PWA code is tested
 * by what it returns, a component by its static markup (react-dom/server), browser storage through
 * src/testing's stand-ins; what needs a real page is a Playwright test (tests/e2e). Server tests
 * each build their own app (server/testing/test-app.ts).
 */
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Each server test app starts a fresh database, cloned from one migrated per run (PGlite takes
    // seconds to initialise a cluster; see server/testing/template-db.ts).
    globalSetup: ['server/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the CPUs: on two, one worker and every file in
    // turn. Most of a server test waits on its database, so two workers share two CPUs well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
  },
})
