import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { listUsers } from "@/server/modules/users/list-users";
import { disableUser, enableUser, resetPassword, signOutEverywhere, unlockUser, type LifecycleActor } from "@/server/modules/users/lifecycle";
import { createUser } from "@/server/modules/users/create-user";
import { CliUsageError, everyPage, optionalOption, requireOption, requirePositional, type CliArgs, type CommandGroup } from "../command";

const CLI: LifecycleActor = { type: "cli", id: null };

/** An account by id or email. */
async function resolveUser(db: Db, args: CliArgs): Promise<{ id: string; email: string }> {
  const ref = requirePositional(args, 0, "USER (id or email)");
  const user = await db.user.findFirst({ where: ref.includes("@") ? { email: ref.trim().toLowerCase() } : { id: ref }, select: { id: true, email: true } });
  if (!user) throw new AppError("not_found", `No user ${ref}.`);
  return user;
}

/** The CLI twins of the owner's account actions on the Users page (D172); same domain functions. */
export const userCommands: CommandGroup = {
  list: {
    usage: "user list",
    summary: "Every account by email: instance role, disabled, locks, open sessions, memberships",
    async run(ctx) {
      const users = await everyPage((cursor) => listUsers(ctx.db, { limit: 100, cursor }));
      const rows = users.map((user) => ({
        id: user.id,
        email: user.email,
        name: user.name,
        instance_role: user.instanceRole,
        disabled: user.disabled,
        locked_addresses: user.lockedAddresses,
        open_sessions: user.openSessions,
        created_at: user.createdAt.toISOString(),
        memberships: user.memberships.map((m) => ({ organization_id: m.organizationId, organization_name: m.organizationName, role: m.role })),
      }));
      const human =
        rows.length === 0
          ? "No users."
          : rows
              .map(
                (u) =>
                  `${u.id}  ${u.email}  ${u.instance_role}${u.disabled ? "  disabled" : ""}${u.locked_addresses ? `  locked from ${u.locked_addresses} address(es)` : ""}`,
              )
              .join("\n");
      ctx.print(rows, human);
    },
  },
  create: {
    usage: "user create --email E [--name N] [--role none|support|owner] [--org ORG_ID --org-role admin|member]",
    summary: "Create an account (the Users page's Create user); its generated password is printed once",
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" }, org: { type: "string" }, "org-role": { type: "string" } },
    async run(ctx, args) {
      const org = optionalOption(args, "org");
      const orgRole = optionalOption(args, "org-role");
      if ((org === undefined) !== (orgRole === undefined)) throw new CliUsageError("give --org and --org-role together, or neither");
      if (orgRole !== undefined && orgRole !== "admin" && orgRole !== "member") throw new CliUsageError("--org-role must be admin or member");
      const role = optionalOption(args, "role") ?? "none";
      if (role !== "none" && role !== "support" && role !== "owner") throw new CliUsageError("--role must be none, support or owner");
      const created = await createUser(
        ctx.db,
        {
          email: requireOption(args, "email"),
          name: optionalOption(args, "name"),
          instanceRole: role,
          membership: org && orgRole ? { organizationId: org, role: orgRole } : undefined,
        },
        CLI,
      );
      ctx.print(
        { id: created.id, email: created.email, password: created.password },
        `Created ${created.email} (${created.id}). Password (shown once):\n  ${created.password}`,
      );
    },
  },
  disable: {
    usage: "user disable USER",
    summary: "Disable an account (id or email): no sign-in, its sessions end",
    async run(ctx, args) {
      const user = await resolveUser(ctx.db, args);
      const { sessionsEnded } = await disableUser(ctx.db, CLI, user.id);
      ctx.print({ id: user.id, email: user.email, disabled: true, sessions_ended: sessionsEnded }, `Disabled ${user.email}; ended ${sessionsEnded} session(s)`);
    },
  },
  enable: {
    usage: "user enable USER",
    summary: "Enable a disabled account",
    async run(ctx, args) {
      const user = await resolveUser(ctx.db, args);
      await enableUser(ctx.db, CLI, user.id);
      ctx.print({ id: user.id, email: user.email, disabled: false }, `Enabled ${user.email}`);
    },
  },
  "reset-password": {
    usage: "user reset-password USER",
    summary: "Generate a new password (printed once); sessions end, locks lift",
    async run(ctx, args) {
      const user = await resolveUser(ctx.db, args);
      const reset = await resetPassword(ctx.db, CLI, user.id);
      ctx.print({ id: user.id, email: reset.email, password: reset.password }, `New password for ${reset.email} (shown once):\n  ${reset.password}`);
    },
  },
  unlock: {
    usage: "user unlock USER",
    summary: "Lift an account's sign-in locks from every address",
    async run(ctx, args) {
      const user = await resolveUser(ctx.db, args);
      const { locksCleared } = await unlockUser(ctx.db, CLI, user.id);
      ctx.print({ id: user.id, email: user.email, budgets_cleared: locksCleared }, `Unlocked ${user.email} (${locksCleared} budget(s) cleared)`);
    },
  },
  "sign-out-everywhere": {
    usage: "user sign-out-everywhere USER",
    summary: "End every dashboard session of an account",
    async run(ctx, args) {
      const user = await resolveUser(ctx.db, args);
      const { sessionsEnded } = await signOutEverywhere(ctx.db, user.id, CLI);
      ctx.print({ id: user.id, email: user.email, sessions_ended: sessionsEnded }, `Ended ${sessionsEnded} session(s) of ${user.email}`);
    },
  },
};
