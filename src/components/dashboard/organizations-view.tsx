"use client";

import { Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { errorRateText, errorSplitText, windowStartText, type HealthFigures } from "./overview/health-format";
import { TroubleLinks } from "./overview/trouble-links";

interface OrganizationRow {
  id: string;
  name: string;
  createdAt: string;
  memberCount: number;
  activeKeyCount: number;
}

export function OrganizationsView({
  organizations,
  isOwner,
  health,
  requestsSince,
  currentHourSince,
}: {
  organizations: OrganizationRow[];
  isOwner: boolean;
  /** By organization id (organizations.health's rows). */
  health: Record<string, HealthFigures>;
  requestsSince: string;
  currentHourSince: string;
}) {
  const router = useRouter();
  const [createOpen, setCreateOpen] = useState(false);
  const [deleting, setDeleting] = useState<OrganizationRow | null>(null);
  return (
    <div>
      {isOwner ? (
        <div className="mb-4 flex justify-end">
          <Button onClick={() => setCreateOpen(true)}>
            <Plus aria-hidden /> New organization
          </Button>
        </div>
      ) : null}
      {organizations.length === 0 ? (
        <EmptyState title="No organizations yet">
          {isOwner ? "Create one, then add its members and mint its API keys." : "Ask an instance owner to add you to an organization."}
        </EmptyState>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">
            Requests and error rate: API requests since {windowStartText(requestsSince, currentHourSince)}, with the current hour so far.
          </p>
          <Table aria-label="Organizations">
            <THead>
              <TR>
                <TH>Name</TH>
                <TH>Sources in trouble</TH>
                <TH>API requests, 24 h</TH>
                <TH>Error rate</TH>
                <TH>Members</TH>
                <TH>Active keys</TH>
                <TH>Created</TH>
                {isOwner ? <TH className="text-right">Actions</TH> : null}
              </TR>
            </THead>
            <TBody>
              {organizations.map((o) => (
                <TR key={o.id}>
                  <TD>
                    <Link href={`/dashboard/organizations/${o.id}/keys`} className="font-medium text-blue-800 hover:underline">
                      {o.name}
                    </Link>
                  </TD>
                  <HealthCells organization={o} health={health[o.id]} />
                  <TD>
                    <Link href={`/dashboard/organizations/${o.id}/members`} className="hover:underline">
                      {o.memberCount}
                    </Link>
                  </TD>
                  <TD>{o.activeKeyCount}</TD>
                  <TD>
                    <RelativeTime iso={o.createdAt} />
                  </TD>
                  {isOwner ? (
                    <TD className="text-right">
                      <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" aria-label={`Delete ${o.name}`} onClick={() => setDeleting(o)}>
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}
      {createOpen ? (
        <CreateOrganizationDialog onClose={() => setCreateOpen(false)} onCreated={(id) => router.push(`/dashboard/organizations/${id}/members`)} />
      ) : null}
      {deleting ? (
        <DeleteOrganizationDialog
          organization={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            router.refresh();
          }}
        />
      ) : null}
    </div>
  );
}

function HealthCells({ organization, health }: { organization: OrganizationRow; health: HealthFigures | undefined }) {
  if (!health)
    return (
      <>
        <TD />
        <TD />
        <TD />
      </>
    );
  const { requests } = health;
  return (
    <>
      <TD data-testid="org-trouble">
        <TroubleLinks organizationId={organization.id} organizationName={organization.name} sources={health.sources} />
      </TD>
      <TD data-testid="org-requests">{requests ? requests.total.toLocaleString("en") : <span className="text-slate-600">Admins only</span>}</TD>
      <TD data-testid="org-error-rate">
        {requests ? (
          <span title={errorSplitText(requests)} className={requests.errors > 0 ? "font-medium text-red-800" : ""}>
            {errorRateText(requests)}
            {requests.errors > 0 ? <span className="block text-xs font-normal whitespace-nowrap text-slate-600">{errorSplitText(requests)}</span> : null}
          </span>
        ) : (
          <span className="text-slate-600">—</span>
        )}
      </TD>
    </>
  );
}

function CreateOrganizationDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const created = await trpc.organizations.create.mutate({ name: String(new FormData(event.currentTarget).get("name") ?? "") });
      onCreated(created.id);
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="New organization">
        <form onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="org-name">Name</Label>
            <Input id="org-name" name="name" required maxLength={200} />
          </div>
          <DialogFormFooter error={error} errorTitle="Not created" submitLabel="Create organization" pending={pending} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function DeleteOrganizationDialog({ organization, onClose, onDeleted }: { organization: OrganizationRow; onClose: () => void; onDeleted: () => void }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function remove() {
    setPending(true);
    setError(null);
    try {
      await trpc.organizations.delete.mutate({ organizationId: organization.id, confirmName: typed });
      onDeleted();
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`Delete ${organization.name}?`}
        description="This deletes its forms, records, data sources and memberships for good. Its API keys are revoked at once and stay listed under Instance keys for audit."
      >
        <div className="space-y-1.5">
          <Label htmlFor="confirm-name">
            Type <strong>{organization.name}</strong> to confirm
          </Label>
          <Input id="confirm-name" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        </div>
        {error ? (
          <Alert className="mt-3" title="Not deleted" requestId={error.requestId}>
            {error.message}
          </Alert>
        ) : null}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={pending || typed !== organization.name} onClick={() => void remove()}>
            Delete organization
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
