import type { OrganizationRole } from "@/server/modules/access/viewer";
import { cancelInvitation, inviteMember, listInvitations } from "@/server/modules/memberships/invitations";
import { addMember, listMembers, removeMember, setMemberRole, type MembershipActor } from "@/server/modules/memberships/members";
import { CliUsageError, requireOption, requirePositional, type CliArgs, type CommandGroup } from "../command";

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
      const members = (await listMembers(ctx.db, organizationId)).map((m) => ({ user_id: m.userId, email: m.email, name: m.name, role: m.role, since: m.since.toISOString() }));
      const invitations = (await listInvitations(ctx.db, organizationId)).map((i) => ({ id: i.id, email: i.email, role: i.role, created_at: i.createdAt.toISOString() }));
      const human = [...members.map((m) => `${m.user_id}  ${m.email}  ${m.role}`), ...invitations.map((i) => `${i.id}  ${i.email}  ${i.role}  (invited)`)].join("\n") || "No members.";
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
    summary: "Invite an email; the account holder accepts it on their overview",
    options: { ...ORG, email: { type: "string" }, role: { type: "string" } },
    async run(ctx, args) {
      const invitation = await inviteMember(ctx.db, requireOption(args, "org"), { email: requireOption(args, "email"), role: role(args) }, CLI);
      ctx.print({ id: invitation.id, email: invitation.email, role: invitation.role }, `Invited ${invitation.email} as ${invitation.role} (${invitation.id})`);
    },
  },
  "cancel-invitation": {
    usage: "member cancel-invitation INVITATION_ID --org ORG_ID",
    summary: "Withdraw a pending invitation",
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
