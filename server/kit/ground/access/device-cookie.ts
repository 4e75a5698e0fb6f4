/**
 * The device cookie the new-device mail keys on (`bo_device`): a long-lived random id the browser
 * keeps, set at every sign-in (httpOnly, SameSite=Lax, Secure when the call came over https, only
 * sent to the API). A device is "known" to an account when one of its earlier sign-ins carried the
 * same id; the account's devices are kept as a hash of it, never the id itself. Unlike the
 * User-Agent, which anyone can copy, the id is only in the browser that signed in. What it cannot
 * see is said in docs/security.md: a cookie copied together with the session, from the browser's
 * store, looks like the owner's device.
 */
import { createHash, randomBytes } from 'node:crypto'

export const DEVICE_COOKIE = 'bo_device'
/** 400 days: the longest a browser keeps a cookie; each sign-in renews it. */
export const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 3600
/** Only sign-in calls read it. */
export const DEVICE_COOKIE_PATH = '/api/admin'
const ID = /^[A-Za-z0-9_-]{43}$/
/** How an account's devices are stored (admin_devices.device): the prefix tells them from older rows. */
const KEY_PREFIX = 'cookie:'

/** The device id the call carried when it is one of ours, else a new one for the browser to keep. */
export function deviceIdOf(sent: string | undefined): { id: string; fresh: boolean } {
  if (sent !== undefined && ID.test(sent)) return { id: sent, fresh: false }
  return { id: randomBytes(32).toString('base64url'), fresh: true }
}

/** What admin_devices keeps of a device id. */
export const deviceKey = (id: string): string => `${KEY_PREFIX}${createHash('sha256').update(id).digest('base64url')}`

/** Rows recorded by a device id (older rows named a User-Agent summary and no longer count). */
export const DEVICE_KEY_PATTERN = `${KEY_PREFIX}%`

/** The Set-Cookie header that gives (or renews) the browser its device id. */
export function deviceCookieHeader(id: string, secure: boolean): string {
  return [`${DEVICE_COOKIE}=${id}`, `Max-Age=${DEVICE_COOKIE_MAX_AGE}`, `Path=${DEVICE_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ')
}

/** A cookie's value from a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const equals = part.indexOf('=')
    if (equals !== -1 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim()
  }
  return undefined
}
