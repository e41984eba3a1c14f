import { LoadError } from "@/components/dashboard/load-error";
import { requestLogParams, requestLogQuery } from "@/components/dashboard/requests/request-log-params";
import { RequestLogView } from "@/components/dashboard/requests/request-log-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

/** One organization's request log (D432), for its admins, owners and support. */
export default async function OrganizationRequestsPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { organizationId } = await params;
  const { filters, cursor } = requestLogParams(await searchParams);
  const loaded = await load((caller) => caller.requests.list(requestLogQuery(filters, organizationId, cursor)));
  if (!loaded.ok) return <LoadError {...loaded} />;
  return (
    <RequestLogView
      page={loaded.data}
      filters={filters}
      cursor={cursor}
      basePath={`/dashboard/organizations/${organizationId}/requests`}
      scope={{ kind: "organization" }}
    />
  );
}
