import { KeysView } from "@/components/dashboard/keys/keys-view";
import { LoadError } from "@/components/dashboard/load-error";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function InstanceKeysPage({ searchParams }: { searchParams: Promise<{ rotate?: string; with?: string }> }) {
  const { rotate, with: replacement } = await searchParams;
  const loaded = await load(async (caller) => ({ me: await caller.viewer.me(), keys: await caller.keys.list({ organizationId: null }) }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, keys } = loaded.data;
  return (
    <div>
      <PageHeader
        title="Instance keys"
        description="Instance-scoped keys reach every organization and the instance surfaces (/users, /instance, creating and deleting organizations). Only instance owners mint them. The revoked keys of deleted organizations are kept here for audit."
      />
      <KeysView
        organizationId={null}
        organizationName={null}
        keys={keys}
        canManage={me.isInstanceOwner}
        canMintInstance={me.isInstanceOwner}
        rotatingKeyId={typeof rotate === "string" ? rotate : null}
        newKeyId={typeof replacement === "string" ? replacement : null}
      />
    </div>
  );
}
