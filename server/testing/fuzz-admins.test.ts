/** The contract-wide fuzz (fuzz.ts) for the callers of its shard 'admins'. */
import { describeFuzz } from './fuzz.ts'

describeFuzz('admins')
