import { getToken as getTicketProduct, updateToken as updateTicketProduct } from '#contract/ticket-product'
import { TOKEN_CURRENCIES } from '#contract/ticket-product'
import { number, select, text } from '#src/crud/form/form-fields.ts'
import { defineRecordForm } from '#src/crud/record/record-form.tsx'

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
  description: 'The ticket product users buy in the apps. A change here reaches every user at once, so Update shows each change and asks before saving.',
  confirmChanges: 'Update the token with these changes?',
  fields: [
    text('tokenName', 'Token Name', { hint: 'The name users see on the ticket product, up to 100 characters.' }),
    text('price', 'Price', { placeholder: '0.00', hint: 'What one purchase costs users, in the currency below: a number of 0 or more, up to 10 decimals, kept exactly as typed.' }),
    select('currency', 'Currency', TOKEN_CURRENCIES.map((c) => ({ value: c, label: c })), { hint: 'What the price above is counted in. Changing it changes what users pay as much as changing the price.' }),
    text('productId', 'Product ID', { hint: 'The product’s id in the app stores; purchases of another id are not this product.' }),
    number('ticketCount', 'Ticket Count', { hint: 'How many tickets one purchase gives: a whole number of 0 or more.' }),
  ],
  values: (product) => ({
    tokenName: product.tokenName,
    price: product.price,
    currency: product.currency,
    productId: product.productId,
    ticketCount: String(product.ticketCount),
    version: product.version,
  }),
})
