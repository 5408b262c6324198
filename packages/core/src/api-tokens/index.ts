export { listApiTokens, createApiToken, revokeApiToken, toApiTokenResponse } from "./api-tokens.ts";
