/** The contract-wide fuzz (fuzz.ts) for the callers of its shard 'admin'. */
import { describeFuzz } from './fuzz.ts'

describeFuzz('admin')
