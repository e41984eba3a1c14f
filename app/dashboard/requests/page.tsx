import { redirect } from "next/navigation";
import { LoadError } from "@/components/dashboard/load-error";
import { requestLogParams, requestLogQuery } from "@/components/dashboard/requests/request-log-params";
import { RequestLogView } from "@/components/dashboard/requests/request-log-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

/**
 * The request log browser (D432): the instance's log for owners and support, their
 * organizations' for admins. `?id=` is still the lookup field's target: a pasted id goes on to
 * its page (quotes and spaces trimmed).
 */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const id = raw.id;
  const pasted = typeof id === "string" ? id.trim().replace(/^["'`]+|["'`,.;]+$/g, "") : "";
  if (pasted) redirect(`/dashboard/requests/${encodeURIComponent(pasted)}`);
  const { filters, cursor } = requestLogParams(raw);
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    page: await caller.requests.list(requestLogQuery(filters, undefined, cursor)),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, page } = loaded.data;
  const instance = me.isInstanceOwner || me.isSupport;
  return (
    <RequestLogView
      page={page}
      filters={filters}
      cursor={cursor}
      basePath="/dashboard/requests"
      scope={instance ? { kind: "instance" } : { kind: "organizations", names: me.memberships.filter((m) => m.role === "admin").map((m) => m.organizationName) }}
    />
  );
}
