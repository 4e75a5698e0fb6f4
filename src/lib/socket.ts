/**
 * The real-time link (requirements R4.1, R4.3, R7.14): connect with the stored token, join the admin's
 * room with CREATEROOM (again after every reconnect, since rooms do not survive one), and hand
 * LOGOUT to the caller, and every other event to realtime-events.ts, through which the screens
 * send theirs (who has a record open). Loaded only inside the
 * signed-in area.
 */
import { io } from 'socket.io-client'
import { REALTIME_TRANSPORTS, SocketEvents } from '#contract/socket'
import { API_ORIGIN } from './api.ts'
import { dispatchRealtime, setRealtimeSender } from './realtime-events.ts'

/** How long an event the screens send waits for the server's acknowledgement. */
const ACK_TIMEOUT_MS = 5000

export function connectRealtime(authorization: string, adminId: string, onLogout: () => void): () => void {
  const options = { auth: { token: authorization }, transports: [...REALTIME_TRANSPORTS] }
  const socket = API_ORIGIN ? io(API_ORIGIN, options) : io(options)
  socket.on('connect', () => {
    socket.emit(SocketEvents.createRoom, adminId)
    setRealtimeSender((event, payload) => socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload))
  })
  socket.on('disconnect', () => setRealtimeSender(null))
  socket.on(SocketEvents.logout, onLogout)
  // Every other event goes to the screens that subscribed (realtime-events.ts).
  const forward = (event: string, payload: unknown) => dispatchRealtime(event, payload)
  socket.onAny(forward)
  return () => {
    socket.off(SocketEvents.logout, onLogout)
    socket.offAny(forward)
    setRealtimeSender(null)
    socket.disconnect()
  }
}
