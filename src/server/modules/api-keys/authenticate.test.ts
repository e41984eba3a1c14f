import { describe, expect, it } from "vitest";
import { isAppError } from "@/server/errors/app-error";
import { bearerToken } from "./authenticate";

const token = "gw_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

function codeOf(header: string | null): string | undefined {
  try {
    bearerToken(header);
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.code : "not an AppError";
  }
}

describe("bearerToken", () => {
  it("matches the scheme case-insensitively and tolerates surrounding whitespace (RFC 7235)", () => {
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `  Bearer   ${token}  `, `Bearer\t${token}`]) {
      expect(bearerToken(header), JSON.stringify(header)).toBe(token);
    }
  });

  it("refuses other schemes, missing tokens and malformed tokens with 401", () => {
    for (const header of [null, "", "Basic abc", "Bearer", "Bearer ", `Bearer${token}`, `Bearer ${token} extra`, `Token ${token}`]) {
      expect(codeOf(header), JSON.stringify(header)).toBe("unauthorized");
    }
  });

  it("answers two Authorization headers (joined by a comma) with 400", () => {
    expect(codeOf(`Bearer ${token}, Bearer ${token}`)).toBe("bad_request");
  });
});
