/**
 * The OpenAPI document (server/kit/request/openapi.ts): valid OpenAPI 3.1 by an independent validator,
 * served without a token, and holding every call of the contract's endpoint table with its
 * method, path, access rule and whether the requirements name it.
 */
import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as mini } from 'zod/mini'
import { endpoint, isEndpoint, publicAccess, writes, type Endpoint } from '#contract/define'
import { API_PREFIX } from '../ground/services.ts'
import { OPENAPI_PATH, openApiDocument } from './openapi.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'

interface TreeNode {
  name: string
  children: TreeNode[]
}

const Table = z.array(z.tuple([z.string(), z.enum(['GET', 'POST']), z.string()]))
const table = Table.parse(JSON.parse(readFileSync(new URL('../../../contract/endpoint-table.json', import.meta.url), 'utf8')))

const Operation = z.looseObject({
  operationId: z.string(),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  'x-access': z.looseObject({ kind: z.string() }),
  'x-not-in-spec': z.string().optional(),
  // Query parameters of a GET; the signature header of a signed call (contract/define.ts, signedBy).
  parameters: z.array(z.looseObject({ name: z.string(), in: z.enum(['query', 'header']), required: z.boolean() })).optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.looseObject({}) })) }).optional(),
  responses: z.record(z.string(), z.unknown()),
})
const Document = z.looseObject({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
  components: z.looseObject({ securitySchemes: z.record(z.string(), z.unknown()), schemas: z.record(z.string(), z.unknown()) }),
})
type Document = z.output<typeof Document>

let t: TestApp
let raw: unknown
let doc: Document
beforeAll(async () => {
  t = await makeTestApp()
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  raw = response.json()
  doc = Document.parse(raw)
})
afterAll(async () => await t.close())

const operationOf = (method: string, path: string) => doc.paths[API_PREFIX + path]?.[method.toLowerCase()]
const served = (): Endpoint[] => [...t.app.services.contract.endpoints]

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator()
    // A copy: resolveRefs below rewrites the document it validated in place.
    const result = await validator.validate(z.record(z.string(), z.unknown()).parse(structuredClone(raw)))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    // Every $ref resolves.
    expect(() => validator.resolveRefs()).not.toThrow()
  })

  it('holds every call of the endpoint table with its method and path, and nothing else', () => {
    expect(table.length).toBe(served().length)
    for (const [name, method, path] of table) expect(operationOf(method, path)?.operationId, `${method} ${path}`).toBe(name)
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item))
    expect(operations.length).toBe(table.length)
  })

  it('says who may call each one: x-access, and the bearer scheme unless public', () => {
    expect(doc.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const e of served()) {
      const op = operationOf(e.method, e.path)
      expect(op?.['x-access'], e.name).toEqual(e.access)
      expect(op?.security, e.name).toEqual(e.access.kind === 'public' ? [] : [{ bearer: [] }])
      // 401 for a missing session, or, on a public call its sender signs, for a missing signature.
      expect(Object.keys(op?.responses ?? {}).includes('401'), e.name).toBe(e.access.kind !== 'public' || e.signedBy !== undefined)
    }
  })

  it('marks the calls the requirements do not name with their ours text', () => {
    const ours = served().filter((e) => e.ours !== undefined)
    expect(ours.length).toBeGreaterThan(0)
    for (const e of served()) expect(operationOf(e.method, e.path)?.['x-not-in-spec'], e.name).toBe(e.ours)
  })

  it('gives a GET its query parameters, a JSON call its body, and a call with files a multipart body with them', () => {
    const getuser = operationOf('GET', '/getuser')
    expect(getuser?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'search']))
    // A default makes a field optional in the request (the input side of the schema).
    expect(getuser?.parameters?.find((p) => p.name === 'page')?.required).toBe(false)
    const login = operationOf('POST', '/login')
    expect(Object.keys(login?.requestBody?.content ?? {})).toEqual(['application/json'])
    expect(login?.security).toEqual([])
    const withFiles = served().filter((e) => e.files !== undefined)
    expect(withFiles.length).toBeGreaterThan(0)
    for (const e of withFiles) {
      const schema = operationOf(e.method, e.path)?.requestBody?.content['multipart/form-data']?.schema
      expect(schema, e.name).toBeDefined()
      const properties = z.record(z.string(), z.looseObject({})).parse(schema?.['properties'])
      for (const [field, rule] of Object.entries(e.files ?? {})) {
        const described = JSON.stringify(properties[field])
        expect(described, `${e.name}.${field}`).toContain('application/octet-stream')
        if (rule.required) expect(schema?.['required'], `${e.name}.${field}`).toContain(field)
      }
    }
  })

  it('names the signature header of each signed call as a required header parameter, with the 401 it answers', () => {
    const signed = served().filter((e) => e.signedBy !== undefined)
    expect(signed.length).toBeGreaterThan(0)
    for (const e of signed) {
      const op = operationOf(e.method, e.path)
      expect(op?.parameters, e.name).toEqual([expect.objectContaining({ name: e.signedBy?.header, in: 'header', required: true })])
      expect(Object.keys(op?.responses ?? {}), e.name).toContain('401')
    }
    // No other call takes a header parameter.
    const others = served().filter((e) => e.signedBy === undefined)
    expect(others.filter((e) => operationOf(e.method, e.path)?.parameters?.some((p) => p.in === 'header')).map((e) => e.name)).toEqual([])
  })

  it('is made once and served the same to every caller, signed in or not', async () => {
    const again = await t.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: await t.auth(t.superadmin) })
    expect(again.json()).toEqual(raw)
  })
})

describe('openApiDocument on what JSON Schema cannot say', () => {
  it('describes a transform, a custom check, a bigint and a date as {} with a note, refers to a recursive schema inside the document, and never throws', async () => {
    const odd = endpoint({
      method: 'POST',
      input: mini.object({
        custom: mini.custom<string>((v) => typeof v === 'string'),
        big: mini.bigint(),
        when: mini.date(),
        piped: mini.pipe(mini.string(), mini.transform((s) => s.length)),
      }),
      output: mini.object({ computed: mini.transform((v: unknown) => String(v)), at: mini.date() }),
      access: writes('/users'),
      ours: 'A test call.',
    })
    // A tree: zod refers to the schema itself ('#') or to its $defs; both must resolve inside the document.
    const Node: mini.ZodMiniType<TreeNode> = mini.object({
      name: mini.string(),
      get children() {
        return mini.array(Node)
      },
    })
    const free = endpoint({ method: 'GET', input: mini.object({}), output: mini.object({ tree: Node, list: mini.array(Node) }), access: publicAccess })
    const recursive = endpoint({ method: 'POST', input: Node, output: mini.object({ ok: mini.boolean() }), access: publicAccess })
    odd.name = 'oddCall'
    odd.path = '/oddCall'
    free.name = 'freeCall'
    free.path = '/freeCall'
    recursive.name = 'treeCall'
    recursive.path = '/treeCall'
    expect(isEndpoint(odd)).toBe(true)
    const made = openApiDocument({ endpoints: [odd, free, recursive], areaLabels: new Map() }, '0.0.0')
    const text = JSON.stringify(made)
    expect(text).toContain('x-unrepresentable')
    expect(text).toContain('zod bigint')
    expect(text).not.toContain('"$ref":"#"')
    expect(text).not.toContain('#/$defs/')
    const validator = new Validator()
    const result = await validator.validate(structuredClone(made))
    expect(result.errors ?? []).toEqual([])
    expect(() => validator.resolveRefs()).not.toThrow()
  })
})
