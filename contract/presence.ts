/**
 * Who else is there: the staff who have a record open, live across instances, and word when a
 * record someone is looking at is saved by another. Carried over the socket (contract/socket.ts),
 * never over HTTP: an open page says so while it is open, and a closed tab stops saying so.
 *
 * A record is named by the screen it is opened on and its `_id`. The screen is the page's path
 * (`/edit-category`, `/lead`); the server counts it under its list's screen (the parent in
 * contract/routes.ts, `/category`, `/users`), so a list learns who is editing its rows. Only a
 * socket whose admin may open the screen may announce itself on it or hear about it.
 */
import { z } from 'zod/mini'

/** How often an open page says again that it is open (the heartbeat). */
export const PRESENCE_HEARTBEAT_MS = 3_000
/**
 * How long an announcement holds without a heartbeat: a tab that stops without closing its socket
 * (a crashed browser, an instance gone) drops off after this, and every watcher asks again each
 * heartbeat, so it is gone from every screen within PRESENCE_TTL_MS + PRESENCE_HEARTBEAT_MS (under 10 s).
 */
export const PRESENCE_TTL_MS = 6_000

/** Reading the record (a record's page) or editing it (its edit form): a list marks only editing. */
export const PresenceMode = z.enum(['view', 'edit'])
export type PresenceMode = z.output<typeof PresenceMode>

/** Client to server: this page has the record open (sent again every heartbeat). */
export const PresenceOpen = z.object({
  /** The page's path, a screen of contract/routes.ts. */
  screen: z.string().check(z.maxLength(200)),
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  mode: PresenceMode,
})
export type PresenceOpen = z.output<typeof PresenceOpen>

/** Client to server: this page no longer has the record open. */
export const PresenceClose = z.object({ screen: z.string().check(z.maxLength(200)), id: z.string().check(z.maxLength(200)) })
export type PresenceClose = z.output<typeof PresenceClose>

/** Client to server: a list asks for (and, until it leaves, hears about) who is on its screen's records. */
export const PresenceWatch = z.object({ screen: z.string().check(z.maxLength(200)) })
export type PresenceWatch = z.output<typeof PresenceWatch>

/** One admin with the record open, on one tab. */
export const PresencePerson = z.object({
  adminId: z.string(),
  name: z.string(),
  mode: PresenceMode,
  /** When this tab opened the record (ISO). */
  since: z.string(),
})
export type PresencePerson = z.output<typeof PresencePerson>

/** Who has one record open now (every tab, the receiver's own included: it leaves out its own admin). */
export const PresenceState = z.object({
  /** The list's screen the record is counted under. */
  screen: z.string(),
  id: z.string(),
  people: z.array(PresencePerson),
})
export type PresenceState = z.output<typeof PresenceState>

/** The answer to an open or a watch: the state(s) now, or why the socket may not. */
export const PresenceAnswer = z.union([
  z.object({ ok: z.literal(true), records: z.array(PresenceState) }),
  z.object({ ok: z.literal(false), message: z.string() }),
])
export type PresenceAnswer = z.output<typeof PresenceAnswer>

/** Server to client: a record a socket has open was saved (its audit row), by whom and when. */
export const RecordSaved = z.object({
  id: z.string(),
  adminId: z.string(),
  name: z.string(),
  /** The call that saved it (an endpoint path, as the audit log names it). */
  action: z.string(),
  at: z.string(),
})
export type RecordSaved = z.output<typeof RecordSaved>
