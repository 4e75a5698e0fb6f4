/**
 * The payload of a JWT as JSON, unchecked (null when it is not readable). Its claims are the
 * caller's to check: session-claims.ts with the contract's schema, the early calls' script
 * (src/boot/early-calls.ts) only for the expiry. The signature is the server's business.
 */
export function jwtPayload(jwt: string): unknown {
  const part = jwt.split('.')[1]
  if (!part) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return parsed
  } catch {
    return null
  }
}
