/**
 * Outgoing mail. Every message is first written to the mail_outbox table (inside the caller's
 * transaction, so a rolled-back change sends nothing); after commit it goes out over SMTP when
 * SMTP_URL is set, or is printed to the server log so a newcomer can still read an OTP.
 */
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import { mailOutbox } from '../db/schema.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
}

export class Mailer {
  readonly #transport: Transporter | null
  readonly #from: string

  constructor(
    config: Config,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#transport = config.smtpUrl === null ? null : nodemailer.createTransport(config.smtpUrl)
    this.#from = config.supportEmail
  }

  /** Writes the message to the outbox with `db` (a transaction or the database); returns its id. */
  async enqueue(db: Db, message: MailMessage): Promise<string> {
    const [row] = await db
      .insert(mailOutbox)
      .values({ to: message.to, subject: message.subject, text: message.text, html: message.html ?? null })
      .returning({ id: mailOutbox.id })
    if (row === undefined) throw new Error('mail_outbox insert returned no row')
    return row.id
  }

  /** Sends one outbox message (or logs it without SMTP) and records the outcome; never throws. */
  async deliver(id: string): Promise<void> {
    const [mail] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1)
    if (mail === undefined || mail.sentAt !== null) return
    if (this.#transport === null) {
      this.log.info({ mailTo: mail.to, subject: mail.subject }, `Mail (no SMTP_URL set, kept in the outbox):\n${mail.text}`)
      await this.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, id))
      return
    }
    try {
      await this.#transport.sendMail({ from: this.#from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html === null ? {} : { html: mail.html }) })
      await this.db.update(mailOutbox).set({ sentAt: new Date(), error: null }).where(eq(mailOutbox.id, id))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.log.error({ mailTo: mail.to, err: error }, 'Mail could not be sent')
      await this.db.update(mailOutbox).set({ error: message }).where(eq(mailOutbox.id, id))
    }
  }

  close(): void {
    this.#transport?.close()
  }
}
