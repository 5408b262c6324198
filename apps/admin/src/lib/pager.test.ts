import { describe, expect, it } from "vitest";
import { formatTotal } from "./pager.tsx";

describe("formatTotal", () => {
  it('says "about" exactly where the server says the total is an estimate', () => {
    expect(formatTotal(1_000, false)).toBe("1,000");
    expect(formatTotal(1_500)).toBe("1,500");
    expect(formatTotal(83_412, true)).toBe("about 83,412");
    expect(formatTotal(1_001, true)).toBe("about 1,001");
  });
});
