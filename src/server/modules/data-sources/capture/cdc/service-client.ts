import type pg from "pg";
import { newRawConnection } from "@/server/db/client";
import type { PrismaClient } from "@/server/db/types";

/** Runs fn on a fresh connection to the service's own database (the apply and state writes need raw SQL). */
export async function withServiceClient<T>(db: PrismaClient, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = newRawConnection(db, { application_name: "groundwork-cdc-apply" });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
