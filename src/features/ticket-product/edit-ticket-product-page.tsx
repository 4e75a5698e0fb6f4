import { getToken as getTicketProduct, updateToken as updateTicketProduct } from '#contract/ticket-product'
import { number, text } from '#src/crud/form-fields.ts'
import { defineRecordForm } from '#src/crud/record-form.tsx'

/**
 * Edit Token (/edit-token): the one ticket product record, read and saved in place (both calls
 * are ours: the screen of requirements R2.16 saves nothing). The requirements and the contract call the product a
 * "token"; here it is the ticket product, so it is never read as the session's token. The price
 * is typed as text so that it is sent, checked and stored as the exact decimal typed, never
 * rounded through a float.
 */
export const EditTicketProductPage = defineRecordForm({
  title: 'Edit Token',
  read: getTicketProduct,
  readInput: {},
  pick: (answer) => answer.data,
  save: updateTicketProduct,
  fields: [
    text('tokenName', 'Token Name'),
    text('price', 'Price', { placeholder: '0.00' }),
    text('productId', 'Product ID'),
    number('ticketCount', 'Ticket Count'),
  ],
  values: (product) => ({
    tokenName: product.tokenName,
    price: product.price,
    productId: product.productId,
    ticketCount: String(product.ticketCount),
    version: product.version,
  }),
})
