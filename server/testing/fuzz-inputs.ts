/**
 * Generated requests for the contract-wide fuzz (fuzz.ts), from each endpoint's own zod input.
 *
 * No maintained bridge from zod 4 to fast-check exists (zod-fast-check reads zod 3's internals and
 * peers on zod 3; @traversable/zod has no generator), so the schema goes through zod's own
 * `z.toJSONSchema` and the small walker below turns that JSON Schema into fast-check arbitraries:
 * the valid-shaped inputs. The hostile ones are fast-check arbitraries too: wrong types, huge
 * strings and numbers, unicode (lone surrogates, right-to-left overrides, NUL), nulls, deep nesting,
 * `__proto__` and `constructor` keys and duplicate keys written into the raw JSON text, arrays where
 * an object belongs, multipart bodies to JSON calls, broken bodies and wrong content types.
 */
import fc from 'fast-check'
import { z } from 'zod'
import type { Endpoint } from '#contract/define'
import { encodePng } from '../db/png.ts'
import type { Payload } from './fixtures.ts'
import type { UploadFile } from './test-app.ts'

/** The part of JSON Schema that `z.toJSONSchema` writes for the contract's inputs. */
export interface JsonSchema {
  type?: string | string[] | undefined
  properties?: Record<string, JsonSchema> | undefined
  required?: string[] | undefined
  items?: JsonSchema | undefined
  minItems?: number | undefined
  maxItems?: number | undefined
  minLength?: number | undefined
  maxLength?: number | undefined
  pattern?: string | undefined
  format?: string | undefined
  minimum?: number | undefined
  maximum?: number | undefined
  exclusiveMinimum?: number | undefined
  exclusiveMaximum?: number | undefined
  enum?: unknown[] | undefined
  const?: unknown
  anyOf?: JsonSchema[] | undefined
  oneOf?: JsonSchema[] | undefined
  allOf?: JsonSchema[] | undefined
}

const JsonSchemaShape: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    properties: z.record(z.string(), JsonSchemaShape).optional(),
    required: z.array(z.string()).optional(),
    items: JsonSchemaShape.optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    anyOf: z.array(JsonSchemaShape).optional(),
    oneOf: z.array(JsonSchemaShape).optional(),
    allOf: z.array(JsonSchemaShape).optional(),
  }),
)

/** The JSON Schema of what an endpoint accepts (its input side: defaults make a field optional). */
export function inputSchema(e: Endpoint): JsonSchema {
  return JsonSchemaShape.parse(z.toJSONSchema(e.input, { io: 'input', unrepresentable: 'any' }))
}

/** Longest string a valid-shaped value gets: long enough to reach limits, short enough to stay fast. */
const VALID_STRING_CAP = 300
const VALID_ARRAY_CAP = 8

/** A regex fast-check can generate from: lookaheads are not supported, so they are dropped and the full regex filters. */
function patternArbitrary(pattern: string): fc.Arbitrary<string> {
  const full = new RegExp(pattern, 'u')
  try {
    return fc.stringMatching(full)
  } catch {
    const stripped = pattern.replace(/\(\?[=!][^()]*(?:\([^()]*\)[^()]*)*\)/g, '')
    return fc.stringMatching(new RegExp(stripped, 'u')).filter((s) => full.test(s))
  }
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? VALID_STRING_CAP, VALID_STRING_CAP))
  if (s.pattern !== undefined) {
    const upper = s.maxLength
    const arb = patternArbitrary(s.pattern)
    return upper === undefined ? arb : arb.filter((v) => v.length >= minLength && v.length <= upper)
  }
  switch (s.format) {
    case 'email':
      return fc.emailAddress().filter((v) => v.length <= (s.maxLength ?? 254))
    case 'uri':
    case 'url':
      return fc.webUrl()
    case 'uuid':
      return fc.uuid()
    default:
      // Grapheme text most of the time; raw code points (controls, astral planes) the rest.
      return fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
      )
  }
}

function numberArbitrary(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + (integer ? 1 : Number.EPSILON))
  const high = s.maximum ?? (s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - (integer ? 1 : Number.EPSILON))
  if (integer) return fc.integer({ min: Math.ceil(low ?? Number.MIN_SAFE_INTEGER), max: Math.floor(high ?? Number.MAX_SAFE_INTEGER) })
  return fc.double({ noNaN: true, noDefaultInfinity: true, ...(low === undefined ? {} : { min: low }), ...(high === undefined ? {} : { max: high }) })
}

/** Values of the shape the schema describes (what a well-behaved client could send). */
export function valid(s: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const)
  if (s.enum !== undefined && s.enum.length > 0) return fc.constantFrom(...s.enum)
  const options = s.anyOf ?? s.oneOf
  if (options !== undefined && options.length > 0) return fc.oneof(...options.map(valid))
  if (s.allOf !== undefined && s.allOf.length > 0) {
    const merged: JsonSchema = {}
    for (const part of s.allOf) Object.assign(merged, part, { properties: { ...merged.properties, ...part.properties }, required: [...(merged.required ?? []), ...(part.required ?? [])] })
    return valid(merged)
  }
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => valid({ ...s, type })))
  switch (s.type) {
    case 'string':
      return stringArbitrary(s)
    case 'integer':
      return numberArbitrary(s, true)
    case 'number':
      return numberArbitrary(s, false)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(s.items === undefined ? fc.jsonValue() : valid(s.items), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? VALID_ARRAY_CAP, VALID_ARRAY_CAP)),
      })
    case 'object': {
      const properties = s.properties ?? {}
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [key, inner] of Object.entries(properties)) model[key] = valid(inner)
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in properties) })
    }
    default:
      // An unrepresentable part (a preprocess, a custom check): any JSON value.
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** A nested value `depth` levels deep: arrays in arrays, or objects in objects. */
const deep = (depth: number, kind: 'array' | 'object'): unknown => {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value }
  return value
}

/** Strings that have broken servers: lone surrogates, bidi overrides, NUL, injection-looking text. */
export const nastyStrings: readonly string[] = [
  '\uD800',
  '\uDFFF',
  'a\uD83Db',
  '\uDE00\uD83D',
  '\u202Eevil.exe\u202C',
  '\u200F\u0627\u0644\u0639\u0631\u0628\u064A\u0629\u200E',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001F\u007F',
  '\uFEFFbom',
  '\u200B\u200C\u200D\u2060',
  'Z\u0351\u0360\u0361\u035C\u0334\u0335\u0336'.repeat(40),
  '\uD83D\uDC69\u200D\uD83D\uDC69\u200D\uD83D\uDC67\u200D\uD83D\uDC66',
  '\uFFFF\uFFFE',
  '\r\nX-Injected: 1',
  "' OR '1'='1' --",
  "'); DROP TABLE admins; --",
  '%00%27%22',
  '../../../../etc/passwd',
  '<script>window.__xss=1</script>',
  '{{7*7}}${7*7}',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x7fffffff',
  ' ',
  '',
  '__proto__',
  'constructor',
]

/** Numbers past every column's range, and the odd ones JSON can carry. */
const nastyNumbers: readonly number[] = [0, -0, -1, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 1, -(2 ** 63), 1e21, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER]

/** A value of the wrong kind for about any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...nastyNumbers),
  fc.double(),
  fc.constantFrom(...nastyStrings),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 3 }).map((k) => ['x'.repeat(70_000), '\u00E9'.repeat(40_000), '\uD83D\uDE00'.repeat(25_000), '\u202E'.repeat(50_000)][k]),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.constant(Array.from({ length: 5000 }, (_, i) => i)),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.constantFrom(deep(200, 'array'), deep(200, 'object'), {}, []),
)

/** One request to send: a query for GET; for POST a raw body with its content type, or a form. */
export interface FuzzRequest {
  /** Which variant made it, for the counts and for a failure's report. */
  kind: string
  query?: string
  body?: string
  contentType?: string
  form?: { fields: [string, string][]; files: UploadFile[] }
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'))

/** Percent-encodes as a form does; a lone surrogate becomes U+FFFD, as no URL can carry one. */
const encode = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2)

/** A query string as the client writes one (non-strings as JSON text). */
function queryOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `value=${encode(asText(value))}`
  const params = new URLSearchParams()
  for (const [key, inner] of Object.entries(value)) params.append(key, asText(inner))
  return params.toString()
}

const json = (kind: string, body: string): FuzzRequest => ({ kind, body, contentType: 'application/json' })

/** Sets one key of an object (any key, or one of the schema's) to a hostile value. */
function mutate(base: fc.Arbitrary<unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
  const key = keys.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }) : fc.string({ maxLength: 12 })
  return fc.tuple(base, key, hostileValue).map(([value, k, bad]) => {
    const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
    // defineProperty: a key named __proto__ becomes an own key, as JSON.parse would make it.
    const copy: Record<string, unknown> = { ...object }
    Object.defineProperty(copy, k, { value: bad, enumerable: true, writable: true, configurable: true })
    return copy
  })
}

/** The raw JSON text of an object with one more key written after (a duplicate) or before it. */
function withRawKey(value: unknown, key: string, raw: string, first: boolean): string {
  const text = JSON.stringify(typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {})
  const entry = `${JSON.stringify(key)}:${raw}`
  if (text === '{}') return `{${entry}}`
  return first ? `{${entry},${text.slice(1)}` : `${text.slice(0, -1)},${entry}}`
}

const png = encodePng(4, 4, () => [10, 120, 200])
const fileArbitrary = (fields: readonly string[]): fc.Arbitrary<UploadFile> =>
  fc.record({
    field: fields.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constantFrom('file', '__proto__', 'x'.repeat(300)) }) : fc.constantFrom('image', 'file'),
    name: fc.constantFrom('a.png', 'a.jpg', 'a.mp4', '../../evil.png', 'a.html', '\u202Egnp.exe', 'noext', ''),
    type: fc.constantFrom('image/png', 'image/jpeg', 'video/mp4', 'text/html', 'application/octet-stream', ''),
    content: fc.oneof(
      fc.constant(png),
      fc.constant(Buffer.alloc(0)),
      fc.constant(Buffer.from('<html><script>window.__xss=1</script></html>')),
      fc.constant(Buffer.concat([png.subarray(0, 40)])),
      fc.constant(Buffer.from('GIF89a/*<script>*/')),
      fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
    ),
  })

/** Form fields from a value: each key once (non-strings as JSON text), sometimes repeated. */
function formFields(value: unknown): fc.Arbitrary<[string, string][]> {
  const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value).map(([k, v]): [string, string] => [k, asText(v)]) : [['value', asText(value)] satisfies [string, string]]
  return fc.boolean().map((repeat) => (repeat && entries.length > 0 ? [...entries, ...entries] : entries))
}

/** Broken bodies and content types a JSON call must refuse cleanly. */
const rawBodies: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.constantFrom<FuzzRequest>(
    json('malformed json', '{"a":'),
    json('malformed json', '{a:1}'),
    json('malformed json', "{'a':1}"),
    json('malformed json', '\uFEFF{}'),
    json('malformed json', '{"a":1}garbage'),
    json('empty json body', ''),
    json('json number overflow', '{"id":1e999,"page":1e999,"limit":-1e999,"preference":1e999}'),
    json('json deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`),
    json('lone surrogate escape', '{"id":"\\ud800","name":"\\udfff\\ud800","email":"a\\ud800@b.co"}'),
    json('nul escape', '{"id":"\\u0000","name":"a\\u0000b","title":"\\u0000","search":"\\u0000"}'),
    { kind: 'wrong content type', body: '{"a":1}', contentType: 'text/plain' },
    { kind: 'wrong content type', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { kind: 'wrong content type', body: '<a>1</a>', contentType: 'application/xml' },
    { kind: 'wrong content type', body: '{"a":1}', contentType: 'application/json; charset=utf-16' },
    { kind: 'no content type', body: '{"a":1}' },
    { kind: 'broken multipart', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1', contentType: 'multipart/form-data; boundary=x' },
    { kind: 'broken multipart', body: 'garbage', contentType: 'multipart/form-data' },
    { kind: 'broken multipart', body: '--x--\r\n', contentType: 'multipart/form-data; boundary=' },
  ),
  // Past the 1 MB body limit.
  fc.constant(json('huge body', JSON.stringify({ name: 'x'.repeat(1_100_000) }))),
)

/** Query strings the parser and the zod coercions must survive. */
const rawQueries: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.constantFrom(
    'id=a&id=b&_id=a&_id=b&page=1&page=2',
    'id[x]=1&_id[]=2&page[$gt]=0',
    '__proto__[role]=superadmin&constructor[prototype][admin]=1',
    'page=%ZZ&search=%E0%A4%A',
    'id=%ED%A0%80&search=%ED%BF%BF',
    'id=%00&search=%00&_id=a%00b',
    'page=1e309&limit=-1&search=x',
    'page=0x10&limit=1.5',
    'page=99999999999999999999&limit=99999999999999999999',
    '&&&===&=&',
    'search=' + 'x'.repeat(60_000),
  ).map((query): FuzzRequest => ({ kind: 'raw query', query })),
  fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...nastyStrings)).map(([k, v]): FuzzRequest => ({ kind: 'raw query', query: `${encode(k)}=${encode(v)}` })),
)

/**
 * The requests to fuzz one endpoint with: valid-shaped values from its schema; those with one field
 * made hostile; its working sample (the area's samples.ts) with one field made hostile, which gets
 * past the id lookups into the handler; whole bodies of the wrong kind; raw JSON tricks; forms.
 */
export function requestsFor(e: Endpoint, sample: Payload | undefined): fc.Arbitrary<FuzzRequest> {
  const schema = inputSchema(e)
  const keys = Object.keys(schema.properties ?? {})
  const shaped = valid(schema)
  const sampleValue: Record<string, unknown> | undefined =
    sample === undefined ? undefined : 'json' in sample ? sample.json : Object.fromEntries(Object.entries(sample.form.fields))
  const sampleFiles: UploadFile[] = sample !== undefined && 'form' in sample ? sample.form.files : []
  const bases: fc.Arbitrary<unknown>[] = sampleValue === undefined ? [shaped] : [shaped, fc.constant(sampleValue)]
  const base = fc.oneof(...bases)
  const hostileTop = fc.oneof(hostileValue, fc.array(shaped, { maxLength: 3 }), fc.constant([sampleValue ?? {}]))
  const fileFields = Object.keys(e.files ?? {})

  if (e.method === 'GET') {
    return fc.oneof(
      { weight: 4, arbitrary: shaped.map((v): FuzzRequest => ({ kind: 'valid-shaped', query: queryOf(v) })) },
      { weight: 4, arbitrary: mutate(base, keys).map((v): FuzzRequest => ({ kind: 'one field hostile', query: queryOf(v) })) },
      { weight: 1, arbitrary: hostileTop.map((v): FuzzRequest => ({ kind: 'wrong kind', query: queryOf(v) })) },
      { weight: 2, arbitrary: rawQueries },
      { weight: 1, arbitrary: shaped.map((v): FuzzRequest => ({ kind: 'body on a GET', query: '', body: JSON.stringify(v), contentType: 'application/json' })) },
    )
  }

  const prototypeKeys = fc.tuple(base, fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('{"role":"superadmin","accessLevel":"Admin"}', '{"prototype":{"role":"superadmin"}}', 'null', '1', '[]'), fc.boolean())
  const duplicates = fc.tuple(base, keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('id'), hostileValue, fc.boolean())
  const forms = fc.tuple(fc.oneof(base, mutate(base, keys)), fc.array(fileArbitrary(fileFields), { maxLength: 3 }), fc.boolean()).chain(([value, files, useSampleFiles]) =>
    formFields(value).map((fields): FuzzRequest => ({ kind: fileFields.length > 0 ? 'form' : 'form to a JSON call', form: { fields, files: useSampleFiles && sampleFiles.length > 0 ? sampleFiles : files } })),
  )
  return fc.oneof(
    { weight: 4, arbitrary: shaped.map((v) => json('valid-shaped', JSON.stringify(v))) },
    { weight: 5, arbitrary: mutate(base, keys).map((v) => json('one field hostile', JSON.stringify(v))) },
    { weight: 1, arbitrary: hostileTop.map((v) => json('wrong kind', asText(v))) },
    { weight: 1, arbitrary: prototypeKeys.map(([v, key, raw, first]) => json('prototype key', withRawKey(v, key, raw, first))) },
    { weight: 1, arbitrary: duplicates.map(([v, key, bad, first]) => json('duplicate key', withRawKey(v, key, JSON.stringify(bad) ?? 'null', first))) },
    { weight: 2, arbitrary: forms },
    { weight: 1, arbitrary: rawBodies },
  )
}

/** A short, printable form of a request for a failure's report. */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string): string => (s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s)
  if (r.form !== undefined) return `${r.kind}: fields ${cut(JSON.stringify(r.form.fields))} files ${JSON.stringify(r.form.files.map((f) => [f.field, f.name, f.type, f.content.length]))}`
  return `${r.kind}: ${r.query === undefined ? '' : `?${cut(r.query)} `}${r.body === undefined ? '' : `${r.contentType ?? '(no type)'} ${cut(JSON.stringify(r.body))}`}`
}
