export {
  encodeBase64url,
  decodeBase64urlStrict,
  decodeJsonSegment,
  parseJsonObject,
  utf8,
} from "./base64url.ts";
export { toHex, fromHex, ED25519_PUBLIC_KEY_HEX } from "./hex.ts";
export {
  formatLicenseKey,
  normalizeLicenseKey,
  isLicenseKey,
  isLicenseKeyPrefix,
  LICENSE_KEY_PATTERN,
  LICENSE_KEY_PREFIX,
  LICENSE_KEY_RANDOM_BYTES,
} from "./license-key.ts";
export {
  FINGERPRINT_MATCH_MODES,
  MATCH_THRESHOLDS,
  HW_BINDING_MODES,
  SEAT_MODELS,
  REVOCATION_MODES,
  type FingerprintMatchMode,
  type RevocationMode,
  type HwBindingMode,
  type LeaseTokenPayload,
  type MarkerPayload,
  type SeatModel,
  type TokenClaims,
  type TokenConfig,
  type TokenHeader,
} from "./claims.ts";
export {
  TokenClaimsSchema,
  TokenConfigSchema,
  TokenHeaderSchema,
  encodeTokenSigningInput,
  parseToken,
  type ParsedToken,
  type TokenParseFailure,
} from "./token.ts";
export {
  MarkerPayloadSchema,
  encodeMarkerBody,
  parseMarker,
  type MarkerParseFailure,
  type ParsedMarker,
} from "./marker.ts";
export {
  LeaseTokenPayloadSchema,
  encodeLeaseTokenBody,
  parseLeaseToken,
  type ParsedLeaseToken,
} from "./lease-token.ts";
export { decodeLeaseToken, decodeMarker, decodeToken } from "./decode.ts";
export {
  SIGNATURE_HEADERS,
  SIGNATURE_WINDOW_SECONDS,
  TIMESTAMP_PATTERN,
  formatSignatureHeader,
  parseSignatureHeader,
  signingStringV1,
  signingStringV2,
  type SignatureVersion,
  type SigningParts,
} from "./signing.ts";
export {
  COMPONENT_HASH_PATTERN,
  COMPONENT_KIND_PATTERN,
  COMPONENT_KINDS,
  MAX_COMPONENTS,
  componentHashInput,
  type FingerprintComponent,
} from "./components.ts";
// Air-gapped activation's formats are the `@licensing/protocol/offline` subpath (decision 0051).
export {
  DOCUMENT_TYPES,
  decodeDocument,
  encodeDocumentSigningInput,
  type DecodedDocument,
  type DocumentHeader,
  type DocumentType,
} from "./signed-document.ts";
export {
  decodeCertificate,
  encodeCertificateSigningInput,
  type CertificatePayload,
  type DecodedCertificate,
} from "./certificate.ts";
export {
  REVOCATION_LIST_PAGE_SIZE,
  decodeRevocation,
  decodeRevocationList,
  encodeRevocationListSigningInput,
  encodeRevocationSigningInput,
  type DecodedRevocation,
  type DecodedRevocationList,
  type RevocationListPayload,
  type RevocationPayload,
  type RevokedLicense,
} from "./revocation.ts";
