/** Real-time events (requirements R4.1, R4.3, R7.14). */

/**
 * The link's only transport, on both sides (ours): one WebSocket connection per tab, held by one
 * instance. socket.io's default starts with long polling, whose requests must all reach the
 * instance that opened the session, so a load balancer in front of several instances would need
 * sticky sessions; over WebSocket alone any balancer that passes upgrades will do.
 */
export const REALTIME_TRANSPORTS = ['websocket'] as const

export const SocketEvents = {
  /**
   * Client to server, with the admin id, after login; the handshake carries the token. Ours: with
   * an acknowledgement callback, the server answers true once the socket is in the admin's room
   * (false for another admin's id).
   */
  createRoom: 'CREATEROOM',
  /** Server to client: the session is over (password change, deactivation, access change). */
  logout: 'LOGOUT',
  /**
   * Server to client (ours): a promotion's delivery progress (`PromotionProgress` in
   * contract/promotions.ts), to admins who may read /notificationlist, at most every 500 ms per
   * promotion while it sends, and once when a round ends or is cancelled.
   */
  promotionProgress: 'PROMOTION_PROGRESS',
  /**
   * Server to client (ours): a promotion round or a newsletter went over the
   * four-eyes threshold and waits for approval (`ApprovalRequest` in contract/four-eyes.ts), to the
   * sessions of every administrator who may approve it (the superadmin, Admin level on every
   * screen), never its requester's.
   */
  approvalRequested: 'APPROVAL_REQUESTED',
  /**
   * Server to client (ours): a count the side menu shows changed (contract/dashboard.ts
   * getMenuCounts), to admins who may open the screen it counts, with `{ screen }`. The PWA asks
   * for the counts again; the call decides what the admin may see.
   */
  countsChanged: 'COUNTS_CHANGED',
  /**
   * Server to client (ours): a bulk action's progress (`BulkRun` in contract/bulk.ts), to the
   * sessions of the admin who applied it, at most every 500 ms while it runs and once when it ends.
   */
  bulkProgress: 'BULK_PROGRESS',
  /**
   * Client to server (ours): this page has a record open (`PresenceOpen` in contract/presence.ts),
   * sent again every heartbeat; the acknowledgement answers who has it open now (`PresenceAnswer`).
   * Refused unless the socket's admin may open the screen.
   */
  presenceOpen: 'PRESENCE_OPEN',
  /** Client to server (ours): the page closed the record (`PresenceClose`); a closed socket does as much. */
  presenceClose: 'PRESENCE_CLOSE',
  /**
   * Client to server (ours): a list watches who has its records open (`PresenceWatch`), sent again
   * every heartbeat; the acknowledgement answers every record with someone on it.
   */
  presenceWatch: 'PRESENCE_WATCH',
  /** Client to server (ours): the list stopped watching (`PresenceWatch`). */
  presenceUnwatch: 'PRESENCE_UNWATCH',
  /**
   * Server to client (ours): who has a record open changed (`PresenceState`), to the sockets that
   * have it open and the lists watching its screen.
   */
  presence: 'PRESENCE',
  /**
   * Server to client (ours): a record was saved (`RecordSaved`), to the sockets that have it open
   * (the saver's own included: each leaves out its own admin's saves).
   */
  recordSaved: 'RECORD_SAVED',
} as const
