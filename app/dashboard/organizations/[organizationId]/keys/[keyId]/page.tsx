import { KeyOverview } from "@/components/dashboard/keys/key-overview";
import { LoadError } from "@/components/dashboard/load-error";
import { keyPageParams, keyRequestsQuery } from "@/components/dashboard/usage/key-page-params";
import { KeyUsageView } from "@/components/dashboard/usage/key-usage-view";
import { load, unlessForbidden } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationKeyPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string; keyId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { organizationId, keyId } = await params;
  const { filters, cursor } = keyPageParams(await searchParams);
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    organization: await caller.organizations.get({ organizationId }),
    key: await caller.keys.get({ organizationId, keyId }),
    usage: await caller.usage.key({ organizationId, keyIds: [keyId], range: filters.range }),
    requests: await unlessForbidden(caller.usage.keyRequests(keyRequestsQuery(organizationId, keyId, filters, cursor))),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, organization, key } = loaded.data;
  const base = `/dashboard/organizations/${organizationId}/keys`;
  return (
    <KeyUsageView
      apiKey={key}
      usage={loaded.data.usage}
      requests={loaded.data.requests}
      filters={filters}
      basePath={`${base}/${keyId}`}
      backHref={base}
      overview={
        <KeyOverview
          apiKey={key}
          organizationId={organizationId}
          organizationName={organization.organization.name}
          canManage={organization.canAdmin}
          canMintInstance={me.isInstanceOwner}
          keysHref={base}
        />
      }
    />
  );
}
