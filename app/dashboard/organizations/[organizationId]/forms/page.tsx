import Link from "next/link";
import { FormsView } from "@/components/dashboard/forms/forms-view";
import { LoadError } from "@/components/dashboard/load-error";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function FormsPage({ params, searchParams }: { params: Promise<{ organizationId: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const { organizationId } = await params;
  const { cursor } = await searchParams;
  const loaded = await load(async (caller) => ({
    organization: await caller.organizations.get({ organizationId }),
    forms: await caller.forms.list({ organizationId, limit: 50, cursor: cursor || undefined }),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, forms } = loaded.data;
  return (
    <div className="space-y-3">
      <FormsView organizationId={organizationId} forms={forms.items} canManage={organization.canAdmin} />
      <nav aria-label="Form pages" className="flex justify-end gap-2 text-sm">
        {cursor ? (
          <Link href={`/dashboard/organizations/${organizationId}/forms`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
            First page
          </Link>
        ) : null}
        {forms.nextCursor ? (
          <Link
            href={`/dashboard/organizations/${organizationId}/forms?cursor=${encodeURIComponent(forms.nextCursor)}`}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50"
          >
            Next forms
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
