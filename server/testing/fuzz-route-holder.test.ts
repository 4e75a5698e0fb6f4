/** The contract-wide fuzz (fuzz.ts) for the callers of its shard 'route-holder'. */
import { describeFuzz } from './fuzz.ts'

describeFuzz('route-holder')
