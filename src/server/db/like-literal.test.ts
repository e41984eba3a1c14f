import { describe, expect, it } from "vitest";
import { likeLiteral } from "./like-literal";

describe("likeLiteral", () => {
  it("escapes LIKE's wildcards and its escape character, and nothing else", () => {
    expect(likeLiteral("100%")).toBe("100\\%");
    expect(likeLiteral("a_b")).toBe("a\\_b");
    expect(likeLiteral("C:\\temp")).toBe("C:\\\\temp");
    expect(likeLiteral("%_\\%")).toBe("\\%\\_\\\\\\%");
    expect(likeLiteral("Zoë's [water] (board) *.^$")).toBe("Zoë's [water] (board) *.^$");
  });
});
