/**
 * The real-time link (requirements R4.1, R4.3, R7.14): connect with the stored token, join the admin's
 * room with CREATEROOM (again after every reconnect, since rooms do not survive one), and hand
 * LOGOUT to the caller, and every other event to realtime-events.ts. Loaded only inside the
 * signed-in area.
 */
import { io } from 'socket.io-client'
import { REALTIME_TRANSPORTS, SocketEvents } from '#contract/socket'
import { API_ORIGIN } from './api.ts'
import { dispatchRealtime } from './realtime-events.ts'

export function connectRealtime(authorization: string, adminId: string, onLogout: () => void): () => void {
  const options = { auth: { token: authorization }, transports: [...REALTIME_TRANSPORTS] }
  const socket = API_ORIGIN ? io(API_ORIGIN, options) : io(options)
  socket.on('connect', () => {
    socket.emit(SocketEvents.createRoom, adminId)
  })
  socket.on(SocketEvents.logout, onLogout)
  // Every other event goes to the screens that subscribed (realtime-events.ts).
  const forward = (event: string, payload: unknown) => dispatchRealtime(event, payload)
  socket.onAny(forward)
  return () => {
    socket.off(SocketEvents.logout, onLogout)
    socket.offAny(forward)
    socket.disconnect()
  }
}
