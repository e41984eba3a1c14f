import { KeysView } from "@/components/dashboard/keys/keys-view";
import { LoadError } from "@/components/dashboard/load-error";
import { CursorPager } from "@/components/ui/cursor-pager";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationKeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<{ rotate?: string; with?: string; mint?: string; cursor?: string }>;
}) {
  const { organizationId } = await params;
  const { rotate, with: replacement, mint, cursor } = await searchParams;
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    organization: await caller.organizations.get({ organizationId }),
    keys: await caller.keys.list({ organizationId, cursor: cursor || undefined }),
    // A key that is gone or out of reach shows no rotation panel; the list says the rest.
    rotating: rotate ? await caller.keys.get({ organizationId, keyId: rotate }).catch(() => null) : null,
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, organization, keys, rotating } = loaded.data;
  const base = `/dashboard/organizations/${organizationId}/keys`;
  return (
    <>
      <KeysView
        organizationId={organizationId}
        organizationName={organization.organization.name}
        keys={keys.items}
        canManage={organization.canAdmin}
        canMintInstance={me.isInstanceOwner}
        rotating={rotating}
        newKeyId={typeof replacement === "string" ? replacement : null}
        mintScopes={
          typeof mint === "string"
            ? mint
                .split(",")
                .filter((scope) => /^[a-z_*]+:(read|write|\*)$/.test(scope))
                .slice(0, 20)
            : null
        }
      />
      <CursorPager
        label="More keys"
        className="mt-4"
        firstHref={cursor ? base : null}
        nextHref={keys.nextCursor ? `${base}?cursor=${encodeURIComponent(keys.nextCursor)}` : null}
        nextLabel="Older keys →"
        nextTestId="keys-next-page"
      />
    </>
  );
}
