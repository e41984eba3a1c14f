"use client";

import { Check, MailX, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
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
}

/** An organization's pending invitations, for its admins (D181). */
export function PendingInvitations({ organizationId, invitations }: { organizationId: string; invitations: PendingInvitation[] }) {
  const { error, run } = useAction();
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="pending-invitations" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="pending-invitations" className="text-sm font-semibold text-slate-900">
        Invited, waiting for the person to accept
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        Someone with an account under the email sees the invitation on their overview and can accept it. Nothing here tells whether that
        account exists.
      </p>
      {error ? (
        <Alert className="mt-3" title="That did not work" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      <ul className="mt-3 divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} data-testid="invitation-row" className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 break-all">
              <span className="font-medium text-slate-900">{invitation.email}</span>{" "}
              <span className="text-slate-500">
                as {invitation.role} · invited <RelativeTime iso={invitation.createdAt} />
              </span>
            </span>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Cancel the invitation of ${invitation.email}`}
              onClick={() => void run(() => trpc.members.cancelInvitation.mutate({ organizationId, invitationId: invitation.id }))}
            >
              <MailX aria-hidden /> Cancel
            </Button>
          </li>
        ))}
      </ul>
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
