import { AppError } from "@/server/errors/app-error";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { listApiKeys } from "@/server/modules/api-keys/list-keys";
import { MAX_RATE_LIMIT, mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { cancelKeyRevocation, parseDuration, scheduleKeyRevocation } from "@/server/modules/api-keys/scheduled-revocation";
import { CliUsageError, requireOption, requirePositional, everyPage, wholeNumberOption, type CliArgs, type CommandGroup } from "../command";

function optionalDate(value: unknown, name: string): Date | null {
  if (typeof value !== "string") return null;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new CliUsageError(`--${name} must be an ISO 8601 timestamp`);
  return date;
}

/** `--at ISO` or `--in 24h` (not both); undefined: revoke now. */
function revocationTime(args: CliArgs, now = new Date()): Date | undefined {
  const at = args.values.at;
  const after = args.values.in;
  if (at !== undefined && after !== undefined) throw new CliUsageError("give --at TIME or --in DURATION, not both");
  if (typeof at === "string") return optionalDate(at, "at") ?? undefined;
  if (typeof after === "string") {
    const ms = parseDuration(after);
    if (ms === null) throw new CliUsageError("--in takes a duration such as 90m, 24h or 7d");
    return new Date(now.getTime() + ms);
  }
  return undefined;
}

export const keyCommands: CommandGroup = {
  mint: {
    usage: "key mint --name N --scopes a:read,b:write (--org ORG_ID | --instance) [--env live|test] [--expires-at ISO] [--rate-limit N]",
    summary: "Mint an API key; the token is printed once",
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      org: { type: "string" },
      instance: { type: "boolean" },
      env: { type: "string" },
      "expires-at": { type: "string" },
      "rate-limit": { type: "string" },
    },
    async run(ctx, args) {
      const org = args.values.org;
      const instance = args.values.instance === true;
      if ((typeof org === "string") === instance) throw new CliUsageError("give exactly one of --org ORG_ID or --instance");
      const environment = args.values.env ?? "live";
      if (environment !== "live" && environment !== "test") throw new CliUsageError("--env must be live or test");
      const rateLimit = wholeNumberOption(args, "rate-limit", { min: 1, max: MAX_RATE_LIMIT });
      // NOTE: the operator at the command line has the instance owner's rights.
      const key = await mintApiKey(ctx.db, CLI_OPERATOR, {
        name: requireOption(args, "name"),
        scopes: requireOption(args, "scopes"),
        organizationId: instance ? null : (org as string),
        environment,
        expiresAt: optionalDate(args.values["expires-at"], "expires-at"),
        rateLimit,
      });
      ctx.print(
        {
          id: key.id,
          token: key.token,
          prefix: key.prefix,
          name: key.name,
          scopes: key.scopes,
          organization_id: key.organizationId,
          environment: key.environment,
          expires_at: key.expiresAt?.toISOString() ?? null,
          rate_limit: key.rateLimit,
          rate_limit_window_seconds: key.rateLimitWindowSeconds,
          created_at: key.createdAt.toISOString(),
        },
        key.token,
      );
    },
  },
  revoke: {
    usage: "key revoke KEY_ID [--at ISO | --in 24h]",
    summary: "Revoke a key (permanent), now or at a time (--at 2026-12-03T09:00:00Z, --in 90m|24h|7d)",
    options: { at: { type: "string" }, in: { type: "string" } },
    async run(ctx, args) {
      const keyId = requirePositional(args, 0, "KEY_ID");
      const at = revocationTime(args);
      // NOTE: the shell operator runs the instance: any key, in any organization.
      if (at) {
        const scheduled = await scheduleKeyRevocation(ctx.db, CLI_OPERATOR, keyId, at);
        ctx.print(
          { id: scheduled.id, prefix: scheduled.prefix, revoke_at: scheduled.revokeAt.toISOString() },
          `${scheduled.prefix}… (${scheduled.id}) will be revoked at ${scheduled.revokeAt.toISOString()}`,
        );
        return;
      }
      const revoked = await revokeApiKey(ctx.db, CLI_OPERATOR, keyId);
      ctx.print({ id: revoked.id, prefix: revoked.prefix, revoked_at: revoked.revokedAt.toISOString() }, `Revoked ${revoked.prefix}… (${revoked.id})`);
    },
  },
  "cancel-revocation": {
    usage: "key cancel-revocation KEY_ID",
    summary: "Cancel a key's scheduled revocation",
    async run(ctx, args) {
      const cancelled = await cancelKeyRevocation(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "KEY_ID"));
      ctx.print(
        { id: cancelled.id, prefix: cancelled.prefix, cancelled_revoke_at: cancelled.cancelled?.toISOString() ?? null },
        cancelled.cancelled
          ? `Cancelled the revocation of ${cancelled.prefix}… scheduled for ${cancelled.cancelled.toISOString()}`
          : `${cancelled.prefix}… had no scheduled revocation`,
      );
    },
  },
  list: {
    usage: "key list [--org ORG_ID]",
    summary: "List keys (prefixes only)",
    options: { org: { type: "string" } },
    async run(ctx, args) {
      const org = args.values.org;
      if (org !== undefined && typeof org !== "string") throw new AppError("bad_request", "--org takes an id");
      // The same pages as the dashboard's list.
      const keys = await everyPage((cursor) => listApiKeys(ctx.db, CLI_OPERATOR, org === undefined ? {} : { organizationId: org }, { limit: 100, cursor }));
      ctx.print(
        keys.map((key) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          scopes: key.scopes,
          organization_id: key.organizationId,
          environment: key.environment,
          state: key.state,
          expires_at: key.expiresAt?.toISOString() ?? null,
          last_used_at: key.lastUsedAt?.toISOString() ?? null,
          revoked_at: key.revokedAt?.toISOString() ?? null,
          revoke_at: key.revokeAt?.toISOString() ?? null,
          rate_limit: key.rateLimit,
          created_at: key.createdAt.toISOString(),
        })),
        keys
          .map(
            (key) =>
              `${key.id}  ${key.prefix}…  ${key.state.padEnd(7)}  ${key.name}  [${key.scopes.join(",")}]${key.revokeAt ? `  revokes at ${key.revokeAt.toISOString()}` : ""}`,
          )
          .join("\n") || "(no keys)",
      );
    },
  },
};
