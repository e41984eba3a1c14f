import { describe, expect, it } from "vitest";
import { createAlertSenders, DeliveryError } from "@/server/modules/alerts/senders";
import { startSmtpReceiver } from "@/server/modules/alerts/testing/receivers";
import { loadViewer } from "@/server/modules/access/viewer";
import { createUser } from "@/server/modules/users/create-user";
import { verifySignIn } from "@/server/modules/users/sign-in";
import { useTestDatabase } from "@/test/db";
import type { InvitationDeliveryOptions } from "./invitation-mail";
import { acceptInvitationAsNewAccount, acceptInvitationByLink, openInvitationLink } from "./invitation-links";
import { hashInvitationToken } from "./invitation-tokens";
import { cancelInvitation, inviteMember, listInvitations, resendInvitation, type IssuedInvitation } from "./invitations";

const database = useTestDatabase();
const NO_RELAY: InvitationDeliveryOptions = { publicUrl: "https://groundwork.example.test/", mailer: null };
const tokenOf = (issued: IssuedInvitation) => {
  if (issued.delivery.kind !== "link") throw new Error("expected a link");
  return issued.delivery.link.split("#")[1]!;
};
/** A fresh client address per test, so one test's refusals do not spend another's budget. */
// A fresh client address per call: a random one could repeat in a later test of this file and
// bring the refusals an earlier test counted against it (the budget test then read rate_limited).
let addresses = 0;
const address = () => `198.51.100.${++addresses}`;

async function setup() {
  const db = database.prisma;
  const owner = await db.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
  const org = await db.organization.create({ data: { name: `Org ${Math.random()}` } });
  const admin = {
    userId: (
      await createUser(db, { email: `admin-${Math.random()}@x.test`, membership: { organizationId: org.id, role: "admin" } }, { type: "user", id: owner.id })
    ).id,
  };
  return { db, owner, org, admin };
}

describe("invitation links (D470–D475)", () => {
  it("mails a one-time link through a real SMTP server; only the token's hash is stored; the link makes a new account in the organization", async () => {
    const { db, org, admin } = await setup();
    const smtp = await startSmtpReceiver();
    try {
      const senders = createAlertSenders({ smtpUrl: smtp.url, from: "Groundwork <groundwork@example.test>", policy: { allowPrivate: true } });
      const options: InvitationDeliveryOptions = {
        publicUrl: "https://groundwork.example.test",
        mailer: { configured: true, send: (to, subject, text) => senders.email([to], subject, text) },
      };
      const email = `new-${Math.random()}@x.test`;
      const issued = await inviteMember(db, org.id, { email: email.toUpperCase(), role: "member" }, admin, options);
      expect(issued.delivery).toEqual({ kind: "mailed" });
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.to).toEqual([email]);
      const link = /https:\/\/groundwork\.example\.test\/invitation#(gwi_[A-Za-z0-9_-]{43})/.exec(smtp.mails[0]!.text);
      expect(link, smtp.mails[0]!.text).not.toBeNull();
      const token = link![1]!;

      const row = await db.membershipInvitation.findUniqueOrThrow({ where: { id: issued.invitation.id } });
      expect(row.tokenHash).toBe(hashInvitationToken(token));
      expect(JSON.stringify(row)).not.toContain(token);
      const events = await db.auditEvent.findMany({ where: { organizationId: org.id } });
      expect(JSON.stringify(events)).not.toContain(token);
      expect(JSON.stringify(events)).not.toContain(row.tokenHash!);

      const from = address();
      expect(await openInvitationLink(db, token, from)).toMatchObject({ organizationName: org.name, email, role: "member" });
      const joined = await acceptInvitationAsNewAccount(db, token, { password: "a-new-long-password", name: "New Person" }, from);
      expect(joined).toMatchObject({ organizationId: org.id, email });
      expect(await verifySignIn(db, { email, password: "a-new-long-password", address: from })).toMatchObject({ ok: true, userId: joined.userId });
      expect(await db.organizationMembership.count({ where: { organizationId: org.id, userId: joined.userId, role: "member" } })).toBe(1);
      expect((await db.auditEvent.findMany({ where: { organizationId: org.id }, select: { action: true } })).map((e) => e.action)).toEqual(
        expect.arrayContaining(["membership.invited", "user.created", "membership.invitation_accepted"]),
      );
      // Single use: the link is spent.
      await expect(openInvitationLink(db, token, from)).rejects.toMatchObject({ code: "not_found" });
      await expect(acceptInvitationAsNewAccount(db, token, { password: "another-long-password" }, from)).rejects.toMatchObject({ code: "not_found" });
    } finally {
      await smtp.close();
    }
  });

  it("expires, is revoked by a cancel, and a resend rotates the token (the old link stops working)", async () => {
    const { db, org, admin } = await setup();
    const from = address();
    const now = new Date();
    const issued = await inviteMember(db, org.id, { email: `e-${Math.random()}@x.test`, role: "admin" }, admin, NO_RELAY, now);
    expect(issued.delivery).toMatchObject({
      kind: "link",
      reason: "no_relay",
      link: expect.stringMatching(/^https:\/\/groundwork\.example\.test\/invitation#gwi_/),
    });
    const first = tokenOf(issued);
    const eightDaysOn = new Date(now.getTime() + 8 * 86_400_000);
    await expect(openInvitationLink(db, first, from, eightDaysOn)).rejects.toMatchObject({ code: "not_found" });
    expect((await listInvitations(db, org.id, { limit: 10 }, eightDaysOn)).items[0]).toMatchObject({ id: issued.invitation.id, state: "expired" });
    expect(await openInvitationLink(db, first, from, new Date(now.getTime() + 6 * 86_400_000))).toMatchObject({ role: "admin" });

    const resent = await resendInvitation(db, org.id, issued.invitation.id, admin, NO_RELAY, eightDaysOn);
    const second = tokenOf(resent);
    expect(second).not.toBe(first);
    expect(resent.invitation).toMatchObject({ state: "pending", expiresAt: new Date(eightDaysOn.getTime() + 7 * 86_400_000) });
    await expect(openInvitationLink(db, first, from, eightDaysOn)).rejects.toMatchObject({ code: "not_found" });
    expect(await openInvitationLink(db, second, from, eightDaysOn)).toMatchObject({ role: "admin" });
    expect(await db.auditEvent.count({ where: { action: "membership.invitation_resent", organizationId: org.id } })).toBe(1);

    await cancelInvitation(db, org.id, issued.invitation.id, admin);
    await expect(openInvitationLink(db, second, from, eightDaysOn)).rejects.toMatchObject({ code: "not_found" });
  });

  it("answers the admin alike for an email with an account and one without (no enumeration)", async () => {
    const { db, owner, org, admin } = await setup();
    const existing = await createUser(db, { email: `has-${Math.random()}@x.test` }, { type: "user", id: owner.id });
    const strip = (issued: IssuedInvitation) =>
      JSON.stringify(issued)
        .replace(/"id":"[^"]+"|"email":"[^"]+"|"link":"[^"]+"/g, "")
        .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, "");
    const mails: { to: string; subject: string; text: string }[] = [];
    const options: InvitationDeliveryOptions = {
      publicUrl: "https://g.test",
      mailer: { configured: true, send: async (to, subject, text) => void mails.push({ to, subject, text }) },
    };
    const forExisting = await inviteMember(db, org.id, { email: existing.email, role: "member" }, admin, options);
    const forNew = await inviteMember(db, org.id, { email: `nobody-${Math.random()}@x.test`, role: "member" }, admin, options);
    expect(strip(forExisting)).toBe(strip(forNew));
    const neutral = (m: { to: string; subject: string; text: string }) => ({
      subject: m.subject,
      text: m.text.replace(/https:\/\/\S+/, "LINK").replace(/expires on .*UTC/, ""),
    });
    expect(neutral(mails[0]!)).toEqual(neutral(mails[1]!));
    const events = await db.auditEvent.findMany({ where: { action: "membership.invited", organizationId: org.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => Object.keys(e.metadata as object).sort())).toEqual([
      Object.keys(events[1]!.metadata as object).sort(),
      Object.keys(events[1]!.metadata as object).sort(),
    ]);
    expect((await listInvitations(db, org.id)).items.map((i) => i.state)).toEqual(["pending", "pending"]);
    // No membership for the existing account until its holder accepts.
    expect(await db.organizationMembership.count({ where: { organizationId: org.id, userId: existing.id } })).toBe(0);
  });

  it("an existing account accepts signed in as itself; a new password for it is refused; another account cannot take it", async () => {
    const { db, owner, org, admin } = await setup();
    const existing = await createUser(db, { email: `acct-${Math.random()}@x.test` }, { type: "user", id: owner.id });
    const other = await createUser(db, { email: `other-${Math.random()}@x.test` }, { type: "user", id: owner.id });
    const token = tokenOf(await inviteMember(db, org.id, { email: existing.email, role: "member" }, admin, NO_RELAY));
    const from = address();
    await expect(acceptInvitationAsNewAccount(db, token, { password: "taking-over-the-account" }, from)).rejects.toMatchObject({ code: "conflict" });
    expect(await verifySignIn(db, { email: existing.email, password: "taking-over-the-account", address: address() })).toMatchObject({ ok: false });
    await expect(acceptInvitationByLink(db, (await loadViewer(db, other.id))!, token, from)).rejects.toMatchObject({ code: "forbidden" });
    expect(await acceptInvitationByLink(db, (await loadViewer(db, existing.id))!, token, from)).toEqual({ organizationId: org.id });
    expect(await db.organizationMembership.count({ where: { organizationId: org.id, userId: existing.id } })).toBe(1);
    await expect(acceptInvitationByLink(db, (await loadViewer(db, existing.id))!, token, from)).rejects.toMatchObject({ code: "not_found" });
  });

  it("budgets links that do not work per client address, as sign-in does: the eleventh try is refused, a working token too", async () => {
    const { db, org, admin } = await setup();
    const token = tokenOf(await inviteMember(db, org.id, { email: `b-${Math.random()}@x.test`, role: "member" }, admin, NO_RELAY));
    const from = address();
    // A working token costs nothing.
    for (let i = 0; i < 3; i++) await openInvitationLink(db, token, from);
    for (let i = 0; i < 9; i++) await expect(openInvitationLink(db, `gwi_${"A".repeat(43)}`, from)).rejects.toMatchObject({ code: "not_found" });
    await expect(openInvitationLink(db, "not-a-token", from)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(openInvitationLink(db, token, from)).rejects.toMatchObject({ code: "rate_limited" });
    expect(await openInvitationLink(db, token, address())).toMatchObject({ organizationName: org.name });
    expect(await db.auditEvent.count({ where: { action: "membership.invitation_link_refused" } })).toBeGreaterThanOrEqual(10);
  });

  it("a refused mail still answers with the link to pass on, and is audited", async () => {
    const { db, org, admin } = await setup();
    const options: InvitationDeliveryOptions = {
      publicUrl: "https://g.test",
      mailer: { configured: true, send: () => Promise.reject(new DeliveryError("the mail relay refused the connection")) },
    };
    const issued = await inviteMember(db, org.id, { email: `f-${Math.random()}@x.test`, role: "member" }, admin, options);
    expect(issued.delivery).toMatchObject({ kind: "link", reason: "mail_failed", failure: "the mail relay refused the connection" });
    expect(await db.auditEvent.count({ where: { action: "membership.invitation_mail_failed", organizationId: org.id } })).toBe(1);
  });
});
