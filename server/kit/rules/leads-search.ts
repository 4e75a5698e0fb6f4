/**
 * The leads' search, used by the leads list and by the two that pick leads to write to
 * (promotions and the newsletter), so the three find the same people for the same words.
 */
import { sql, type SQL } from 'drizzle-orm'
import { leads } from '../../db/schema.ts'
import { containsPattern } from '../request/paging.ts'

/**
 * The search condition over name, email and wallet address. The expression is exactly the one
 * indexed by leads_search_trgm_idx (schema.ts), so PostgreSQL answers it from the trigram index.
 */
export function leadSearch(term: string): SQL | undefined {
  if (term === '') return undefined
  return sql`lower(${leads.name} || ' ' || ${leads.email} || ' ' || ${leads.walletaddress}) like ${containsPattern(term)}`
}
