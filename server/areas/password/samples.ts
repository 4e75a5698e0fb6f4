/**
 * The password area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as password from '#contract/password'
import { defineSamples, unique, NEW_PASSWORD, SUPERADMIN_EMAIL, TEST_PASSWORD } from '../../testing/sample-kit.ts'

export const samples = defineSamples([password], {
  sendMail: () => ({ json: {} }),
  changePassword: () => ({ json: { otp: '123456', oldPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: SUPERADMIN_EMAIL } }),
  ForgotSendMail: () => ({ json: { email: `someone-${unique()}@example.com` } }),
  forgotPassword: () => ({ json: { otp: '123456', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: `someone-${unique()}@example.com` } }),
})
