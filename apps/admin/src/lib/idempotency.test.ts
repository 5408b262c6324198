import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { idempotencyKeys } from "./idempotency.ts";

/** A store whose keys are `k1`, `k2`…, and a call that records its key and answers as told. */
function setUp() {
  let n = 0;
  const keys = idempotencyKeys(() => `k${++n}`);
  const sent: string[] = [];
  const send = (input: unknown, outcome: "ok" | Error = "ok") =>
    keys
      .send(input, async (key) => {
        sent.push(key);
        if (outcome !== "ok") throw outcome;
        return key;
      })
      .catch(() => undefined);
  return { send, sent };
}

const answer = (httpStatus: number) =>
  TRPCClientError.from({ error: { message: "refused", code: -32600, data: { httpStatus, appCode: null } } });
const noAnswer = () => TRPCClientError.from(new TypeError("fetch failed"));

describe("idempotency keys", () => {
  it("reuses the key when the same input is sent again after no answer or a 5xx", async () => {
    const { send, sent } = setUp();
    await send({ companyId: "a" }, noAnswer());
    await send({ companyId: "a" }, answer(503));
    await send({ companyId: "a" });
    expect(sent).toEqual(["k1", "k1", "k1"]);
  });

  it("takes a new key after a success, after a refusal (4xx), and for another input", async () => {
    const { send, sent } = setUp();
    await send({ companyId: "a" });
    await send({ companyId: "a" }, answer(409));
    await send({ companyId: "a" }, noAnswer());
    await send({ companyId: "b" });
    await send({ companyId: "a" });
    await send({ companyId: "a" });
    expect(sent).toEqual(["k1", "k2", "k3", "k4", "k3", "k5"]);
  });

  it("counts an input as the same whatever the order of its keys", async () => {
    const { send, sent } = setUp();
    await send({ companyId: "a", terms: { days: 1, trial: true } }, noAnswer());
    await send({ terms: { trial: true, days: 1 }, companyId: "a" });
    expect(sent).toEqual(["k1", "k1"]);
  });

  it("gives two sends of the same input at once (a double click) one key", async () => {
    const { send, sent } = setUp();
    await Promise.all([send({ companyId: "a" }), send({ companyId: "a" })]);
    expect(sent).toEqual(["k1", "k1"]);
  });

  it("makes keys the server accepts, each new", () => {
    const keys = idempotencyKeys();
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++)
      void keys.send({ i }, async (key) => {
        expect(key).toMatch(/^[0-9a-f]{32}$/);
        seen.add(key);
      });
    expect(seen.size).toBe(3);
  });
});
