/** The contract-wide fuzz (fuzz.ts) for the callers of its shard 'superadmin'. */
import { describeFuzz } from './fuzz.ts'

describeFuzz('superadmin')
