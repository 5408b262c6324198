import vector from "@licensing/protocol/vectors/offline.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { blockKind, peekReceipt, peekRequest } from "./offline-blocks.ts";

// The protocol's golden vectors are the format's one definition: this reading of it must agree.
describe("reading a pasted block for the preview", () => {
  it("reads the golden request: license, machine, fingerprint, component kinds and its time", () => {
    const { payload } = vector.request;
    expect(peekRequest(vector.request.text)).toEqual({
      ok: true,
      value: {
        licenseId: payload.lid,
        fingerprint: payload.fp,
        componentKinds: payload.components.map((c) => c.kind),
        machineName: payload.machineName,
        madeAt: payload.iat * 1000,
      },
    });
  });

  it("reads the golden receipt: license, activation and its time", () => {
    const { payload } = vector.receipt;
    expect(peekReceipt(vector.receipt.text)).toEqual({
      ok: true,
      value: { licenseId: payload.lid, activationId: payload.aid, madeAt: payload.iat * 1000 },
    });
  });

  it("finds the block in a mail, with CRLF and indentation", () => {
    const mail = `Hello,\r\n\r\nhere it is:\r\n${vector.request.text
      .split("\n")
      .map((line) => `    ${line}`)
      .join("\r\n")}\r\nRegards`;
    expect(peekRequest(mail)).toMatchObject({ ok: true, value: { machineName: "build-box" } });
  });

  it("names the block pasted in the wrong place", () => {
    expect(blockKind(vector.response.text)).toBe("response");
    expect(peekRequest(vector.receipt.text)).toEqual({
      ok: false,
      problem: "This is a deactivation receipt, not an activation request.",
    });
    expect(peekReceipt(vector.request.text)).toEqual({
      ok: false,
      problem: "This is an activation request, not a deactivation receipt.",
    });
    expect(peekRequest(vector.response.text)).toMatchObject({
      ok: false,
      problem: expect.stringContaining("an activation response"),
    });
  });

  it("says so when there is no block, or when it was cut", () => {
    expect(peekRequest("hello")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("No -----BEGIN LICENSE ACTIVATION REQUEST-----"),
    });
    const cut = vector.request.text.replace(/\n(.{10})/, "\n");
    expect(peekRequest(cut)).toMatchObject({ ok: false, problem: expect.stringContaining("cut or changed") });
    expect(peekRequest(vector.request.text + vector.request.text)).toMatchObject({ ok: false });
  });
});
