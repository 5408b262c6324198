import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type { LeaseTokenPayload, MarkerPayload, TokenClaims, TokenConfig, TokenHeader } from "./claims.ts";
import type { LeaseTokenPayloadSchema } from "./lease-token.ts";
import type { MarkerPayloadSchema } from "./marker.ts";
import type { TokenClaimsSchema, TokenConfigSchema, TokenHeaderSchema } from "./token.ts";

describe("the claim types", () => {
  it("are what the schemas accept, exactly", () => {
    expectTypeOf<z.infer<typeof TokenClaimsSchema>>().toEqualTypeOf<TokenClaims>();
    expectTypeOf<z.infer<typeof TokenConfigSchema>>().toEqualTypeOf<TokenConfig>();
    expectTypeOf<z.infer<typeof TokenHeaderSchema>>().toEqualTypeOf<TokenHeader>();
    expectTypeOf<z.infer<typeof MarkerPayloadSchema>>().toEqualTypeOf<MarkerPayload>();
    expectTypeOf<z.infer<typeof LeaseTokenPayloadSchema>>().toEqualTypeOf<LeaseTokenPayload>();
  });
});
