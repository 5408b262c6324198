import vector from "@licensing/protocol/vectors/revocation.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { fetchRevocationLists, listFileName, readPage, RevocationListError } from "./revocation-list.ts";

const TEMPLATE = vector.listPayload.tid;

/** A list whose payload is `payload` (the signature is not read by the panel). */
const listOf = (payload: object) =>
  `${vector.list.split(".")[0]}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.sig`;

/** The network, answering each request from `pages` by its cursor ("" for the first). */
function serve(pages: Record<string, object>) {
  const asked: string[] = [];
  const get = (async (url: string) => {
    const query = new URL(url, "http://admin.test").searchParams;
    asked.push(query.toString());
    const payload = pages[query.get("cursor") ?? ""];
    return payload
      ? Response.json({ list: listOf(payload) })
      : Response.json({ code: "request.invalid", message: "Bad cursor", status: 400 }, { status: 400 });
  }) as typeof fetch;
  return { get, asked };
}

const page = (lids: string[], next: string | null) => ({
  ...vector.listPayload,
  revoked: lids.map((lid) => ({ lid, revokedAt: 1791100000 })),
  next,
});

// The protocol's golden vectors are the format's one definition: this reading of it must agree.
describe("the revocation list as the template page fetches it", () => {
  it("reads the golden list: how many licenses it names and its cursor", () => {
    expect(readPage(vector.list)).toEqual({
      list: vector.list,
      count: vector.listPayload.revoked.length,
      next: vector.listPayload.next,
    });
    expect(readPage("not.a-list!.x")).toBeNull();
  });

  it("follows the cursor inside the signed payload until the last page", async () => {
    const { get, asked } = serve({ "": page(["a", "b"], "c1"), c1: page(["c"], null) });
    const pages = await fetchRevocationLists(TEMPLATE, "2026-01-01T00:00:00.000Z", get);
    expect(pages.map((p) => [p.count, p.next])).toEqual([
      [2, "c1"],
      [1, null],
    ]);
    expect(asked).toEqual([
      `templateId=${TEMPLATE}&since=2026-01-01T00%3A00%3A00.000Z`,
      `templateId=${TEMPLATE}&since=2026-01-01T00%3A00%3A00.000Z&cursor=c1`,
    ]);
    expect(pages.map((_, i) => listFileName("EDITOR", i, pages.length))).toEqual([
      "EDITOR-revocations-1-of-2.txt",
      "EDITOR-revocations-2-of-2.txt",
    ]);
    expect(listFileName("EDITOR", 0, 1)).toBe("EDITOR-revocations.txt");
  });

  it("says the server's refusal in its words, and stops on a cursor that repeats", async () => {
    await expect(fetchRevocationLists(TEMPLATE, null, serve({}).get)).rejects.toThrow(
      new RevocationListError("Bad cursor (request.invalid)"),
    );
    const loop = serve({ "": page(["a"], "c1"), c1: page(["b"], "c1") });
    await expect(fetchRevocationLists(TEMPLATE, null, loop.get)).rejects.toThrow(/same page twice/);
  });
});
