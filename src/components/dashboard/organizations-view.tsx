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

interface OrganizationRow {
  id: string;
  name: string;
  createdAt: string;
  memberCount: number;
  activeKeyCount: number;
}

export function OrganizationsView({ organizations, isOwner }: { organizations: OrganizationRow[]; isOwner: boolean }) {
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
        <Table aria-label="Organizations">
          <THead>
            <TR>
              <TH>Name</TH>
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
      )}
      {createOpen ? <CreateOrganizationDialog onClose={() => setCreateOpen(false)} onCreated={(id) => router.push(`/dashboard/organizations/${id}/members`)} /> : null}
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
