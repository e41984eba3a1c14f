import { KeyOverview } from "@/components/dashboard/keys/key-overview";
import { LoadError } from "@/components/dashboard/load-error";
import { keyPageParams, keyRequestsQuery } from "@/components/dashboard/usage/key-page-params";
import { KeyUsageView } from "@/components/dashboard/usage/key-usage-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function InstanceKeyPage({
  params,
  searchParams,
}: {
  params: Promise<{ keyId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { keyId } = await params;
  const { filters, cursor } = keyPageParams(await searchParams);
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    key: await caller.keys.get({ organizationId: null, keyId }),
    usage: await caller.usage.key({ organizationId: null, keyIds: [keyId], range: filters.range }),
    requests: await caller.usage.keyRequests(keyRequestsQuery(null, keyId, filters, cursor)),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, key } = loaded.data;
  const base = "/dashboard/instance/keys";
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
          organizationId={null}
          organizationName={null}
          canManage={me.isInstanceOwner}
          canMintInstance={me.isInstanceOwner}
          keysHref={base}
        />
      }
    />
  );
}
