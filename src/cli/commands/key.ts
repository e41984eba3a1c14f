import { AppError } from "@/server/errors/app-error";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { listApiKeys } from "@/server/modules/api-keys/list-keys";
import { MAX_RATE_LIMIT, mintApiKey } from "@/server/modules/api-keys/mint-key";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { CliUsageError, requireOption, requirePositional, everyPage, wholeNumberOption, type CommandGroup } from "../command";

function optionalDate(value: unknown, name: string): Date | null {
  if (typeof value !== "string") return null;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new CliUsageError(`--${name} must be an ISO 8601 timestamp`);
  return date;
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
      const key = await mintApiKey(
        ctx.db,
        CLI_OPERATOR,
        {
          name: requireOption(args, "name"),
          scopes: requireOption(args, "scopes"),
          organizationId: instance ? null : (org as string),
          environment,
          expiresAt: optionalDate(args.values["expires-at"], "expires-at"),
          rateLimit,
        },
      );
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
    usage: "key revoke KEY_ID",
    summary: "Revoke a key (permanent)",
    async run(ctx, args) {
      // NOTE: the shell operator runs the instance: any key, in any organization.
      const revoked = await revokeApiKey(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "KEY_ID"));
      ctx.print(
        { id: revoked.id, prefix: revoked.prefix, revoked_at: revoked.revokedAt.toISOString() },
        `Revoked ${revoked.prefix}… (${revoked.id})`,
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
          rate_limit: key.rateLimit,
          created_at: key.createdAt.toISOString(),
        })),
        keys.map((key) => `${key.id}  ${key.prefix}…  ${key.state.padEnd(7)}  ${key.name}  [${key.scopes.join(",")}]`).join("\n") ||
          "(no keys)",
      );
    },
  },
};
