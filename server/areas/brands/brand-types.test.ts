import { expect, it } from 'vitest'
import { providers } from '#contract/common'
import { brands } from '../../db/schema.ts'

/**
 * The brand types are the contract's provider list (contract/common.ts), which the forms, the
 * filters and the validation all read; the database's column enum is the one copy the schema
 * must keep by itself, so it is checked against that list here.
 */
it('the brand type column allows exactly the contract providers', () => {
  expect([...brands.type.enumValues].sort()).toEqual([...providers].sort())
})
