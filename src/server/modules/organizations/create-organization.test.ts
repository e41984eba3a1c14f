import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { describe, expect, it } from "vitest";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { createForm } from "@/server/modules/forms/create-form";
import { createOrganization } from "./create-organization";

// Never reached: an invalid name is refused before the database is asked anything.
const unreachableDb = new Proxy(
  {},
  {
    get: () => {
      throw new Error("the database was used");
    },
  },
) as Db;

describe("names given to the CLI and other callers", () => {
  it("refuses an empty or too long organization or form name with a one-line bad_request naming it", async () => {
    for (const create of [
      (name: string) => createOrganization(unreachableDb, CLI_OPERATOR, name),
      (name: string) => createForm(unreachableDb, CLI_OPERATOR, "org-id", name),
    ]) {
      for (const name of ["   ", "x".repeat(201)]) {
        const error = await create(name).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("bad_request");
        expect((error as AppError).message).toMatch(/^Invalid (organization|form)\. name: must/);
        expect((error as AppError).message).not.toContain("\n");
      }
    }
  });
});
