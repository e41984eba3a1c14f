"use client";

import { UserMinus, UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { DeliveryNotice, PendingInvitations, type InvitationDelivery, type PendingInvitation } from "./invitations";

interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: "admin" | "member";
  since: string;
}

export function MembersView({
  organizationId,
  members,
  canAdmin,
  isOwner,
  invitations,
  invitationsNextHref,
  invitationsFirstHref,
}: {
  organizationId: string;
  members: MemberRow[];
  canAdmin: boolean;
  isOwner: boolean;
  invitations: PendingInvitation[];
  invitationsNextHref: string | null;
  invitationsFirstHref: string | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<ShownError | null>(null);
  const [removing, setRemoving] = useState<MemberRow | null>(null);

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      router.refresh();
    } catch (caught) {
      setError(describeError(caught));
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Admins manage this organization&apos;s keys and members; members have read-only access. Changes apply on the person&apos;s next request.
      </p>
      {canAdmin ? <AddMemberForm organizationId={organizationId} isOwner={isOwner} onAdded={() => router.refresh()} /> : null}
      {canAdmin ? (
        <PendingInvitations organizationId={organizationId} invitations={invitations} nextHref={invitationsNextHref} firstHref={invitationsFirstHref} />
      ) : null}
      {error ? (
        <Alert title="That did not work" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {members.length === 0 ? (
        <EmptyState title="No members yet">
          {canAdmin
            ? isOwner
              ? "Add an existing account by its email above. Instance owners create accounts on the Users page."
              : "Invite people by email above: each gets a one-time link and becomes a member on accepting it."
            : "Nobody belongs to this organization yet."}
        </EmptyState>
      ) : (
        <Table aria-label="Members">
          <THead>
            <TR>
              <TH>Member</TH>
              <TH>Role</TH>
              <TH className="hidden sm:table-cell">Since</TH>
              {canAdmin ? (
                <TH className="text-right">
                  <span className="sr-only sm:not-sr-only">Actions</span>
                </TH>
              ) : null}
            </TR>
          </THead>
          <TBody>
            {members.map((m) => (
              <TR key={m.userId} data-testid="member-row">
                <TD>
                  <p className="font-medium text-slate-900">{m.name ?? m.email}</p>
                  {m.name ? <p className="text-xs break-all text-slate-500">{m.email}</p> : null}
                </TD>
                <TD>
                  {canAdmin ? (
                    <Select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      className="w-28"
                      onChange={(event) =>
                        void run(() =>
                          trpc.members.setRole.mutate({ organizationId, userId: m.userId, role: event.target.value === "admin" ? "admin" : "member" }),
                        )
                      }
                    >
                      <option value="admin">admin</option>
                      <option value="member">member</option>
                    </Select>
                  ) : (
                    m.role
                  )}
                </TD>
                <TD className="hidden sm:table-cell">
                  <RelativeTime iso={m.since} />
                </TD>
                {canAdmin ? (
                  <TD className="text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-700 hover:bg-red-50"
                      aria-label={`Remove ${m.email}`}
                      title="Remove from this organization"
                      onClick={() => setRemoving(m)}
                    >
                      <UserMinus aria-hidden />
                      <span className="hidden sm:inline">Remove</span>
                    </Button>
                  </TD>
                ) : null}
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      {removing ? (
        <Dialog open onOpenChange={(open) => !open && setRemoving(null)}>
          <DialogContent title={`Remove ${removing.email}?`} description="They lose access to this organization on their next request. Their account stays.">
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => setRemoving(null)}>
                Cancel
              </Button>
              <Button
                variant="destructive"
                onClick={() => {
                  const target = removing;
                  setRemoving(null);
                  void run(() => trpc.members.remove.mutate({ organizationId, userId: target.userId }));
                }}
              >
                Remove member
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      ) : null}
    </div>
  );
}

/**
 * Instance owners attach an existing account; an organization admin invites an email, and the
 * answer is the same whether an account has it or not (D181).
 */
function AddMemberForm({ organizationId, isOwner, onAdded }: { organizationId: string; isOwner: boolean; onAdded: () => void }) {
  const [error, setError] = useState<ShownError | null>(null);
  const [invited, setInvited] = useState<{ email: string; delivery: InvitationDelivery } | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPending(true);
    setError(null);
    setInvited(null);
    try {
      const result = await trpc.members.add.mutate({
        organizationId,
        email: String(form.get("email") ?? ""),
        role: form.get("role") === "admin" ? "admin" : "member",
      });
      setInvited(result.kind === "invited" ? { email: result.invitation.email, delivery: result.delivery } : null);
      formElement.reset();
      onAdded();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Add a member">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1.5">
          <Label htmlFor="member-email">{isOwner ? "Email of an existing account" : "Email to invite"}</Label>
          <Input id="member-email" name="email" type="email" required placeholder="person@example.com" />
        </div>
        <div className="space-y-1.5 sm:w-36">
          <Label htmlFor="member-role">Role</Label>
          <Select id="member-role" name="role" defaultValue="member">
            <option value="member">member</option>
            <option value="admin">admin</option>
          </Select>
        </div>
        <Button type="submit" disabled={pending}>
          <UserPlus aria-hidden /> {isOwner ? "Add member" : "Invite"}
        </Button>
      </div>
      {invited ? <DeliveryNotice email={invited.email} delivery={invited.delivery} onClose={() => setInvited(null)} /> : null}
      {error ? (
        <Alert className="mt-3" title="Not added" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
    </form>
  );
}
