import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { RecordsBrowser } from "@/components/dashboard/forms/records-browser";
import { LoadError } from "@/components/dashboard/load-error";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function FormRecordsPage({ params }: { params: Promise<{ organizationId: string; formId: string }> }) {
  const { organizationId, formId } = await params;
  const loaded = await load((caller) => caller.forms.get({ organizationId, formId }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const form = loaded.data;
  return (
    <div className="space-y-4">
      <Link href={`/dashboard/organizations/${organizationId}/forms`} className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden /> All forms
      </Link>
      <Card>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="min-w-0 text-lg font-semibold wrap-anywhere text-slate-900">{form.name}</h2>
          <code className="text-xs break-all text-slate-600" data-testid="form-id">
            {form.id}
          </code>
          <CopyButton value={form.id} label="Copy form id" />
        </div>
      </Card>
      <RecordsBrowser organizationId={organizationId} formId={formId} />
    </div>
  );
}
