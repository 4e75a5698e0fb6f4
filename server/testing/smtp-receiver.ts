/**
 * Test support: a real SMTP server on a free local port (smtp-server), so tests send mail the way
 * production does (nodemailer over SMTP_URL) and read what arrived, e.g. the OTP of a reset.
 */
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The whole message as sent: headers and body. */
  raw: string
}

export interface SmtpReceiver {
  /** The SMTP_URL pointing at this receiver. */
  url: string
  received: ReceivedMail[]
  /** The next message to `to` (one that arrived already and was not taken yet, or the next to come). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>
  /** Refuses the next `count` messages with a temporary failure (451), as a busy server does. */
  refuse(count: number): void
  /** Refuses this recipient at RCPT TO for good (550, no such mailbox), as a server does for an unknown address. */
  refuseRecipient(address: string): void
  /**
   * Holds the next message mid-send: its data is read, but the server answers (records it, or
   * refuses it when `refuse` says so) only on `release()`, so the sender is left waiting with the
   * mail in the server's hands.
   */
  hold(): HeldMail
  close(): Promise<void>
}

export interface HeldMail {
  /** Resolves once the held message's data has been read (the sender waits for the answer). */
  arrived: Promise<void>
  /** Answers the held message: accepted and recorded as received (or refused, after `refuse`). */
  release(): void
}

interface Holding {
  arrived: () => void
  released: Promise<void>
}

/** The test's side of a hold (`HeldMail`) and the server's (`Holding`), linked. */
function holding(): { held: HeldMail; hold: Holding } {
  let signal: () => void = () => {}
  let release: () => void = () => {}
  const arrived = new Promise<void>((r) => (signal = r))
  const released = new Promise<void>((r) => (release = r))
  return { held: { arrived, release }, hold: { arrived: signal, released } }
}

/**
 * `port`: listen on this one (e.g. to bring a "crashed" server back where the app expects it).
 * `received`: the list to add arriving mail to (one the caller made before the receiver started).
 */
export async function startSmtpReceiver(options: { port?: number; received?: ReceivedMail[] } = {}): Promise<SmtpReceiver> {
  let refusing = 0
  const unknownMailboxes = new Set<string>()
  let holdNext: Holding | null = null
  const received: ReceivedMail[] = options.received ?? []
  const taken = new Set<ReceivedMail>()
  const waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = []

  const deliver = (mail: ReceivedMail): void => {
    received.push(mail)
    const index = waiters.findIndex((w) => mail.to.includes(w.to))
    const waiter = index === -1 ? undefined : waiters.splice(index, 1)[0]
    if (waiter !== undefined) {
      taken.add(mail)
      waiter.resolve(mail)
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to make, and nodemailer then sends without TLS.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (unknownMailboxes.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('No such user here'), { responseCode: 550 }))
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        // The answer (refusal or acceptance) is given when the message is let go: at once, or on release.
        const answer = (): void => {
          if (refusing > 0) {
            refusing -= 1
            callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
            return
          }
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address
          deliver({ from, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') })
          callback()
        }
        const held = holdNext
        holdNext = null
        if (held === null) {
          answer()
          return
        }
        held.arrived()
        void held.released.then(answer)
      })
    },
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.server.address()
      if (address !== null && typeof address === 'object') resolve(address.port)
      else reject(new Error('SMTP receiver has no port'))
    })
  })

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(to, timeoutMs = 5000) {
      const address = to.toLowerCase()
      const waiting = received.find((m) => !taken.has(m) && m.to.includes(address))
      if (waiting !== undefined) {
        taken.add(waiting)
        return Promise.resolve(waiting)
      }
      return new Promise((resolve, reject) => {
        const waiter = { to: address, resolve }
        waiters.push(waiter)
        setTimeout(() => {
          const index = waiters.indexOf(waiter)
          if (index === -1) return
          waiters.splice(index, 1)
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`))
        }, timeoutMs).unref()
      })
    },
    refuse(count) {
      refusing = count
    },
    refuseRecipient(address) {
      unknownMailboxes.add(address.toLowerCase())
    },
    hold() {
      const { held, hold } = holding()
      holdNext = hold
      return held
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The mail as its reader sees it: quoted-printable undone (soft line breaks joined, =XX decoded). */
export const readable = (mail: ReceivedMail): string =>
  mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** A header of the mail, its folded lines joined; '' when it has none. */
export function header(mail: ReceivedMail, name: string): string {
  const head = (mail.raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ')
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? ''
}

/** The token of the confirmation link in an access request's mail. */
export function confirmTokenFrom(mail: ReceivedMail): string {
  const match = /confirm-request\?token=([A-Za-z0-9_-]{43})/.exec(readable(mail))
  if (match?.[1] === undefined) throw new Error(`no confirmation link in the mail:\n${mail.raw.slice(0, 800)}`)
  return match[1]
}

/** The one-time code in a mail from server/areas/password/otp.ts. */
export function otpFrom(mail: ReceivedMail): string {
  const match = /one-time code is: (\d{6})/.exec(mail.raw)
  if (match?.[1] === undefined) throw new Error(`no code in the mail:\n${mail.raw.slice(0, 500)}`)
  return match[1]
}

/** The secret of the set-password link in a mail from server/areas/access-requests/password-setup.ts. */
export function setPasswordTokenFrom(mail: ReceivedMail): string {
  const match = /set-password\?token=([A-Za-z0-9_-]{43})/.exec(readable(mail))
  if (match?.[1] === undefined) throw new Error(`no set-password link in the mail:\n${mail.raw.slice(0, 800)}`)
  return match[1]
}
