/**
 * `@licensing/client/offline`: air-gapped activation's side of the machine (decision 0050), the request and
 * receipt it writes and the certificate it checks. `LicenseClientCore`'s offline methods load it with
 * `import()` the first time one is called (or a cached certificate is read), so a program that never
 * activates offline does not load it at start-up (decision 0051).
 */
export {
  checkCertificate,
  newNonce,
  offlineReceiptText,
  offlineRequestText,
  type CertificateProblem,
  type TrustedCertificate,
} from "./license/offline-certificate.ts";
