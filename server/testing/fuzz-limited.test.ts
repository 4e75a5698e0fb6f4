/** The contract-wide fuzz (fuzz.ts) for the callers of its shard 'limited'. */
import { describeFuzz } from './fuzz.ts'

describeFuzz('limited')
