import { LoadError } from "@/components/dashboard/load-error";
import { OrganizationsView } from "@/components/dashboard/organizations-view";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationsPage() {
  const loaded = await load(async (caller) => ({ me: await caller.viewer.me(), organizations: await caller.organizations.list() }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, organizations } = loaded.data;
  return (
    <div>
      <PageHeader
        title="Organizations"
        description={me.isInstanceOwner || me.isSupport ? "Every organization on this instance." : "The organizations you belong to."}
      />
      <OrganizationsView organizations={organizations} isOwner={me.isInstanceOwner} />
    </div>
  );
}
