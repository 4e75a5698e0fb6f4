/**
 * The API as an OpenAPI 3.1 document (docs/api.md), made from the served contract: every
 * endpoint's method and path, its input (query parameters for a GET, a JSON body, or a
 * multipart/form-data body where it declares files) and its success answer as JSON Schema through
 * zod's own `z.toJSONSchema`, who may call it (`x-access`, and the bearer scheme unless public),
 * and the `ours` text of a call the requirements (docs/requirements.md) do not name (`x-not-in-spec`). Served at
 * /api/admin/openapi.json to anyone: it describes the API, it opens nothing.
 *
 * A request schema is the input side of the zod schema (a default makes a field optional, a
 * coerced number accepts what JSON Schema calls a number) and an answer schema the output side.
 * What JSON Schema cannot say (a custom check, a bigint, a transform's result in an answer) becomes `{}` with an
 * `x-unrepresentable` note naming the zod type, never a failure to start.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Access, Endpoint, FileRule } from '#contract/define'
import { Failure, TwoFactorNeeded } from '#contract/common'
import { API_PREFIX, type ContractIndex, type Services } from '../ground/services.ts'

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`

type Json = Record<string, unknown>

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * One zod schema as JSON Schema for the document. Definitions zod hoists (a recursive schema's
 * `$defs`, or the schema itself when it holds itself) move to `components.schemas` under names
 * made unique by `prefix`, their references rewritten; `$schema` goes (the document's dialect is OpenAPI 3.1's, JSON Schema 2020-12).
 */
function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output', prefix: string, components: Json): Json {
  let converted: Json
  try {
    converted = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: ({ zodSchema }) => ({ 'x-unrepresentable': `zod ${zodSchema._zod.def.type}: not expressible in JSON Schema; the server checks it` }),
    })
  } catch (error) {
    // A schema zod cannot convert at all is described as "anything", with the reason, so one
    // odd endpoint never takes the whole document (or the server's start) down.
    return { 'x-unrepresentable': `not expressible in JSON Schema (${error instanceof Error ? error.message : String(error)}); the server checks it` }
  }
  const { $schema: _dialect, $defs, ...rest } = converted
  const renamed = new Map<string, string>()
  if (isJson($defs)) {
    for (const name of Object.keys($defs)) renamed.set(`#/$defs/${name}`, `#/components/schemas/${prefix}_${name.replace(/[^A-Za-z0-9._-]/g, '_')}`)
    for (const [name, definition] of Object.entries($defs)) {
      components[`${prefix}_${name.replace(/[^A-Za-z0-9._-]/g, '_')}`] = rewriteRefs(definition, renamed)
    }
  }
  // A schema that holds itself (`$ref: '#'`) becomes a component of its own, referred to by name:
  // '#' in the document would be the document.
  const own = `#/components/schemas/${prefix}`
  const selfReferring = JSON.stringify(rest).includes('"$ref":"#"')
  if (selfReferring) renamed.set('#', own)
  const result = rewriteRefs(rest, renamed)
  if (!isJson(result)) return {}
  if (!selfReferring) return result
  components[prefix] = result
  return { $ref: own }
}

function rewriteRefs(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renamed))
  if (!isJson(value)) return value
  const out: Json = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' ? (renamed.get(item) ?? item) : rewriteRefs(item, renamed)
  }
  return out
}

/** Who may call, in words, for the description beside `x-access`. */
function accessText(access: Access): string {
  switch (access.kind) {
    case 'public':
      return 'Public: no token.'
    case 'session':
      return 'Any signed-in, active admin.'
    case 'screen': {
      const who = access.approver === true ? 'An administrator (the superadmin, or the Admin access level with no screen restrictions)' : 'A signed-in admin'
      const level = access.write ? ' with the Admin access level' : ''
      const staff = access.staff === true ? ', never a sub-admin' : ''
      return `${who} who may open ${access.route}${level}${staff}.`
    }
  }
}

/** A file field of a multipart call: one binary part, or up to `max` of them. */
function fileSchema(name: string, rule: FileRule): Json {
  const one: Json = { type: 'string', contentMediaType: 'application/octet-stream', description: `${rule.kinds.join(', ')}; at most ${rule.maxBytes} bytes (checked by content)` }
  return rule.max === 1 ? { ...one, title: name } : { type: 'array', title: name, items: one, maxItems: rule.max }
}

const failureResponse = (description: string): Json => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } })

function operation(endpoint: Endpoint, label: string | undefined, components: Json): Json {
  const input = jsonSchemaOf(endpoint.input, 'input', `${endpoint.name}_input`, components)
  const output = jsonSchemaOf(endpoint.output, 'output', `${endpoint.name}_output`, components)
  const op: Json = {
    operationId: endpoint.name,
    summary: endpoint.name,
    description: [accessText(endpoint.access), endpoint.ours === undefined ? '' : `Not in the requirements: ${endpoint.ours}`].filter((s) => s !== '').join('\n\n'),
    ...(label === undefined ? {} : { tags: [label] }),
    security: endpoint.access.kind === 'public' ? [] : [{ bearer: [] }],
    'x-access': endpoint.access,
    ...(endpoint.ours === undefined ? {} : { 'x-not-in-spec': endpoint.ours }),
    ...(endpoint.maxAge === undefined ? {} : { 'x-cache-max-age': endpoint.maxAge }),
    ...(endpoint.sort === undefined ? {} : { 'x-sortable': endpoint.sort.columns }),
  }

  if (endpoint.method === 'GET') {
    const properties = isJson(input['properties']) ? input['properties'] : {}
    const required = Array.isArray(input['required']) ? input['required'] : []
    op['parameters'] = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.includes(name), schema }))
  } else if (endpoint.files !== undefined) {
    const properties = isJson(input['properties']) ? { ...input['properties'] } : {}
    const required = Array.isArray(input['required']) ? [...input['required']] : []
    for (const [name, rule] of Object.entries(endpoint.files)) {
      properties[name] = fileSchema(name, rule)
      if (rule.required) required.push(name)
    }
    op['requestBody'] = { required: true, content: { 'multipart/form-data': { schema: { ...input, type: 'object', properties, ...(required.length === 0 ? {} : { required }) } } } }
  } else {
    op['requestBody'] = { required: true, content: { 'application/json': { schema: input } } }
  }

  if (endpoint.signedBy !== undefined) {
    const { header, pattern, description } = endpoint.signedBy
    op['parameters'] = [{ name: header, in: 'header', required: true, description, schema: { type: 'string', pattern } }]
  }

  // A call that takes a second-factor code answers TWO_FA (200) until the code is sent (contract/common.ts).
  const takesCode = isJson(input['properties']) && 'twoFACode' in input['properties']
  const success: Json =
    endpoint.answer === 'csv'
      ? { description: 'The file, as an attachment', content: { 'text/csv': { schema: { type: 'string' } } } }
      : { description: 'Success', content: { 'application/json': { schema: takesCode ? { anyOf: [output, { $ref: '#/components/schemas/TwoFactorNeeded' }] } : output } } }
  op['responses'] = {
    '200': success,
    '400': failureResponse('Bad input: `errors` names each field'),
    ...(endpoint.access.kind === 'public' ? {} : { '401': failureResponse('No valid session token'), '403': failureResponse('The session may not make this call') }),
    ...(endpoint.signedBy === undefined ? {} : { '401': failureResponse(`No ${endpoint.signedBy.header} header, or one that does not sign this body: nothing changed`), '404': failureResponse('Off: the server has no key to check the signature with') }),
    default: failureResponse('Any other failure (404 unknown record, 409 changed meanwhile, 413 too large, 429 too many, 503 database unavailable)'),
  }
  return op
}

/** The document for a served contract; `version` is the server's. */
export function openApiDocument(contract: ContractIndex, version: string): Json {
  const schemas: Json = {}
  const paths: Json = {}
  for (const endpoint of contract.endpoints) {
    const path = API_PREFIX + endpoint.path
    const item = isJson(paths[path]) ? paths[path] : {}
    item[endpoint.method.toLowerCase()] = operation(endpoint, contract.areaLabels.get(endpoint), schemas)
    paths[path] = item
  }
  schemas['Failure'] = jsonSchemaOf(Failure, 'output', 'Failure', schemas)
  schemas['TwoFactorNeeded'] = jsonSchemaOf(TwoFactorNeeded, 'output', 'TwoFactorNeeded', schemas)
  const labels = [...new Set(contract.endpoints.map((e) => contract.areaLabels.get(e)).filter((l) => l !== undefined))]
  return {
    openapi: '3.1.0',
    info: {
      title: 'Back-office API',
      version,
      description:
        'Generated from the contract (contract/*.ts) the server runs. Every answer is JSON `{ status, message, ... }`; a failure is `Failure`. Calls marked `x-not-in-spec` are this server\'s own additions, beyond the product\'s requirements.',
    },
    tags: labels.map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The session token from login, as `Authorization: Bearer <token>`' } },
    },
  }
}

/** Serves the document, made at the first request and kept (the contract does not change while the server runs). */
export function serveOpenApi(app: FastifyInstance, services: Services, version: string): void {
  let body: string | null = null
  app.get(OPENAPI_PATH, async (_request, reply) => {
    body ??= JSON.stringify(openApiDocument(services.contract, version))
    return reply.type('application/json; charset=utf-8').send(body)
  })
}
