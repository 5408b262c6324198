import { describe, expect, it } from "vitest";
import {
  budgetResetConsequences,
  describeLimit,
  deviceTermsRequest,
  type DeviceTerms,
} from "./device-terms.ts";

const template: DeviceTerms = {
  fingerprintMatch: "template",
  deviceLimit: "template",
  maxNewDevices: "",
  windowDays: "",
};

describe("the issue forms' device terms, as the request carries them", () => {
  it("leaves the limit out for the template's, and sends null for the others", () => {
    const request = deviceTermsRequest(template);
    expect(request).toEqual({ fingerprintMatch: null, newDeviceWindowDays: null });
    expect(request).not.toHaveProperty("maxNewDevicesPerWindow");
  });

  it("sends null for no limit: not the template's", () => {
    expect(deviceTermsRequest({ ...template, deviceLimit: "none", maxNewDevices: 4 })).toEqual({
      fingerprintMatch: null,
      newDeviceWindowDays: null,
      maxNewDevicesPerWindow: null,
    });
  });

  it("sends a limit of its own, the mode and the window", () => {
    expect(
      deviceTermsRequest({
        fingerprintMatch: "strict",
        deviceLimit: "limit",
        maxNewDevices: 2,
        windowDays: 7,
      }),
    ).toEqual({ fingerprintMatch: "strict", newDeviceWindowDays: 7, maxNewDevicesPerWindow: 2 });
  });
});

describe("the device budget in words", () => {
  it("names the limit, or its absence", () => {
    expect(describeLimit(1, 30)).toBe("1 new device per 30 days");
    expect(describeLimit(3, 7)).toBe("3 new devices per 7 days");
    expect(describeLimit(null, 30)).toBe("No limit");
  });

  it("says what a reset does with the license's numbers", () => {
    expect(budgetResetConsequences({ used: 1, max: 3, windowDays: 30, resetsAt: null })).toMatch(
      /^The 1 new device counted in the last 30 days stops counting\. New machines may activate again at once, up to 3 new devices in the next 30 days\. No machine is deactivated/,
    );
    expect(budgetResetConsequences({ used: 2, max: null, windowDays: 30, resetsAt: null })).toContain(
      "The license has no limit",
    );
  });
});
