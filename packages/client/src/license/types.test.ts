import type * as protocol from "@licensing/protocol";
import { describe, expectTypeOf, it } from "vitest";
import type { MarkerPayload, ParsedToken, TokenClaims, TokenConfig, TokenHeader } from "./types.ts";

describe("published types", () => {
  it("are the protocol's types, written out", () => {
    expectTypeOf<TokenClaims>().toEqualTypeOf<protocol.TokenClaims>();
    expectTypeOf<TokenConfig>().toEqualTypeOf<protocol.TokenConfig>();
    expectTypeOf<TokenHeader>().toEqualTypeOf<protocol.TokenHeader>();
    expectTypeOf<MarkerPayload>().toEqualTypeOf<protocol.MarkerPayload>();
    expectTypeOf<ParsedToken>().toEqualTypeOf<protocol.ParsedToken>();
  });
});
