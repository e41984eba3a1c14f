import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireInstanceRead } from "@/server/modules/access/viewer";
import { listUsers } from "@/server/modules/users/list-users";
import { iso } from "../iso";
import { listUsersOutput } from "./list-users.types";

const listUsersInput = z.object({ limit: z.number().int().min(1).max(100).default(50), cursor: z.string().min(1).max(2000).optional() }).default({ limit: 50 });

/** Accounts by email, paged by cursor, for instance owners and support. */
export const listUsersProcedure = sessionProcedure
  .input(listUsersInput)
  .output(listUsersOutput)
  .query(async ({ ctx, input }) => {
    requireInstanceRead(ctx.viewer);
    const page = await listUsers(ctx.db, { limit: input.limit, cursor: input.cursor });
    return { items: page.items.map((user) => ({ ...user, createdAt: iso(user.createdAt) })), nextCursor: page.meta.next_cursor };
  });
