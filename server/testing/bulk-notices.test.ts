/**
 * Bulk Deactivate and Activate on Users and Access mail each member switched the account notice
 * the single Active/DeActive toggle mails (server/kit/rules/mail/account-notices.ts), delivered
 * over SMTP to a real receiver; a member the run skipped gets nothing.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bulkRunGoesOn } from '#contract/bulk'
import { admins } from '../db/schema.ts'
import { bodyOf, makeTestApp, type TestApp } from './test-app.ts'
import { header, readable, startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.ts'

let t: TestApp
let smtp: SmtpReceiver
let admin: Record<string, string>

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' } })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const post = (path: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...admin, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

/** Previews and applies a bulk action on Users and Access, waits for its run to end, and answers its undo token. */
async function bulk(action: 'deactivate' | 'activate', ids: string[], changes: number): Promise<string> {
  const selection = { ids }
  const preview = await post('/previewStaffBulk', { action, selection })
  expect(preview.statusCode, preview.body).toBe(200)
  expect(preview.json<{ change: { count: number } }>().change.count).toBe(changes)
  const applied = await post('/applyStaffBulk', { action, selection, token: preview.json<{ token: string }>().token })
  expect(applied.statusCode, applied.body).toBe(200)
  const id = applied.json<{ run: { id: string } }>().run.id
  for (let i = 0; i < 400; i++) {
    const run = (await t.app.inject({ method: 'GET', url: `/api/admin/getBulkRun?id=${id}`, headers: admin })).json<{ run: { state: string; done: number; undo?: { token: string } | null } }>().run
    if (!bulkRunGoesOn(run as Parameters<typeof bulkRunGoesOn>[0])) {
      expect(run).toMatchObject({ state: 'done', done: changes })
      return String(run.undo?.token)
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the bulk run did not end')
}

/** What a notice says, without the time it was sent (the single and the bulk one differ only there). */
const said = (mail: ReceivedMail) => ({
  subject: header(mail, 'Subject').replace(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/, '<time>'),
  body: readable(mail).split(/\r?\n\r?\n/).slice(1).join('\n').replace(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/g, '<time>').replace(/^--.*$/gm, '').replace(/boundary="?[^"\s;]+"?/g, ''),
})

describe('bulk Deactivate and Activate on Users and Access', () => {
  it('mail each member switched the notice the single toggle mails, and nothing to a member skipped', async () => {
    const single = await t.createAdmin({ name: 'Notice Nora', accessLevel: 'View Only', restrictions: ['/users'] })
    const members = [
      await t.createAdmin({ name: 'Notice Nora', accessLevel: 'View Only', restrictions: ['/users'] }),
      await t.createAdmin({ name: 'Notice Nora', accessLevel: 'Admin', restrictions: [] }),
    ]
    const inactive = await t.createAdmin({ name: 'Notice Otto', accessLevel: 'View Only', restrictions: ['/users'], activate: 0 })

    // The single Deactivate's mail, to compare with.
    expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: single.id, activate: 0 }))['message']).toBe('User deactivated successfully')
    const one = said(await smtp.next(single.email))
    expect(one.body).toContain('Your account was deactivated: you can no longer sign in.')

    await bulk('deactivate', [...members.map((m) => m.id), inactive.id], 2)
    for (const member of members) {
      const mail = await smtp.next(member.email)
      expect(mail.to).toEqual([member.email])
      // The same template and words as the single toggle's, to the same name.
      expect(said(mail)).toEqual(one)
    }

    await bulk('activate', members.map((m) => m.id), 2)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was activated: you can sign in again.')

    // The member already inactive was skipped by the run, and mailed nothing.
    await expect(smtp.next(inactive.email, 500)).rejects.toThrow()
  })

  it('mail the reverse notice when the run is undone, and end again the sessions an undone Activate gave back', async () => {
    const members = [
      await t.createAdmin({ name: 'Undo Una', accessLevel: 'View Only', restrictions: ['/users'] }),
      await t.createAdmin({ name: 'Undo Ulf', accessLevel: 'Admin', restrictions: [] }),
    ]
    const ids = members.map((m) => m.id)
    const off = await bulk('deactivate', ids, 2)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was deactivated: you can no longer sign in.')
    const undo = await post('/undo', { token: off })
    expect(undo.statusCode, undo.body).toBe(200)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was activated: you can sign in again.')

    await bulk('deactivate', ids, 2)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was deactivated: you can no longer sign in.')
    const on = await bulk('activate', ids, 2)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was activated: you can sign in again.')
    // Signed in while on (the row as it stands now: its token version moved on with each switch).
    const [una] = await t.handle.db.select().from(admins).where(eq(admins.id, ids[0] ?? ''))
    const session = await t.auth(una ?? t.superadmin)
    const me = () => t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: session })
    expect((await me()).statusCode).toBe(200)
    expect((await post('/undo', { token: on })).statusCode).toBe(200)
    for (const member of members) expect(readable(await smtp.next(member.email))).toContain('Your account was deactivated: you can no longer sign in.')
    // Switched off again: the session opened while they were on ends with it.
    expect((await me()).statusCode).toBe(401)
  })
})
