"use client";

import { Check, MailX, Send, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CursorPager } from "@/components/ui/cursor-pager";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { OneTimeSecret, useOneTimeSecret } from "@/components/ui/one-time-secret";
import { RelativeTime } from "@/components/ui/relative-time";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

function useAction() {
  const router = useRouter();
  const [error, setError] = useState<ShownError | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      router.refresh();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  return { error, run };
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: "admin" | "member";
  createdAt: string;
  sentAt: string | null;
  expiresAt: string | null;
  state: "pending" | "expired";
}

export type InvitationDelivery = { kind: "mailed" } | { kind: "link"; link: string; reason: "no_relay" | "mail_failed"; failure: string | null };

/** What became of a link just issued: mailed (said in a status line), or shown once in a dialog (D476). */
export function DeliveryNotice({ email, delivery, onClose }: { email: string; delivery: InvitationDelivery; onClose: () => void }) {
  if (delivery.kind === "mailed") {
    return (
      <Alert className="mt-3" tone="success" title="Invitation sent">
        A one-time link is on its way to {email}. It works once and expires in 7 days; the person sets a password, or signs in if they already have an account,
        and joins.
      </Alert>
    );
  }
  return <LinkDialog email={email} delivery={delivery} onClose={onClose} />;
}

/** The link shown once, guarded: closing it unsaved asks first (D520). */
function LinkDialog({ email, delivery, onClose }: { email: string; delivery: Extract<InvitationDelivery, { kind: "link" }>; onClose: () => void }) {
  const guard = useOneTimeSecret(delivery.link, onClose);
  return (
    <Dialog open onOpenChange={(open) => !open && guard.requestClose()}>
      <DialogContent
        onEscapeKeyDown={guard.onEscapeKeyDown}
        title={`Pass this link on to ${email}`}
        description={
          delivery.reason === "no_relay"
            ? "No mail relay is configured on this instance (GROUNDWORK_SMTP_URL), so the invitation was not mailed."
            : `The invitation could not be mailed: ${delivery.failure ?? "the mail relay could not take the message"}.`
        }
      >
        <div className="space-y-3">
          <OneTimeSecret guard={guard} value={delivery.link} noun="link" testId="invitation-link" warningTitle="Copy this link now">
            It is shown only this once and works once, for 7 days. Groundwork keeps only its hash. Whoever opens it can join as {email}: send it to that person
            only.
          </OneTimeSecret>
          <div className="flex justify-end">
            <Button onClick={onClose}>I have copied it</Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** An organization's pending invitations, for its admins (D181, D471): resend (a new link) or revoke. */
export function PendingInvitations({
  organizationId,
  invitations,
  nextHref,
  firstHref,
}: {
  organizationId: string;
  invitations: PendingInvitation[];
  nextHref: string | null;
  firstHref: string | null;
}) {
  const { error, run } = useAction();
  const [issued, setIssued] = useState<{ email: string; delivery: InvitationDelivery } | null>(null);
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  if (invitations.length === 0 && !firstHref) return null;
  return (
    <section aria-labelledby="pending-invitations" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="pending-invitations" className="text-sm font-semibold text-slate-900">
        Pending invitations
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        Each link works once, for 7 days. Resending makes a new link and the old one stops working. Nothing here tells whether an account has the email.
      </p>
      {error ? (
        <Alert className="mt-3" title="That did not work" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {issued ? <DeliveryNotice email={issued.email} delivery={issued.delivery} onClose={() => setIssued(null)} /> : null}
      <ul className="mt-3 divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} data-testid="invitation-row" className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 [overflow-wrap:anywhere]">
              <span className="font-medium text-slate-900">{invitation.email}</span>{" "}
              {invitation.state === "expired" ? <Badge tone="amber">expired</Badge> : <Badge tone="blue">pending</Badge>}{" "}
              <span className="text-slate-600">
                as {invitation.role} ·{" "}
                {invitation.sentAt ? (
                  <>
                    sent <RelativeTime iso={invitation.sentAt} />
                  </>
                ) : (
                  <>
                    invited <RelativeTime iso={invitation.createdAt} />
                  </>
                )}
                {invitation.expiresAt && invitation.state === "pending" ? (
                  <>
                    {" "}
                    · expires <RelativeTime iso={invitation.expiresAt} />
                  </>
                ) : null}
              </span>
            </span>
            <span className="flex gap-1">
              <Button
                variant="outline"
                size="sm"
                aria-label={`Resend the invitation of ${invitation.email}`}
                onClick={() =>
                  void run(async () => {
                    const result = await trpc.members.resendInvitation.mutate({ organizationId, invitationId: invitation.id });
                    setIssued({ email: result.invitation.email, delivery: result.delivery });
                  })
                }
              >
                <Send aria-hidden /> Resend
              </Button>
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700 hover:bg-red-50"
                aria-label={`Revoke the invitation of ${invitation.email}`}
                onClick={() => setRevoking(invitation)}
              >
                <MailX aria-hidden /> Revoke
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <CursorPager label="More invitations" firstHref={firstHref} nextHref={nextHref} nextLabel="Next invitations →" className="mt-2" />
      {revoking ? (
        <Dialog open onOpenChange={(open) => !open && setRevoking(null)}>
          <DialogContent
            title={`Revoke the invitation of ${revoking.email}?`}
            description="Its link stops working at once. You can invite the email again later."
          >
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => setRevoking(null)}>
                Keep it
              </Button>
              <Button
                variant="destructive"
                onClick={() => {
                  const target = revoking;
                  setRevoking(null);
                  void run(() => trpc.members.cancelInvitation.mutate({ organizationId, invitationId: target.id }));
                }}
              >
                Revoke invitation
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      ) : null}
    </section>
  );
}

export interface MyInvitation {
  id: string;
  organizationName: string;
  role: "admin" | "member";
  createdAt: string;
}

/** Invitations waiting for the signed-in person, on the overview (D181). */
export function MyInvitations({ invitations }: { invitations: MyInvitation[] }) {
  const { error, run } = useAction();
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="my-invitations" className="mb-6 rounded-lg border border-blue-200 bg-blue-50 p-4">
      <h2 id="my-invitations" className="text-sm font-semibold text-blue-950">
        You are invited
      </h2>
      {error ? (
        <Alert className="mt-3" title="That did not work" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      <ul className="mt-2 space-y-2">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>
              Join <strong>{invitation.organizationName}</strong> as {invitation.role}
            </span>
            <span className="flex gap-2">
              <Button size="sm" onClick={() => void run(() => trpc.viewer.acceptInvitation.mutate({ invitationId: invitation.id }))}>
                <Check aria-hidden /> Accept
              </Button>
              <Button size="sm" variant="outline" onClick={() => void run(() => trpc.viewer.declineInvitation.mutate({ invitationId: invitation.id }))}>
                <X aria-hidden /> Decline
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
