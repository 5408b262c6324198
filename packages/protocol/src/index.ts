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
  LICENSE_KEY_PATTERN,
  LICENSE_KEY_PREFIX,
  LICENSE_KEY_RANDOM_BYTES,
} from "./license-key.ts";
export {
  HW_BINDING_MODES,
  TokenClaims,
  TokenConfig,
  TokenHeader,
  encodeTokenSigningInput,
  parseToken,
  type HwBindingMode,
  type ParsedToken,
  type TokenParseFailure,
} from "./token.ts";
export {
  MarkerPayload,
  encodeMarkerBody,
  parseMarker,
  type MarkerParseFailure,
  type ParsedMarker,
} from "./marker.ts";
export { decodeMarker, decodeToken } from "./decode.ts";
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
