/**
 * `npm run new:area -- <name> <field:kind>...`: scaffolds a simple CRUD area end to end, modelled
 * on the existing simple areas (Home Page Content, Brands), e.g.
 *
 *   npm run new:area -- partners name:text url:url logo:image active:flag
 *
 * Field kinds: text (required, 200 characters), url (required, a link), image (one uploaded image,
 * required on add, kept on edit when none is sent), flag (a yes/no switch, off by default).
 *
 * It writes the contract module, the server area (its handlers on the kit: the list paged,
 * searched and sorted, add, edit, delete to the trash and read one; its samples and its test),
 * the PWA's screens (the list and the add and edit forms through defineList and defineForm, and
 * the palette's records), the screens' rows in contract/routes.ts, the calls' rows in
 * contract/staff-effects.ts (none of them touches staff), the table in
 * server/db/schema.ts with its migration (drizzle-kit generate, plus the audit log's triggers on
 * the table), and the endpoint-table snapshot.
 * Nothing else is edited by hand: the menu, the palette, the OpenAPI document, the access matrix
 * and the fuzz find the area from those. See docs/adding-an-area.md.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const KINDS = ['text', 'url', 'image', 'flag'] as const
type Kind = (typeof KINDS)[number]

export interface Field {
  name: string
  kind: Kind
}

export interface AreaSpec {
  /** The area's folder, contract module and table: lower case, plural (`partners`, `gift-cards`). */
  area: string
  fields: readonly Field[]
}

const words = (name: string): string[] => name.split('-')
const pascal = (name: string): string => words(name).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')
const camel = (name: string): string => pascal(name).charAt(0).toLowerCase() + pascal(name).slice(1)
const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase()
const titleOf = (name: string): string => words(name).map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ')
const label = (field: string): string => titleOf(field.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase())
const singularOf = (name: string): string => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name)

/** Reads `name kind...` arguments; throws a message naming what is wrong. */
export function parseArgs(args: readonly string[]): AreaSpec {
  const [area, ...rest] = args
  if (area === undefined || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(area)) throw new Error('usage: npm run new:area -- <name> <field:kind>... (name in lower case, words joined by -, e.g. partners)')
  if (singularOf(area) === area) throw new Error(`name the area in the plural (${area}s): its list is ${titleOf(area)}s, a record is one ${area}`)
  if (rest.length === 0) throw new Error('give at least one field, e.g. name:text')
  const fields = rest.map((arg): Field => {
    const [name, kind] = arg.split(':')
    if (name === undefined || !/^[a-z][A-Za-z0-9]*$/.test(name)) throw new Error(`field ${arg}: name it in camelCase (e.g. name, siteUrl)`)
    if (!(KINDS as readonly string[]).includes(kind ?? '')) throw new Error(`field ${arg}: the kind is one of ${KINDS.join(', ')}`)
    if (['id', 'version', 'createdAt'].includes(name)) throw new Error(`field ${arg}: ${name} is every record's own`)
    return { name, kind: kind as Kind }
  })
  if (new Set(fields.map((f) => f.name)).size !== fields.length) throw new Error('a field is named twice')
  if (!fields.some((f) => f.kind === 'text' || f.kind === 'url')) throw new Error('give at least one text or url field: the list searches and sorts by them, and the palette shows the first')
  return { area, fields }
}

/** The names every generated file shares. */
export function namesOf(spec: AreaSpec) {
  const one = singularOf(spec.area)
  return {
    area: spec.area,
    module: camel(spec.area),
    table: camel(spec.area),
    /** The table's name inside the area, where the contract module has the plain name. */
    tableLocal: `${camel(spec.area)}Table`,
    sqlTable: snake(spec.area),
    Record: pascal(one),
    Row: `${pascal(one)}Row`,
    title: titleOf(spec.area),
    oneTitle: titleOf(one),
    oneWords: words(one).join(' '),
    list: `/${spec.area}`,
    add: `/add-${one}`,
    edit: `/edit-${one}`,
    listE: `list${pascal(spec.area)}`,
    getE: `get${pascal(one)}`,
    addE: `add${pascal(one)}`,
    editE: `edit${pascal(one)}`,
    deleteE: `delete${pascal(one)}`,
  }
}
type Names = ReturnType<typeof namesOf>

const searchable = (spec: AreaSpec): Field[] => spec.fields.filter((f) => f.kind === 'text' || f.kind === 'url')
const images = (spec: AreaSpec): Field[] => spec.fields.filter((f) => f.kind === 'image')
const inputs = (spec: AreaSpec): Field[] => spec.fields.filter((f) => f.kind !== 'image')
const first = (spec: AreaSpec): Field => searchable(spec)[0]!
const msg = (f: Field): string => `${label(f.name)} is required`

function contractModule(spec: AreaSpec, n: Names): string {
  const imgs = images(spec)
  const schemaOf = (f: Field): string =>
    f.kind === 'text' ? `required('${msg(f)}', 200)` : f.kind === 'url' ? `requiredUrl('${msg(f)}')` : f.kind === 'flag' ? 'formFlag()' : ''
  const shape = inputs(spec).map((f) => `${f.name}: ${schemaOf(f)}`).join(', ')
  const recordShape = spec.fields
    .map((f) => (f.kind === 'image' ? `${f.name}: z.string(), ${f.name}Thumbnail: z.string()` : f.kind === 'flag' ? `${f.name}: z.boolean()` : `${f.name}: z.string()`))
    .join(', ')
  const files = (required: boolean): string =>
    imgs.length === 0
      ? ''
      : `\n  files: {\n${imgs.map((f) => `    ${f.name}: imageFiles({ max: 1, required: ${required}, requiredMessage: '${msg(f)}', kind: IMAGE_KIND_MESSAGE, tooMany: IMAGE_KIND_MESSAGE }),`).join('\n')}\n  },`
  const multipartImports = [...(imgs.length > 0 ? ['IMAGE_KIND_MESSAGE', 'imageFiles'] : []), ...(spec.fields.some((f) => f.kind === 'flag') ? ['formFlag'] : [])]
  const commonImports = ['Done', 'ExpectedVersion', 'Id', 'PageQuery', 'RecordVersion', 'ok', 'pageOf', ...(spec.fields.some((f) => f.kind === 'text') ? ['required'] : []), ...(spec.fields.some((f) => f.kind === 'url') ? ['requiredUrl'] : []), 'sortable']
  return `import { z } from 'zod/mini'
import { ${commonImports.join(', ')} } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
${multipartImports.length > 0 ? `import { ${multipartImports.join(', ')} } from './multipart.ts'\n` : ''}import { Deleted } from './undo.ts'
import * as self from './${n.module === n.area ? n.area : n.area}.ts'

/**
 * ${n.title} (ours, not in the requirements): a simple list of records, each added, edited and
 * deleted on its own screens. ${imgs.length > 0 ? 'An image field is the URL the server serves the upload at, with its small preview. ' : ''}\`version\`: common.ts, RECORD_CHANGED.
 */
export const ${n.Record} = z.object({ _id: z.string(), ${recordShape}, version: RecordVersion })
export type ${n.Record} = z.output<typeof ${n.Record}>

const ${n.module}Sort = sortable([${searchable(spec).map((f) => `'${f.name}'`).join(', ')}])

export const ${n.listE} = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, ${n.module}Sort.input),
  output: pageOf(${n.Record}),
  access: reads('${n.list}'),
  sort: ${n.module}Sort,
  ours: 'Not in the requirements: the ${n.title} list, paged, searched by ${searchable(spec).map((f) => label(f.name).toLowerCase()).join(' and ')}, newest first unless sorted by a column.',
})

export const ${n.getE} = endpoint({
  method: 'GET',
  input: z.object({ _id: Id }),
  output: ok({ data: ${n.Record} }),
  access: reads('${n.list}'),
  ours: 'Not in the requirements: one ${n.oneWords} by id, for Edit ${n.oneTitle} opened by URL (a reload, a shared link).',
})

export const ${n.addE} = endpoint({
  logAs: '${n.oneTitle} added',
  method: 'POST',
  input: z.object({ ${shape} }),${files(true)}
  output: Done,
  access: writes('${n.list}'),
  ours: 'Not in the requirements: adds a ${n.oneWords}.',
})

/** Edits a ${n.oneWords}${imgs.length > 0 ? '; without a new image the current one is kept' : ''}. A save naming an older version is refused. */
export const ${n.editE} = endpoint({
  logAs: '${n.oneTitle} edited',
  method: 'POST',
  input: z.object({ _id: Id, ${shape}, version: ExpectedVersion }),${files(false)}
  output: Done,
  access: writes('${n.list}'),
  ours: 'Not in the requirements: edits a ${n.oneWords}.',
})

export const ${n.deleteE} = endpoint({
  logAs: '${n.oneTitle} deleted',
  method: 'POST',
  input: z.object({ _id: Id }),
  output: Deleted,
  access: writes('${n.list}'),
  ours: 'Not in the requirements: deletes a ${n.oneWords} (undone from the trash).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
`
}

function schemaTable(spec: AreaSpec, n: Names): string {
  const column = (f: Field): string => {
    const sql = snake(f.name)
    if (f.kind === 'image') return `    ${f.name}: uploadName('${sql}').notNull(),`
    if (f.kind === 'flag') return `    ${f.name}: boolean('${sql}').notNull().default(false),`
    return `    ${f.name}: text('${sql}').notNull(),`
  }
  return `
/** ${n.title} (ours): the records of the ${n.area} area (server/areas/${n.area}), newest first. */
export const ${n.table} = pgTable(
  '${n.sqlTable}',
  {
    id: id(),
    createdAt: createdAt(),
${spec.fields.map(column).join('\n')}
    version: editVersion(),
  },
  (t) => [index('${n.sqlTable}_created_at_idx').on(t.createdAt)],
)
export type ${n.Row} = typeof ${n.table}.$inferSelect
`
}

function areaIndex(n: Names): string {
  return `/**
 * The ${n.area} area: ${n.title}.
 * Found by server/kit/request/areas.ts; the declaration is this area's one registration.
 */
import * as ${n.module} from '#contract/${n.area}'
import { defineArea } from '../../kit/request/areas.ts'
import { ${n.module}Routes } from './routes.ts'

export const area = defineArea({
  contracts: [{ module: ${n.module}, label: '${n.title}' }],
  routes: [${n.module}Routes],
})
`
}

function areaRoutes(spec: AreaSpec, n: Names): string {
  const imgs = images(spec)
  const plain = inputs(spec).map((f) => f.name)
  const toRecord = spec.fields
    .map((f) => (f.kind === 'image' ? `  ${f.name}: uploadUrl(row.${f.name}),\n  ${f.name}Thumbnail: thumbUrl(row.${f.name}),` : `  ${f.name}: row.${f.name},`))
    .join('\n')
  const fileOf = imgs.map((f) => `  const ${f.name} = ctx.files['${f.name}']?.[0]?.name ?? null`).join('\n')
  const addImages = imgs.map((f) => `  if (${f.name} === null) throw failure('${msg(f)}', { ${f.name}: '${msg(f)}' })`).join('\n')
  const values = [...plain, ...imgs.map((f) => f.name)].join(', ')
  const kept = imgs.map((f) => `...(${f.name} === null ? {} : { ${f.name} })`).join(', ')
  const editBody =
    imgs.length === 0
      ? `    const [updated] = await ctx.db
      .update(${n.tableLocal})
      .set({ ${plain.join(', ')}, version: versions.next })
      .where(versions.matches(_id, version))
      .returning({ id: ${n.tableLocal}.id })
    if (updated === undefined) {
      const [exists] = await ctx.db.select({ id: ${n.tableLocal}.id }).from(${n.tableLocal}).where(eq(${n.tableLocal}.id, _id)).limit(1)
      return exists === undefined ? notFound('_id') : recordChanged()
    }`
      : `${fileOf.replace(/^ {2}/gm, '    ')}
    // The old files are read under the row lock of the same transaction, so two edits racing with
    // new files each remove the file they replaced, and no file still in use is removed.
    const replaced = await ctx.transaction(async (tx) => {
      const [current] = await tx.select({ ${imgs.map((f) => `${f.name}: ${n.tableLocal}.${f.name}`).join(', ')} }).from(${n.tableLocal}).where(eq(${n.tableLocal}.id, _id)).for('update')
      if (current === undefined) return undefined
      const [updated] = await tx
        .update(${n.tableLocal})
        .set({ ${plain.join(', ')}, ${kept}, version: versions.next })
        .where(versions.matches(_id, version))
        .returning({ id: ${n.tableLocal}.id })
      // null: saved by someone else since the form read it, and nothing written.
      return updated === undefined ? null : current
    })
    if (replaced === undefined) throw notFound('_id')
    if (replaced === null) throw recordChanged()
${imgs.map((f) => `    if (${f.name} !== null) ctx.removeUploadLater(replaced.${f.name})`).join('\n')}`
  const kitImports = [
    `import { ${imgs.length > 0 ? 'failure, ' : ''}notFound } from '../../kit/request/answers.ts'`,
    `import { handlers } from '../../kit/request/handlers.ts'`,
    `import { deleteRecord } from '../../kit/request/delete.ts'`,
    `import { caseless, listPage } from '../../kit/request/paging.ts'`,
    ...(imgs.length > 0 ? [`import { thumbUrl, uploadUrl } from '../../kit/ground/uploads.ts'`] : []),
    `import { restorable } from '../../kit/request/undo.ts'`,
    `import { editVersion, recordChanged } from '../../kit/request/edit-version.ts'`,
    `import { ${n.table} as ${n.tableLocal}, type ${n.Row} } from '../../db/schema.ts'`,
  ]
  return `/**
 * ${n.title} (contract/${n.area}.ts): the list, newest first, paged, searched and sorted; add, edit
 * (refused when the record changed since the form read it), delete (to the trash, undone from its
 * toast) and read one.${imgs.length > 0 ? ' Images arrive through the registrar already checked by content and stored under a name\n * the server chose; a replaced image is removed once the call has succeeded.' : ''}
 */
import { desc, eq } from 'drizzle-orm'
import * as ${n.module} from '#contract/${n.area}'
${kitImports.join('\n')}

const versions = editVersion({ id: ${n.tableLocal}.id, version: ${n.tableLocal}.version })
const ${n.module}Trash = restorable({ name: '${n.sqlTable}', table: ${n.tableLocal}, endpoint: ${n.module}.${n.deleteE}, restored: '${n.oneTitle} restored successfully' })

const toRecord = (row: ${n.Row}) => ({
  _id: row.id,
${toRecord}
  version: row.version,
})

export const ${n.module}Routes = handlers(${n.module}, {
  ${n.listE}: async (query, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(${n.tableLocal}).$dynamic(),
      search: [${searchable(spec).map((f) => `${n.tableLocal}.${f.name}`).join(', ')}],
      orderBy: [desc(${n.tableLocal}.createdAt), desc(${n.tableLocal}.id)],
      sort: { ${searchable(spec).map((f) => `${f.name}: caseless(${n.tableLocal}.${f.name})`).join(', ')} },
    })
    return { status: 'success', message: '${n.title} fetched', result: rows.map(toRecord), count }
  },

  ${n.getE}: async ({ _id }, ctx) => {
    const [row] = await ctx.db.select().from(${n.tableLocal}).where(eq(${n.tableLocal}.id, _id)).limit(1)
    if (row === undefined) throw notFound('_id')
    return { status: 'success', message: '${n.oneTitle} fetched', data: toRecord(row) }
  },

  ${n.addE}: async ({ ${plain.join(', ')} }, ctx) => {
${fileOf}${fileOf === '' ? '' : '\n'}${addImages}${addImages === '' ? '' : '\n'}    const [row] = await ctx.db.insert(${n.tableLocal}).values({ ${values} }).returning({ id: ${n.tableLocal}.id })
    ctx.audit(row?.id ?? null)
    return { status: 'success', message: '${n.oneTitle} added successfully' }
  },

  ${n.editE}: async ({ _id, ${plain.join(', ')}, version }, ctx) => {
${editBody}
    ctx.audit(_id)
    return { status: 'success', message: '${n.oneTitle} updated successfully' }
  },

  ${n.deleteE}: ({ _id }, ctx) =>
    deleteRecord(ctx, {
      id: _id,
      field: '_id',
      message: '${n.oneTitle} deleted successfully',
      trash: ${n.module}Trash,
      remove: (db) => db.delete(${n.tableLocal}).where(eq(${n.tableLocal}.id, _id)).returning({ id: ${n.tableLocal}.id }),
    }),
})
`
}

/** A value of each field for a sample or a test; `tag` makes the text ones unique. */
const sampleValue = (f: Field, tag: string): string => (f.kind === 'text' ? `\`${label(f.name)} ${tag}\`` : f.kind === 'url' ? `\`https://${f.name.toLowerCase()}.example.com/${tag}\`` : f.kind === 'flag' ? `'true'` : `''`)
const rowValue = (f: Field, tag: string): string => (f.kind === 'text' ? `\`${label(f.name)} ${tag}\`` : f.kind === 'url' ? `\`https://${f.name.toLowerCase()}.example.com/${tag}\`` : f.kind === 'flag' ? 'true' : `'fixture.png'`)

function areaSamples(spec: AreaSpec, n: Names): string {
  const imgs = images(spec)
  const fields = (tag: string): string => inputs(spec).map((f) => `${f.name}: ${sampleValue(f, tag)}`).join(', ')
  const payload = (tag: string, files: boolean, id?: string): string =>
    imgs.length > 0
      ? `({ form: { fields: { ${id === undefined ? '' : `_id: ${id}, `}${fields(tag)} }, files: [${files ? imgs.map((f) => `{ ...png(), field: '${f.name}' }`).join(', ') : ''}] } })`
      : `({ json: { ${id === undefined ? '' : `_id: ${id}, `}${fields(tag).replace(/'true'/g, 'true')} } })`
  return `/**
 * The ${n.area} area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as ${n.module} from '#contract/${n.area}'
import { ${n.table} as ${n.tableLocal} } from '../../db/schema.ts'
import { defineSamplesWith, ${imgs.length > 0 ? 'png, ' : ''}unique } from '../../testing/sample-kit.ts'
import type { TestApp } from '../../testing/test-app.ts'

/** Two records of the area's own: one to read and edit, one to delete. */
async function setup(t: TestApp) {
  const rows = await t.handle.db
    .insert(${n.tableLocal})
    .values([1, 2].map((n) => ({ ${spec.fields.map((f) => `${f.name}: ${rowValue(f, '${n}-${unique()}')}`).join(', ')} })))
    .returning({ id: ${n.tableLocal}.id })
  const [kept, deleted] = rows
  if (kept === undefined || deleted === undefined) throw new Error('${n.sqlTable} fixture insert returned no row')
  return { kept: kept.id, deleted: deleted.id }
}

export const samples = defineSamplesWith([${n.module}], setup, {
  ${n.listE}: () => ({ json: { page: 1, limit: 10, search: '', sortBy: '${first(spec).name}', sortOrder: 'asc' } }),
  ${n.getE}: (_f, own) => ({ json: { _id: own.kept } }),
  ${n.addE}: () => ${payload('${unique()}', true)},
  ${n.editE}: (_f, own) => ${payload('${unique()}', false, 'own.kept')},
  ${n.deleteE}: (_f, own) => ({ json: { _id: own.deleted } }),
})
`
}

function areaTest(spec: AreaSpec, n: Names): string {
  const imgs = images(spec)
  const text = first(spec)
  const fields = (tag: string): string => inputs(spec).map((f) => `${f.name}: ${sampleValue(f, tag)}`).join(', ')
  const send = (endpoint: string, tag: string, id?: string, files = true): string =>
    imgs.length > 0
      ? `await post('/${endpoint}', { ${id === undefined ? '' : `_id: ${id}, `}${fields(tag)} }, [${files ? imgs.map((f) => `{ ...png, field: '${f.name}' }`).join(', ') : ''}])`
      : `await post('/${endpoint}', { ${id === undefined ? '' : `_id: ${id}, `}${fields(tag).replace(/'true'/g, 'true')} })`
  return `import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORD_CHANGED } from '#contract/common'
${imgs.length > 0 ? "import { encodePng } from '../../db/png.ts'\n" : ''}import { API_PREFIX } from '../../kit/ground/services.ts'
import { bodyOf, listOf, makeTestApp, ${imgs.length > 0 ? 'multipart, ' : ''}type TestApp${imgs.length > 0 ? ', type UploadFile' : ''} } from '../../testing/test-app.ts'

let t: TestApp
let headers: Record<string, string>
${imgs.length > 0 ? "const png: UploadFile = { field: 'image', name: 'a.png', type: 'image/png', content: encodePng(4, 4, () => [40, 120, 200]) }\n" : ''}
beforeAll(async () => {
  t = await makeTestApp()
  headers = await t.auth(t.superadmin)
})
afterAll(async () => await t.close())

${
  imgs.length > 0
    ? `/** A multipart form, as the add and edit forms send with their files. */
const post = async (path: string, fields: Record<string, string>, files: UploadFile[] = []) => {
  const form = await multipart(fields, files)
  return bodyOf(await t.app.inject({ method: 'POST', url: API_PREFIX + path, headers: { ...headers, ...form.headers }, payload: form.payload }))
}
`
    : ''
}const json = async (path: string, payload: Record<string, unknown>) => bodyOf(await t.app.inject({ method: 'POST', url: API_PREFIX + path, headers, payload }))${imgs.length > 0 ? '' : '\nconst post = json'}
const get = async (path: string, query: Record<string, string>) => bodyOf(await t.app.inject({ method: 'GET', url: API_PREFIX + path, headers, query }))
const list = async (search: string) => listOf(await get('/${n.listE}', { page: '1', limit: '10', search }), 'result')

describe('${n.title}', () => {
  it('adds a ${n.oneWords}, lists it found by its ${label(text.name).toLowerCase()}, and reads it by id', async () => {
    const tag = \`first-\${Date.now()}\`
    expect((${send(n.addE, '${tag}')})['status']).toBe('success')
    const [found] = await list(tag)
    expect(found?.['${text.name}']).toBe(${sampleValue(text, '${tag}')})
${imgs.map((f) => `    expect(found?.['${f.name}']).toMatch(/^\\/uploads\\//)`).join('\n')}
    const one = await get('/${n.getE}', { _id: String(found?.['_id']) })
    expect(one['data']).toEqual(found)
  })

  it('refuses an add without its required fields, naming them', async () => {
    const body = ${imgs.length > 0 ? `await post('/${n.addE}', {})` : `await post('/${n.addE}', {})`}
    expect(body['status']).toBe('failed')
    expect(Object.keys(body['errors'] as object)).toEqual(expect.arrayContaining([${spec.fields.filter((f) => f.kind !== 'flag').map((f) => `'${f.name}'`).join(', ')}]))
  })

  it('edits a ${n.oneWords} at its version and refuses a save from an older one', async () => {
    const tag = \`edit-\${Date.now()}\`
    ${send(n.addE, '${tag}')}
    const [row] = await list(tag)
    const id = String(row?.['_id'])
    const next = \`\${tag}-2\`
    expect((await post('/${n.editE}', { _id: id, ${inputs(spec).map((f) => `${f.name}: ${sampleValue(f, '${next}').replace(/'true'/g, imgs.length > 0 ? "'true'" : 'true')}`).join(', ')}, version: String(row?.['version']) }${imgs.length > 0 ? '' : ''}))['status']).toBe('success')
    const [edited] = await list(next)
    expect(edited?.['${text.name}']).toBe(${sampleValue(text, '${next}')})
    const stale = await post('/${n.editE}', { _id: id, ${inputs(spec).map((f) => `${f.name}: ${sampleValue(f, '${next}').replace(/'true'/g, imgs.length > 0 ? "'true'" : 'true')}`).join(', ')}, version: String(row?.['version']) })
    expect(stale['message']).toBe(RECORD_CHANGED)
  })

  it('deletes a ${n.oneWords}, and answers 404 for one that is not there', async () => {
    const tag = \`delete-\${Date.now()}\`
    ${send(n.addE, '${tag}')}
    const [row] = await list(tag)
    expect((await json('/${n.deleteE}', { _id: String(row?.['_id']) }))['status']).toBe('success')
    expect(await list(tag)).toEqual([])
    const missing = await t.app.inject({ method: 'GET', url: API_PREFIX + '/${n.getE}', headers, query: { _id: 'no-such-id' } })
    expect(missing.statusCode).toBe(404)
  })
})
`
}

function featureFiles(spec: AreaSpec, n: Names): Record<string, string> {
  const imgs = images(spec)
  const one = singularOf(spec.area)
  const formField = (f: Field): string =>
    f.kind === 'text' ? `text('${f.name}', '${label(f.name)}')` : f.kind === 'url' ? `url('${f.name}', '${label(f.name)}')` : f.kind === 'image' ? `imageUpload('${f.name}', '${label(f.name)}')` : `switchField('${f.name}', '${label(f.name)}')`
  const fieldImports = [...new Set(spec.fields.map((f) => (f.kind === 'image' ? 'imageUpload' : f.kind === 'flag' ? 'switchField' : f.kind)))].sort()
  const column = (f: Field): string =>
    f.kind === 'image' ? `image('${f.name}', '${label(f.name)}', '${first(spec).name}', '${f.name}Thumbnail')` : f.kind === 'flag' ? `yesNo('${f.name}', '${label(f.name)}')` : `col('${f.name}', '${label(f.name)}')`
  const columnImports = ['col', ...(imgs.length > 0 ? ['image'] : []), 'serial', ...(spec.fields.some((f) => f.kind === 'flag') ? ['yesNo'] : [])]
  const values = inputs(spec).map((f) => `${f.name}: r.${f.name}`).join(', ')
  return {
    [`${one}-form.tsx`]: `import { ${n.Record}, ${n.addE}, ${n.editE}, ${n.getE} } from '#contract/${n.area}'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { ${fieldImports.join(', ')} } from '#src/crud/form/form-fields.ts'

const fields = [${spec.fields.map(formField).join(', ')}]

/** Add ${n.oneTitle} (${n.add}): back to the list once saved. */
export const Add${n.Record}Page = defineForm({
  title: 'Add ${n.oneTitle}',
  endpoint: ${n.addE},
  fields,
  done: '${n.list}',
})

/** Edit ${n.oneTitle} (${n.edit}): prefilled from the list's row or, after a reload, from ${n.getE}. */
export const Edit${n.Record}Page = defineForm({
  title: 'Edit ${n.oneTitle}',
  endpoint: ${n.editE},
  fields,
  done: '${n.list}',
  record: {
    get: ${n.getE},
    input: (id) => ({ _id: id }),
    pick: (answer) => answer.data,
    schema: ${n.Record},
    values: (r) => ({ _id: r._id, ${values}, version: r.version }),${imgs.length > 0 ? `\n    files: (r) => ({ ${imgs.map((f) => `${f.name}: r.${f.name}`).join(', ')} }),` : ''}
  },
})
`,
    [`${one}-list.tsx`]: `import { ${n.deleteE}, ${n.listE} } from '#contract/${n.area}'
import { ${columnImports.join(', ')} } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'

/** ${n.title} (${n.list}): the list, paged, searched and sorted by the server. Admin only: Add, and edit and delete per row. */
export const ${pascal(spec.area)}Page = defineList({
  title: '${n.title}',
  empty: { says: 'No ${n.title.toLowerCase()} yet.', addFirst: 'Add the first ${n.oneWords}' },
  endpoint: ${n.listE},
  columns: [serial(), ${spec.fields.map(column).join(', ')}],
  add: { to: '${n.add}', label: 'Add' },
  edit: '${n.edit}',
  remove: { endpoint: ${n.deleteE}, confirm: 'Are you sure you want to delete this ${n.oneWords}', payload: (row) => ({ _id: row._id }) },
})
`,
    'palette.ts': `import { ${n.listE} } from '#contract/${n.area}'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** ${n.title} in the palette, opening the list on the one chosen. */
export const records = recordReader(${n.listE}, (answer) =>
  answer.result.map((r) => ({ id: r._id, label: r.${first(spec).name}, detail: ${searchable(spec)[1] === undefined ? "''" : `r.${searchable(spec)[1]!.name}`}, href: withSearch('${n.list}', r.${first(spec).name}) })),
)
`,
    'screens.ts': `import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const formChunk = () => import('./${one}-form.tsx')

/** ${n.title}: the list, its Add page and its Edit page. */
export const screens = declareScreens([
  {
    path: '${n.list}',
    kind: 'page',
    component: lazyScreen(() => import('./${one}-list.tsx'), '${pascal(spec.area)}Page'),
    records: paletteRecords('${n.title}', async () => (await import('./palette.ts')).records),
  },
  { path: '${n.add}', kind: 'action', component: lazyScreen(formChunk, 'Add${n.Record}Page') },
  { path: '${n.edit}', kind: 'record', component: lazyScreen(formChunk, 'Edit${n.Record}Page') },
])
`,
  }
}

/** The screens' rows, placed before the pages outside the menu (Profile, Reset Password). */
function addRoutes(text: string, n: Names): string {
  const anchor = "  { path: '/profile',"
  if (!text.includes(anchor)) throw new Error(`contract/routes.ts: no line starting ${anchor.trim()} to place the rows before`)
  const rows = [
    `  // Ours: ${n.title}, scaffolded by npm run new:area.`,
    `  { path: '${n.list}', title: '${n.title}', menu: 'top', access: 'create' },`,
    `  { path: '${n.add}', title: 'Add ${n.oneTitle}', parent: '${n.list}' },`,
    `  { path: '${n.edit}', title: 'Edit ${n.oneTitle}', parent: '${n.list}' },`,
  ]
  return text.replace(anchor, `${rows.join('\n')}\n${anchor}`)
}

/** The area's calls in contract/staff-effects.ts: a simple CRUD area does nothing to staff. */
function addStaffEffects(text: string, n: Names): string {
  const end = text.lastIndexOf('\n}')
  if (end < 0 || !text.includes('export const staffEffects')) throw new Error('contract/staff-effects.ts: no staffEffects table to add the calls to')
  const rows = [`  // ${n.title}: records of their own, nothing about staff.`, ...[n.listE, n.getE, n.addE, n.editE, n.deleteE].map((name) => `  ${name}: 'none',`)]
  return `${text.slice(0, end)}\n${rows.join('\n')}${text.slice(end)}`
}

function write(path: string, text: string): void {
  const full = join(ROOT, path)
  if (existsSync(full)) throw new Error(`${path} exists already: the area is new, or pick another name`)
  mkdirSync(join(full, '..'), { recursive: true })
  writeFileSync(full, text)
}

/** Writes the area into the repository at ROOT (the checkout this script is in). */
export async function scaffold(spec: AreaSpec, log: (line: string) => void = console.log): Promise<void> {
  const n = namesOf(spec)
  const taken = [`contract/${n.area}.ts`, `server/areas/${n.area}`, `src/features/${n.area}`].filter((p) => existsSync(join(ROOT, p)))
  if (taken.length > 0) throw new Error(`${taken.join(', ')} exists already: the area is new, or pick another name`)
  const routesPath = join(ROOT, 'contract/routes.ts')
  const routes = readFileSync(routesPath, 'utf8')
  for (const path of [n.list, n.add, n.edit]) if (routes.includes(`path: '${path}'`)) throw new Error(`contract/routes.ts has a screen ${path} already`)
  const schemaPath = join(ROOT, 'server/db/schema.ts')
  const schema = readFileSync(schemaPath, 'utf8')
  if (new RegExp(`export const ${n.table}\\b`).test(schema) || schema.includes(`pgTable('${n.sqlTable}'`)) throw new Error(`server/db/schema.ts has a table ${n.table} already`)

  write(`contract/${n.area}.ts`, contractModule(spec, n))
  writeFileSync(routesPath, addRoutes(routes, n))
  const effectsPath = join(ROOT, 'contract/staff-effects.ts')
  writeFileSync(effectsPath, addStaffEffects(readFileSync(effectsPath, 'utf8'), n))
  writeFileSync(schemaPath, schema.replace(/\n*$/, '\n') + schemaTable(spec, n))
  write(`server/areas/${n.area}/index.ts`, areaIndex(n))
  write(`server/areas/${n.area}/routes.ts`, areaRoutes(spec, n))
  write(`server/areas/${n.area}/samples.ts`, areaSamples(spec, n))
  write(`server/areas/${n.area}/${n.area}.test.ts`, areaTest(spec, n))
  for (const [file, text] of Object.entries(featureFiles(spec, n))) write(`src/features/${n.area}/${file}`, text)
  log(`wrote contract/${n.area}.ts, server/areas/${n.area}/, src/features/${n.area}/, the screens in contract/routes.ts and the table ${n.sqlTable} in server/db/schema.ts`)

  execFileSync(process.execPath, [join(ROOT, 'node_modules/drizzle-kit/bin.cjs'), 'generate', '--name', n.sqlTable], { cwd: ROOT, stdio: 'pipe' })
  // The new table's writes keep their field-by-field changes in the audit log, as every table's
  // not left out does (server/kit/request/audit-changes.ts): its triggers go in its own migration,
  // written here before it was ever applied.
  const migrations = join(ROOT, 'server/db/migrations')
  const migration = readdirSync(migrations).filter((f) => f.endsWith(`_${n.sqlTable}.sql`)).sort().at(-1)
  if (migration === undefined) throw new Error(`drizzle-kit wrote no migration named ${n.sqlTable}`)
  const sql = readFileSync(join(migrations, migration), 'utf8').replace(/\s*$/, '')
  writeFileSync(join(migrations, migration), `${sql}\n--> statement-breakpoint\nSELECT audit_changes_watch('${n.sqlTable}', 'id');\n`)
  log(`generated the migration ${migration} (server/db/migrations), the table watched for the audit log`)

  const { endpointTable, endpointTableText } = await import('../contract/testing/endpoint-table.ts')
  writeFileSync(join(ROOT, 'contract/endpoint-table.json'), endpointTableText(await endpointTable(join(ROOT, 'contract'))))
  log('rewrote the snapshot contract/endpoint-table.json')
  log(`next: npm run typecheck, and npx vitest run server/areas/${n.area} contract server/testing/authz-matrix.test.ts`)
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  try {
    await scaffold(parseArgs(process.argv.slice(2)))
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
