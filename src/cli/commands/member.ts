import type { OrganizationRole } from "@/server/modules/access/viewer";
import { invitationDeliveryFromEnv } from "@/server/modules/memberships/delivery-from-env";
import {
  cancelInvitation,
  inviteMember,
  listInvitations,
  resendInvitation,
  type Invitation,
  type IssuedInvitation,
} from "@/server/modules/memberships/invitations";
import { addMember, listMembers, removeMember, setMemberRole, type MembershipActor } from "@/server/modules/memberships/members";
import { CliUsageError, everyPage, requireOption, requirePositional, type CliArgs, type CommandGroup } from "../command";

// The CLI twins of the organization's Members page (D321): the same domain functions, audited
// with the CLI as the actor.
const CLI: MembershipActor = { userId: null };
const ORG = { org: { type: "string" } } as const;

function role(args: CliArgs): OrganizationRole {
  const value = requireOption(args, "role");
  if (value !== "admin" && value !== "member") throw new CliUsageError("--role must be admin or member");
  return value;
}

export const memberCommands: CommandGroup = {
  list: {
    usage: "member list --org ORG_ID",
    summary: "An organization's members and its pending invitations",
    options: ORG,
    async run(ctx, args) {
      const organizationId = requireOption(args, "org");
      const members = (await listMembers(ctx.db, organizationId)).map((m) => ({
        user_id: m.userId,
        email: m.email,
        name: m.name,
        role: m.role,
        since: m.since.toISOString(),
      }));
      const invitations = (await allInvitations(ctx.db, organizationId)).map(invitationJson);
      const human =
        [...members.map((m) => `${m.user_id}  ${m.email}  ${m.role}`), ...invitations.map((i) => `${i.id}  ${i.email}  ${i.role}  (invited, ${i.state})`)].join(
          "\n",
        ) || "No members.";
      ctx.print({ members, invitations }, human);
    },
  },
  add: {
    usage: "member add --org ORG_ID --email E --role admin|member",
    summary: "Add an existing account to an organization (as an instance owner does)",
    options: { ...ORG, email: { type: "string" }, role: { type: "string" } },
    async run(ctx, args) {
      const member = await addMember(ctx.db, requireOption(args, "org"), { email: requireOption(args, "email"), role: role(args) }, CLI);
      ctx.print({ user_id: member.userId, email: member.email, role: member.role }, `Added ${member.email} as ${member.role}`);
    },
  },
  invite: {
    usage: "member invite --org ORG_ID --email E --role admin|member",
    summary: "Invite an email: a one-time link by mail (GROUNDWORK_SMTP_URL), else printed once",
    options: { ...ORG, email: { type: "string" }, role: { type: "string" } },
    async run(ctx, args) {
      const issued = await inviteMember(
        ctx.db,
        requireOption(args, "org"),
        { email: requireOption(args, "email"), role: role(args) },
        CLI,
        invitationDeliveryFromEnv(),
      );
      printIssued(ctx, issued, `Invited ${issued.invitation.email} as ${issued.invitation.role} (${issued.invitation.id})`);
    },
  },
  invitations: {
    usage: "member invitations --org ORG_ID",
    summary: "An organization's pending invitations (state, when sent, when the link expires)",
    options: ORG,
    async run(ctx, args) {
      const invitations = (await allInvitations(ctx.db, requireOption(args, "org"))).map(invitationJson);
      ctx.print(
        { invitations },
        invitations.map((i) => `${i.id}  ${i.email}  ${i.role}  ${i.state}  expires ${i.expires_at ?? "never"}`).join("\n") || "No pending invitations.",
      );
    },
  },
  "resend-invitation": {
    usage: "member resend-invitation INVITATION_ID --org ORG_ID",
    summary: "Issue a new one-time link (the old one stops working) and mail it, else print it once",
    options: ORG,
    async run(ctx, args) {
      const id = requirePositional(args, 0, "INVITATION_ID");
      const issued = await resendInvitation(ctx.db, requireOption(args, "org"), id, CLI, invitationDeliveryFromEnv());
      printIssued(ctx, issued, `Sent a new link to ${issued.invitation.email} (${id})`);
    },
  },
  "cancel-invitation": {
    usage: "member cancel-invitation INVITATION_ID --org ORG_ID",
    summary: "Revoke a pending invitation: its link stops working",
    options: ORG,
    async run(ctx, args) {
      const id = requirePositional(args, 0, "INVITATION_ID");
      await cancelInvitation(ctx.db, requireOption(args, "org"), id, CLI);
      ctx.print({ id, cancelled: true }, `Cancelled invitation ${id}`);
    },
  },
  "set-role": {
    usage: "member set-role USER_ID --org ORG_ID --role admin|member",
    summary: "Change a member's role in an organization",
    options: { ...ORG, role: { type: "string" } },
    async run(ctx, args) {
      const userId = requirePositional(args, 0, "USER_ID");
      const next = role(args);
      await setMemberRole(ctx.db, requireOption(args, "org"), userId, next, CLI);
      ctx.print({ user_id: userId, role: next }, `${userId} is now ${next}`);
    },
  },
  remove: {
    usage: "member remove USER_ID --org ORG_ID",
    summary: "Remove a member from an organization",
    options: ORG,
    async run(ctx, args) {
      const userId = requirePositional(args, 0, "USER_ID");
      await removeMember(ctx.db, requireOption(args, "org"), userId, CLI);
      ctx.print({ user_id: userId, removed: true }, `Removed ${userId}`);
    },
  },
};

function invitationJson(i: Invitation) {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    state: i.state,
    created_at: i.createdAt.toISOString(),
    sent_at: i.sentAt?.toISOString() ?? null,
    expires_at: i.expiresAt?.toISOString() ?? null,
  };
}

function allInvitations(db: Parameters<typeof listInvitations>[0], organizationId: string): Promise<Invitation[]> {
  return everyPage((cursor) => listInvitations(db, organizationId, { limit: 100, cursor }));
}

/** The link is printed only when it did not leave by mail: the operator passes it on (D476). */
function printIssued(ctx: { print: (json: unknown, human: string) => void }, issued: IssuedInvitation, summary: string): void {
  const { delivery } = issued;
  const json = {
    ...invitationJson(issued.invitation),
    delivery: delivery.kind,
    ...(delivery.kind === "link" ? { link: delivery.link, reason: delivery.reason, failure: delivery.failure } : {}),
  };
  const human =
    delivery.kind === "mailed"
      ? `${summary}; the link was mailed.`
      : `${summary}; ${delivery.reason === "no_relay" ? "no mail relay is configured" : `the mail was not sent (${delivery.failure})`}. Pass this one-time link on (shown only now):\n${delivery.link}`;
  ctx.print(json, human);
}
