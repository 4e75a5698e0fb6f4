import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { listbrandUser } from '#contract/brands'
import { SocketEvents } from '#contract/socket'
import { PromotionProgress, ResendData, cancelPromotion, listNotification, type Promotion } from '#contract/promotions'
import { getSession } from '#src/lib/session.ts'
import { col } from './columns.tsx'
import { listModel } from './define-list.tsx'
import { live, patchPage } from './list-source.ts'
import { LoadMoreList } from './load-more-list.tsx'

const promotion = (id: string, over: Partial<Promotion> = {}): Promotion => ({
  _id: id,
  title: `Promo ${id}`,
  content: 'Text',
  image: '',
  selectall: false,
  createdAt: '2026-11-23T08:00:00.000Z',
  recipientCount: 10,
  createdBy: 'Ann Admin',
  approval: null,
  scheduledAt: null,
  round: 1,
  total: 10,
  sent: 0,
  failed: 0,
  excluded: 0,
  pending: 10,
  status: 'sending',
  lastSentAt: null,
  ...over,
})

const progress = live(SocketEvents.promotionProgress, PromotionProgress, (row: Promotion, { id, ...p }) =>
  id === row._id && p.round >= row.round ? { ...row, ...p } : undefined,
)

describe('rows kept live by server events', () => {
  const page = { status: 'success' as const, message: 'ok', count: 2, result: [promotion('a'), promotion('b')] }

  it('patches only the row an event is about, and keeps the page object when none is', () => {
    const change = progress.update({ id: 'b', round: 1, total: 10, sent: 4, failed: 1, excluded: 0, pending: 5, status: 'sending', lastSentAt: '2026-11-23T08:01:00.000Z' })
    if (!change) throw new Error('the payload parses')
    const next = patchPage(page, change)
    expect(next.result.map((r) => [r._id, r.sent, r.failed, r.pending])).toEqual([
      ['a', 0, 0, 10],
      ['b', 4, 1, 5],
    ])
    expect(next.result[0]).toBe(page.result[0])
    const elsewhere = progress.update({ id: 'zzz', round: 1, total: 1, sent: 1, failed: 0, excluded: 0, pending: 0, status: 'done', lastSentAt: null })
    if (!elsewhere) throw new Error('the payload parses')
    expect(patchPage(page, elsewhere)).toBe(page)
  })

  it('ignores a payload that does not parse, and an event of an older round', () => {
    expect(progress.update({ id: 'a', sent: 'many' })).toBeNull()
    const stale = progress.update({ id: 'a', round: 1, total: 10, sent: 10, failed: 0, excluded: 0, pending: 0, status: 'done', lastSentAt: null })
    if (!stale) throw new Error('the payload parses')
    const resent = { ...page, result: [promotion('a', { round: 2 })] }
    expect(patchPage(resent, stale)).toBe(resent)
  })

  it('patches lists answered as data + count too', () => {
    const leads = { data: [{ _id: 'x', n: 1 }], count: 1 }
    expect(patchPage(leads, (r: { _id: string; n: number }) => ({ ...r, n: 2 })).data).toEqual([{ _id: 'x', n: 2 }])
  })
})

describe('row actions with choices', () => {
  const model = listModel({
    title: 'Messaging',
    endpoint: listNotification,
    columns: [col('title', 'Title')],
    actions: [
      {
        label: 'Resend',
        endpoint: ResendData,
        when: (p) => p.status === 'done',
        confirm: () => 'Resend this promotion to',
        choices: [
          { label: 'All recipients', payload: (p) => ({ id: p._id, round: p.round, only: 'all' }) },
          { label: 'Only failed deliveries', payload: (p) => ({ id: p._id, round: p.round, only: 'failed' }), when: (p) => p.failed > 0 },
        ],
      },
      { label: 'Cancel', endpoint: cancelPromotion, confirm: () => 'Stop?', choices: [{ label: 'Stop sending', payload: (p) => ({ id: p._id }) }] },
    ],
  })

  it('binds each choice to its call with a payload the call accepts, leaving out the choices a row does not allow', () => {
    const [resend] = model.actions ?? []
    const done = promotion('p1', { status: 'done', round: 3, failed: 2 })
    expect(resend?.when?.(done, getSession())).toBe(true)
    expect(resend?.when?.(promotion('p2'), getSession())).toBe(false)
    const choices = resend?.choices(done) ?? []
    expect(choices.map((c) => [c.label, c.request.endpoint.name, c.request.input])).toEqual([
      ['All recipients', 'ResendData', { id: 'p1', round: 3, only: 'all' }],
      ['Only failed deliveries', 'ResendData', { id: 'p1', round: 3, only: 'failed' }],
    ])
    for (const c of choices) expect(c.request.endpoint.input.safeParse(c.request.input).success).toBe(true)
    expect(resend?.choices(promotion('p3', { status: 'done', failed: 0 })).map((c) => c.label)).toEqual(['All recipients'])
  })
})

describe('the Load More list', () => {
  const first = { status: 'success' as const, message: 'ok', count: 5, result: [{ email: 'a@x.io' }, { email: 'b@x.io' }], record: { _id: 'b1', brandname: 'B', type: 'ipfs' as const, version: 1 }, referralCode: 'c', visits: 0 }
  const list = (answer: typeof first) =>
    renderToStaticMarkup(
      <LoadMoreList
        label="Emails"
        endpoint={listbrandUser}
        input={(page) => ({ id: 'b1', page, limit: 2 })}
        pick={(a) => ({ items: a.result, count: a.count })}
        itemKey={(e, i) => `${e.email}-${i}`}
        render={(e) => e.email}
        moreLabel="Load More..."
        step={2}
        first={answer}
      />,
    )

  it('shows the first page, how many of how many, and the button while more remain', () => {
    const html = list(first)
    expect(html).toContain('aria-label="Emails"')
    expect(html).toContain('a@x.io')
    expect(html).toContain('Showing 2 of 5')
    expect(html).toContain('Load More...')
  })

  it('has no button once everything shows, and says No Record Found for none', () => {
    expect(list({ ...first, count: 2 })).not.toContain('Load More...')
    expect(list({ ...first, count: 0, result: [] })).toContain('No Record Found')
  })
})
