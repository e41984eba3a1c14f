import type { PrismaClient } from "@/server/db/generated/client";
import { inviteMember } from "@/server/modules/memberships/invitations";
import { createUser } from "@/server/modules/users/create-user";
import { openSession } from "@/server/modules/users/sessions";
import { createDashboardCaller } from "./root";

// The fixtures of audit-completeness.integration.test.ts (D202): how to call each dashboard
// mutation once, successfully. Whatever a fixture sets up through the router is audited before
// the test starts counting, so only the mutation under test is counted.

export type Caller = ReturnType<typeof createDashboardCaller>;

export interface World {
  db: PrismaClient;
  /** An instance owner, signed in; every mutation is called as this user unless a fixture says otherwise. */
  owner: Caller;
  orgId: string;
  userId: string;
}

/** A mutation called as another signed-in user (the viewer.* ones act on the caller's own account). */
export class AsUser {
  constructor(
    readonly caller: Caller,
    readonly userId: string,
    readonly input: unknown,
  ) {}
}

/** How to call each mutation once, successfully: returns its input (called as the owner), or an AsUser. */
export const fixtures: Record<string, (w: World) => Promise<unknown>> = {
  "organizations.create": async () => ({ name: `Org ${Math.random()}` }),
  "organizations.delete": async (w) => {
    const org = await w.owner.organizations.create({ name: `Doomed ${Math.random()}` });
    return { organizationId: org.id, confirmName: org.name };
  },
  "keys.mint": async (w) => mintInput(w.orgId),
  "keys.revoke": async (w) => ({ keyId: (await w.owner.keys.mint(mintInput(w.orgId))).key.id, organizationId: w.orgId }),
  "keys.scheduleRevocation": async (w) => ({ keyId: (await w.owner.keys.mint(mintInput(w.orgId))).key.id, organizationId: w.orgId, when: { in: "24h" } }),
  "keys.cancelRevocation": async (w) => {
    const keyId = (await w.owner.keys.mint(mintInput(w.orgId))).key.id;
    await w.owner.keys.scheduleRevocation({ keyId, organizationId: w.orgId, when: { in: "1h" } });
    return { keyId, organizationId: w.orgId };
  },
  "members.add": async (w) => {
    const user = await w.db.user.create({ data: { email: `m-${Math.random()}@x.test`, passwordHash: "x" } });
    return { organizationId: w.orgId, email: user.email, role: "member" };
  },
  "members.setRole": async (w) => ({ organizationId: w.orgId, userId: (await newUser(w, w.orgId)).id, role: "admin" }),
  "members.remove": async (w) => ({ organizationId: w.orgId, userId: (await newUser(w, w.orgId)).id }),
  "members.resendInvitation": async (w) => ({ organizationId: w.orgId, invitationId: await invitationFor(w, `r-${Math.random()}@x.test`) }),
  "members.cancelInvitation": async (w) => ({ organizationId: w.orgId, invitationId: await invitationFor(w, `i-${Math.random()}@x.test`) }),
  "users.create": async () => ({ email: `u-${Math.random()}@x.test`, instanceRole: "none", membership: null }),
  "users.disable": async (w) => ({ userId: (await newUser(w, w.orgId)).id }),
  "users.enable": async (w) => {
    const user = await newUser(w, w.orgId);
    await w.owner.users.disable({ userId: user.id });
    return { userId: user.id };
  },
  "users.resetPassword": async (w) => ({ userId: (await newUser(w, w.orgId)).id }),
  "users.unlock": async (w) => ({ userId: (await newUser(w, w.orgId)).id }),
  "viewer.changePassword": async (w) => {
    const user = await signedInUser(w);
    return new AsUser(user.caller, user.id, { currentPassword: user.password, newPassword: `new-password-${Math.random()}` });
  },
  "viewer.signOutEverywhere": async (w) => {
    const user = await signedInUser(w);
    return new AsUser(user.caller, user.id, undefined);
  },
  "viewer.acceptInvitation": async (w) => {
    const user = await signedInUser(w);
    return new AsUser(user.caller, user.id, { invitationId: await invitationFor(w, user.email) });
  },
  "viewer.declineInvitation": async (w) => {
    const user = await signedInUser(w);
    return new AsUser(user.caller, user.id, { invitationId: await invitationFor(w, user.email) });
  },
  "sources.create": async (w) => ({ organizationId: w.orgId, source: { kind: "csv", name: "Prices", keyColumn: "sku" } }),
  "sources.approveDeletions": async (w) => {
    const { id } = await csvSource(w);
    await w.db.dataSource.update({ where: { id }, data: { declinedDeletions: 2 } });
    return { organizationId: w.orgId, sourceId: id };
  },
  "sources.syncNow": async (w) => ({ organizationId: w.orgId, sourceId: await managedSource(w) }),
  "sources.resync": async (w) => ({ organizationId: w.orgId, sourceId: await managedSource(w) }),
  "sources.pause": async (w) => ({ organizationId: w.orgId, sourceId: await managedSource(w) }),
  "sources.resume": async (w) => {
    const sourceId = await managedSource(w);
    await w.owner.sources.pause({ organizationId: w.orgId, sourceId });
    return { organizationId: w.orgId, sourceId };
  },
  "sources.edit": async (w) => ({ organizationId: w.orgId, sourceId: (await csvSource(w)).id, name: `Renamed ${Math.random()}` }),
  "sources.delete": async (w) => {
    const source = await csvSource(w);
    return { organizationId: w.orgId, sourceId: source.id, confirmName: source.name };
  },
  "forms.create": async (w) => ({ organizationId: w.orgId, name: `Survey ${Math.random()}` }),
  "forms.rename": async (w) => ({ organizationId: w.orgId, formId: await formId(w), name: `Renamed ${Math.random()}` }),
  "forms.delete": async (w) => ({ organizationId: w.orgId, formId: await formId(w) }),
  "alerts.createChannel": async (w) => channelInput(w),
  "alerts.deleteChannel": async (w) => ({ channelId: (await w.owner.alerts.createChannel(channelInput(w))).id }),
  "alerts.testChannel": async (w) => ({ channelId: (await w.owner.alerts.createChannel(channelInput(w))).id }),
  "alerts.createRule": async (w) => ruleInput(w, (await w.owner.alerts.createChannel(channelInput(w))).id),
  "alerts.deleteRule": async (w) => {
    const channel = await w.owner.alerts.createChannel(channelInput(w));
    return { ruleId: (await w.owner.alerts.createRule(ruleInput(w, channel.id))).id };
  },
  "alerts.updateRule": async (w) => {
    const channel = await w.owner.alerts.createChannel(channelInput(w));
    const rule = await w.owner.alerts.createRule(ruleInput(w, channel.id));
    return { ruleId: rule.id, sourceId: null, channelId: channel.id, remindAfterMinutes: 120 };
  },
  "alerts.muteRule": async (w) => {
    const channel = await w.owner.alerts.createChannel(channelInput(w));
    return { ruleId: (await w.owner.alerts.createRule(ruleInput(w, channel.id))).id, until: new Date(Date.now() + 3_600_000).toISOString() };
  },
};

/** Mutations that change nothing in this service's state, each with the reason. */
export const changesNothing: Record<string, string> = {
  "sources.testConnection": "only connects to the customer's system and reports; stores nothing",
  "sources.testSavedConnection": "only connects to the customer's system with the stored connection and reports; stores nothing",
  "sources.discover": "only reads the customer's catalog (tables, columns) and reports; stores nothing",
  "sources.discoverSaved": "only reads the customer's catalog with the stored connection and reports; stores nothing",
};

function channelInput(w: World) {
  return { organizationId: w.orgId, kind: "email" as const, name: `Ops ${Math.random()}`, to: ["ops@example.com"] };
}

function ruleInput(w: World, channelId: string) {
  return { organizationId: w.orgId, sourceId: null, channelId, remindAfterMinutes: null };
}

function mintInput(organizationId: string) {
  return { organizationId, name: "k", environment: "live" as const, scopes: ["records:read"], expiresAt: null, rateLimit: 10 };
}

/** An account made through the users module, so its generated password is known. */
async function newUser(w: World, organizationId: string | null) {
  const email = `m-${Math.random()}@x.test`;
  const membership = organizationId ? { organizationId, role: "member" as const } : undefined;
  return createUser(w.db, { email, instanceRole: "none", membership }, { type: "user", id: w.userId });
}

/** A plain (non-owner) account signed in with a real session row, as the dashboard's requests are. */
async function signedInUser(w: World) {
  const user = await newUser(w, null);
  const { sessionVersion: version } = await w.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });
  const sessionId = await openSession(w.db, { userId: user.id, version, address: null, maxAgeSeconds: 3600 });
  const caller = createDashboardCaller({ db: w.db, requestId: "req_test", sessionUserId: user.id, session: { id: sessionId, version } });
  return { ...user, caller };
}

const NO_RELAY = { publicUrl: "http://groundwork.test", mailer: null };

/** A pending invitation of the world's organization, from its owner. */
async function invitationFor(w: World, email: string): Promise<string> {
  return (await inviteMember(w.db, w.orgId, { email, role: "member" }, { userId: w.userId }, NO_RELAY)).invitation.id;
}

async function csvSource(w: World): Promise<{ id: string; name: string }> {
  const name = `S ${Math.random()}`;
  const { id } = await w.owner.sources.create({ organizationId: w.orgId, source: { kind: "csv", name, keyColumn: "sku" } });
  return { id, name };
}

/** Only a managed source syncs, pauses and resyncs; the queue needs nothing else from it. */
async function managedSource(w: World): Promise<string> {
  const { id } = await csvSource(w);
  await w.db.dataSource.update({ where: { id }, data: { kind: "postgres_table" } });
  return id;
}

async function formId(w: World): Promise<string> {
  return (await w.owner.forms.create({ organizationId: w.orgId, name: `Form ${Math.random()}` })).id;
}
