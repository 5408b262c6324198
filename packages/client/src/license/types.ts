/**
 * The token and marker types as the package publishes them: the protocol's, which declares them once for
 * the server and the SDK. They are plain types (no zod), and the build writes them into the package's
 * declarations (`dts.resolve` in build.mjs), so those need no workspace package.
 */
export type {
  FingerprintComponent,
  FingerprintMatchMode,
  HwBindingMode,
  MarkerPayload,
  ParsedToken,
  TokenClaims,
  TokenConfig,
  TokenHeader,
} from "@licensing/protocol";
