import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { meOutput } from "./me.types";

/** Who is signed in, with roles read from the database just now. */
export const meProcedure = sessionProcedure.output(meOutput).query(({ ctx }) => ctx.viewer);
