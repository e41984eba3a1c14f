import { LoadError } from "@/components/dashboard/load-error";
import { MembersView } from "@/components/dashboard/members-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function MembersPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { organizationId } = await params;
  const raw = (await searchParams).invitations;
  const cursor = typeof raw === "string" && raw !== "" ? raw : undefined;
  const loaded = await load(async (caller) => {
    const organization = await caller.organizations.get({ organizationId });
    return {
      organization,
      me: await caller.viewer.me(),
      members: await caller.members.list({ organizationId }),
      invitations: organization.canAdmin ? await caller.members.invitations({ organizationId, cursor }) : null,
    };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, me, members, invitations } = loaded.data;
  const base = `/dashboard/organizations/${organizationId}/members`;
  const next = invitations?.meta.next_cursor;
  return (
    <MembersView
      organizationId={organizationId}
      members={members}
      canAdmin={organization.canAdmin}
      isOwner={me.isInstanceOwner}
      invitations={invitations?.items ?? []}
      invitationsNextHref={next ? `${base}?invitations=${encodeURIComponent(next)}` : null}
      invitationsFirstHref={cursor ? base : null}
    />
  );
}
