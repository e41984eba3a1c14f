import { AuditEventView } from "@/components/dashboard/audit/audit-event-view";
import { auditParams, auditQueryString } from "@/components/dashboard/audit/audit-params";
import { LoadError } from "@/components/dashboard/load-error";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function AuditEventPage({
  params,
  searchParams,
}: {
  params: Promise<{ eventId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { eventId } = await params;
  // The list's filters ride along, so "Back" returns to the same filtered page.
  const query = auditQueryString(auditParams(await searchParams).filters);
  const loaded = await load((caller) => caller.audit.get({ eventId: decodeURIComponent(eventId) }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  return <AuditEventView detail={loaded.data} backHref={`/dashboard/audit${query ? `?${query}` : ""}`} />;
}
