import { z } from 'zod/mini'
import { Id, natural, ok } from './common.ts'
import { endpoint, nameEndpoints, reads, sessionAccess, staffWrites, writes, type Access, type Endpoint } from './define.ts'
import { deleteBrand } from './brands.ts'
import { deleteCategory } from './catalog.ts'
import { DeleteCms, FreezeCms } from './games.ts'
import { deleteHomePageCms } from './homepage.ts'
import { setContactStatus } from './leads.ts'
import { DeleteBridgeLink, DeleteBuyLink, DeleteSellLink } from './links.ts'
import { cancelNewsletter } from './newsletter.ts'
import { DeletePromotion, cancelPromotion } from './promotions.ts'
import { ActivateSubadminStatusUpdate, signOutStaff } from './staff.ts'
import { UndoTicket } from './undo.ts'
import * as self from './bulk.ts'
import type { ScreenPath } from './routes.ts'

/*
 * Bulk actions (ours): the admin picks rows of a list, by id or as "every row matching the
 * list's search and filters", and an action. The server answers a preview (what will change, what
 * will be skipped and why, and a fingerprint of the exact set); Apply sends the fingerprint back
 * and is refused when the set is no longer the one previewed. The change then runs as one job,
 * whose progress is told over the socket and read with `getBulkRun`; one Undo (the `undo` call
 * with the run's ticket) reverts every row it changed.
 *
 * Each list's pair of calls is declared once, below, with `bulkCalls`; the server serves every
 * pair alike (server/kit/request/bulk.ts), each list telling it only how its rows are found and changed.
 */

/** The most rows one selection by id may name; more are chosen with "every row matching". */
export const MAX_BULK_IDS = 1000
/** The names a preview shows of each group. */
export const BULK_NAMES_SHOWN = 20

/** Why a chosen row is left out, and what the dialog says of it. */
export const BULK_SKIP_REASONS = {
  access: 'No access',
  superadmin: 'The superadmin is nobody\'s to change',
  self: 'Your own account',
  notScheduled: 'Not scheduled',
  already: 'Already in that state',
  inUse: 'In use by another record',
  gone: 'No longer exist',
} as const
export type BulkSkipReason = keyof typeof BULK_SKIP_REASONS

/** Apply, when the rows the preview counted are no longer those that would change. */
export const BULK_SET_CHANGED = 'The matching rows changed since the preview; preview again'
export const BULK_RUN_UNKNOWN = 'This bulk action was not found'
export const BULK_RUN_OVER = 'This bulk action has already ended'
/** Reverting from the audit log a run that kept no undo (still running, changed nothing, or final). */
export const BULK_NOTHING_TO_UNDO = 'This bulk action has nothing to undo'

/**
 * The rows chosen: by id (the rows ticked), or every row the list shows for this search and these
 * filters (the list call's own fields, as its query string would carry them) at the moment the
 * server reads them: never a list of ids made by the browser.
 */
export const BulkSelection = z.union([
  z.object({ ids: z.array(Id).check(z.minLength(1, 'Select at least one row'), z.maxLength(MAX_BULK_IDS, `Select at most ${MAX_BULK_IDS} rows, or every row matching`)) }),
  z.object({
    matching: z.object({
      search: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
      filters: z._default(z.record(z.string().check(z.maxLength(40)), z.string().check(z.maxLength(200))), {}),
    }),
  }),
])
export type BulkSelection = z.output<typeof BulkSelection>

/** A group of rows: how many, and the names of the first ones. */
const Group = z.object({ count: natural(), names: z.array(z.string()) })

export const BulkPreviewAnswer = ok({
  /** The fingerprint of the exact set that will change: Apply sends it back. */
  token: z.string(),
  change: Group,
  skipped: z.array(z.extend(Group, { reason: z.enum(Object.keys(BULK_SKIP_REASONS) as [BulkSkipReason, ...BulkSkipReason[]]), label: z.string() })),
})
export type BulkPreviewAnswer = z.output<typeof BulkPreviewAnswer>

/** `cancelling`: asked to stop, the batch under way not yet done; the run has ended in the other three. */
export const BULK_RUN_STATES = ['running', 'cancelling', 'done', 'cancelled', 'failed'] as const
export const bulkRunGoesOn = (run: { state: string }): boolean => run.state === 'running' || run.state === 'cancelling'

/** A run as its progress tells it: over the socket (`bulkProgress`), and by `getBulkRun`. */
export const BulkRun = z.object({
  id: z.string(),
  list: z.string(),
  action: z.string(),
  /** What the toast says: 'Freeze: 12 of 40 games'. */
  label: z.string(),
  state: z.enum(BULK_RUN_STATES),
  total: natural(),
  done: natural(),
  /** Rows not changed at their turn: no longer as the preview saw them. */
  skipped: natural(),
  /** Once the run has ended and changed something: the ticket that undoes all of it. */
  undo: z.nullable(UndoTicket),
})
export type BulkRun = z.output<typeof BulkRun>

/** One bulk action of a list: its button's words, and the one-row call whose access every row needs. */
export interface BulkActionSpec {
  label: string
  /** The single action (FreezeCms): a row the admin may not change with it is skipped. */
  single: Endpoint
  /** Removes rows: the dialog's button takes the danger style. */
  danger?: boolean
  /** Cannot be undone (sessions ended stay ended): the dialog says so and the run gives no ticket. */
  final?: boolean
}

/**
 * A list's bulk calls from one declaration: `preview` (a read: any admin who may open the list
 * may ask, and rows they may not change are counted as skipped) and `apply` (a write of the
 * screen). `actions` names them; the PWA's bar shows those the admin may take.
 */
export function bulkCalls<A extends Record<string, BulkActionSpec>>(spec: {
  list: string
  screen: ScreenPath
  noun: string
  actions: A
  /** Apply's rule when the single actions' is not the screen's write (Users and Access: the staff managers'). */
  applyAccess?: Access
  /** Apply asks for a recent proof, as the single action does (Activate gives access back). */
  stepUp?: boolean
}) {
  const names = Object.keys(spec.actions) as [keyof A & string, ...(keyof A & string)[]]
  const Action = z.enum(names, { error: `action must be one of: ${names.join(', ')}` })
  return {
    list: spec.list,
    screen: spec.screen,
    noun: spec.noun,
    actions: spec.actions,
    preview: endpoint({
      method: 'POST',
      input: z.object({ action: Action, selection: BulkSelection }),
      output: BulkPreviewAnswer,
      access: reads(spec.screen),
      ours: `Previews a bulk action on ${spec.noun} (${names.join(', ')}): what will change and what will be skipped and why, with counts, the first ${BULK_NAMES_SHOWN} names and a token for the exact set. Writes nothing.`,
    }),
    apply: endpoint({
      logAs: `Bulk action on ${spec.noun}`,
      method: 'POST',
      input: z.object({ action: Action, selection: BulkSelection, token: z.string().check(z.trim(), z.minLength(1, 'token is required'), z.maxLength(64, 'Incorrect format')) }),
      output: ok({ run: BulkRun }),
      access: spec.applyAccess ?? writes(spec.screen),
      ...(spec.stepUp === true ? { stepUp: true } : {}),
      ours: `Applies a previewed bulk action on ${spec.noun} as one job; 409 '${BULK_SET_CHANGED}' when the rows that would change are not those the token names.`,
    }),
  }
}

export const getBulkRun = endpoint({
  method: 'GET',
  input: z.object({ id: Id }),
  output: ok({ run: BulkRun }),
  access: sessionAccess,
  ours: `One bulk action's progress, to the admin who applied it (or the superadmin); otherwise 404 '${BULK_RUN_UNKNOWN}'.`,
})

export const cancelBulkRun = endpoint({
  logAs: 'Bulk action cancelled',
  method: 'POST',
  input: z.object({ id: Id }),
  output: ok({ run: BulkRun }),
  access: sessionAccess,
  ours: `Stops a running bulk action after the batch under way; the rows changed stay changed (Undo reverts them). 409 '${BULK_RUN_OVER}' once it has ended.`,
})

/** The lists with bulk actions, each declared once. */
export const gamesBulk = bulkCalls({
  list: 'games',
  screen: '/cms',
  noun: 'games',
  actions: {
    freeze: { label: 'Freeze', single: FreezeCms },
    unfreeze: { label: 'Unfreeze', single: FreezeCms },
    delete: { label: 'Delete', single: DeleteCms, danger: true },
  },
})
export const { preview: previewGamesBulk, apply: applyGamesBulk } = gamesBulk

export const contactBulk = bulkCalls({
  list: 'contactus',
  screen: '/contactus',
  noun: 'enquiries',
  actions: {
    resolve: { label: 'Mark Resolved', single: setContactStatus },
    reopen: { label: 'Mark Open', single: setContactStatus },
  },
})
export const { preview: previewContactBulk, apply: applyContactBulk } = contactBulk

export const categoriesBulk = bulkCalls({
  list: 'categories',
  screen: '/category',
  noun: 'categories',
  actions: { delete: { label: 'Delete', single: deleteCategory, danger: true } },
})
export const { preview: previewCategoriesBulk, apply: applyCategoriesBulk } = categoriesBulk

export const brandsBulk = bulkCalls({
  list: 'brands',
  screen: '/brand',
  noun: 'brands',
  actions: { delete: { label: 'Delete', single: deleteBrand, danger: true } },
})
export const { preview: previewBrandsBulk, apply: applyBrandsBulk } = brandsBulk

export const buyLinksBulk = bulkCalls({
  list: 'links:buy',
  screen: '/buy_list',
  noun: 'buy links',
  actions: { delete: { label: 'Delete', single: DeleteBuyLink, danger: true } },
})
export const { preview: previewBuyLinksBulk, apply: applyBuyLinksBulk } = buyLinksBulk

export const sellLinksBulk = bulkCalls({
  list: 'links:sell',
  screen: '/swapout_list',
  noun: 'swap-out links',
  actions: { delete: { label: 'Delete', single: DeleteSellLink, danger: true } },
})
export const { preview: previewSellLinksBulk, apply: applySellLinksBulk } = sellLinksBulk

export const bridgeLinksBulk = bulkCalls({
  list: 'links:bridge',
  screen: '/swapin_list',
  noun: 'swap-in links',
  actions: { delete: { label: 'Delete', single: DeleteBridgeLink, danger: true } },
})
export const { preview: previewBridgeLinksBulk, apply: applyBridgeLinksBulk } = bridgeLinksBulk

export const homepageBulk = bulkCalls({
  list: 'homepage',
  screen: '/homepage-content',
  noun: 'homepage contents',
  actions: { delete: { label: 'Delete', single: deleteHomePageCms, danger: true } },
})
export const { preview: previewHomepageBulk, apply: applyHomepageBulk } = homepageBulk

/** Users and Access: the superadmin and the acting admin are skipped, each with its reason. */
export const staffBulk = bulkCalls({
  list: 'staff',
  screen: '/sub-admin',
  noun: 'users',
  applyAccess: staffWrites('/sub-admin'),
  stepUp: true,
  actions: {
    deactivate: { label: 'Deactivate', single: ActivateSubadminStatusUpdate },
    activate: { label: 'Activate', single: ActivateSubadminStatusUpdate },
    signOut: { label: 'Sign out everywhere', single: signOutStaff, final: true },
  },
})
export const { preview: previewStaffBulk, apply: applyStaffBulk } = staffBulk

/** Promotions: Cancel calls off scheduled ones only (the others are skipped as not scheduled). */
export const promotionsBulk = bulkCalls({
  list: 'promotions',
  screen: '/notificationlist',
  noun: 'promotions',
  actions: {
    cancel: { label: 'Cancel scheduled', single: cancelPromotion },
    delete: { label: 'Delete', single: DeletePromotion, danger: true },
  },
})
export const { preview: previewPromotionsBulk, apply: applyPromotionsBulk } = promotionsBulk

/** Newsletter sends: Cancel calls off scheduled ones only; a send has no delete of its own. */
export const newsletterBulk = bulkCalls({
  list: 'newsletter',
  screen: '/newsletter',
  noun: 'newsletter sends',
  actions: { cancel: { label: 'Cancel scheduled', single: cancelNewsletter } },
})
export const { preview: previewNewsletterBulk, apply: applyNewsletterBulk } = newsletterBulk

/** A list's bulk calls as the PWA and the server take them, whichever list. */
export type BulkCalls =
  | typeof gamesBulk
  | typeof contactBulk
  | typeof categoriesBulk
  | typeof brandsBulk
  | typeof buyLinksBulk
  | typeof sellLinksBulk
  | typeof bridgeLinksBulk
  | typeof homepageBulk
  | typeof staffBulk
  | typeof promotionsBulk
  | typeof newsletterBulk

nameEndpoints(self)
