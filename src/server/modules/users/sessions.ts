import type { Db } from "@/server/db/types";

/** A new dashboard session row (D170); the JWT carries its id and the user's version. */
export async function openSession(db: Db, input: { userId: string; version: number; address: string | null; maxAgeSeconds: number }): Promise<string> {
  const session = await db.dashboardSession.create({
    data: {
      userId: input.userId,
      version: input.version,
      address: input.address,
      expiresAt: new Date(Date.now() + input.maxAgeSeconds * 1000),
    },
    select: { id: true },
  });
  return session.id;
}

/** Sign-out: this one session ends now; a copy of its cookie is refused from the next request. */
export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.dashboardSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: new Date() } });
}

/**
 * Ends every session of a user (disable, password reset or change, sign out everywhere): the
 * version goes up, so even a session row missed here no longer matches. Inside the caller's
 * transaction. Returns how many open sessions were ended.
 */
export async function endAllSessions(db: Db, userId: string): Promise<number> {
  await db.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  const ended = await db.dashboardSession.updateMany({ where: { userId, endedAt: null }, data: { endedAt: new Date() } });
  return ended.count;
}

/** Open, unexpired sessions per user, for the users page. */
export async function openSessionCounts(db: Db, userIds: string[]): Promise<Map<string, number>> {
  const rows = await db.dashboardSession.groupBy({
    by: ["userId"],
    where: { userId: { in: userIds }, endedAt: null, expiresAt: { gt: new Date() } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.userId, row._count._all]));
}
