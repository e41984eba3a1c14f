import type { ReactNode } from "react";
import { LoadError } from "@/components/dashboard/load-error";
import { OrganizationTabs } from "@/components/dashboard/organization-tabs";
import { Badge } from "@/components/ui/badge";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: ReactNode; params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load((caller) => caller.organizations.get({ organizationId }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, viewerRole } = loaded.data;
  return (
    <div>
      <div className="mb-4">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Organization</p>
        <h1 className="flex flex-wrap items-center gap-2 text-xl font-semibold text-slate-900 sm:text-2xl">
          {/* A long name without spaces wraps anywhere rather than widening the page (D511). */}
          <span className="min-w-0 wrap-anywhere">{organization.name}</span>
          <Badge>{viewerRole === "support" ? "support: read-only" : viewerRole === "owner" ? "you: instance owner" : `you: ${viewerRole}`}</Badge>
        </h1>
      </div>
      <OrganizationTabs organizationId={organization.id} showRequests={viewerRole !== "member"} />
      {children}
    </div>
  );
}
