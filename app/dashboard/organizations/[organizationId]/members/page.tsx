import { LoadError } from "@/components/dashboard/load-error";
import { MembersView } from "@/components/dashboard/members-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function MembersPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load(async (caller) => ({
    organization: await caller.organizations.get({ organizationId }),
    members: await caller.members.list({ organizationId }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  return <MembersView organizationId={organizationId} members={loaded.data.members} canAdmin={loaded.data.organization.canAdmin} />;
}
