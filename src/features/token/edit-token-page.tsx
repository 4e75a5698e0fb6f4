import { getToken, updateToken } from '#contract/token'
import { number, text } from '#src/crud/form-fields.ts'
import { defineRecordForm } from '#src/crud/record-form.tsx'

/**
 * Edit Token (/edit-token): the one token record, read and saved in place (both calls are ours:
 * the spec's screen saves nothing). The price is typed as text so that it is sent, checked and
 * stored as the exact decimal typed, never rounded through a float.
 */
export const EditTokenPage = defineRecordForm({
  title: 'Edit Token',
  read: getToken,
  readInput: {},
  pick: (answer) => answer.data,
  save: updateToken,
  fields: [
    text('tokenName', 'Token Name'),
    text('price', 'Price', { placeholder: '0.00' }),
    text('productId', 'Product ID'),
    number('ticketCount', 'Ticket Count'),
  ],
  values: (t) => ({ tokenName: t.tokenName, price: t.price, productId: t.productId, ticketCount: String(t.ticketCount), version: t.version }),
})
