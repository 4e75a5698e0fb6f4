/** Real-time events (spec sections 4 and 7). */
export const SocketEvents = {
  /** Client to server, with the admin id, after login; the handshake carries the token. */
  createRoom: 'CREATEROOM',
  /** Server to client: the session is over (password change, deactivation, access change). */
  logout: 'LOGOUT',
  /**
   * Server to client (ours, issue 10): a promotion's delivery progress (`PromotionProgress` in
   * contract/promotions.ts), to admins who may read /notificationlist, at most every 500 ms per
   * promotion while it sends, and once when a round ends or is cancelled.
   */
  promotionProgress: 'PROMOTION_PROGRESS',
} as const
