import { AuditView } from "@/components/dashboard/audit/audit-view";
import { auditParams } from "@/components/dashboard/audit/audit-params";
import { LoadError } from "@/components/dashboard/load-error";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { filters, cursor } = auditParams(await searchParams);
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    page: await caller.audit.list({ ...filters, cursor, limit: 50 }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, page } = loaded.data;
  // The filter's organization by id, for the picker to show its name (D444).
  const organizationId = filters.organizationId;
  const chosen = organizationId ? await load((caller) => caller.organizations.get({ organizationId })) : null;
  const organizations = me.isInstanceOwner || me.isSupport ? null : me.memberships.filter((m) => m.role === "admin");
  return (
    <AuditView
      page={page}
      filters={filters}
      scopeNote={organizations ? organizations.map((m) => m.organizationName).join(", ") : null}
      organization={chosen?.ok ? { id: chosen.data.organization.id, name: chosen.data.organization.name } : null}
      organizationProblem={chosen && !chosen.ok ? { message: chosen.message, requestId: chosen.requestId } : null}
    />
  );
}
