/**
 * Concurrent edits: every edit form's record carries its edit version; a save naming
 * the version it loaded is refused with 409 and RECORD_CHANGED once someone else saved since,
 * writing nothing; a save without a version (the payloads of requirements R7) is not checked; two saves
 * racing from one version never both pass. One table drives every area, on both engines.
 */
import { eq } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORD_CHANGED } from '#contract/common'
import { loadAreas } from '../kit/request/areas.ts'
import type { Endpoint } from '#contract/define'
import { admins, brands, categories, games, homepageContent, links, siteSettings, socialMedia, tokenSettings } from '../db/schema.ts'
import { makeFixtures, samples, send, type Fixtures, type Payload } from './endpoint-samples.ts'
import { bodyOf, makeTestApp, type TestApp } from './test-app.ts'

/** Every endpoint the areas declare (server/kit/request/areas.ts). */
const { endpoints } = (await loadAreas()).index

let t: TestApp
let f: Fixtures
let headers: Record<string, string>
let tokenId = ''

beforeAll(async () => {
  t = await makeTestApp()
  f = await makeFixtures(t)
  headers = await t.auth(t.superadmin)
  // The token record is made by its first read.
  const token = await t.app.inject({ method: 'GET', url: '/api/admin/getToken', headers })
  tokenId = String(idOf(bodyOf(token)['data']))
})
afterAll(async () => {
  await t.close()
})

const idOf = (v: unknown): unknown => (typeof v === 'object' && v !== null && '_id' in v ? v._id : undefined)

interface Case {
  edit: string
  /** The read the form loads its record with. */
  read: string
  table: PgTable
  idColumn: PgColumn
  versionColumn: PgColumn
  id: () => string
  /** The name of the version field in the record and the save (`revision` for Settings). */
  field?: 'version' | 'revision'
}

const cases: Case[] = [
  { edit: 'editCategoryData', read: 'getCategory', table: categories, idColumn: categories.id, versionColumn: categories.version, id: () => f.categoryId },
  { edit: 'editBuylink', read: 'getbuyLink', table: links, idColumn: links.id, versionColumn: links.version, id: () => f.linkIds.buy.kept },
  { edit: 'editSellink', read: 'ListSelLink', table: links, idColumn: links.id, versionColumn: links.version, id: () => f.linkIds.sell.kept },
  { edit: 'editBridgeink', read: 'getBridgeLink', table: links, idColumn: links.id, versionColumn: links.version, id: () => f.linkIds.bridge.kept },
  { edit: 'editbrandUser', read: 'listbrandUser', table: brands, idColumn: brands.id, versionColumn: brands.version, id: () => f.brandIds.kept },
  { edit: 'editHomePageCms', read: 'getHomePageCms', table: homepageContent, idColumn: homepageContent.id, versionColumn: homepageContent.version, id: () => f.homepageIds.kept },
  { edit: 'Editcms', read: 'getCms', table: games, idColumn: games.id, versionColumn: games.version, id: () => f.gameIds.kept },
  { edit: 'UpdateSubAdminUsers', read: 'getSubAdminUser', table: admins, idColumn: admins.id, versionColumn: admins.version, id: () => f.victim.id },
  { edit: 'updatesocialmedia', read: 'socialmediaGet', table: socialMedia, idColumn: socialMedia.id, versionColumn: socialMedia.version, id: () => f.socialId },
  { edit: 'updateToken', read: 'getToken', table: tokenSettings, idColumn: tokenSettings.id, versionColumn: tokenSettings.version, id: () => tokenId },
  {
    edit: 'updateSettings',
    read: 'getSettings',
    table: siteSettings,
    idColumn: siteSettings.id,
    versionColumn: siteSettings.revision,
    id: () => f.settingsId,
    field: 'revision',
  },
]

const endpointNamed = (name: string): Endpoint => {
  const e = endpoints.find((x) => x.name === name)
  if (e === undefined) throw new Error(`no endpoint ${name}`)
  return e
}

/** The sample save of an area, with the version field set (or left out when `version` is undefined). */
function saveWith(c: Case, version: number | undefined): Payload {
  const sample = samples[c.edit]?.(f)
  if (sample === undefined) throw new Error(`no sample for ${c.edit}`)
  const field = c.field ?? 'version'
  if (version === undefined) return sample
  if ('json' in sample) return { json: { ...sample.json, [field]: version } }
  return { form: { fields: { ...sample.form.fields, [field]: String(version) }, files: sample.form.files } }
}

const save = (c: Case, version: number | undefined) => send(t, endpointNamed(c.edit), headers, saveWith(c, version))

const stored = async (c: Case): Promise<{ version: unknown; row: unknown }> => {
  const [row] = await t.handle.db.select().from(c.table).where(eq(c.idColumn, c.id())).limit(1)
  const [v] = await t.handle.db.select({ v: c.versionColumn }).from(c.table).where(eq(c.idColumn, c.id())).limit(1)
  return { version: v?.v, row }
}

/** The record with this id anywhere in an answer. */
function recordIn(value: unknown, id: string): Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = recordIn(item, id)
      if (found) return found
    }
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  if ('_id' in value && value._id === id) return Object.fromEntries(Object.entries(value))
  for (const inner of Object.values(value)) {
    const found = recordIn(inner, id)
    if (found) return found
  }
  return undefined
}

describe('concurrent edits', () => {
  for (const c of cases) {
    it(`${c.edit}: the read gives the version, a stale save is refused with 409 and writes nothing`, async () => {
      const field = c.field ?? 'version'
      const read = await send(t, endpointNamed(c.read), headers, samples[c.read]?.(f) ?? { json: {} })
      expect(read.statusCode).toBe(200)
      const loaded = recordIn(bodyOf(read), c.id())?.[field]
      expect(typeof loaded).toBe('number')
      expect(loaded).toBe((await stored(c)).version)
      const version = Number(loaded)

      // The first admin saves what they loaded: accepted, and the version moves on.
      const first = await save(c, version)
      expect(first.statusCode, first.body).toBe(200)
      expect((await stored(c)).version).toBe(version + 1)

      // The second admin saves over the same loaded version: refused, nothing written.
      const before = await stored(c)
      const second = await save(c, version)
      expect(second.statusCode).toBe(409)
      expect(bodyOf(second)).toEqual({ status: 'failed', message: RECORD_CHANGED, errors: { version: RECORD_CHANGED } })
      expect(await stored(c)).toEqual(before)

      // With the version they now read, it goes through; without one (the payload of requirements R7), it is not checked.
      expect((await save(c, version + 1)).statusCode).toBe(200)
      expect((await save(c, undefined)).statusCode).toBe(200)
      expect((await stored(c)).version).toBe(version + 3)
    })
  }

  it('lets exactly one of two saves racing from the same version through', async () => {
    for (const c of cases.filter((x) => ['editCategoryData', 'editBuylink', 'editbrandUser', 'UpdateSubAdminUsers'].includes(x.edit))) {
      const version = Number((await stored(c)).version)
      const answers = await Promise.all([save(c, version), save(c, version)])
      expect(answers.map((a) => a.statusCode).sort(), c.edit).toEqual([200, 409])
      expect((await stored(c)).version).toBe(version + 1)
    }
  })

  it('answers 404, not 409, for a record deleted meanwhile', async () => {
    const gone = f.linkIds.buy.deleted
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/DeleteBuyLink', headers, payload: { id: gone } })).statusCode).toBe(200)
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/editBuylink', headers, payload: { _id: gone, buyLink: 'https://buy.example.com/x', preference: 1, version: 1 } })
    expect(res.statusCode).toBe(404)
    // A link of another kind is not this kind's record either.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/admin/editBuylink',
      headers,
      payload: { _id: f.linkIds.sell.kept, buyLink: 'https://buy.example.com/x', preference: 1, version: 1 },
    })
    expect(other.statusCode).toBe(404)
  })

  it('refuses a version that is not a whole number, and takes an empty form field as none', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/admin/editBuylink', headers, payload: { _id: f.linkIds.buy.kept, buyLink: 'https://buy.example.com/y', preference: 1, version: 'abc' } })
    expect(bad.statusCode).toBe(400)
    expect(bodyOf(bad)['errors']).toEqual({ version: 'Incorrect format' })
    const empty = await t.app.inject({ method: 'POST', url: '/api/admin/editBuylink', headers, payload: { _id: f.linkIds.buy.kept, buyLink: 'https://buy.example.com/y', preference: 1, version: '' } })
    expect(empty.statusCode).toBe(200)
  })

  it('raises the version of a social links record when one link is deleted, so an older form is refused', async () => {
    const c = cases.find((x) => x.edit === 'updatesocialmedia')
    if (c === undefined) throw new Error('no social case')
    const version = Number((await stored(c)).version)
    const del = await t.app.inject({ method: 'POST', url: '/api/admin/Delete-socialmedia', headers, payload: { linkdata: 'discordLink' } })
    expect(del.statusCode).toBe(200)
    expect((await save(c, version)).statusCode).toBe(409)
  })
})
