import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fromZod } from "./zod-issues";

const failure = <T>(schema: z.ZodType<T>, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failure");
  return parsed.error;
};

describe("fromZod: every validation failure as the one 400", () => {
  it("names every offending field, in the message and in details.issues, not only the first", () => {
    const schema = z.object({ name: z.string().min(1, "must not be empty"), remind: z.number().min(5, "at least 5 minutes") });
    const error = fromZod(failure(schema, { name: "", remind: 1 }), { subject: "rule" });
    expect(error).toMatchObject({ code: "bad_request", message: "Invalid rule. name: must not be empty; remind: at least 5 minutes" });
    expect(error.details).toEqual({
      issues: [
        { field: "name", message: "must not be empty" },
        { field: "remind", message: "at least 5 minutes" },
      ],
    });
  });

  it("files an issue about the input as a whole under the root it is given", () => {
    expect(fromZod(failure(z.string().min(1, "must not be empty"), ""), { subject: "form", root: "name" }).message).toBe(
      "Invalid form. name: must not be empty",
    );
  });

  it("reads as the API's own 400 by default: `Invalid request.` and `(body)`", () => {
    expect(fromZod(failure(z.object({ n: z.string() }).strict(), 5)).message).toMatch(/^Invalid request\. \(body\): /);
  });
});
