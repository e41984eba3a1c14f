import { LoadError } from "@/components/dashboard/load-error";
import { MembersView } from "@/components/dashboard/members-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function MembersPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load(async (caller) => {
    const organization = await caller.organizations.get({ organizationId });
    return {
      organization,
      me: await caller.viewer.me(),
      members: await caller.members.list({ organizationId }),
      invitations: organization.canAdmin ? await caller.members.invitations({ organizationId }) : [],
    };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, me, members, invitations } = loaded.data;
  return <MembersView organizationId={organizationId} members={members} canAdmin={organization.canAdmin} isOwner={me.isInstanceOwner} invitations={invitations} />;
}
