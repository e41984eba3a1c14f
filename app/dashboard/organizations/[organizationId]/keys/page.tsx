import { KeysView } from "@/components/dashboard/keys/keys-view";
import { LoadError } from "@/components/dashboard/load-error";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationKeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<{ rotate?: string; with?: string; mint?: string }>;
}) {
  const { organizationId } = await params;
  const { rotate, with: replacement, mint } = await searchParams;
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    organization: await caller.organizations.get({ organizationId }),
    keys: await caller.keys.list({ organizationId }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, organization, keys } = loaded.data;
  return (
    <KeysView
      organizationId={organizationId}
      organizationName={organization.organization.name}
      keys={keys}
      canManage={organization.canAdmin}
      canMintInstance={me.isInstanceOwner}
      rotatingKeyId={typeof rotate === "string" ? rotate : null}
      newKeyId={typeof replacement === "string" ? replacement : null}
      mintScopes={typeof mint === "string" ? mint.split(",").filter((scope) => /^[a-z_*]+:(read|write|\*)$/.test(scope)).slice(0, 20) : null}
    />
  );
}
