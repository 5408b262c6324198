import { operations } from "@licensing/api";
import { errorCatalogue, type ActivateResponse, type ErrorCode } from "@licensing/contracts";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ClientStatusDetails } from "../client/options.ts";
import {
  CLIENT_ERROR_CODES,
  LIBRARY_ERROR_CODES,
  SERVER_ERROR_CODES,
  type ClientErrorCode,
} from "./error-codes.ts";
import type { Activation } from "./server-api.ts";

describe("the error codes the client can meet", () => {
  it("are the client operations' declared errors and those every request can meet, all in the catalogue", () => {
    const declared = Object.values(operations.client).flatMap((o) => [...(o.errors ?? [])]);
    // Bad input, an HTTP parser's refusal, a wrong path, the rate limit, a failure, a lost database; not
    // the panel's bulk limit.
    const anyRequest = (Object.keys(errorCatalogue) as ErrorCode[]).filter(
      (code) =>
        (code.startsWith("request.") && code !== "request.batch_too_large") ||
        ["route.not_found", "rate_limit.exceeded", "internal", "database.unavailable"].includes(code),
    );
    expect([...SERVER_ERROR_CODES].sort()).toEqual([...new Set([...declared, ...anyRequest])].sort());
    for (const code of SERVER_ERROR_CODES) expect(errorCatalogue, code).toHaveProperty([code]);
    for (const code of LIBRARY_ERROR_CODES) expect(errorCatalogue, code).not.toHaveProperty([code]);
    expect(new Set(CLIENT_ERROR_CODES).size).toBe(CLIENT_ERROR_CODES.length);
  });

  it("type lastError.code, and the answers the client reads are the API's", () => {
    expectTypeOf<(typeof SERVER_ERROR_CODES)[number]>().toExtend<ErrorCode>();
    expectTypeOf<Activation>().toEqualTypeOf<ActivateResponse>();
    expectTypeOf<NonNullable<ClientStatusDetails["lastError"]>["code"]>().toEqualTypeOf<ClientErrorCode>();
    expectTypeOf<"activation.seat_limit_reached">().toExtend<ClientErrorCode>();
    expectTypeOf<"http.502">().toExtend<ClientErrorCode>();
    expectTypeOf<"seat_limit">().not.toExtend<ClientErrorCode>();
  });
});
