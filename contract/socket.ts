/** Real-time events (spec sections 4 and 7). */
export const SocketEvents = {
  /** Client to server, with the admin id, after login; the handshake carries the token. */
  createRoom: 'CREATEROOM',
  /** Server to client: the session is over (password change, deactivation, access change). */
  logout: 'LOGOUT',
} as const
