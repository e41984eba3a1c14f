import { KeysView } from "@/components/dashboard/keys/keys-view";
import { LoadError } from "@/components/dashboard/load-error";
import { PageHeader } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

const BASE = "/dashboard/instance/keys";

export default async function InstanceKeysPage({ searchParams }: { searchParams: Promise<{ rotate?: string; with?: string; cursor?: string }> }) {
  const { rotate, with: replacement, cursor } = await searchParams;
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    keys: await caller.keys.list({ organizationId: null, cursor: cursor || undefined }),
    // A key that is gone or out of reach shows no rotation panel; the list says the rest.
    rotating: rotate ? await caller.keys.get({ organizationId: null, keyId: rotate }).catch(() => null) : null,
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, keys, rotating } = loaded.data;
  return (
    <div>
      <PageHeader
        title="Instance keys"
        description="Instance-scoped keys reach every organization and the instance surfaces (/users, /instance, creating and deleting organizations). Only instance owners mint them. The revoked keys of deleted organizations are kept here for audit."
      />
      <KeysView
        organizationId={null}
        organizationName={null}
        keys={keys.items}
        canManage={me.isInstanceOwner}
        canMintInstance={me.isInstanceOwner}
        rotating={rotating}
        newKeyId={typeof replacement === "string" ? replacement : null}
      />
      <CursorPager
        label="More keys"
        className="mt-4"
        firstHref={cursor ? BASE : null}
        nextHref={keys.nextCursor ? `${BASE}?cursor=${encodeURIComponent(keys.nextCursor)}` : null}
        nextLabel="Older keys →"
        nextTestId="keys-next-page"
      />
    </div>
  );
}
