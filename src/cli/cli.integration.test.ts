import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/server/modules/users/passwords";
import { cliProcessRunner, cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url }));
// What only the real process shows (D564): its exit code, all it writes to stderr, its stdin.
const spawned = cliProcessRunner(() => ({ DATABASE_URL: database.url }));

describe("admin command line", () => {
  it("runs every command with valid JSON output, and never prints a token twice", async () => {
    const owner = await cliJson<{ id: string; email: string }>(["owner", "create", "--email", "Ops@Example.com", "--password", "correct horse battery"]);
    expect(owner.email).toBe("ops@example.com");
    const users = await cliJson<{ id: string; email: string; instance_role: string; disabled: boolean }[]>(["user", "list"]);
    expect(users).toEqual([expect.objectContaining({ id: owner.id, email: "ops@example.com", instance_role: "owner", disabled: false })]);

    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Acme"]);
    const orgs = await cliJson<{ id: string; name: string }[]>(["org", "list"]);
    expect(orgs.map((o) => o.id)).toContain(org.id);

    const invited = await cliJson<{ id: string; email: string; role: string; delivery: string; link: string }>([
      "member",
      "invite",
      "--org",
      org.id,
      "--email",
      "Field@Example.com",
      "--role",
      "member",
    ]);
    // No relay configured here: the one-time link is printed for the operator to pass on (D476).
    expect(invited).toMatchObject({
      email: "field@example.com",
      role: "member",
      state: "pending",
      delivery: "link",
      reason: "no_relay",
      link: expect.stringMatching(/\/invitation#gwi_/),
    });
    const resent = await cliJson<{ link: string }>(["member", "resend-invitation", invited.id, "--org", org.id]);
    expect(resent.link).not.toBe(invited.link);
    expect(await cliJson(["member", "invitations", "--org", org.id])).toEqual({
      invitations: [expect.objectContaining({ id: invited.id, email: "field@example.com", state: "pending" })],
    });
    const added = await cliJson<{ user_id: string; role: string }>(["member", "add", "--org", org.id, "--email", "ops@example.com", "--role", "admin"]);
    expect(added).toMatchObject({ user_id: owner.id, role: "admin" });
    await cliJson(["member", "set-role", owner.id, "--org", org.id, "--role", "member"]);
    const roster = await cliJson<{ members: { user_id: string; role: string }[]; invitations: { id: string }[] }>(["member", "list", "--org", org.id]);
    expect(roster).toEqual({
      members: [expect.objectContaining({ user_id: owner.id, role: "member" })],
      invitations: [expect.objectContaining({ id: invited.id })],
    });
    await cliJson(["member", "cancel-invitation", invited.id, "--org", org.id]);
    await cliJson(["member", "remove", owner.id, "--org", org.id]);
    expect(await cliJson(["member", "list", "--org", org.id])).toEqual({ members: [], invitations: [] });
    const trail = await database.prisma.auditEvent.findMany({
      where: { organizationId: org.id, action: { startsWith: "membership." } },
      orderBy: { createdAt: "asc" },
    });
    expect(trail.map((e) => [e.action, e.actorType])).toEqual([
      ["membership.invited", "cli"],
      ["membership.invitation_resent", "cli"],
      ["membership.added", "cli"],
      ["membership.role_changed", "cli"],
      ["membership.invitation_cancelled", "cli"],
      ["membership.removed", "cli"],
    ]);

    const form = await cliJson<{ id: string }>(["form", "create", "--org", org.id, "--name", "Inspection"]);
    expect(form.id).toBeTruthy();

    const key = await cliJson<{ id: string; token: string; prefix: string; scopes: string[] }>([
      "key",
      "mint",
      "--name",
      "ci",
      "--scopes",
      "records:read,records:write",
      "--org",
      org.id,
      "--env",
      "test",
      "--rate-limit",
      "50",
    ]);
    expect(key.token).toMatch(/^gw_test_[A-Z0-9]{32}$/);
    expect(key.token.startsWith(key.prefix)).toBe(true);

    const plain = await cli(["key", "mint", "--name", "plain", "--scopes", "*:*", "--instance"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toMatch(/^gw_live_[A-Z0-9]{32}$/);

    const list = await cli(["key", "list", "--org", org.id, "--json"]);
    const keys = JSON.parse(list.stdout) as { id: string; prefix: string; state: string }[];
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    expect(list.stdout).not.toContain(key.token);

    const revoked = await cliJson<{ id: string; revoked_at: string }>(["key", "revoke", key.id]);
    expect(revoked.id).toBe(key.id);
    const after = await cliJson<{ state: string }[]>(["key", "list", "--org", org.id]);
    expect(after[0]?.state).toBe("revoked");
  }, 300_000);

  it("fails with one line and a non-zero exit", async () => {
    for (const args of [
      ["key", "mint", "--name", "x", "--scopes", "records:read"],
      ["key", "revoke", "no-such-key"],
      ["member", "add", "--org", "x", "--email", "a@b.c", "--role", "owner"],
      ["org", "create"],
      ["nope"],
      ["owner", "create", "--email", "not-an-email", "--password", "correct horse battery"],
    ]) {
      const result = await spawned.cli(args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(
        result.stderr
          .trim()
          .split("\n")
          .filter((line) => !line.includes("nodedir")),
      ).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: /m);
    }
  }, 120_000);

  it("user create and org delete: the Users page's and the organization page's actions, audited as the CLI", async () => {
    const org = await cliJson<{ id: string; name: string }>(["org", "create", "--name", "Doomed Co"]);
    const created = await cliJson<{ id: string; email: string; password: string }>([
      "user",
      "create",
      "--email",
      "Inspector@Example.com",
      "--name",
      "Ines",
      "--role",
      "support",
      "--org",
      org.id,
      "--org-role",
      "member",
    ]);
    expect(created).toMatchObject({ email: "inspector@example.com", password: expect.stringMatching(/^\S{16,}$/) });
    const stored = await database.prisma.user.findUniqueOrThrow({ where: { id: created.id }, include: { memberships: true } });
    expect(stored).toMatchObject({
      name: "Ines",
      isSupport: true,
      isInstanceOwner: false,
      memberships: [expect.objectContaining({ organizationId: org.id, role: "member" })],
    });
    expect(stored.passwordHash).not.toContain(created.password);
    const again = await cli(["user", "create", "--email", "inspector@example.com"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect((await cli(["user", "create", "--email", "x@example.com", "--org", org.id])).code).toBe(2);

    const wrongName = await cli(["org", "delete", org.id, "--confirm", "Doomed"]);
    expect(wrongName.code).toBe(1);
    expect(wrongName.stderr).toContain("does not match");
    expect(await database.prisma.organization.count({ where: { id: org.id } })).toBe(1);
    expect(await cliJson(["org", "delete", org.id, "--confirm", "Doomed Co"])).toEqual({ id: org.id, deleted: true });
    expect(await database.prisma.organization.count({ where: { id: org.id } })).toBe(0);

    const trail = await database.prisma.auditEvent.findMany({
      where: { action: { in: ["user.created", "organization.deleted"] }, OR: [{ targetId: created.id }, { targetId: org.id }] },
      orderBy: { createdAt: "asc" },
    });
    expect(trail.map((event) => [event.action, event.actorType, event.actorId])).toEqual([
      ["user.created", "cli", null],
      ["organization.deleted", "cli", null],
    ]);
  }, 120_000);

  it("refuses a malformed number or time as a usage error naming the option (exit 2), before any work", async () => {
    const cases: [string[], string][] = [
      [["alert", "deliveries", "--instance", "--limit", "500"], "error: --limit must be a whole number from 1 to 100"],
      [
        ["key", "mint", "--name", "x", "--scopes", "records:read", "--instance", "--rate-limit", "1e3"],
        "error: --rate-limit must be a whole number from 1 to 1000000",
      ],
      [["record", "list", "--form", "no-such-form", "--limit", "0x10"], "error: --limit must be a whole number of at least 1"],
      [["audit", "list", "--from", "0000-01-01"], "error: --from must be a time from year 1 on"],
      [["audit", "list", "--to", "yesterday"], "error: --to must be an ISO 8601 timestamp with an offset"],
      // A domain function's own input check reads as one line naming the field, not zod's JSON.
      [["alert", "deliveries", "--instance", "--cursor", ""], "error: invalid input: cursor: "],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(
        result.stderr
          .trim()
          .split("\n")
          .filter((line) => !line.includes("nodedir")),
        args.join(" "),
      ).toEqual([expect.stringContaining(message)]);
    }
    expect(await database.prisma.apiKey.count({ where: { name: "x" } })).toBe(0);
  }, 120_000);

  it("as its own process: JSON on stdout and exit 0, a password piped on stdin, a refusal in one line and exit 2", async () => {
    const created = await spawned.cli(["owner", "create", "--email", "piped@example.com", "--password", "-", "--json"], {}, "correct horse battery\n");
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "piped@example.com" });
    const stored = await database.prisma.user.findUniqueOrThrow({ where: { email: "piped@example.com" } });
    // The line piped in, without its newline, is the password.
    expect(await verifyPassword(stored.passwordHash, "correct horse battery")).toBe(true);

    const refused = await spawned.cli(["org", "create", "--json"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.split("\n").filter((line) => line !== "" && !line.includes("nodedir"))).toEqual(["error: missing --name"]);
  }, 120_000);
});
