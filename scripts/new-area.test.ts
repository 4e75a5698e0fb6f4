/**
 * `npm run new:area` end to end: the repository is copied to a scratch directory (its files as git
 * lists them, node_modules hard-linked), the command scaffolds "partners" there, and with no hand
 * edit the copy typechecks, lints, and passes the new area's tests, the contract tests, the areas
 * and OpenAPI tests, the side menu and route table tests, the access matrix, the admin fuzz and
 * the audit-changes proof (on the new endpoints and the tests' coverage checks). A probe beside them checks that
 * the area is in the side menu, the palette's record sources, the OpenAPI document and the fuzz.
 *
 * Slow by nature (a typecheck of the whole project and three vitest runs in a child): a few
 * minutes on a busy machine, most of it the typecheck and vitest's transform of the server.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { namesOf, parseArgs } from './new-area.ts'

const ROOT = join(import.meta.dirname, '..')
const ARGS = ['partners', 'name:text', 'url:url', 'logo:image', 'active:flag']
const MINUTES = 60_000

let scratch: string

/** Runs a command in the scratch copy; on failure the error carries its output. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const options: ExecFileSyncOptions = { cwd: scratch, env: { ...process.env, ...env }, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 }
  try {
    return execFileSync(command, args, options).toString()
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer; message: string }
    throw new Error(`${command} ${args.join(' ')} failed:\n${failed.stdout?.toString() ?? ''}\n${failed.stderr?.toString() ?? ''}`.slice(-20_000))
  }
}

const node = (script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string => run(process.execPath, [join(scratch, 'node_modules', script), ...args], env)
/** Runs vitest in the copy (a failure throws with its output) and answers each test's full name and status. */
function vitest(args: readonly string[]): { name: string; status: string }[] {
  const report = join(scratch, `.vitest-${Date.now()}.json`)
  node('vitest/vitest.mjs', ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { CI: '1' })
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: { fullName: string; status: string }[] }[] }
  return testResults.flatMap((file) => file.assertionResults.map((test) => ({ name: test.fullName, status: test.status })))
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'new-area-'))
  // The working tree's files as git knows them (tracked and new, ignored ones left out).
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).toString().split('\0').filter((f) => f !== '')
  for (const file of files) {
    const to = join(scratch, file)
    mkdirSync(dirname(to), { recursive: true })
    try {
      copyFileSync(join(ROOT, file), to)
    } catch (error) {
      // A file deleted in the working tree but still in the index is not part of it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(scratch, 'node_modules')])
  run('npm', ['run', '--silent', 'new:area', '--', ...ARGS])
}, 5 * MINUTES)

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
})

describe('npm run new:area', () => {
  const n = namesOf(parseArgs(ARGS))

  it('writes the area and its one row in each shared table', () => {
    expect(readFileSync(join(scratch, 'contract/routes.ts'), 'utf8')).toContain(`{ path: '${n.list}', title: '${n.title}', menu: 'top', access: 'create' }`)
    const table: unknown = JSON.parse(readFileSync(join(scratch, 'contract/endpoint-table.json'), 'utf8'))
    expect(table).toEqual(expect.arrayContaining([[n.listE, 'GET', `/${n.listE}`], [n.addE, 'POST', `/${n.addE}`], [n.deleteE, 'POST', `/${n.deleteE}`]]))
    const migrations = run('ls', ['server/db/migrations'])
    expect(migrations).toMatch(new RegExp(`\\d{4}_${n.sqlTable}\\.sql`))
  })

  it('refuses to scaffold the same area twice, naming what exists', () => {
    expect(() => run('npm', ['run', '--silent', 'new:area', '--', ...ARGS])).toThrow(/exists already/)
  })

  it('typechecks and lints with no hand edit', () => {
    node('typescript/bin/tsc', ['-p', 'tsconfig.json', '--noEmit'])
    node('eslint/bin/eslint.js', [`contract/${n.area}.ts`, 'contract/routes.ts', 'contract/staff-effects.ts', 'server/db/schema.ts', `server/areas/${n.area}`, `src/features/${n.area}`])
  }, 8 * MINUTES)

  it("passes the area's tests, the contract's, and puts the area in the menu, the palette and the OpenAPI document", () => {
    // A probe written into the copy only: it reads the PWA's route table and menu and the
    // server's OpenAPI document the way the running app builds them.
    writeFileSync(
      join(scratch, 'src/app/new-area-probe.test.ts'),
      `import { expect, it } from 'vitest'
import { menuOrder, screens } from '#contract/routes'
import { loadAreas } from '#server/kit/request/areas'
import { openApiDocument } from '#server/kit/request/openapi'
import { routes } from './route-table.ts'
import { menuEntries } from './side-menu.tsx'

it('shows the new area', async () => {
  const counted = new Map(screens.map((s) => [s.path, { count: 0, noun: '' }]))
  expect(menuEntries(() => true, counted).map((e) => (e.kind === 'item' ? e.row.title : e.label))).toContain(${JSON.stringify(n.title)})
  expect(menuOrder).toContain(${JSON.stringify(n.title)})
  expect(routes.find((r) => r.path === ${JSON.stringify(n.list)})?.records?.heading).toBe(${JSON.stringify(n.title)})
  expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining([${JSON.stringify(n.add)}, ${JSON.stringify(n.edit)}]))
  const doc = openApiDocument((await loadAreas()).index, 'probe') as { paths: Record<string, unknown> }
  expect(Object.keys(doc.paths).filter((p) => /${n.Record}/.test(p)).sort()).toEqual(${JSON.stringify([n.addE, n.deleteE, n.editE, n.getE, n.listE].map((e) => `/api/admin/${e}`).sort())})
})
`,
    )
    const tests = vitest([`server/areas/${n.area}`, 'contract', 'server/kit/request/areas.test.ts', 'server/kit/request/openapi.test.ts', 'src/app/side-menu.test.ts', 'src/app/route-table.test.ts', 'src/app/new-area-probe.test.ts'])
    expect(tests.filter((t) => t.status === 'failed')).toEqual([])
    expect(tests.filter((t) => t.status === 'passed').map((t) => t.name)).toEqual(expect.arrayContaining(['shows the new area', 'every endpoint keeps its name, method and path', `${n.title} edits a ${n.oneWords} at its version and refuses a save from an older one`]))
  }, 10 * MINUTES)

  it('passes the access matrix, the admin fuzz and the audit-changes proof on the new endpoints', () => {
    const tests = vitest(['server/testing/authz-matrix.test.ts', 'server/testing/fuzz-admin.test.ts', 'server/testing/audit-changes.test.ts', '-t', `${n.Record}|covers the served endpoints|every table of the schema is watched`])
    expect(tests.filter((t) => t.status === 'failed')).toEqual([])
    const passed = tests.filter((t) => t.status === 'passed').map((t) => t.name)
    // Every new endpoint ran in both: the matrix names a test by method, path and rule, the fuzz by method and path.
    for (const e of [n.listE, n.getE, n.addE, n.editE, n.deleteE]) expect(passed.filter((name) => name.includes(`/${e} `) || name.endsWith(`/${e}`)).length, e).toBeGreaterThanOrEqual(2)
    expect(passed.some((name) => name.includes('covers the served endpoints'))).toBe(true)
    // The writes keep their changes in the audit log: the new table is watched.
    expect(passed.some((name) => name.includes('every table of the schema is watched'))).toBe(true)
    for (const e of [n.addE, n.editE, n.deleteE]) expect(passed, e).toContain(`every write keeps its changes /${e}`)
  }, 10 * MINUTES)
})
