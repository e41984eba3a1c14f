import { headers } from "next/headers";
import { ConnectView } from "@/components/dashboard/connect/connect-view";
import { LoadError } from "@/components/dashboard/load-error";
import { env } from "@/env";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

/** The origin integrators reach: PUBLIC_URL when set, else the one this page was requested on. */
async function publicOrigin(): Promise<string> {
  const configured = env().PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}

export default async function ConnectPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load(async (caller) => {
    const organization = await caller.organizations.get({ organizationId });
    // Every form and source, page by page: the page hands over every id.
    const forms: { id: string; name: string; records: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await caller.forms.list({ organizationId, limit: 100, cursor });
      forms.push(...page.items.map(({ id, name, records }) => ({ id, name, records })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const sources: { id: string; name: string; state: string; healthy: boolean }[] = [];
    do {
      const page = await caller.sources.list({ organizationId, cursor });
      sources.push(
        ...page.items.map(({ id, name, state, stale, pausedAt }) => ({
          id,
          name,
          state: stale ? "stale" : pausedAt ? "paused" : state,
          healthy: state === "ok" && !stale && !pausedAt,
        })),
      );
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { organization, forms, sources };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, forms, sources } = loaded.data;
  return (
    <ConnectView
      base={await publicOrigin()}
      organization={{ id: organization.organization.id, name: organization.organization.name }}
      forms={forms}
      sources={sources}
      canAdmin={organization.canAdmin}
      // A fresh key per view (D524): the page's sample must not replay someone else's record.
      idempotencyKey={crypto.randomUUID()}
    />
  );
}
